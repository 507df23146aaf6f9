//! Tier 1 (noop device): owners read live rather than captured. A storage owner's buffer is
//! written once per submission with its latest bytes; a pinned owner's home slot follows every
//! set while the operations of a frame still get snapshots.
#![allow(
    missing_docs,
    clippy::unwrap_used,
    reason = "an unwrap in a test is an assertion; test items need no docs"
)]

use crate::common::{frame, mat, noop_engine, read_slot, snap, submit_empty};
use vgpu_uniforms::{AddressSpace, BufferKey, EngineConfig};

#[test]
fn storage_owners_are_live_and_written_once_per_submission() {
    let (ctx, mut engine) = noop_engine(EngineConfig::default());
    let s = engine.create_owner("instances", AddressSpace::Storage);
    let before = snap(&ctx);
    engine.set_bytes(s, &[1u8; 40]).unwrap();
    assert_eq!((snap(&ctx) - before).buffers_created, 1);
    engine.begin_submission().unwrap();
    let r = engine.resolve(s).unwrap();
    assert!(matches!(r.buffer, BufferKey::Storage(_)));
    assert_eq!(r.offset, 0);
    engine.set_bytes(s, &[2u8; 40]).unwrap();
    engine.set_bytes(s, &[3u8; 40]).unwrap();
    assert_eq!(engine.resolve(s).unwrap(), r);
    let before = snap(&ctx);
    engine.finish_submission().unwrap();
    let d = snap(&ctx) - before;
    assert_eq!(d.write_calls, 1);
    assert_eq!(d.bytes_uploaded, 40);
    assert_eq!(d.slots_captured, 0);
    submit_empty(&ctx);
    assert_eq!(read_slot(&ctx, &engine, r, 40), vec![3u8; 40]);
    assert_eq!(engine.binding_size(s).unwrap().get(), 40);
    // Unchanged: nothing to write.
    let before = snap(&ctx);
    frame(&mut engine, s, &[], &[]);
    engine.begin_submission().unwrap();
    engine.resolve(s).unwrap();
    engine.finish_submission().unwrap();
    assert_eq!((snap(&ctx) - before).write_calls, 0);
    // Sizes that are not a multiple of 4 are padded on the device side.
    let odd = engine.create_owner("odd", AddressSpace::Storage);
    engine.set_bytes(odd, &[7u8; 6]).unwrap();
    assert_eq!(engine.binding_size(odd).unwrap().get(), 8);
    engine.begin_submission().unwrap();
    let r = engine.resolve(odd).unwrap();
    engine.finish_submission().unwrap();
    submit_empty(&ctx);
    assert_eq!(read_slot(&ctx, &engine, r, 6), vec![7u8; 6]);
    // Removing a storage owner releases its buffer.
    let BufferKey::Storage(sk) = r.buffer else {
        unreachable!()
    };
    engine.remove_owner(odd).unwrap();
    assert!(engine.storage_buffer(sk).is_none());
    assert_eq!(
        engine.drain_released().collect::<Vec<_>>(),
        vec![BufferKey::Storage(sk)]
    );
}

#[test]
fn pinned_owner_home_is_live_and_operations_still_get_snapshots() {
    let (ctx, mut engine) = noop_engine(EngineConfig::default());
    let k = engine.create_owner("bundle camera", AddressSpace::Uniform);
    engine.set_bytes(k, &mat(1.0)).unwrap();
    let home = engine.pin(k).unwrap();
    assert!(engine.is_pinned(k));
    engine.begin_submission().unwrap();
    // Operations recorded in a frame see snapshots, never the live home slot.
    let first = engine.resolve(k).unwrap();
    assert_ne!(first, home, "a pinned owner's frame operations capture");
    engine.set_bytes(k, &mat(2.0)).unwrap();
    let second = engine.resolve(k).unwrap();
    assert_ne!(second, home);
    assert_ne!(second, first, "each revision keeps its own snapshot");
    engine.finish_submission().unwrap();
    submit_empty(&ctx);
    assert_eq!(read_slot(&ctx, &engine, first, 64), mat(1.0));
    assert_eq!(read_slot(&ctx, &engine, second, 64), mat(2.0));
    assert_eq!(
        read_slot(&ctx, &engine, home, 64),
        mat(2.0),
        "home holds the latest value"
    );
    // A set between submissions, with no resolve at all (a bundle replay), is uploaded at the
    // next finish.
    engine.set_bytes(k, &mat(3.0)).unwrap();
    let before = snap(&ctx);
    engine.begin_submission().unwrap();
    engine.finish_submission().unwrap();
    let d = snap(&ctx) - before;
    assert_eq!((d.write_calls, d.bytes_uploaded), (1, 64));
    submit_empty(&ctx);
    assert_eq!(read_slot(&ctx, &engine, home, 64), mat(3.0));
    // Steady state with a pinned owner: repeated values are resident in retained slots.
    for _ in 0..3 {
        frame(&mut engine, k, &[], &[mat(4.0), mat(5.0)]);
    }
    let before = snap(&ctx);
    let slots = frame(&mut engine, k, &[], &[mat(4.0), mat(5.0)]);
    let d = snap(&ctx) - before;
    assert!(slots.iter().all(|s| *s != home));
    assert_eq!(d.slots_captured, 0, "retained snapshots match by content");
    // The home slot still receives the last set (5.0) once per change.
    assert!(d.bytes_uploaded <= 64, "{d:?}");
    // Unpinned: home slot first again.
    engine.unpin(k).unwrap();
    let slots = frame(&mut engine, k, &[], &[mat(6.0), mat(7.0)]);
    assert_eq!(slots[0], home);
    assert_ne!(slots[1], home);
    submit_empty(&ctx);
    assert_eq!(read_slot(&ctx, &engine, slots[0], 64), mat(6.0));
    assert_eq!(read_slot(&ctx, &engine, slots[1], 64), mat(7.0));
}
