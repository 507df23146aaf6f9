//! Tier 1: random frames checked against a model of snapshot semantics, by reading back on the
//! noop device (it executes copies) what every recorded operation would see.
#![allow(
    missing_docs,
    clippy::unwrap_used,
    reason = "an unwrap in a test is an assertion; test items need no docs"
)]

use std::collections::HashMap;

use crate::common::{noop_engine, read_buffer, submit_empty};
use vgpu_uniforms::{AddressSpace, BufferKey, EngineConfig, OwnerKey, SlotRef, UniformEngine};

/// splitmix64: deterministic and dependency-free.
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

struct ModelOwner {
    key: OwnerKey,
    space: AddressSpace,
    len: usize,
}

fn value(len: usize, tag: u64) -> Vec<u8> {
    (0..len).map(|i| (tag as usize * 31 + i) as u8).collect()
}

/// Small pages and few retained slots, so pages and slots churn.
fn model_config() -> EngineConfig {
    EngineConfig {
        page_size: 2048,
        max_extra_slots: 2,
        retain_submissions: 3,
        idle_page_budget: 1,
    }
}

/// Twelve owners of four sizes, two of them storage; set once if `set`.
fn model_owners(engine: &mut UniformEngine, set: bool) -> Vec<ModelOwner> {
    let sizes = [16usize, 64, 80, 300];
    (0..12)
        .map(|i| {
            let space = if i % 6 == 5 {
                AddressSpace::Storage
            } else {
                AddressSpace::Uniform
            };
            let len = sizes[i % sizes.len()];
            let key = engine.create_owner(&format!("o{i}"), space);
            if set {
                engine.set_bytes(key, &value(len, 0)).unwrap();
            }
            ModelOwner { key, space, len }
        })
        .collect()
}

/// Cancels one frame in ten; otherwise finishes and submits it, then checks it.
fn end_frame(
    ctx: &vgpu_core::GpuContext,
    engine: &mut UniformEngine,
    rng: &mut Rng,
    ops: &[(SlotRef, OwnerKey, Vec<u8>)],
    frame: u64,
) {
    if rng.below(10) == 0 {
        engine.cancel_submission();
        return;
    }
    engine.finish_submission().unwrap();
    submit_empty(ctx);
    check_frame(ctx, engine, ops, frame);
    engine.drain_released().for_each(drop);
}

/// After the frame's submission: every operation's slot holds what it saw when recorded (page
/// slots), or the owner's latest bytes (storage owners are live; removed ones are skipped).
fn check_frame(
    ctx: &vgpu_core::GpuContext,
    engine: &UniformEngine,
    ops: &[(SlotRef, OwnerKey, Vec<u8>)],
    frame: u64,
) {
    let mut pages = HashMap::new();
    for (slot, key, expected) in ops {
        let Some(buffer) = engine.buffer(slot.buffer) else {
            assert!(
                matches!(slot.buffer, BufferKey::Storage(_)),
                "frame {frame}: page gone"
            );
            continue; // a removed storage owner: its buffer went with it
        };
        let bytes = pages
            .entry(slot.buffer)
            .or_insert_with(|| read_buffer(ctx, buffer));
        let at = slot.offset as usize;
        let seen = &bytes[at..at + expected.len()];
        match slot.buffer {
            BufferKey::Page(_) => {
                assert_eq!(seen, &expected[..], "frame {frame}: snapshot broken");
            }
            BufferKey::Storage(_) => {
                if let Some(latest) = engine.bytes(*key) {
                    assert_eq!(seen, latest, "frame {frame}: storage not live");
                }
            }
        }
    }
}

#[test]
fn random_frames_every_operation_sees_its_snapshot() {
    let (ctx, mut engine) = noop_engine(model_config());
    let mut rng = Rng(0x5EED_0005);
    let mut owners = model_owners(&mut engine, false);
    for frame in 0..400u64 {
        engine.begin_submission().unwrap();
        // (slot, expected bytes) of every operation recorded in this frame.
        let mut ops: Vec<(SlotRef, OwnerKey, Vec<u8>)> = Vec::new();
        let ops_count = 1 + rng.below(30);
        for _ in 0..ops_count {
            let o = &owners[rng.below(owners.len() as u64) as usize];
            if rng.below(3) == 0 || engine.revision(o.key) == Some(0) {
                // Palette of 4 values so retained slots get hits.
                let v = value(o.len, rng.below(4));
                engine.set_bytes(o.key, &v).unwrap();
            }
            let slot = engine.resolve(o.key).unwrap();
            ops.push((slot, o.key, engine.bytes(o.key).unwrap().to_vec()));
        }
        // Sets after the last bind must not leak into this frame's operations.
        for o in &owners {
            if rng.below(8) == 0 && engine.revision(o.key) != Some(0) {
                engine
                    .set_bytes(o.key, &value(o.len, rng.below(4)))
                    .unwrap();
            }
        }
        // Occasionally replace an owner mid-frame.
        if rng.below(20) == 0 {
            let i = rng.below(owners.len() as u64) as usize;
            engine.remove_owner(owners[i].key).unwrap();
            owners[i].key = engine.create_owner("replacement", owners[i].space);
        }
        end_frame(&ctx, &mut engine, &mut rng, &ops, frame);
    }
    assert_eq!(ctx.take_uncaptured_errors(), vec![]);
}

/// The stamp contract (`UniformEngine::stamps`, `memos_in_use`): operations that bind a memoized
/// slot without resolving, while the owner's stamp holds, see exactly what resolving operations
/// see. Memos are kept across frames, keyed by stamp index (a removed owner's index is reused by
/// its replacement, whose stamp must differ), and used only after `memos_in_use` in the frame.
#[test]
fn random_frames_with_memoized_slots_every_operation_sees_its_snapshot() {
    let (ctx, mut engine) = noop_engine(model_config());
    let mut rng = Rng(0x5EED_0042);
    let mut owners = model_owners(&mut engine, true);
    // Stamp index -> (stamp, slot) taken right after a resolve.
    let mut memos: HashMap<usize, (u64, SlotRef)> = Default::default();
    let stamp = |engine: &UniformEngine, key: OwnerKey| {
        engine.stamps()[engine.stamp_slot(key).unwrap() as usize]
    };
    let (mut memo_ops, mut resolved_ops) = (0u32, 0u32);
    for frame in 0..600u64 {
        engine.begin_submission().unwrap();
        let mut ops: Vec<(SlotRef, OwnerKey, Vec<u8>)> = Vec::new();
        let ops_count = 1 + rng.below(30);
        // Memos may be used from this operation on (never, in some frames).
        let memos_from = rng.below(ops_count + 2);
        for n in 0..ops_count {
            if n == memos_from {
                engine.memos_in_use();
            }
            let o = &owners[rng.below(owners.len() as u64) as usize];
            if rng.below(4) == 0 {
                let v = value(o.len, rng.below(4));
                engine.set_bytes(o.key, &v).unwrap();
            }
            let idx = engine.stamp_slot(o.key).unwrap() as usize;
            let memo = memos
                .get(&idx)
                .filter(|(s, _)| n >= memos_from && *s == stamp(&engine, o.key));
            let slot = match memo {
                Some((_, slot)) => {
                    memo_ops += 1;
                    *slot
                }
                None => {
                    resolved_ops += 1;
                    let slot = engine.resolve(o.key).unwrap();
                    memos.insert(idx, (stamp(&engine, o.key), slot));
                    slot
                }
            };
            ops.push((slot, o.key, engine.bytes(o.key).unwrap().to_vec()));
            // Occasionally replace an owner mid-frame: its slots must stay reserved for the
            // operations that bound them, memoized or not.
            if rng.below(40) == 0 {
                let i = rng.below(owners.len() as u64) as usize;
                engine.remove_owner(owners[i].key).unwrap();
                owners[i].key = engine.create_owner("replacement", owners[i].space);
                engine
                    .set_bytes(owners[i].key, &value(owners[i].len, 2 + rng.below(2)))
                    .unwrap();
            }
        }
        for o in &owners {
            if rng.below(8) == 0 {
                engine
                    .set_bytes(o.key, &value(o.len, rng.below(4)))
                    .unwrap();
            }
        }
        end_frame(&ctx, &mut engine, &mut rng, &ops, frame);
    }
    assert_eq!(ctx.take_uncaptured_errors(), vec![]);
    // Both paths were exercised, and memos carried most operations.
    assert!(memo_ops > 2_000, "memoized operations: {memo_ops}");
    assert!(resolved_ops > 500, "resolved operations: {resolved_ops}");
}

/// What an operation of the pin model expects to read once its submission is done.
enum Expect {
    /// Its snapshot.
    Bytes(Vec<u8>),
    /// A replay of a bundle pinned to the owner: the home's last bytes while it was live.
    Live,
}

/// Pins mid-frame (as recording a render bundle between passes does), bundle replays that read
/// the live home, and unpins, mixed with memoized and resolved operations: ordinary operations
/// keep their snapshots, replays see the value at the end of the submission (or at the unpin).
#[test]
fn random_frames_with_pins_replays_and_memos_every_operation_sees_its_value() {
    let (ctx, mut engine) = noop_engine(model_config());
    let mut rng = Rng(0x5EED_0077);
    let mut owners = model_owners(&mut engine, true);
    let mut memos: HashMap<usize, (u64, SlotRef)> = Default::default();
    // Active pins: (owner index, owner, the slot the bundle recorded).
    let mut pins: Vec<(usize, OwnerKey, SlotRef)> = Vec::new();
    let (mut replays, mut pinned_now) = (0u32, 0u32);
    for frame in 0..600u64 {
        engine.begin_submission().unwrap();
        let mut ops: Vec<(SlotRef, OwnerKey, Expect)> = Vec::new();
        // Homes that stopped being live in this frame (the owner's last pin went), and the bytes
        // they kept.
        let mut frozen: HashMap<(OwnerKey, SlotRef), Vec<u8>> = Default::default();
        let ops_count = 1 + rng.below(30);
        let memos_from = rng.below(ops_count + 2);
        for n in 0..ops_count {
            if n == memos_from {
                engine.memos_in_use();
            }
            let i = rng.below(owners.len() as u64) as usize;
            let o = &owners[i];
            if rng.below(4) == 0 {
                let v = value(o.len, rng.below(4));
                engine.set_bytes(o.key, &v).unwrap();
            }
            match rng.below(10) {
                0 => {
                    // Record a bundle: pin.
                    let slot = engine.pin(o.key).unwrap();
                    pins.push((i, o.key, slot));
                    pinned_now += 1;
                }
                1 if !pins.is_empty() => {
                    // Replay a bundle.
                    let p = rng.below(pins.len() as u64) as usize;
                    ops.push((pins[p].2, pins[p].1, Expect::Live));
                    replays += 1;
                }
                2 if !pins.is_empty() => {
                    // Drop a bundle: unpin. The owner's last pin going ends its home's live
                    // bytes: replays in this frame read the bytes of now.
                    let p = rng.below(pins.len() as u64) as usize;
                    let (_, key, slot) = pins.swap_remove(p);
                    engine.unpin(key).unwrap();
                    if pins.iter().all(|q| q.1 != key) {
                        frozen.insert((key, slot), engine.bytes(key).unwrap().to_vec());
                    }
                }
                _ => {
                    let slot =
                        memoized_or_resolved(&mut engine, &mut memos, o.key, n >= memos_from);
                    let bytes = engine.bytes(o.key).unwrap().to_vec();
                    ops.push((slot, o.key, Expect::Bytes(bytes)));
                }
            }
            replace_one_unpinned_sometimes(&mut engine, &mut rng, &mut owners, &pins);
        }
        for o in &owners {
            if rng.below(8) == 0 {
                engine
                    .set_bytes(o.key, &value(o.len, rng.below(4)))
                    .unwrap();
            }
        }
        let ops = expected_bytes(&engine, ops, &frozen);
        end_frame(&ctx, &mut engine, &mut rng, &ops, frame);
    }
    assert_eq!(ctx.take_uncaptured_errors(), vec![]);
    assert!(replays > 300, "replays: {replays}");
    assert!(pinned_now > 300, "pins: {pinned_now}");
}

/// The slot an operation of the pin model binds: the memoized one while `memo_usable` (memos are
/// in use in the frame) and its stamp holds, else a resolve, whose slot is memoized under the
/// stamp read right after it.
fn memoized_or_resolved(
    engine: &mut UniformEngine,
    memos: &mut HashMap<usize, (u64, SlotRef)>,
    key: OwnerKey,
    memo_usable: bool,
) -> SlotRef {
    let idx = engine.stamp_slot(key).unwrap() as usize;
    let stamp = engine.stamps()[idx];
    let memo = memos.get(&idx).filter(|(s, _)| memo_usable && *s == stamp);
    match memo {
        Some((_, slot)) => *slot,
        None => {
            let slot = engine.resolve(key).unwrap();
            memos.insert(idx, (engine.stamps()[idx], slot));
            slot
        }
    }
}

/// One operation in 40: replaces an owner no bundle pins (mid-frame).
fn replace_one_unpinned_sometimes(
    engine: &mut UniformEngine,
    rng: &mut Rng,
    owners: &mut [ModelOwner],
    pins: &[(usize, OwnerKey, SlotRef)],
) {
    if rng.below(40) == 0 {
        let r = rng.below(owners.len() as u64) as usize;
        if pins.iter().all(|p| p.0 != r) {
            engine.remove_owner(owners[r].key).unwrap();
            owners[r].key = engine.create_owner("replacement", owners[r].space);
            engine
                .set_bytes(owners[r].key, &value(owners[r].len, 2 + rng.below(2)))
                .unwrap();
        }
    }
}

/// The bytes each operation of the pin model must read: its snapshot; for a live replay, the
/// latest bytes (those of the frame's end), or the bytes of the unpin if its bundle was dropped
/// in this frame (`frozen`).
fn expected_bytes(
    engine: &UniformEngine,
    ops: Vec<(SlotRef, OwnerKey, Expect)>,
    frozen: &HashMap<(OwnerKey, SlotRef), Vec<u8>>,
) -> Vec<(SlotRef, OwnerKey, Vec<u8>)> {
    ops.into_iter()
        .map(|(slot, key, expect)| {
            let bytes = match expect {
                Expect::Bytes(b) => b,
                Expect::Live => match frozen.get(&(key, slot)) {
                    Some(b) => b.clone(),
                    None => engine.bytes(key).unwrap().to_vec(),
                },
            };
            (slot, key, bytes)
        })
        .collect()
}
