//! Tier 1 (noop device): every operation sees the bytes its owner had when it was resolved,
//! read back from the device: two values in one submission take two slots, a value set after
//! its last bind waits for the next frame, a value set before its first bind reaches the GPU.
#![allow(
    missing_docs,
    clippy::unwrap_used,
    reason = "an unwrap in a test is an assertion; test items need no docs"
)]

use crate::common::{frame, mat, noop_engine, read_slot, snap, submit_empty};
use vgpu_uniforms::{AddressSpace, EngineConfig, SlotRef};

#[test]
fn a_b_a_in_one_submission_uses_two_slots() {
    let (ctx, mut engine) = noop_engine(EngineConfig::default());
    let camera = engine.create_owner("camera", AddressSpace::Uniform);
    let slots = frame(&mut engine, camera, &[], &[mat(1.0), mat(2.0), mat(1.0)]);
    assert_eq!(slots[0], slots[2]);
    assert_ne!(slots[0], slots[1]);
    assert_eq!(engine.gauges().live_slots, 2);
    assert_eq!(snap(&ctx).slots_captured, 1);
    // The same revision bound twice reuses its slot.
    engine.begin_submission().unwrap();
    let a = engine.resolve(camera).unwrap();
    let b = engine.resolve(camera).unwrap();
    assert_eq!(a, b);
    engine.finish_submission().unwrap();
    submit_empty(&ctx);
    assert_eq!(read_slot(&ctx, &engine, slots[0], 64), mat(1.0));
    assert_eq!(read_slot(&ctx, &engine, slots[1], 64), mat(2.0));
}

#[test]
fn a_value_set_after_its_last_bind_waits_for_the_next_frame() {
    let (ctx, mut engine) = noop_engine(EngineConfig::default());
    let k = engine.create_owner("k", AddressSpace::Uniform);
    frame(&mut engine, k, &[], &[mat(1.0)]);
    engine.begin_submission().unwrap();
    let slot = engine.resolve(k).unwrap();
    engine.set_bytes(k, &mat(2.0)).unwrap();
    let before = snap(&ctx);
    engine.finish_submission().unwrap();
    assert_eq!((snap(&ctx) - before).write_calls, 0);
    submit_empty(&ctx);
    // The operation recorded before the set sees the old value.
    assert_eq!(read_slot(&ctx, &engine, slot, 64), mat(1.0));
}

/// A value set once keeps its bytes only in its home slot's shadow, uploaded at its first bind;
/// a second set before that bind (here unchanged, which makes the owner's CPU copy) must not
/// let the upload be skipped because the shadow already holds the bytes, and neither must a
/// pin. Each value reaches the GPU exactly once, with its bytes.
#[test]
fn a_value_set_once_or_again_before_its_first_bind_reaches_the_gpu() {
    let (ctx, mut engine) = noop_engine(EngineConfig::default());
    let once = engine.create_owner("once", AddressSpace::Uniform);
    let again = engine.create_owner("again", AddressSpace::Uniform);
    let changed = engine.create_owner("changed", AddressSpace::Uniform);
    let pinned = engine.create_owner("pinned", AddressSpace::Uniform);
    engine.set_bytes(once, &mat(1.0)).unwrap();
    engine.set_bytes(again, &mat(2.0)).unwrap();
    assert!(!engine.set_bytes(again, &mat(2.0)).unwrap(), "unchanged");
    engine.set_bytes(changed, &mat(3.0)).unwrap();
    assert!(engine.set_bytes(changed, &mat(4.0)).unwrap());
    engine.set_bytes(pinned, &mat(5.0)).unwrap();
    engine.set_bytes(pinned, &mat(5.0)).unwrap();
    // Nothing is uploaded for values no operation bound.
    let before = snap(&ctx);
    engine.begin_submission().unwrap();
    engine.finish_submission().unwrap();
    assert_eq!((snap(&ctx) - before).bytes_uploaded, 0);

    engine.begin_submission().unwrap();
    let slots: Vec<SlotRef> = [once, again, changed]
        .iter()
        .map(|&k| engine.resolve(k).unwrap())
        .collect();
    let pinned_slot = engine.pin(pinned).unwrap();
    let before = snap(&ctx);
    engine.finish_submission().unwrap();
    submit_empty(&ctx);
    let d = snap(&ctx) - before;
    assert_eq!(d.bytes_uploaded % 64, 0);
    assert!(d.bytes_uploaded >= 4 * 64, "{d:?}");
    for (slot, v) in slots.iter().zip([1.0, 2.0, 4.0]) {
        assert_eq!(read_slot(&ctx, &engine, *slot, 64), mat(v), "value {v}");
    }
    assert_eq!(read_slot(&ctx, &engine, pinned_slot, 64), mat(5.0));
    assert_eq!(engine.bytes(once).unwrap(), &mat(1.0)[..]);
    assert_eq!(engine.bytes(again).unwrap(), &mat(2.0)[..]);
    assert_eq!(engine.bytes(changed).unwrap(), &mat(4.0)[..]);

    // A steady submission uploads nothing.
    engine.begin_submission().unwrap();
    for &k in &[once, again, changed] {
        engine.resolve(k).unwrap();
    }
    let before = snap(&ctx);
    engine.finish_submission().unwrap();
    assert_eq!((snap(&ctx) - before).bytes_uploaded, 0);
}
