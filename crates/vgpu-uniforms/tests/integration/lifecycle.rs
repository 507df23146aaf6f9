//! Tier 1 (noop device): what the end of a submission frees and keeps. A cancelled frame uploads
//! nothing and keeps every value; a removed owner's slots stay reserved until the submission that
//! bound them ends; idle extra slots and empty pages are reclaimed, never by the submission that
//! bound them.
#![allow(
    missing_docs,
    clippy::unwrap_used,
    reason = "an unwrap in a test is an assertion; test items need no docs"
)]

use crate::common::{frame, mat, noop_engine, owners, read_slot, snap, submit_empty};
use vgpu_core::ErrorCode as _;
use vgpu_uniforms::{AddressSpace, BufferKey, EngineConfig};

#[test]
fn cancelled_frame_writes_nothing_and_keeps_values() {
    let (ctx, mut engine) = noop_engine(EngineConfig::default());
    let camera = engine.create_owner("camera", AddressSpace::Uniform);
    let objects = owners(&mut engine, 10, 0.0);
    frame(&mut engine, camera, &objects, &[mat(1.0)]);
    let before = snap(&ctx);

    engine.begin_submission().unwrap();
    engine.set_bytes(camera, &mat(5.0)).unwrap();
    let cancelled_a = engine.resolve(camera).unwrap();
    engine.set_bytes(camera, &mat(6.0)).unwrap();
    let cancelled_b = engine.resolve(camera).unwrap();
    engine.set_bytes(objects[3], &mat(9.0)).unwrap();
    engine.resolve(objects[3]).unwrap();
    engine.cancel_submission();
    let d = snap(&ctx) - before;
    assert_eq!(d.write_calls, 0);
    assert_eq!(d.bytes_uploaded, 0);
    assert_eq!(engine.bytes(camera).unwrap(), &mat(6.0));
    assert_eq!(engine.bytes(objects[3]).unwrap(), &mat(9.0));
    assert_eq!(engine.revision(camera), Some(3));
    assert!(engine.open_submission().is_none());

    // The next frame binds the same values: the GPU must hold them, uploaded now.
    engine.begin_submission().unwrap();
    engine.set_bytes(camera, &mat(5.0)).unwrap();
    let a = engine.resolve(camera).unwrap();
    engine.set_bytes(camera, &mat(6.0)).unwrap();
    let b = engine.resolve(camera).unwrap();
    let o = engine.resolve(objects[3]).unwrap();
    engine.finish_submission().unwrap();
    assert_eq!((a, b), (cancelled_a, cancelled_b));
    assert!(snap(&ctx).write_calls > before.write_calls);
    submit_empty(&ctx);
    assert_eq!(read_slot(&ctx, &engine, a, 64), mat(5.0));
    assert_eq!(read_slot(&ctx, &engine, b, 64), mat(6.0));
    assert_eq!(read_slot(&ctx, &engine, o, 64), mat(9.0));
}

#[test]
fn cancelled_capture_is_uploaded_even_when_the_next_frame_skips_it() {
    // Shadow bytes captured by a cancelled frame must never be taken as resident on the GPU.
    let (ctx, mut engine) = noop_engine(EngineConfig::default());
    let k = engine.create_owner("k", AddressSpace::Uniform);
    engine.set_bytes(k, &mat(1.0)).unwrap();
    engine.begin_submission().unwrap();
    engine.resolve(k).unwrap();
    engine.finish_submission().unwrap();
    engine.set_bytes(k, &mat(2.0)).unwrap();
    engine.begin_submission().unwrap();
    let slot = engine.resolve(k).unwrap();
    engine.cancel_submission();
    // A frame that does not bind k.
    engine.begin_submission().unwrap();
    engine.finish_submission().unwrap();
    let before = snap(&ctx);
    engine.begin_submission().unwrap();
    assert_eq!(engine.resolve(k).unwrap(), slot);
    engine.finish_submission().unwrap();
    // Already uploaded by the frame in between, or now; either way the GPU holds 2.0.
    let d = snap(&ctx) - before;
    assert!(d.write_calls <= 1);
    submit_empty(&ctx);
    assert_eq!(read_slot(&ctx, &engine, slot, 64), mat(2.0));
}

#[test]
fn removing_an_owner_mid_submission_keeps_its_slots_until_the_end() {
    let (ctx, mut engine) = noop_engine(EngineConfig::default());
    let a = engine.create_owner("a", AddressSpace::Uniform);
    engine.set_bytes(a, &mat(1.0)).unwrap();
    engine.begin_submission().unwrap();
    let slot_a = engine.resolve(a).unwrap();
    engine.remove_owner(a).unwrap();
    let err = engine.resolve(a).unwrap_err();
    assert_eq!(err.code(), "VGPU-UNIFORMS-STALE-OWNER");
    let err = engine.set_bytes(a, &mat(2.0)).unwrap_err();
    assert_eq!(err.code(), "VGPU-UNIFORMS-STALE-OWNER", "{err}");
    // A new owner must not get a's slot in this submission.
    let b = engine.create_owner("b", AddressSpace::Uniform);
    engine.set_bytes(b, &mat(2.0)).unwrap();
    let slot_b = engine.resolve(b).unwrap();
    assert_ne!(slot_a, slot_b);
    assert_eq!(engine.gauges().live_slots, 2);
    engine.finish_submission().unwrap();
    assert_eq!(engine.gauges().live_slots, 1);
    submit_empty(&ctx);
    assert_eq!(read_slot(&ctx, &engine, slot_a, 64), mat(1.0));
    assert_eq!(read_slot(&ctx, &engine, slot_b, 64), mat(2.0));
    // Outside a submission, the slot is freed at once and reused.
    engine.remove_owner(b).unwrap();
    assert_eq!(engine.gauges().live_slots, 0);
}

#[test]
fn idle_extra_slots_and_pages_are_reclaimed() {
    let config = EngineConfig {
        retain_submissions: 3,
        idle_page_budget: 0,
        max_extra_slots: 2,
        ..EngineConfig::default()
    };
    let (ctx, mut engine) = noop_engine(config);
    let cam = engine.create_owner("camera", AddressSpace::Uniform);
    // Five distinct values in one submission: 5 slots, 2 extras kept after it ends.
    let slots = frame(
        &mut engine,
        cam,
        &[],
        &[mat(1.0), mat(2.0), mat(3.0), mat(4.0), mat(5.0)],
    );
    let distinct: std::collections::HashSet<_> = slots.iter().collect();
    assert_eq!(distinct.len(), 5);
    assert_eq!(engine.gauges().retained_slots, 2);
    assert_eq!(engine.gauges().live_slots, 3);
    // Three submissions with one value: the extras are reclaimed.
    for _ in 0..3 {
        frame(&mut engine, cam, &[], &[mat(1.0)]);
    }
    assert_eq!(engine.gauges().retained_slots, 0);
    assert_eq!(engine.gauges().live_slots, 1);

    // A page emptied by removing its owners is released (budget 0) and reported.
    let big: Vec<_> = (0..3)
        .map(|i| {
            let k = engine.create_owner("big", AddressSpace::Uniform);
            engine.set_bytes(k, &vec![i as u8; 4096]).unwrap();
            k
        })
        .collect();
    engine.begin_submission().unwrap();
    let refs: Vec<_> = big.iter().map(|&k| engine.resolve(k).unwrap()).collect();
    engine.finish_submission().unwrap();
    assert_eq!(engine.gauges().pages, 2);
    let BufferKey::Page(big_page) = refs[0].buffer else {
        unreachable!()
    };
    assert!(engine.drain_released().next().is_none());
    for &k in &big {
        engine.remove_owner(k).unwrap();
    }
    assert_eq!(engine.gauges().empty_pages, 1);
    engine.begin_submission().unwrap();
    engine.finish_submission().unwrap();
    assert_eq!(engine.gauges().pages, 1);
    assert_eq!(
        engine.drain_released().collect::<Vec<_>>(),
        vec![BufferKey::Page(big_page)]
    );
    assert!(engine.page_buffer(big_page).is_none());
    assert_eq!(snap(&ctx).pages_created, 2);
}

#[test]
fn page_bound_by_a_submission_is_not_released_by_it() {
    let config = EngineConfig {
        idle_page_budget: 0,
        ..EngineConfig::default()
    };
    let (_ctx, mut engine) = noop_engine(config);
    let k = engine.create_owner("k", AddressSpace::Uniform);
    engine.set_bytes(k, &mat(1.0)).unwrap();
    engine.begin_submission().unwrap();
    let r = engine.resolve(k).unwrap();
    engine.remove_owner(k).unwrap();
    engine.finish_submission().unwrap();
    let BufferKey::Page(page) = r.buffer else {
        unreachable!()
    };
    assert!(engine.page_buffer(page).is_some());
    assert!(engine.drain_released().next().is_none());
    engine.begin_submission().unwrap();
    engine.cancel_submission();
    assert!(engine.page_buffer(page).is_none());
    assert_eq!(engine.drain_released().count(), 1);
}
