//! Tier 1 (noop): every error of the indirect draws (`Pass::draw_indirect`,
//! `multi_draw_indirect`, `multi_draw_indirect_count`, `BundleRecorder::draw_indirect`) is a
//! typed code naming the draw and the buffer, returned before wgpu sees the call: the frame
//! around the refused call records no draw, sets no pipeline, and wgpu reports no error.

#![allow(clippy::unwrap_used, reason = "an unwrap in a test is an assertion")]

use vgpu::{BufferDesc, Gpu, IndexBuffer, Pass};

const SHADER: &str = "
@vertex fn vs_main(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
    return vec4f(f32(i & 1u), f32(i >> 1u), 0.0, 1.0);
}
@fragment fn fs_main() -> @location(0) vec4f { return vec4f(1.0); }
";

fn draw(gpu: &Gpu, label: &str) -> vgpu::Draw {
    let shader = gpu.shader(label, SHADER).unwrap();
    gpu.draw(
        &shader,
        vgpu::DrawDesc {
            label: label.into(),
            ..Default::default()
        },
    )
    .unwrap()
}

/// An indexed draw (its indirect arguments are 20 bytes).
fn indexed(gpu: &Gpu) -> vgpu::Draw {
    let shader = gpu.shader("indexed", SHADER).unwrap();
    let index = gpu
        .buffer_init("indices", &[0u8; 8], wgpu::BufferUsages::INDEX)
        .unwrap();
    gpu.draw(
        &shader,
        vgpu::DrawDesc {
            label: "indexed".into(),
            index_buffer: Some(IndexBuffer::new(&index, wgpu::IndexFormat::Uint16, 3)),
            ..Default::default()
        },
    )
    .unwrap()
}

fn buffer(gpu: &Gpu, label: &str, size: u64, usage: wgpu::BufferUsages) -> vgpu::Buffer {
    gpu.buffer(&BufferDesc {
        label: label.into(),
        size,
        usage,
    })
    .unwrap()
}

/// A noop `Gpu` with `MULTI_DRAW_INDIRECT_COUNT` (the noop adapter has every feature; vgpu's
/// own noop device requests none of the optional ones), built from wgpu objects. Without
/// wgpu's indirect-call validation, whose limits check the noop adapter fails.
fn gpu_with_count() -> Gpu {
    let instance = wgpu::Instance::new(wgpu::InstanceDescriptor {
        backends: wgpu::Backends::NOOP,
        backend_options: wgpu::BackendOptions {
            noop: wgpu::NoopBackendOptions::enabled(),
            ..Default::default()
        },
        flags: wgpu::InstanceFlags::default()
            .difference(wgpu::InstanceFlags::VALIDATION_INDIRECT_CALL),
        ..wgpu::InstanceDescriptor::new_without_display_handle()
    });
    let adapter =
        pollster::block_on(instance.request_adapter(&wgpu::RequestAdapterOptions::default()))
            .unwrap();
    let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
        required_features: wgpu::Features::MULTI_DRAW_INDIRECT_COUNT,
        ..Default::default()
    }))
    .unwrap();
    Gpu::from_context(vgpu_core::GpuContext::with_instance(
        instance, adapter, device, queue,
    ))
}

/// Runs `call` in a pass of a frame and asserts it failed with `code` (its message naming each
/// of `names`), and that the frame recorded nothing and wgpu saw nothing wrong.
#[track_caller]
fn refused(
    gpu: &Gpu,
    code: &str,
    names: &[&str],
    call: impl FnOnce(&mut Pass<'_>) -> vgpu::Result<()>,
) {
    let target = gpu.target(4, 4).unwrap();
    let mut result = None;
    let report = gpu
        .frame(|f| {
            f.pass(&target, |p| {
                result = Some(call(p));
                Ok(())
            })
        })
        .unwrap();
    let e = result.unwrap().expect_err("the call must be refused");
    assert_eq!(e.code(), code, "{e}");
    let message = e.to_string();
    for name in names {
        assert!(message.contains(name), "{message:?} does not name {name:?}");
    }
    assert_eq!(
        report.stats.operations_recorded, 0,
        "{code}: nothing recorded"
    );
    assert_eq!(
        report.stats.set_pipeline_calls, 0,
        "{code}: no pipeline set"
    );
    let errors = gpu.take_uncaptured_errors();
    assert!(errors.is_empty(), "uncaptured wgpu errors: {errors:?}");
}

const INDIRECT: wgpu::BufferUsages = wgpu::BufferUsages::INDIRECT;

/// The argument buffer: usage, alignment, range (16 bytes per draw, 20 indexed; an offset that
/// overflows), destroyed.
#[test]
fn argument_buffers_are_checked() {
    let gpu = Gpu::noop();
    let d = draw(&gpu, "the draw");
    let plain = buffer(&gpu, "no indirect", 64, wgpu::BufferUsages::STORAGE);
    refused(
        &gpu,
        "VGPU-INDIRECT-USAGE",
        &["the draw", "no indirect", "INDIRECT"],
        |p| p.draw_indirect(&d, &plain, 0),
    );
    let args = buffer(&gpu, "args", 32, INDIRECT);
    refused(
        &gpu,
        "VGPU-INDIRECT-ALIGNMENT",
        &["the draw", "args", "offset 2"],
        |p| p.draw_indirect(&d, &args, 2),
    );
    refused(
        &gpu,
        "VGPU-INDIRECT-RANGE",
        &["the draw", "args", "offset 20", "16", "32"],
        |p| p.draw_indirect(&d, &args, 20),
    );
    refused(&gpu, "VGPU-INDIRECT-RANGE", &["offset 0 + 48"], |p| {
        p.multi_draw_indirect(&d, &args, 0, 3)
    });
    refused(&gpu, "VGPU-INDIRECT-RANGE", &["offset 16 + 20"], |p| {
        p.draw_indirect(&indexed(&gpu), &args, 16)
    });
    refused(&gpu, "VGPU-INDIRECT-RANGE", &["args"], |p| {
        p.draw_indirect(&d, &args, u64::MAX - 3)
    });
    refused(&gpu, "VGPU-INDIRECT-RANGE", &["args"], |p| {
        p.multi_draw_indirect(&d, &args, 0, u32::MAX)
    });
    let gone = buffer(&gpu, "gone", 32, INDIRECT);
    gone.destroy();
    refused(
        &gpu,
        "VGPU-INDIRECT-DESTROYED",
        &["the draw", "gone"],
        |p| p.draw_indirect(&d, &gone, 0),
    );
    // The edges that are allowed: the last struct ending at the buffer's end, count 0.
    let target = gpu.target(4, 4).unwrap();
    let report = gpu
        .frame(|f| {
            f.pass(&target, |p| {
                p.draw_indirect(&d, &args, 16)?;
                p.multi_draw_indirect(&d, &args, 0, 2)?;
                p.multi_draw_indirect(&d, &args, 32, 0)
            })
        })
        .unwrap();
    assert_eq!(report.stats.operations_recorded, 3);
    assert!(gpu.take_uncaptured_errors().is_empty());
}

/// `multi_draw_indirect_count` needs `MULTI_DRAW_INDIRECT_COUNT`; with it, the count buffer is
/// checked like the argument buffer (4 bytes).
#[test]
fn count_buffers_and_the_feature_are_checked() {
    let gpu = Gpu::noop();
    let d = draw(&gpu, "the draw");
    let args = buffer(&gpu, "args", 32, INDIRECT);
    let count = buffer(&gpu, "count", 8, INDIRECT);
    refused(
        &gpu,
        "VGPU-FEATURE-MISSING",
        &["the draw", "MULTI_DRAW_INDIRECT_COUNT"],
        |p| p.multi_draw_indirect_count(&d, &args, 0, &count, 0, 2),
    );

    let gpu = gpu_with_count();
    let d = draw(&gpu, "the draw");
    let args = buffer(&gpu, "args", 32, INDIRECT);
    let count = buffer(&gpu, "count", 8, INDIRECT);
    let plain = buffer(&gpu, "plain count", 8, wgpu::BufferUsages::STORAGE);
    refused(
        &gpu,
        "VGPU-INDIRECT-USAGE",
        &["count buffer", "plain count"],
        |p| p.multi_draw_indirect_count(&d, &args, 0, &plain, 0, 2),
    );
    refused(
        &gpu,
        "VGPU-INDIRECT-ALIGNMENT",
        &["count buffer", "offset 1"],
        |p| p.multi_draw_indirect_count(&d, &args, 0, &count, 1, 2),
    );
    refused(
        &gpu,
        "VGPU-INDIRECT-RANGE",
        &["count buffer", "offset 8 + 4"],
        |p| p.multi_draw_indirect_count(&d, &args, 0, &count, 8, 2),
    );
    refused(
        &gpu,
        "VGPU-INDIRECT-RANGE",
        &["arguments buffer", "offset 0 + 48"],
        |p| p.multi_draw_indirect_count(&d, &args, 0, &count, 0, 3),
    );
    let gone = buffer(&gpu, "gone count", 8, INDIRECT);
    gone.destroy();
    refused(
        &gpu,
        "VGPU-INDIRECT-DESTROYED",
        &["count buffer", "gone count"],
        |p| p.multi_draw_indirect_count(&d, &args, 0, &gone, 0, 2),
    );
    let target = gpu.target(4, 4).unwrap();
    let report = gpu
        .frame(|f| {
            f.pass(&target, |p| {
                p.multi_draw_indirect_count(&d, &args, 0, &count, 4, 2)
            })
        })
        .unwrap();
    assert_eq!(report.stats.operations_recorded, 1);
    assert!(gpu.take_uncaptured_errors().is_empty());
}

/// A draw or a buffer of another `Gpu` is `VGPU-FOREIGN-GPU`.
#[test]
fn handles_of_another_gpu_are_refused() {
    let gpu = Gpu::noop();
    let other = Gpu::noop();
    let d = draw(&gpu, "the draw");
    let theirs = draw(&other, "their draw");
    let args = buffer(&gpu, "args", 32, INDIRECT);
    let their_args = buffer(&other, "their args", 32, INDIRECT);
    refused(&gpu, "VGPU-FOREIGN-GPU", &["their draw"], |p| {
        p.draw_indirect(&theirs, &args, 0)
    });
    refused(&gpu, "VGPU-FOREIGN-GPU", &["their args"], |p| {
        p.multi_draw_indirect(&d, &their_args, 0, 1)
    });
}

/// A bundle's `draw_indirect` is checked the same way; a bundle whose argument buffer was
/// destroyed afterwards is `VGPU-BUNDLE-STALE` at replay.
#[test]
fn bundle_indirect_draws_are_checked() {
    let gpu = Gpu::noop();
    let d = draw(&gpu, "the draw");
    let target = gpu.target(4, 4).unwrap();
    let sig = target.signature();
    let args = buffer(&gpu, "args", 16, INDIRECT);
    let e = gpu
        .bundle("b", sig, |b| b.draw_indirect(&d, &args, 4))
        .unwrap_err();
    assert_eq!(e.code(), "VGPU-INDIRECT-RANGE");
    let plain = buffer(&gpu, "plain", 16, wgpu::BufferUsages::STORAGE);
    let e = gpu
        .bundle("b", sig, |b| b.draw_indirect(&d, &plain, 0))
        .unwrap_err();
    assert_eq!(e.code(), "VGPU-INDIRECT-USAGE");
    let bundle = gpu
        .bundle("b", sig, |b| b.draw_indirect(&d, &args, 0))
        .unwrap();
    gpu.frame(|f| f.pass(&target, |p| p.execute(&bundle)))
        .unwrap();
    args.destroy();
    let e = gpu
        .frame(|f| f.pass(&target, |p| p.execute(&bundle)))
        .unwrap_err();
    assert_eq!(e.code(), "VGPU-BUNDLE-STALE");
    assert!(e.to_string().contains("args"), "{e}");
    assert!(gpu.take_uncaptured_errors().is_empty());
}
