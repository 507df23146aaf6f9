//! Tier 1 (noop device): what a frame costs. Static frames write nothing after warm-up; one
//! owner changing costs one struct in one write; ten thousand changing cost at most one write per
//! page; a camera set per pass stays resident in retained slots.
#![allow(
    missing_docs,
    clippy::unwrap_used,
    reason = "an unwrap in a test is an assertion; test items need no docs"
)]

use crate::common::{frame, mat, noop_engine, owners, read_slot, snap, submit_empty};
use vgpu_uniforms::{AddressSpace, EngineConfig};

#[test]
fn static_frames_cost_nothing_after_warm_up() {
    let (ctx, mut engine) = noop_engine(EngineConfig::default());
    let camera = engine.create_owner("camera", AddressSpace::Uniform);
    let objects = owners(&mut engine, 1000, 1.0);
    let cam = [mat(7.0)];
    frame(&mut engine, camera, &objects, &cam);
    let warm = snap(&ctx);
    assert!(warm.pages_created >= 1 && warm.write_calls >= 1);
    let gauges = engine.gauges();
    for _ in 0..20 {
        frame(&mut engine, camera, &objects, &cam);
        // Re-setting identical bytes is free too.
        for &o in &objects[..10] {
            let same = engine.bytes(o).unwrap().to_vec();
            assert!(!engine.set_bytes(o, &same).unwrap());
        }
    }
    let d = snap(&ctx) - warm;
    assert_eq!(d.write_calls, 0);
    assert_eq!(d.bytes_uploaded, 0);
    assert_eq!(d.slots_captured, 0);
    assert_eq!(d.pages_created, 0);
    assert_eq!(d.buffers_created, 0);
    assert_eq!(engine.gauges(), gauges);
    assert_eq!(gauges.live_slots, 1001);
    assert_eq!(gauges.retained_slots, 0);
}

#[test]
fn one_owner_changing_costs_one_struct_in_one_write() {
    let (ctx, mut engine) = noop_engine(EngineConfig::default());
    let camera = engine.create_owner("camera", AddressSpace::Uniform);
    let objects = owners(&mut engine, 500, 0.0);
    for _ in 0..2 {
        frame(&mut engine, camera, &objects, &[mat(1.0)]);
    }
    for i in 0..10 {
        let before = snap(&ctx);
        engine
            .set_bytes(objects[37], &mat(100.0 + i as f32))
            .unwrap();
        frame(&mut engine, camera, &objects, &[mat(1.0)]);
        let d = snap(&ctx) - before;
        assert_eq!(d.write_calls, 1);
        assert_eq!(d.bytes_uploaded, 64);
        assert!(d.bytes_uploaded <= u64::from(engine.slot_alignment()));
        assert_eq!(d.slots_captured, 0);
        assert_eq!(d.pages_created, 0);
    }
}

#[test]
fn ten_thousand_owners_changing_cost_at_most_one_write_per_page() {
    let (ctx, mut engine) = noop_engine(EngineConfig::default());
    let n = 10_000;
    let objects = owners(&mut engine, n, 0.0);
    let camera = engine.create_owner("camera", AddressSpace::Uniform);
    engine.set_bytes(camera, &mat(1.0)).unwrap();
    frame(&mut engine, camera, &objects, &[mat(1.0)]);
    let pages = engine.gauges().pages;
    let per_page = engine.slots_per_page(64) as usize;
    assert_eq!(pages, (n + 1).div_ceil(per_page));
    for round in 0..3 {
        for (i, &o) in objects.iter().enumerate() {
            engine
                .set_bytes(o, &mat(1000.0 * (round + 1) as f32 + i as f32))
                .unwrap();
        }
        let before = snap(&ctx);
        frame(&mut engine, camera, &objects, &[mat(1.0)]);
        let d = snap(&ctx) - before;
        assert!(
            d.write_calls <= pages as u64,
            "{} writes for {pages} pages",
            d.write_calls
        );
        assert!(d.bytes_uploaded >= 64 * n as u64);
        assert!(d.bytes_uploaded <= u64::from(engine.slot_alignment()) * n as u64);
        assert_eq!(d.slots_captured, 0);
    }
}

#[test]
fn per_pass_camera_is_resident_in_retained_slots() {
    let (ctx, mut engine) = noop_engine(EngineConfig::default());
    let camera = engine.create_owner("camera", AddressSpace::Uniform);
    let objects = owners(&mut engine, 100, 0.0);
    let cams = [mat(1.0), mat(2.0), mat(3.0)];
    let first = frame(&mut engine, camera, &objects, &cams);
    assert_eq!(snap(&ctx).slots_captured, 2);
    let warm = snap(&ctx);
    for _ in 0..50 {
        let slots = frame(&mut engine, camera, &objects, &cams);
        assert_eq!(slots, first, "each value keeps its slot");
    }
    let d = snap(&ctx) - warm;
    assert_eq!(d.bytes_uploaded, 0);
    assert_eq!(d.write_calls, 0);
    assert_eq!(d.slots_captured, 0);
    assert_eq!(d.pages_created, 0);
    assert_eq!(engine.gauges().retained_slots, 2);
    // Each pass saw its own value.
    submit_empty(&ctx);
    for (slot, cam) in first.iter().zip(&cams) {
        assert_eq!(read_slot(&ctx, &engine, *slot, 64), cam);
    }
}
