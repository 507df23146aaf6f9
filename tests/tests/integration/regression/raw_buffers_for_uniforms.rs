//! (e) raw wgpu buffers and buffer bindings for `var<uniform>`.

use std::num::NonZeroU64;

use vgpu::{Draw, DrawDesc, Gpu, Target, value};

use super::{assert_zero_work, raw_uniform};

/// A full-target triangle painted with a color read from a uniform buffer.
const PAINT_SHADER: &str = "
struct Paint { color: vec4f }
@group(0) @binding(0) var<uniform> paint: Paint;
@vertex fn vs_main(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
    var p = array<vec2f, 3>(vec2f(-1.0, -1.0), vec2f(3.0, -1.0), vec2f(-1.0, 3.0));
    return vec4f(p[i], 0.0, 1.0);
}
@fragment fn fs_main() -> @location(0) vec4f { return paint.color; }
";

fn paint_frame(gpu: &Gpu, pairs: &[(&Draw, &Target)]) {
    gpu.frame(|f| {
        for (d, t) in pairs {
            f.pass(*t, |p| p.draw(d))?;
        }
        Ok(())
    })
    .expect("frame");
}

fn assert_all(target: &Target, want: [u8; 4], what: &str) {
    let image = target.read_rgba8().expect("read back");
    assert!(
        image.data.chunks_exact(4).all(|p| p == want),
        "{what}: expected {want:?}, got {:?} at (0,0)",
        image.pixel(0, 0)
    );
}

#[test]
fn e_raw_buffer_and_buffer_binding_work_for_uniforms_live() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    let shader = gpu.shader("paint", PAINT_SHADER).expect("shader");
    let align = u64::from(gpu.context().limits().min_uniform_buffer_offset_alignment);
    let whole = raw_uniform(&gpu, 16);
    let ranged = raw_uniform(&gpu, 2 * align);
    gpu.queue()
        .write_buffer(&whole, 0, bytemuck::cast_slice(&[1.0f32, 0.0, 0.0, 1.0]));
    gpu.queue()
        .write_buffer(&ranged, 0, bytemuck::cast_slice(&[1.0f32, 1.0, 0.0, 1.0]));
    gpu.queue().write_buffer(
        &ranged,
        align,
        bytemuck::cast_slice(&[0.0f32, 1.0, 0.0, 1.0]),
    );
    let d1 = gpu.draw(&shader, DrawDesc::default()).expect("d1");
    d1.set("paint", &whole).expect("raw buffer");
    let d2 = gpu.draw(&shader, DrawDesc::default()).expect("d2");
    d2.set(
        "paint",
        wgpu::BufferBinding {
            buffer: &ranged,
            offset: align,
            size: NonZeroU64::new(16),
        },
    )
    .expect("buffer binding");
    let (t1, t2) = (gpu.target(8, 8).expect("t1"), gpu.target(8, 8).expect("t2"));
    paint_frame(&gpu, &[(&d1, &t1), (&d2, &t2)]);
    assert_all(&t1, [255, 0, 0, 255], "raw buffer");
    assert_all(&t2, [0, 255, 0, 255], "buffer binding at offset");
    // Bound by identity: writes to the user's buffers are seen by the next frame.
    gpu.queue()
        .write_buffer(&whole, 0, bytemuck::cast_slice(&[0.0f32, 0.0, 1.0, 1.0]));
    gpu.queue().write_buffer(
        &ranged,
        align,
        bytemuck::cast_slice(&[1.0f32, 0.0, 1.0, 1.0]),
    );
    paint_frame(&gpu, &[(&d1, &t1), (&d2, &t2)]);
    assert_all(&t1, [0, 0, 255, 255], "raw buffer after write");
    assert_all(&t2, [255, 0, 255, 255], "buffer binding after write");
    // The user may drop their handle: the binding keeps the buffer alive.
    drop(whole);
    paint_frame(&gpu, &[(&d1, &t1)]);
    assert_all(
        &t1,
        [0, 0, 255, 255],
        "raw buffer after the handle was dropped",
    );
    assert!(gpu.take_uncaptured_errors().is_empty());
}

#[test]
fn e_raw_uniform_buffers_make_no_bind_groups_in_steady_frames() {
    let gpu = Gpu::noop();
    let shader = gpu.shader("paint", PAINT_SHADER).expect("shader");
    let align = u64::from(gpu.context().limits().min_uniform_buffer_offset_alignment);
    let raw = raw_uniform(&gpu, 100 * align);
    let draws: Vec<Draw> = (0..100u64)
        .map(|i| {
            let d = gpu.draw(&shader, DrawDesc::default()).expect("draw");
            d.set(
                "paint",
                wgpu::BufferBinding {
                    buffer: &raw,
                    offset: i * align,
                    size: NonZeroU64::new(16),
                },
            )
            .expect("binding");
            d
        })
        .collect();
    let target = gpu.target(8, 8).expect("target");
    let run = || {
        gpu.frame(|f| {
            f.pass(&target, |p| {
                for d in &draws {
                    p.draw(d)?;
                }
                Ok(())
            })
        })
        .expect("frame")
    };
    let first = run();
    assert_eq!(
        first.stats.bind_groups_created, 100,
        "one per distinct range"
    );
    for _ in 0..3 {
        assert_zero_work(&run().stats, "raw buffer ranges, steady");
    }
    // Setting the same range again is free.
    draws[0]
        .set(
            "paint",
            wgpu::BufferBinding {
                buffer: &raw,
                offset: 0,
                size: NonZeroU64::new(16),
            },
        )
        .expect("same binding");
    assert_zero_work(&run().stats, "same range re-set");
}

#[test]
fn e_invalid_raw_ranges_fail_at_set_with_a_clear_error() {
    let gpu = Gpu::noop();
    let shader = gpu.shader("paint", PAINT_SHADER).expect("shader");
    let d = gpu.draw(&shader, DrawDesc::default()).expect("draw");
    let align = u64::from(gpu.context().limits().min_uniform_buffer_offset_alignment);
    let raw = raw_uniform(&gpu, 2 * align);
    let cases = [
        (4, NonZeroU64::new(16), "offset alignment"),
        (align, NonZeroU64::new(align + 16), "range"),
        (0, NonZeroU64::new(8), "size"),
    ];
    for (offset, size, what) in cases {
        let e = d
            .set(
                "paint",
                wgpu::BufferBinding {
                    buffer: &raw,
                    offset,
                    size,
                },
            )
            .expect_err(what);
        assert_eq!(e.code(), "VGPU-SET-BUFFER-RANGE", "{what}: {e}");
        let text = e.to_string();
        assert!(text.contains("paint") && text.contains(what), "{text}");
    }
    let storage_only = gpu.device().create_buffer(&wgpu::BufferDescriptor {
        label: Some("storage only"),
        size: 16,
        usage: wgpu::BufferUsages::STORAGE,
        mapped_at_creation: false,
    });
    let e = d.set("paint", &storage_only).expect_err("usage");
    assert_eq!(e.code(), "VGPU-SET-BUFFER-RANGE");
    assert!(e.to_string().contains("UNIFORM"), "{e}");
    // Nothing was latched by the rejected sets: a value still binds.
    d.set("paint", value! { color: [1.0, 0.0, 0.0, 1.0] })
        .expect("value after rejected raw sets");
    // ... and a raw buffer on a library-owned binding is an ownership error, not a silent
    // switch (the upstream `ownershipFor` confusion).
    let ok = raw_uniform(&gpu, 16);
    let e = d.set("paint", &ok).expect_err("ownership");
    assert_eq!(e.code(), "VGPU-SET-OWNERSHIP", "{e}");
}
