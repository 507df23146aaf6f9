//! (f) bundles keep what they recorded alive; replays see live values.

use std::num::NonZeroU64;

use glam::{Mat4, Vec3};
use vgpu::{
    BindingArg, Buffer, BufferDesc, Draw, DrawDesc, FrameReport, Gpu, SharedUniforms, Target, value,
};

use super::{
    CLEAR, LEFT, RIGHT, TRIANGLE_SHADER, WHITE, assert_pixel, assert_zero_work, raw_uniform, world,
};

/// A square of half-size 0.4 moved by camera and object, painted from a uniform buffer
/// (library-owned or user-owned, per draw).
const QUAD_SHADER: &str = "
struct Frame { view_projection: mat4x4f }
struct Object { world: mat4x4f }
struct Paint { color: vec4f }
@group(0) @binding(0) var<uniform> frame: Frame;
@group(1) @binding(0) var<uniform> object: Object;
@group(1) @binding(1) var<uniform> paint: Paint;
@vertex fn vs_main(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
    var p = array<vec2f, 6>(vec2f(-0.4, -0.4), vec2f(0.4, -0.4), vec2f(0.4, 0.4),
                            vec2f(-0.4, -0.4), vec2f(0.4, 0.4), vec2f(-0.4, 0.4));
    return frame.view_projection * object.world * vec4f(p[i], 0.0, 1.0);
}
@fragment fn fs_main() -> @location(0) vec4f { return paint.color; }
";

/// Quadrant centers (clip space) and the 32×32 pixel at the center of each.
const QUADRANTS: [([f32; 3], (u32, u32)); 4] = [
    ([-0.5, 0.5, 0.0], (8, 8)),
    ([0.5, 0.5, 0.0], (24, 8)),
    ([-0.5, -0.5, 0.0], (8, 24)),
    ([0.5, -0.5, 0.0], (24, 24)),
];
const COLORS: [[f32; 4]; 4] = [
    [1.0, 0.0, 0.0, 1.0],
    [0.0, 1.0, 0.0, 1.0],
    [0.0, 0.0, 1.0, 1.0],
    [1.0, 1.0, 0.0, 1.0],
];

fn rgba8(c: [f32; 4]) -> [u8; 4] {
    c.map(|x| (x * 255.0).round() as u8)
}

/// Four quads, one per quadrant, each painted through a different kind of binding: a vgpu
/// buffer, a raw wgpu buffer, a range of a vgpu buffer, a library-owned value. All bind one
/// shared camera block and their own object value.
struct Quads {
    camera: SharedUniforms,
    draws: Vec<Draw>,
    paint: Buffer,
    raw: wgpu::Buffer,
    ranged: Buffer,
}

fn quads(gpu: &Gpu) -> Quads {
    let shader = gpu.shader("quad", QUAD_SHADER).expect("shader");
    let align = u64::from(gpu.context().limits().min_uniform_buffer_offset_alignment);
    let camera = gpu
        .uniforms(value! { view_projection: Mat4::IDENTITY })
        .expect("camera");
    let paint = gpu
        .buffer_init(
            "paint",
            bytemuck::cast_slice(&COLORS[0]),
            wgpu::BufferUsages::UNIFORM,
        )
        .expect("paint");
    let raw = raw_uniform(gpu, 16);
    gpu.queue()
        .write_buffer(&raw, 0, bytemuck::cast_slice(&COLORS[1]));
    let ranged = gpu
        .buffer(&BufferDesc {
            label: "ranged".into(),
            size: 2 * align,
            usage: wgpu::BufferUsages::UNIFORM,
        })
        .expect("ranged");
    ranged
        .write(align, bytemuck::cast_slice(&COLORS[2]))
        .expect("write");
    let draws: Vec<Draw> = QUADRANTS
        .iter()
        .enumerate()
        .map(|(i, (center, _))| {
            let d = gpu
                .draw(
                    &shader,
                    DrawDesc {
                        label: format!("quad {i}"),
                        vertex_count: Some(6),
                        ..Default::default()
                    },
                )
                .expect("draw");
            d.set("frame", &camera).expect("frame");
            d.set(
                "object",
                value! { world: Mat4::from_translation(Vec3::from(*center)) * Mat4::from_scale(Vec3::new(0.5, 0.5, 1.0)) },
            )
            .expect("object");
            let paint_bind = match i {
                0 => BindingArg::Buffer(&paint),
                1 => BindingArg::RawBuffer(&raw),
                2 => BindingArg::BufferRange(&ranged, align, NonZeroU64::new(16)),
                _ => BindingArg::Value(value! { color: COLORS[3] }),
            };
            d.set("paint", paint_bind).expect("paint");
            d
        })
        .collect();
    Quads {
        camera,
        draws,
        paint,
        raw,
        ranged,
    }
}

fn replay(gpu: &Gpu, target: &Target, bundle: &vgpu::Bundle) -> FrameReport {
    let r = gpu
        .frame(|f| f.pass(target, |p| p.execute(bundle)))
        .expect("replay");
    gpu.wait_idle().expect("wait");
    r
}

fn assert_quadrants(target: &Target, colors: [[f32; 4]; 4], what: &str) {
    let image = target.read_rgba8().expect("read back");
    for (i, (_, (x, y))) in QUADRANTS.iter().enumerate() {
        assert_eq!(
            image.pixel(*x, *y),
            Some(rgba8(colors[i])),
            "{what}: quadrant {i}"
        );
    }
    assert_eq!(image.pixel(16, 16), Some(CLEAR), "{what}: between quads");
}

#[test]
fn f_bundle_keeps_draws_blocks_and_buffers_alive_after_the_user_drops_them() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    let target = gpu.target(32, 32).expect("target");
    let q = quads(&gpu);
    let bundle = gpu
        .bundle("quads", target.signature(), |b| {
            for d in &q.draws {
                b.draw(d)?;
            }
            Ok(())
        })
        .expect("bundle");
    drop(q);
    // Churn: many other values come and go, so unused capture pages get released.
    let shader = gpu.shader("quad", QUAD_SHADER).expect("shader");
    let other = gpu.target(8, 8).expect("other");
    let (pages_before, created_before) = (gpu.uniform_gauges().pages, gpu.stats().pages_created);
    let mut peak = 0;
    // Enough objects to need pages of their own at the device's slot alignment: two pages'
    // worth of slots (each object also sets a paint value in the same pages).
    let align = u64::from(
        gpu.device()
            .limits()
            .min_uniform_buffer_offset_alignment
            .max(16),
    );
    let objects = (2 * vgpu_uniforms::EngineConfig::DEFAULT_PAGE_SIZE / align) as usize;
    for round in 0..3 {
        let camera = gpu
            .uniforms(value! { view_projection: Mat4::IDENTITY })
            .expect("camera");
        let temp: Vec<Draw> = (0..objects)
            .map(|i| {
                let d = gpu.draw(&shader, DrawDesc::default()).expect("draw");
                d.set("frame", &camera).expect("frame");
                d.set("object", value! { world: world(i) }).expect("object");
                d.set("paint", value! { color: [round as f32, 0.0, 0.0, 1.0] })
                    .expect("paint");
                d
            })
            .collect();
        gpu.frame(|f| {
            f.pass(&other, |p| {
                for d in &temp {
                    p.draw(d)?;
                }
                Ok(())
            })
        })
        .expect("churn frame");
        peak = peak.max(gpu.uniform_gauges().pages);
        drop(temp);
        for _ in 0..3 {
            gpu.frame(|f| f.pass(&other, |_| Ok(())))
                .expect("empty frame");
        }
    }
    // The churn created pages, and released them again before the replay.
    assert!(
        gpu.stats().pages_created > created_before,
        "churn made pages"
    );
    assert!(peak > pages_before, "churn grew the pool");
    assert!(
        gpu.uniform_gauges().pages < peak,
        "unused pages released: {:?}",
        gpu.uniform_gauges()
    );
    gpu.wait_idle().expect("wait");
    replay(&gpu, &target, &bundle);
    assert_quadrants(&target, COLORS, "replay after the handles were dropped");
    let r = replay(&gpu, &target, &bundle);
    assert_eq!(r.stats.bind_groups_created, 0);
    assert_eq!(r.stats.bytes_uploaded, 0);
    assert_quadrants(&target, COLORS, "second replay");
    assert!(gpu.take_uncaptured_errors().is_empty());
}

#[test]
fn f_bundle_replays_see_values_set_after_recording() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    let target = gpu.target(32, 32).expect("target");
    let q = quads(&gpu);
    let bundle = gpu
        .bundle("quads", target.signature(), |b| {
            for d in &q.draws {
                b.draw(d)?;
            }
            Ok(())
        })
        .expect("bundle");
    replay(&gpu, &target, &bundle);
    assert_quadrants(&target, COLORS, "first replay");
    // New values everywhere: the camera flips the picture vertically, the user buffers are
    // written, the library-owned paint is set.
    let new = [
        [0.0, 1.0, 1.0, 1.0],
        [1.0, 0.0, 1.0, 1.0],
        [1.0, 1.0, 1.0, 1.0],
        [0.0, 0.0, 0.0, 1.0],
    ];
    let flip = Mat4::from_scale(Vec3::new(1.0, -1.0, 1.0));
    q.camera
        .set(value! { view_projection: flip })
        .expect("camera");
    q.paint
        .write(0, bytemuck::cast_slice(&new[0]))
        .expect("paint");
    gpu.queue()
        .write_buffer(&q.raw, 0, bytemuck::cast_slice(&new[1]));
    let align = u64::from(gpu.context().limits().min_uniform_buffer_offset_alignment);
    q.ranged
        .write(align, bytemuck::cast_slice(&new[2]))
        .expect("ranged");
    q.draws[3]
        .set("paint", value! { color: new[3] })
        .expect("value");
    replay(&gpu, &target, &bundle);
    // Flipped vertically: quadrant 0 (top left) now shows quad 2's draw, and so on.
    assert_quadrants(
        &target,
        [new[2], new[3], new[0], new[1]],
        "replay after sets",
    );
    // A value set inside the frame, before the replay, is seen too (bundles read live).
    gpu.frame(|f| {
        q.camera.set(value! { view_projection: Mat4::IDENTITY })?;
        q.draws[3].set("paint", value! { color: COLORS[3] })?;
        f.pass(&target, |p| p.execute(&bundle))
    })
    .expect("frame");
    assert_quadrants(&target, [new[0], new[1], new[2], COLORS[3]], "set in frame");
    assert!(gpu.take_uncaptured_errors().is_empty());
}

#[test]
fn f_stale_bundles_fail_instead_of_drawing_garbage() {
    let gpu = Gpu::noop();
    let target = gpu.target(32, 32).expect("target");
    let q = quads(&gpu);
    let record = || {
        gpu.bundle("quads", target.signature(), |b| {
            for d in &q.draws {
                b.draw(d)?;
            }
            Ok(())
        })
        .expect("bundle")
    };
    let bundle = record();
    // Steady replays: no work at all.
    replay(&gpu, &target, &bundle);
    assert_zero_work(&replay(&gpu, &target, &bundle).stats, "bundle replay");
    // Rebinding a draw makes the bundle stale.
    let replacement = gpu
        .buffer_init(
            "replacement",
            bytemuck::cast_slice(&COLORS[1]),
            wgpu::BufferUsages::UNIFORM,
        )
        .expect("buffer");
    q.draws[0].set("paint", &replacement).expect("rebind");
    let e = gpu
        .frame(|f| f.pass(&target, |p| p.execute(&bundle)))
        .expect_err("stale after rebind");
    assert_eq!(e.code(), "VGPU-BUNDLE-STALE", "{e}");
    assert!(e.to_string().contains("quad 0"), "{e}");
    // Re-recorded, it replays; destroying a buffer it uses makes it stale again.
    let bundle = record();
    replay(&gpu, &target, &bundle);
    replacement.destroy();
    let e = gpu
        .frame(|f| f.pass(&target, |p| p.execute(&bundle)))
        .expect_err("stale after destroy");
    assert_eq!(e.code(), "VGPU-BUNDLE-STALE", "{e}");
    assert!(e.to_string().contains("destroyed"), "{e}");
}

#[test]
fn f_block_pinned_by_a_bundle_keeps_per_pass_snapshots_for_other_draws() {
    // A camera block bound both by a bundle's draw (pinned, read live) and by an ordinary draw:
    // set to A, pass 1 draws the ordinary draw; set to B, pass 2 replays the bundle. The
    // ordinary draw was recorded while the block held A and must show A (docs/design.md §3.2); the
    // bundle shows the latest value, B. In steady state nothing is uploaded.
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    let shader = gpu.shader("triangle", TRIANGLE_SHADER).expect("shader");
    let camera = gpu
        .uniforms(value! { view_projection: Mat4::IDENTITY })
        .expect("camera");
    let make = || {
        let d = gpu.draw(&shader, DrawDesc::default()).expect("draw");
        d.set("frame", &camera).expect("frame");
        d.set("object", value! { world: Mat4::IDENTITY })
            .expect("object");
        d
    };
    let (plain, bundled) = (make(), make());
    let targets = [
        gpu.target(32, 32).expect("t1"),
        gpu.target(32, 32).expect("t2"),
    ];
    let bundle = gpu
        .bundle("pinned", targets[1].signature(), |b| b.draw(&bundled))
        .expect("bundle");
    let a = Mat4::from_translation(Vec3::new(-0.5, 0.0, 0.0));
    let b = Mat4::from_translation(Vec3::new(0.5, 0.0, 0.0));
    for frame in 0..4 {
        let r = gpu
            .frame(|f| {
                camera.set(value! { view_projection: a })?;
                f.pass(&targets[0], |p| p.draw(&plain))?;
                camera.set(value! { view_projection: b })?;
                f.pass(&targets[1], |p| p.execute(&bundle))
            })
            .expect("frame");
        assert_pixel(
            &targets[0],
            LEFT,
            WHITE,
            &format!("frame {frame}: ordinary draw, A"),
        );
        assert_pixel(
            &targets[0],
            RIGHT,
            CLEAR,
            &format!("frame {frame}: ordinary draw, A"),
        );
        assert_pixel(
            &targets[1],
            RIGHT,
            WHITE,
            &format!("frame {frame}: bundle, B"),
        );
        if frame >= 2 {
            assert_eq!(r.stats.bytes_uploaded, 0, "frame {frame}: {:?}", r.stats);
        }
    }
}
