//! Tier 1: random frames checked against a model of snapshot semantics, by reading back on the
//! noop device (it executes copies) what every recorded operation would see.
#![allow(missing_docs, clippy::unwrap_used)]

mod common;

use common::{noop_engine, read_buffer, submit_empty};
use vgpu_uniforms::{AddressSpace, BufferKey, EngineConfig, OwnerKey, SlotRef};

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

#[test]
fn random_frames_every_operation_sees_its_snapshot() {
    let config = EngineConfig {
        page_size: 2048,
        max_extra_slots: 2,
        retain_submissions: 3,
        idle_page_budget: 1,
    };
    let (ctx, mut engine) = noop_engine(config);
    let mut rng = Rng(0x5EED_0005);
    let sizes = [16usize, 64, 80, 300];
    let mut owners: Vec<ModelOwner> = (0..12)
        .map(|i| {
            let space = if i % 6 == 5 {
                AddressSpace::Storage
            } else {
                AddressSpace::Uniform
            };
            let len = sizes[i % sizes.len()];
            let key = engine.create_owner(&format!("o{i}"), space);
            ModelOwner { key, space, len }
        })
        .collect();
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
        if rng.below(10) == 0 {
            engine.cancel_submission();
            continue;
        }
        engine.finish_submission().unwrap();
        submit_empty(&ctx);
        // Storage owners are live: their operations see the latest bytes (if still alive).
        let mut pages = std::collections::HashMap::new();
        for (slot, key, expected) in &ops {
            if matches!(slot.buffer, BufferKey::Storage(_)) && engine.buffer(slot.buffer).is_none()
            {
                continue; // a removed storage owner: its buffer went with it
            }
            let bytes = pages
                .entry(slot.buffer)
                .or_insert_with(|| read_buffer(&ctx, engine.buffer(slot.buffer).unwrap()));
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
        engine.drain_released().for_each(drop);
    }
    assert_eq!(ctx.take_uncaptured_errors(), vec![]);
}
