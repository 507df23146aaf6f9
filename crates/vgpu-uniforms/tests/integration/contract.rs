//! Tier 1 (noop device): the engine's contract at its edges. Every error has its code and
//! changes nothing; offsets are aligned and a binding's size is its value's; the engine moves
//! between threads.
#![allow(
    missing_docs,
    clippy::unwrap_used,
    reason = "an unwrap in a test is an assertion; test items need no docs"
)]

use crate::common::noop_engine;
use vgpu_core::ErrorCode as _;
use vgpu_uniforms::{AddressSpace, EngineConfig, UniformEngine};

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
