//! Tier 1: counters and read-back on wgpu's noop device (validates, counts, executes copies).
#![allow(missing_docs, clippy::unwrap_used)]

use crate::common::{mat, noop_engine, read_slot, snap, submit_empty};
use vgpu_core::ErrorCode as _;
use vgpu_uniforms::{AddressSpace, BufferKey, EngineConfig, OwnerKey, SlotRef, UniformEngine};

fn owners(engine: &mut UniformEngine, n: usize, value: f32) -> Vec<OwnerKey> {
    (0..n)
        .map(|i| {
            let k = engine.create_owner(&format!("object {i}"), AddressSpace::Uniform);
            engine.set_bytes(k, &mat(value + i as f32)).unwrap();
            k
        })
        .collect()
}

/// One frame: `passes` passes, each binding the camera then every object.
fn frame(
    engine: &mut UniformEngine,
    camera: OwnerKey,
    objects: &[OwnerKey],
    camera_values: &[[u8; 64]],
) -> Vec<SlotRef> {
    engine.begin_submission().unwrap();
    let mut cams = Vec::new();
    for value in camera_values {
        engine.set_bytes(camera, value).unwrap();
        cams.push(engine.resolve(camera).unwrap());
        for &o in objects {
            engine.resolve(o).unwrap();
        }
    }
    engine.finish_submission().unwrap();
    cams
}

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
fn revision_bumps_exactly_when_bytes_differ_bitwise() {
    let (_ctx, mut engine) = noop_engine(EngineConfig::default());
    let k = engine.create_owner("params", AddressSpace::Uniform);
    assert_eq!(engine.revision(k), Some(0));
    let v = |f: f32| {
        let mut b = [0u8; 16];
        b[..4].copy_from_slice(&f.to_le_bytes());
        b
    };
    assert!(engine.set_bytes(k, &v(1.0)).unwrap());
    assert_eq!(engine.revision(k), Some(1));
    assert!(!engine.set_bytes(k, &v(1.0)).unwrap());
    assert_eq!(engine.revision(k), Some(1));
    // +0.0 and -0.0 compare equal as floats but differ bitwise.
    assert!(engine.set_bytes(k, &v(0.0)).unwrap());
    assert!(engine.set_bytes(k, &v(-0.0)).unwrap());
    assert_eq!(engine.revision(k), Some(3));
    // The same NaN bits are equal.
    let nan = f32::from_bits(0x7fc0_1234);
    assert!(engine.set_bytes(k, &v(nan)).unwrap());
    assert!(!engine.set_bytes(k, &v(nan)).unwrap());
    assert_eq!(engine.revision(k), Some(4));

    // A size mismatch changes nothing and names the owner and both sizes.
    let err = engine.set_bytes(k, &[0u8; 32]).unwrap_err();
    assert_eq!(err.code(), "VGPU-UNIFORMS-SIZE-MISMATCH");
    let msg = err.to_string();
    assert!(msg.starts_with("VGPU-UNIFORMS-SIZE-MISMATCH"), "{msg}");
    assert!(
        msg.contains("params") && msg.contains("16") && msg.contains("32"),
        "{msg}"
    );
    assert_eq!(engine.revision(k), Some(4));
    assert_eq!(engine.bytes(k).unwrap(), &v(nan));

    // update: a failing closure changes nothing, even after writing into the scratch.
    #[derive(Debug)]
    enum PackError {
        Bad,
        Engine(#[allow(dead_code)] vgpu_uniforms::UniformsError),
    }
    impl From<vgpu_uniforms::UniformsError> for PackError {
        fn from(e: vgpu_uniforms::UniformsError) -> Self {
            PackError::Engine(e)
        }
    }
    let r = engine.update(k, |b| {
        b[0] = 0xAA;
        Err::<(), _>(PackError::Bad)
    });
    assert!(matches!(r, Err(PackError::Bad)));
    assert_eq!(engine.revision(k), Some(4));
    assert_eq!(engine.bytes(k).unwrap(), &v(nan));
    // An update producing the same bytes does not bump; a real change does.
    assert!(!engine.update(k, |_| Ok::<(), PackError>(())).unwrap());
    assert!(
        engine
            .update(k, |b| {
                b[4] = 1;
                Ok::<(), PackError>(())
            })
            .unwrap()
    );
    assert_eq!(engine.revision(k), Some(5));
    assert_eq!(engine.bytes(k).unwrap()[4], 1);

    // update on a never-set owner needs a size; update_sized does the first set.
    let fresh = engine.create_owner("fresh", AddressSpace::Uniform);
    let err = engine
        .update(fresh, |_| Ok::<(), PackError>(()))
        .unwrap_err();
    assert!(matches!(err, PackError::Engine(ref e) if e.code() == "VGPU-UNIFORMS-NEVER-SET"));
    assert!(
        engine
            .update_sized(fresh, 32, |b| {
                b[31] = 9;
                Ok::<(), PackError>(())
            })
            .unwrap()
    );
    assert_eq!(engine.revision(fresh), Some(1));
    assert_eq!(engine.bytes(fresh).unwrap().len(), 32);
    let err = engine
        .update_sized(fresh, 48, |_| Ok::<(), PackError>(()))
        .unwrap_err();
    assert!(matches!(err, PackError::Engine(ref e) if e.code() == "VGPU-UNIFORMS-SIZE-MISMATCH"));
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
    assert!(engine.set_bytes(a, &mat(2.0)).is_err());
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

#[test]
fn errors_have_codes_and_change_nothing() {
    let (_ctx, mut engine) = noop_engine(EngineConfig::default());
    let k = engine.create_owner("light", AddressSpace::Uniform);
    let err = engine.resolve(k).unwrap_err();
    assert_eq!(err.code(), "VGPU-UNIFORMS-NO-SUBMISSION");
    engine.begin_submission().unwrap();
    let err = engine.begin_submission().unwrap_err();
    assert_eq!(err.code(), "VGPU-UNIFORMS-SUBMISSION-OPEN");
    let err = engine.resolve(k).unwrap_err();
    assert_eq!(err.code(), "VGPU-UNIFORMS-NEVER-SET");
    assert!(err.to_string().contains("light"));
    assert_eq!(engine.pin(k).unwrap_err().code(), "VGPU-UNIFORMS-NEVER-SET");
    assert_eq!(
        engine.binding_size(k).unwrap_err().code(),
        "VGPU-UNIFORMS-NEVER-SET"
    );
    let err = engine.set_bytes(k, &[]).unwrap_err();
    assert_eq!(err.code(), "VGPU-UNIFORMS-EMPTY");
    let max = engine.context().limits().max_uniform_buffer_binding_size as usize;
    let err = engine.set_bytes(k, &vec![0u8; max + 16]).unwrap_err();
    assert_eq!(err.code(), "VGPU-UNIFORMS-LIMIT");
    let msg = err.to_string();
    assert!(
        msg.contains("light") && msg.contains("max_uniform_buffer_binding_size"),
        "{msg}"
    );
    assert_eq!(engine.revision(k), Some(0));
    assert!(engine.bytes(k).unwrap().is_empty());
    engine.finish_submission().unwrap();
    assert_eq!(
        engine.finish_submission().unwrap_err().code(),
        "VGPU-UNIFORMS-NO-SUBMISSION"
    );
    engine.remove_owner(k).unwrap();
    assert_eq!(
        engine.remove_owner(k).unwrap_err().code(),
        "VGPU-UNIFORMS-STALE-OWNER"
    );
    assert!(engine.bytes(k).is_none());
}

#[test]
fn offsets_are_aligned_and_binding_size_is_the_struct() {
    let (_ctx, mut engine) = noop_engine(EngineConfig::default());
    let align = engine.slot_alignment();
    let keys: Vec<_> = [16usize, 64, 80, 272]
        .iter()
        .map(|&n| {
            let k = engine.create_owner("s", AddressSpace::Uniform);
            engine.set_bytes(k, &vec![1u8; n]).unwrap();
            k
        })
        .collect();
    engine.begin_submission().unwrap();
    for &k in &keys {
        let r = engine.resolve(k).unwrap();
        assert_eq!(r.offset % align, 0);
        let size = engine.binding_size(k).unwrap().get();
        assert_eq!(size as usize, engine.bytes(k).unwrap().len());
        let buffer = engine.buffer(r.buffer).unwrap();
        assert!(u64::from(r.offset) + size <= buffer.size());
        assert!(buffer.usage().contains(wgpu::BufferUsages::UNIFORM));
    }
    engine.finish_submission().unwrap();
    // Sizes 16, 64 and 80 take 256-byte slots, each in its own class (shadow strides 16, 64
    // and 80); 272 takes 512-byte slots.
    let classes = engine.pages_per_class();
    assert_eq!(classes.len(), 4, "{classes:?}");
    assert_eq!(classes.iter().filter(|(s, _)| *s == 256).count(), 3);
}

#[test]
fn engine_can_move_between_threads() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<UniformEngine>();
    assert_send_sync::<vgpu_uniforms::UniformsError>();
}

/// A value set before any memoized operation of the frame goes straight to its home slot: the
/// slot, hence the stamp, is unchanged (memos stay valid), one struct is uploaded. Set again
/// after `memos_in_use`, it is captured into another slot and its stamp moves, for this
/// submission and (bound to a snapshot) the next one.
#[test]
fn stamps_move_only_when_the_slot_may_change() {
    let (ctx, mut engine) = noop_engine(EngineConfig::default());
    let object = engine.create_owner("object", AddressSpace::Uniform);
    let idx = engine.stamp_slot(object).unwrap() as usize;
    engine.set_bytes(object, &mat(1.0)).unwrap();
    engine.begin_submission().unwrap();
    let home = engine.resolve(object).unwrap();
    engine.finish_submission().unwrap();
    submit_empty(&ctx);
    let stamp = engine.stamps()[idx];

    // Set before the frame's passes: home written now, stamp kept.
    engine.begin_submission().unwrap();
    let before = snap(&ctx);
    engine.set_bytes(object, &mat(2.0)).unwrap();
    assert_eq!(engine.stamps()[idx], stamp);
    engine.memos_in_use();
    // A memoized operation binds `home` without resolving; resolving agrees.
    assert_eq!(engine.resolve(object).unwrap(), home);
    // Set after memos are in use: the home slot may be bound, so the value is captured.
    engine.set_bytes(object, &mat(3.0)).unwrap();
    let moved = engine.stamps()[idx];
    assert_ne!(moved, stamp);
    let snapshot = engine.resolve(object).unwrap();
    assert_ne!(snapshot, home);
    engine.finish_submission().unwrap();
    submit_empty(&ctx);
    let d = snap(&ctx) - before;
    assert_eq!(d.slots_captured, 1);
    assert_eq!(read_slot(&ctx, &engine, home, 64), mat(2.0));
    assert_eq!(read_slot(&ctx, &engine, snapshot, 64), mat(3.0));
    // Bound to a snapshot in that submission: the next one binds home again, new stamp.
    assert_ne!(engine.stamps()[idx], moved);
    engine.begin_submission().unwrap();
    assert_eq!(engine.resolve(object).unwrap(), home);
    engine.finish_submission().unwrap();
    submit_empty(&ctx);
    assert_eq!(read_slot(&ctx, &engine, home, 64), mat(3.0));

    // Equal sets and sets between submissions keep the stamp; removal moves it.
    let stamp = engine.stamps()[idx];
    engine.set_bytes(object, &mat(3.0)).unwrap();
    engine.set_bytes(object, &mat(4.0)).unwrap();
    assert_eq!(engine.stamps()[idx], stamp);
    engine.remove_owner(object).unwrap();
    assert_ne!(engine.stamps()[idx], stamp);
}

/// Stamp slots are dense indices given at creation, fixed for an owner's life; a removed
/// owner's slot is reused by the next owner created, but only under a new stamp (renewed at the
/// removal and again at the creation), so a memo taken under the removed owner never matches.
/// Other owners' stamps do not move, and the table stays at the peak number of live owners plus
/// the fixed slot 0, which no owner takes and whose stamp never moves (memos of groups without
/// values use it).
#[test]
fn stamp_slots_are_dense_and_reused_only_under_new_stamps() {
    let (_ctx, mut engine) = noop_engine(EngineConfig::default());
    let (fixed_slot, fixed) = engine.fixed_stamp();
    assert_eq!(fixed_slot, 0);
    assert_eq!(engine.stamps(), &[fixed]);
    let keys: Vec<OwnerKey> = (0..4)
        .map(|i| engine.create_owner(&format!("object {i}"), AddressSpace::Uniform))
        .collect();
    let slots: Vec<u32> = keys
        .iter()
        .map(|&k| engine.stamp_slot(k).unwrap())
        .collect();
    assert_eq!(slots, vec![1, 2, 3, 4]);
    assert_eq!(engine.stamps().len(), 5);
    let before = engine.stamps().to_vec();
    let mut seen: std::collections::HashSet<u64> = before.iter().copied().collect();
    assert_eq!(seen.len(), 5, "stamps are distinct: {before:?}");

    let memo = engine.stamps()[3];
    engine.remove_owner(keys[2]).unwrap();
    assert_eq!(engine.stamp_slot(keys[2]), None);
    let at_removal = engine.stamps()[3];
    assert_ne!(at_removal, memo);
    assert!(seen.insert(at_removal));
    let next = engine.create_owner("replacement", AddressSpace::Storage);
    assert_eq!(engine.stamp_slot(next), Some(3));
    let fresh = engine.stamps()[3];
    assert!(seen.insert(fresh), "a stamp was reused");
    for i in [0, 1, 2, 4] {
        assert_eq!(engine.stamps()[i], before[i]);
    }

    // Churn: one more owner at a time; the table grows to the peak (5 owners), never beyond.
    for i in 0..100 {
        let k = engine.create_owner("churn", AddressSpace::Uniform);
        assert_eq!(engine.stamp_slot(k), Some(5));
        assert!(
            seen.insert(engine.stamps()[5]),
            "round {i}: a stamp was reused"
        );
        engine.remove_owner(k).unwrap();
        assert!(
            seen.insert(engine.stamps()[5]),
            "round {i}: a stamp was reused"
        );
    }
    assert_eq!(engine.stamps().len(), 6);
    assert_eq!(engine.stamps()[0], fixed, "the fixed stamp moved");
    for (i, &k) in keys.iter().enumerate().filter(|&(i, _)| i != 2) {
        assert_eq!(engine.stamp_slot(k), Some(i as u32 + 1));
    }
}

/// `write_range_if_changed` (one member written in place) commits as a whole set of the merged
/// bytes does: same bytes, one revision, and a value already bound in the open submission is
/// captured so that the earlier slot keeps the old bytes.
#[test]
fn a_range_write_commits_like_a_set_of_the_merged_value() {
    let (ctx, mut engine) = noop_engine(EngineConfig::default());
    let k = engine.create_owner("object", AddressSpace::Uniform);
    assert_eq!(
        engine.write_range_if_changed(k, 0, &[0; 4]),
        None,
        "never set"
    );
    engine.set_bytes(k, &mat(1.0)).unwrap();
    let rev = engine.revision(k).unwrap();
    assert_eq!(
        engine.write_range_if_changed(k, 16, &mat(1.0)[..16]),
        Some(false),
        "the bytes it holds"
    );
    assert_eq!(engine.revision(k), Some(rev));
    assert_eq!(
        engine.write_range_if_changed(k, 60, &[0; 8]),
        None,
        "past its end"
    );
    assert_eq!(engine.bytes(k).unwrap(), &mat(1.0)[..]);

    engine.begin_submission().unwrap();
    let before = engine.resolve(k).unwrap();
    assert_eq!(
        engine.write_range_if_changed(k, 16, &mat(2.0)[..16]),
        Some(true)
    );
    let mut merged = mat(1.0);
    merged[16..32].copy_from_slice(&mat(2.0)[..16]);
    assert_eq!(engine.bytes(k).unwrap(), &merged[..]);
    assert_eq!(engine.revision(k), Some(rev + 1));
    let after = engine.resolve(k).unwrap();
    assert_ne!(before, after, "bound before the write: captured elsewhere");
    engine.finish_submission().unwrap();
    submit_empty(&ctx);
    assert_eq!(read_slot(&ctx, &engine, before, 64), mat(1.0));
    assert_eq!(read_slot(&ctx, &engine, after, 64), merged);

    // Outside a submission the home slot takes it at the next finish.
    assert_eq!(
        engine.write_range_if_changed(k, 0, &mat(3.0)[..4]),
        Some(true)
    );
    engine.begin_submission().unwrap();
    let home = engine.resolve(k).unwrap();
    engine.finish_submission().unwrap();
    submit_empty(&ctx);
    assert_eq!(read_slot(&ctx, &engine, home, 64), engine.bytes(k).unwrap());
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

/// The value clock follows the stamps of owners not marked shared only: a shared owner's move
/// leaves it (the stamp clock moves), an unshared owner's moves both, `invalidate_memos` moves
/// both without moving any stamp, and a shared owner's removal moves both; its stamp slot, reused,
/// belongs to an unshared owner again.
#[test]
fn the_value_clock_leaves_shared_owners_out() {
    let (ctx, mut engine) = noop_engine(EngineConfig::default());
    let camera = engine.create_owner("camera", AddressSpace::Uniform);
    engine.mark_shared(camera);
    let object = engine.create_owner("object", AddressSpace::Uniform);
    engine.set_bytes(camera, &mat(1.0)).unwrap();
    engine.set_bytes(object, &mat(1.0)).unwrap();
    engine.begin_submission().unwrap();
    engine.resolve(camera).unwrap();
    engine.resolve(object).unwrap();
    engine.memos_in_use();
    // Set again after memos are in use: each is captured and its stamp moves.
    let (clock, values) = (engine.stamp_clock(), engine.value_clock());
    let camera_slot = engine.stamp_slot(camera).unwrap() as usize;
    let camera_stamp = engine.stamps()[camera_slot];
    engine.set_bytes(camera, &mat(2.0)).unwrap();
    assert_ne!(
        engine.stamps()[camera_slot],
        camera_stamp,
        "the shared owner's stamp moved"
    );
    assert!(engine.stamp_clock() > clock);
    assert_eq!(engine.value_clock(), values, "a shared owner's move");
    let clock = engine.stamp_clock();
    engine.set_bytes(object, &mat(2.0)).unwrap();
    assert!(engine.stamp_clock() > clock);
    assert!(engine.value_clock() > values, "an unshared owner's move");
    engine.finish_submission().unwrap();
    submit_empty(&ctx);

    // An outside change: both clocks move, no stamp does.
    let stamps = engine.stamps().to_vec();
    let (clock, values) = (engine.stamp_clock(), engine.value_clock());
    engine.invalidate_memos();
    assert!(engine.stamp_clock() > clock && engine.value_clock() > values);
    assert_eq!(engine.stamps(), &stamps[..]);

    // The shared owner's removal moves the value clock too; the next owner takes its stamp
    // slot, unshared.
    let values = engine.value_clock();
    engine.remove_owner(camera).unwrap();
    assert!(engine.value_clock() > values);
    let next = engine.create_owner("next", AddressSpace::Uniform);
    assert_eq!(engine.stamp_slot(next).unwrap() as usize, camera_slot);
    engine.set_bytes(next, &mat(1.0)).unwrap();
    engine.begin_submission().unwrap();
    engine.resolve(next).unwrap();
    engine.memos_in_use();
    let values = engine.value_clock();
    engine.set_bytes(next, &mat(2.0)).unwrap();
    assert!(engine.value_clock() > values, "the reused slot is unshared");
    engine.finish_submission().unwrap();
    submit_empty(&ctx);
}

/// `set_bytes_if_set` compares a short value word by word (16 to 64 bytes, whole 16-byte words)
/// and any other length with `bcmp`: for each length, equal bytes are an unchanged set (no
/// revision, counted as unchanged) and a difference in any one byte is a change that the
/// owner's bytes then hold.
#[test]
fn set_bytes_if_set_sees_every_byte_at_every_length() {
    let (_ctx, mut engine) = noop_engine(EngineConfig::default());
    for len in [4usize, 12, 16, 32, 48, 64, 80, 128, 256] {
        let owner = engine.create_owner(&format!("value of {len} bytes"), AddressSpace::Uniform);
        let mut value: Vec<u8> = (0..len).map(|i| (i * 7 + len) as u8).collect();
        assert_eq!(engine.set_bytes_if_set(owner, &value), None, "never set");
        engine.set_bytes(owner, &value).unwrap();
        // The second set keeps a CPU copy, which the later sets compare against.
        assert_eq!(engine.set_bytes_if_set(owner, &value), Some(false), "{len}");
        engine.take_unchanged_sets();
        for at in 0..len {
            let revision = engine.revision(owner).unwrap();
            assert_eq!(engine.set_bytes_if_set(owner, &value), Some(false));
            assert_eq!(engine.take_unchanged_sets(), 1);
            assert_eq!(
                engine.revision(owner),
                Some(revision),
                "{len} bytes, unchanged"
            );
            value[at] ^= 0x80;
            assert_eq!(
                engine.set_bytes_if_set(owner, &value),
                Some(true),
                "{len} bytes, byte {at} changed"
            );
            assert_eq!(engine.take_unchanged_sets(), 0);
            assert_eq!(engine.revision(owner), Some(revision + 1));
            assert_eq!(engine.bytes(owner), Some(&value[..]));
        }
        // Another length is not this owner's value: the caller's full path decides.
        assert_eq!(engine.set_bytes_if_set(owner, &value[..len / 2]), None);
    }
}
