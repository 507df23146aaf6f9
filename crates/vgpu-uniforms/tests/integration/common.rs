//! Helpers shared by the vgpu-uniforms integration tests.
#![allow(
    dead_code,
    unreachable_pub,
    missing_docs,
    clippy::unwrap_used,
    reason = "an unwrap in a test is an assertion; test items need no docs; shared helpers, each test binary uses some"
)]

use std::sync::Arc;

use vgpu_core::{GpuContext, StatsSnapshot};
use vgpu_uniforms::{AddressSpace, EngineConfig, OwnerKey, SlotRef, UniformEngine};

pub fn noop_engine(config: EngineConfig) -> (Arc<GpuContext>, UniformEngine) {
    let ctx = GpuContext::noop();
    let engine = UniformEngine::new(ctx.clone(), config);
    (ctx, engine)
}

pub fn snap(ctx: &GpuContext) -> StatsSnapshot {
    ctx.stats().snapshot()
}

/// 64 bytes (a mat4x4f) filled with `v` as f32s.
pub fn mat(v: f32) -> [u8; 64] {
    let mut out = [0u8; 64];
    for c in out.chunks_exact_mut(4) {
        c.copy_from_slice(&v.to_le_bytes());
    }
    out
}

/// Copies `buffer` into a mappable buffer, submits, waits and returns its bytes (works on the
/// noop backend too: it executes buffer copies).
pub fn read_buffer(ctx: &GpuContext, buffer: &wgpu::Buffer) -> Vec<u8> {
    let size = buffer.size();
    let staging = ctx
        .create_buffer(&wgpu::BufferDescriptor {
            label: Some("test read-back"),
            size,
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        })
        .unwrap();
    let mut encoder = ctx
        .device()
        .create_command_encoder(&wgpu::CommandEncoderDescriptor::default());
    encoder.copy_buffer_to_buffer(buffer, 0, &staging, 0, size);
    ctx.submit([encoder.finish()]);
    let slice = staging.slice(..);
    slice.map_async(wgpu::MapMode::Read, |r| r.unwrap());
    ctx.wait_idle().unwrap();
    let bytes = slice.get_mapped_range().unwrap().to_vec();
    staging.unmap();
    bytes
}

/// The bytes an operation bound at `slot` sees, read back from the device after the submission.
pub fn read_slot(ctx: &GpuContext, engine: &UniformEngine, slot: SlotRef, len: usize) -> Vec<u8> {
    let buffer = engine.buffer(slot.buffer).unwrap();
    let all = read_buffer(ctx, buffer);
    all[slot.offset as usize..slot.offset as usize + len].to_vec()
}

/// Submits an empty command buffer (what the lead does after `finish_submission`).
pub fn submit_empty(ctx: &GpuContext) {
    let encoder = ctx
        .device()
        .create_command_encoder(&wgpu::CommandEncoderDescriptor::default());
    ctx.submit([encoder.finish()]);
}

/// `n` uniform owners, each set to `mat(value + i)`.
pub fn owners(engine: &mut UniformEngine, n: usize, value: f32) -> Vec<OwnerKey> {
    (0..n)
        .map(|i| {
            let k = engine.create_owner(&format!("object {i}"), AddressSpace::Uniform);
            engine.set_bytes(k, &mat(value + i as f32)).unwrap();
            k
        })
        .collect()
}

/// One frame: a pass per camera value, each setting and binding the camera, then binding every
/// object; returns the camera's slot in each pass.
pub fn frame(
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

/// Skips the calling test for want of `requirement`, visibly: `SKIPPED <test>: <reason>
/// [<requirement>]` goes straight to the process's standard error (the harness captures only
/// `eprintln!`), and a skip of a requirement `VGPU_REQUIRE` lists fails instead. The same
/// protocol as `vgpu_tests::skip` (tests/src/lib.rs), which this crate's tests cannot depend on.
///
/// # Panics
/// When `VGPU_REQUIRE` lists `requirement`.
#[track_caller]
pub fn skip(requirement: &str, reason: &str) {
    use std::io::Write as _;
    let required = std::env::var("VGPU_REQUIRE")
        .is_ok_and(|list| list.split(',').any(|r| r.trim() == requirement));
    let thread = std::thread::current();
    let test = thread.name().unwrap_or("a test");
    assert!(
        !required,
        "{test}: would skip ({reason}), but VGPU_REQUIRE requires `{requirement}`"
    );
    let line = format!("SKIPPED {test}: {reason} [{requirement}]\n");
    let _ = std::io::stderr().write_all(line.as_bytes());
}
