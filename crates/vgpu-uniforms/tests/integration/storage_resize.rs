//! Tier 1 (noop device): a storage owner's value replaces the whole buffer, so a set of another
//! size (a runtime-sized array that grew or shrank) gives it a new buffer; uniform owners keep
//! their first size.
#![allow(
    missing_docs,
    clippy::unwrap_used,
    reason = "an unwrap in a test is an assertion; test items need no docs"
)]

use crate::common::{noop_engine, read_buffer, read_slot, snap, submit_empty};
use vgpu_core::ErrorCode as _;
use vgpu_uniforms::{
    AddressSpace, BufferKey, EngineConfig, OwnerKey, StorageKey, UniformEngine, UniformsError,
};

fn storage_key(buffer: BufferKey) -> StorageKey {
    match buffer {
        BufferKey::Storage(k) => k,
        BufferKey::Page(_) => panic!("not a storage buffer: {buffer:?}"),
    }
}

fn stamp(engine: &UniformEngine, key: OwnerKey) -> u64 {
    engine.stamps()[engine.stamp_slot(key).unwrap() as usize]
}

/// One submission that binds `key`; returns where.
fn bind_once(engine: &mut UniformEngine, key: OwnerKey) -> vgpu_uniforms::SlotRef {
    engine.begin_submission().unwrap();
    let slot = engine.resolve(key).unwrap();
    engine.finish_submission().unwrap();
    slot
}

/// Between submissions: the old buffer goes at once (no submission can read it), the new one
/// has the new size, a new key, and gets the bytes at the next finish.
#[test]
fn storage_owner_grows_and_shrinks_between_submissions() {
    let (ctx, mut engine) = noop_engine(EngineConfig::default());
    let s = engine.create_owner("particles", AddressSpace::Storage);
    let before = snap(&ctx);
    engine.set_bytes(s, &[1u8; 40]).unwrap();
    assert_eq!((snap(&ctx) - before).buffers_created, 1);
    let r1 = bind_once(&mut engine, s);
    submit_empty(&ctx);
    assert_eq!(engine.drain_released().count(), 0);
    let (rev, st) = (engine.revision(s).unwrap(), stamp(&engine, s));

    // Grow.
    let before = snap(&ctx);
    assert!(engine.set_bytes(s, &[2u8; 80]).unwrap());
    assert_eq!((snap(&ctx) - before).buffers_created, 1);
    assert_eq!(engine.revision(s), Some(rev + 1));
    assert_ne!(stamp(&engine, s), st);
    assert_eq!(engine.binding_size(s).unwrap().get(), 80);
    assert_eq!(engine.bytes(s).unwrap(), &[2u8; 80][..]);
    assert!(engine.storage_buffer(storage_key(r1.buffer)).is_none());
    assert_eq!(engine.drain_released().collect::<Vec<_>>(), vec![r1.buffer]);
    assert_eq!(engine.gauges().storage_buffers, 1);
    let before = snap(&ctx);
    let r2 = bind_once(&mut engine, s);
    let d = snap(&ctx) - before;
    assert_ne!(r2.buffer, r1.buffer);
    assert_eq!(r2.offset, 0);
    assert_eq!(
        (d.write_calls, d.bytes_uploaded, d.buffers_created),
        (1, 80, 0)
    );
    submit_empty(&ctx);
    assert_eq!(read_slot(&ctx, &engine, r2, 80), vec![2u8; 80]);
    assert_eq!(engine.buffer(r2.buffer).unwrap().size(), 80);

    // Shrink through `update_sized`: the scratch starts as the current bytes, cut to the size.
    let before = snap(&ctx);
    let changed = engine
        .update_sized(s, 12, |b| {
            assert_eq!(b, &[2u8; 12][..]);
            b[0] = 9;
            Ok::<(), UniformsError>(())
        })
        .unwrap();
    assert!(changed);
    assert_eq!((snap(&ctx) - before).buffers_created, 1);
    assert_eq!(engine.binding_size(s).unwrap().get(), 12);
    assert_eq!(engine.drain_released().collect::<Vec<_>>(), vec![r2.buffer]);
    let r3 = bind_once(&mut engine, s);
    assert!(![r1.buffer, r2.buffer].contains(&r3.buffer));
    submit_empty(&ctx);
    let mut expected = vec![2u8; 12];
    expected[0] = 9;
    assert_eq!(read_slot(&ctx, &engine, r3, 12), expected);

    // Grow through `update_sized`: zero-extended. A size not a multiple of 4 binds rounded up.
    engine
        .update_sized(s, 14, |b| {
            assert_eq!(&b[12..], &[0, 0]);
            Ok::<(), UniformsError>(())
        })
        .unwrap();
    assert_eq!(engine.binding_size(s).unwrap().get(), 16);
    assert_eq!(engine.drain_released().collect::<Vec<_>>(), vec![r3.buffer]);
    let r4 = bind_once(&mut engine, s);
    submit_empty(&ctx);
    expected.extend_from_slice(&[0, 0]);
    assert_eq!(read_slot(&ctx, &engine, r4, 14), expected);

    // `update` keeps the size; a same-size set keeps the buffer and the stamp.
    let st = stamp(&engine, s);
    let before = snap(&ctx);
    engine
        .update(s, |b| {
            assert_eq!(b.len(), 14);
            b[1] = 7;
            Ok::<(), UniformsError>(())
        })
        .unwrap();
    engine.set_bytes(s, &[5u8; 14]).unwrap();
    assert_eq!(stamp(&engine, s), st);
    assert_eq!(bind_once(&mut engine, s), r4);
    let d = snap(&ctx) - before;
    assert_eq!((d.buffers_created, d.write_calls), (0, 1));
    assert_eq!(engine.drain_released().count(), 0);
    assert_eq!(ctx.take_uncaptured_errors(), vec![]);
}

/// Inside an open submission: operations already recorded may bind the old buffer, so it stays
/// (and receives, at the finish, the bytes they were recorded with if those were still queued)
/// until the submission ends; only then does `drain_released` report it.
#[test]
fn storage_owner_resized_in_a_submission_keeps_the_old_buffer_until_it_ends() {
    let (ctx, mut engine) = noop_engine(EngineConfig::default());
    let s = engine.create_owner("instances", AddressSpace::Storage);
    engine.set_bytes(s, &[1u8; 40]).unwrap();
    bind_once(&mut engine, s);
    submit_empty(&ctx);

    // Grow after a same-size set that is still queued: the old buffer gets those bytes.
    engine.begin_submission().unwrap();
    let old = engine.resolve(s).unwrap();
    engine.set_bytes(s, &[2u8; 40]).unwrap();
    let before = snap(&ctx);
    assert!(engine.set_bytes(s, &[3u8; 80]).unwrap());
    assert_eq!((snap(&ctx) - before).buffers_created, 1);
    assert_eq!(engine.binding_size(s).unwrap().get(), 80);
    assert_eq!(engine.drain_released().count(), 0, "released while in use");
    let old_buffer = engine
        .storage_buffer(storage_key(old.buffer))
        .unwrap()
        .clone();
    assert_eq!(engine.gauges().storage_buffers, 2);
    let new = engine.resolve(s).unwrap();
    assert_ne!(new.buffer, old.buffer);
    let before = snap(&ctx);
    engine.finish_submission().unwrap();
    let d = snap(&ctx) - before;
    // The new buffer's 80 bytes and the old buffer's queued 40, one write each.
    assert_eq!((d.write_calls, d.bytes_uploaded), (2, 120));
    assert_eq!(
        engine.drain_released().collect::<Vec<_>>(),
        vec![old.buffer]
    );
    assert!(engine.storage_buffer(storage_key(old.buffer)).is_none());
    assert_eq!(engine.gauges().storage_buffers, 1);
    submit_empty(&ctx);
    assert_eq!(read_buffer(&ctx, &old_buffer), vec![2u8; 40]);
    assert_eq!(read_slot(&ctx, &engine, new, 80), vec![3u8; 80]);
    drop(old_buffer);

    // Shrink when the old bytes are already on the device: nothing more goes to the old buffer.
    engine.begin_submission().unwrap();
    let old = engine.resolve(s).unwrap();
    assert_eq!(old, new);
    let before = snap(&ctx);
    engine.set_bytes(s, &[4u8; 20]).unwrap();
    assert!(engine.storage_buffer(storage_key(old.buffer)).is_some());
    assert_eq!(engine.drain_released().count(), 0);
    let shrunk = engine.resolve(s).unwrap();
    engine.finish_submission().unwrap();
    let d = snap(&ctx) - before;
    assert_eq!(
        (d.buffers_created, d.write_calls, d.bytes_uploaded),
        (1, 1, 20)
    );
    assert_eq!(
        engine.drain_released().collect::<Vec<_>>(),
        vec![old.buffer]
    );
    submit_empty(&ctx);
    assert_eq!(read_slot(&ctx, &engine, shrunk, 20), vec![4u8; 20]);

    // Two resizes in one submission: each replaced buffer goes at its end, none before.
    engine.begin_submission().unwrap();
    let a = engine.resolve(s).unwrap();
    engine.set_bytes(s, &[5u8; 24]).unwrap();
    let b = engine.resolve(s).unwrap();
    engine.set_bytes(s, &[6u8; 28]).unwrap();
    let c = engine.resolve(s).unwrap();
    assert_eq!(engine.drain_released().count(), 0);
    assert_eq!(engine.gauges().storage_buffers, 3);
    engine.finish_submission().unwrap();
    let mut released = engine.drain_released().collect::<Vec<_>>();
    released.sort_by_key(|k| format!("{k:?}"));
    let mut expected = vec![a.buffer, b.buffer];
    expected.sort_by_key(|k| format!("{k:?}"));
    assert_eq!(released, expected);
    submit_empty(&ctx);
    assert_eq!(read_slot(&ctx, &engine, c, 28), vec![6u8; 28]);

    // A cancelled submission uploads nothing, releases the old buffer at its end, and the new
    // buffer gets the bytes at the next finish.
    engine.begin_submission().unwrap();
    let old = engine.resolve(s).unwrap();
    engine.set_bytes(s, &[7u8; 44]).unwrap();
    let before = snap(&ctx);
    engine.cancel_submission();
    assert_eq!((snap(&ctx) - before).write_calls, 0);
    assert_eq!(
        engine.drain_released().collect::<Vec<_>>(),
        vec![old.buffer]
    );
    let before = snap(&ctx);
    let r = bind_once(&mut engine, s);
    let d = snap(&ctx) - before;
    assert_eq!((d.write_calls, d.bytes_uploaded), (1, 44));
    submit_empty(&ctx);
    assert_eq!(read_slot(&ctx, &engine, r, 44), vec![7u8; 44]);
    assert_eq!(engine.gauges().storage_buffers, 1);
    assert_eq!(ctx.take_uncaptured_errors(), vec![]);
}

/// Uniform owners keep the size of their first set; rejected sizes change nothing and create no
/// buffer, for storage owners too (zero bytes, over the limit, a failing `update_sized`).
#[test]
fn rejected_sizes_change_nothing() {
    let (ctx, mut engine) = noop_engine(EngineConfig::default());
    let u = engine.create_owner("globals", AddressSpace::Uniform);
    engine.set_bytes(u, &[1u8; 64]).unwrap();
    let before = snap(&ctx);
    let err = engine.set_bytes(u, &[1u8; 32]).unwrap_err();
    assert_eq!(err.code(), "VGPU-UNIFORMS-SIZE-MISMATCH");
    let err = engine
        .update_sized(u, 128, |_| Ok::<(), UniformsError>(()))
        .unwrap_err();
    assert_eq!(err.code(), "VGPU-UNIFORMS-SIZE-MISMATCH");
    let err = engine.set_bytes(u, &[]).unwrap_err();
    assert_eq!(err.code(), "VGPU-UNIFORMS-SIZE-MISMATCH");
    assert_eq!(engine.revision(u), Some(1));
    assert_eq!(engine.binding_size(u).unwrap().get(), 64);

    let s = engine.create_owner("lights", AddressSpace::Storage);
    engine.set_bytes(s, &[1u8; 32]).unwrap();
    let r = bind_once(&mut engine, s);
    let st = stamp(&engine, s);
    let before_storage = snap(&ctx);
    let err = engine.set_bytes(s, &[]).unwrap_err();
    assert_eq!(err.code(), "VGPU-UNIFORMS-EMPTY");
    let err = engine
        .update_sized(s, 0, |_| Ok::<(), UniformsError>(()))
        .unwrap_err();
    assert_eq!(err.code(), "VGPU-UNIFORMS-EMPTY");
    let max = engine.context().limits().max_storage_buffer_binding_size as usize;
    let mut ran = false;
    let err = engine
        .update_sized(s, max + 4, |_| {
            ran = true;
            Ok::<(), UniformsError>(())
        })
        .unwrap_err();
    assert_eq!(err.code(), "VGPU-UNIFORMS-LIMIT");
    assert!(!ran, "the size is checked before packing");
    // A failing packer: no new buffer, no change.
    let err = engine
        .update_sized(s, 64, |b| {
            b.fill(9);
            Err(UniformsError::NoSubmission { operation: "test" })
        })
        .unwrap_err();
    assert_eq!(err.code(), "VGPU-UNIFORMS-NO-SUBMISSION");
    assert_eq!(engine.revision(s), Some(1));
    assert_eq!(engine.bytes(s).unwrap(), &[1u8; 32][..]);
    assert_eq!(stamp(&engine, s), st);
    assert_eq!(bind_once(&mut engine, s), r);
    assert_eq!(engine.drain_released().count(), 0);
    let d = snap(&ctx) - before;
    assert_eq!(
        d.buffers_created, 1,
        "only the storage owner's first buffer"
    );
    assert_eq!((snap(&ctx) - before_storage).buffers_created, 0);
}
