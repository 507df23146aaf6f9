//! Tier 1: 100 000 random frames (set / skip / cull / cancel / replace) on the noop device keep
//! live slots and pages under the documented bounds.
#![allow(
    missing_docs,
    clippy::unwrap_used,
    reason = "an unwrap in a test is an assertion; test items need no docs"
)]

use vgpu_core::GpuContext;
use vgpu_uniforms::{AddressSpace, EngineConfig, OwnerKey, UniformEngine};

use crate::common::{noop_engine, snap};

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

const FRAMES: u64 = 100_000;
const UNIFORM_OWNERS: usize = 16;
const MAX_PASSES: u64 = 3;
/// Values an owner takes: per submission, an owner gets at most one slot per distinct value bound
/// in it, so at most 6 slots (home + 5) during a submission, 1 + max_extra after it.
const PALETTE: u64 = 6;

#[test]
fn hundred_thousand_random_frames_stay_within_bounds() {
    let config = EngineConfig {
        page_size: 1024,
        max_extra_slots: 2,
        retain_submissions: 4,
        idle_page_budget: 1,
    };
    let (ctx, mut engine) = noop_engine(config);
    // Two size classes (64 → 256-byte slots, 300 → 512-byte slots on the default alignment).
    let sizes = [64usize, 300];
    let mut owners: Vec<(OwnerKey, usize)> = (0..UNIFORM_OWNERS)
        .map(|i| {
            let len = sizes[i % 2];
            let k = engine.create_owner("random", AddressSpace::Uniform);
            engine.set_bytes(k, &vec![0; len]).unwrap();
            (k, len)
        })
        .collect();
    let storage = engine.create_owner("instances", AddressSpace::Storage);
    engine.set_bytes(storage, &[0u8; 64]).unwrap();
    let mut bytes = vec![0u8; 300];
    let mut rng = Rng(0xB0_0D5);
    let per_class_owners = UNIFORM_OWNERS / 2;
    let during = per_class_owners * PALETTE as usize;
    let after = UNIFORM_OWNERS * (1 + config.max_extra_slots);
    let mut max_live_after = 0;
    for frame in 0..FRAMES {
        engine.begin_submission().unwrap();
        let passes = 1 + rng.below(MAX_PASSES);
        for _ in 0..passes {
            random_pass(&mut engine, &owners, storage, &mut bytes, &mut rng);
        }
        // Mid-submission bound: per class, live slots ≤ owners × palette.
        let g = engine.gauges();
        assert!(g.live_slots <= 2 * during, "frame {frame}: {g:?}");
        if rng.below(500) == 0 {
            let i = rng.below(owners.len() as u64) as usize;
            engine.remove_owner(owners[i].0).unwrap();
            let k = engine.create_owner("replacement", AddressSpace::Uniform);
            engine.set_bytes(k, &vec![1; owners[i].1]).unwrap();
            owners[i].0 = k;
        }
        if rng.below(50) == 0 {
            engine.cancel_submission();
        } else {
            engine.finish_submission().unwrap();
        }
        engine.drain_released().for_each(drop);
        let live = check_bounds_after(&engine, config, frame, during, after);
        max_live_after = max_live_after.max(live);
    }
    assert!(max_live_after > UNIFORM_OWNERS, "extras were exercised");
    quiet_frames_reclaim_and_cost_nothing(&ctx, &mut engine, &owners, config);
}

/// One pass of a random frame: each uniform owner is set from the palette, culled or bound as
/// it is; the storage owner is sometimes set, and always bound.
fn random_pass(
    engine: &mut UniformEngine,
    owners: &[(OwnerKey, usize)],
    storage: OwnerKey,
    bytes: &mut [u8],
    rng: &mut Rng,
) {
    for &(k, len) in owners {
        match rng.below(8) {
            // set from the palette
            0..=2 => {
                bytes[..len].fill(rng.below(PALETTE) as u8);
                engine.set_bytes(k, &bytes[..len]).unwrap();
            }
            // culled this pass
            3 => continue,
            _ => {}
        }
        let slot = engine.resolve(k).unwrap();
        assert_eq!(slot.offset % engine.slot_alignment(), 0);
    }
    if rng.below(4) == 0 {
        bytes[..64].fill(rng.below(256) as u8);
        engine.set_bytes(storage, &bytes[..64]).unwrap();
    }
    engine.resolve(storage).unwrap();
}

/// The bounds once a submission has ended: live and retained slots, owners, storage buffers,
/// and pages per class ≤ ⌈peak live slots of the class / slots per page⌉. Returns the live
/// slots.
fn check_bounds_after(
    engine: &UniformEngine,
    config: EngineConfig,
    frame: u64,
    during: usize,
    after: usize,
) -> usize {
    let g = engine.gauges();
    assert!(g.live_slots <= after, "frame {frame}: {g:?}");
    assert!(
        g.retained_slots <= UNIFORM_OWNERS * config.max_extra_slots,
        "frame {frame}: {g:?}"
    );
    assert_eq!(g.owners, UNIFORM_OWNERS + 1);
    assert_eq!(g.storage_buffers, 1);
    for (slot_size, pages) in engine.pages_per_class() {
        let per_page = (config.page_size / u64::from(slot_size)).max(1) as usize;
        assert!(
            pages <= during.div_ceil(per_page),
            "frame {frame}: {pages} pages of {slot_size}-byte slots"
        );
    }
    g.live_slots
}

/// Quiet phase: one value per owner per frame. Extras are reclaimed after
/// `retain_submissions`, empty pages shrink to the idle budget, and a steady frame after all
/// that is free.
fn quiet_frames_reclaim_and_cost_nothing(
    ctx: &GpuContext,
    engine: &mut UniformEngine,
    owners: &[(OwnerKey, usize)],
    config: EngineConfig,
) {
    for _ in 0..config.retain_submissions + 2 {
        engine.begin_submission().unwrap();
        for &(k, _) in owners {
            engine.resolve(k).unwrap();
        }
        engine.finish_submission().unwrap();
    }
    let g = engine.gauges();
    assert_eq!(g.retained_slots, 0);
    assert_eq!(g.live_slots, UNIFORM_OWNERS);
    assert!(g.empty_pages <= config.idle_page_budget, "{g:?}");
    assert!(g.pages - g.empty_pages <= g.live_slots, "{g:?}");
    let before = snap(ctx);
    engine.begin_submission().unwrap();
    for &(k, _) in owners {
        engine.resolve(k).unwrap();
    }
    engine.finish_submission().unwrap();
    let d = snap(ctx) - before;
    assert_eq!(
        (d.write_calls, d.bytes_uploaded, d.pages_created),
        (0, 0, 0)
    );
    assert_eq!(ctx.take_uncaptured_errors(), vec![]);
}
