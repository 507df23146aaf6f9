//! Tier 2 (real device): every kind of value `set()` accepts reaches the GPU, read back from what
//! the GPU actually executed (target pixels, or a storage buffer).
//!
//! Shaders output `value / 255` into `Rgba8Unorm` targets, so a pixel reads back as the exact
//! integers the test set (no tolerance). Each case also checks the live / snapshot semantics of
//! its kind: values are snapshot per operation, user buffers and textures are read live.
//!
//! The device comes from `VGPU_BACKEND` (`vulkan` → lavapipe, `gl` → llvmpipe); on `noop` the
//! tests return early.

#![allow(clippy::unwrap_used, reason = "an unwrap in a test is an assertion")]

use std::num::NonZeroU64;

use vgpu::{
    BindingArg, BufferDesc, ComputeDesc, Draw, DrawDesc, Gpu, PassDesc, RgbaImage, SamplerDesc,
    TargetDesc, TextureDesc, Value, value,
};
use vgpu_tests::{assert_all_pixels, f32_bytes, fullscreen};

/// Renders `draw` alone into a fresh `w`×`h` target and reads it back.
fn render(gpu: &Gpu, draw: &Draw, w: u32, h: u32) -> RgbaImage {
    let target = gpu.target(w, h).expect("target");
    gpu.frame(|f| f.pass(&target, |p| p.draw(draw)))
        .expect("frame");
    target.read_rgba8().expect("read back")
}

fn no_device_errors(gpu: &Gpu) {
    let errors = gpu.take_uncaptured_errors();
    assert!(errors.is_empty(), "uncaptured wgpu errors: {errors:?}");
}

/// `color * gain + (bias, shift.x, shift.y, 0)`, in units of 1/255.
const OBJECT_FS: &str = "
struct Object { color: vec4f, gain: f32, bias: u32, shift: vec2f }
@group(0) @binding(0) var<uniform> object: Object;
@fragment fn fs_main() -> @location(0) vec4f {
    return (object.color * object.gain + vec4f(f32(object.bias), object.shift, 0.0)) / 255.0;
}
";

fn object_expected(color: [f32; 4], gain: f32, bias: u32, shift: [f32; 2]) -> [u8; 4] {
    let extra = [bias as f32, shift[0], shift[1], 0.0];
    [0, 1, 2, 3].map(|i| (color[i] * gain + extra[i]) as u8)
}

#[test]
fn dynamic_value_struct_reaches_the_shader_and_steady_frames_upload_nothing() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    let draw = fullscreen(&gpu, "object", OBJECT_FS);
    draw.set(
        "object",
        value! { color: [10.0, 20.0, 30.0, 100.0], gain: 2.0, bias: 5u32, shift: [1.0, 2.0] },
    )
    .unwrap();
    let target = gpu.target(4, 4).unwrap();
    let first = gpu.frame(|f| f.pass(&target, |p| p.draw(&draw))).unwrap();
    let want = object_expected([10.0, 20.0, 30.0, 100.0], 2.0, 5, [1.0, 2.0]);
    assert_eq!(want, [25, 41, 62, 200]);
    assert_all_pixels(&target.read_rgba8().unwrap(), want, "first value");
    assert!(
        first.stats.bytes_uploaded >= 32,
        "the value was uploaded: {:?}",
        first.stats
    );

    // Unchanged: nothing uploaded, same pixels (the resident bytes are what the GPU reads).
    let steady = gpu.frame(|f| f.pass(&target, |p| p.draw(&draw))).unwrap();
    assert_eq!(steady.stats.bytes_uploaded, 0, "{:?}", steady.stats);
    assert_eq!(steady.stats.write_calls, 0);
    assert_eq!(steady.stats.bind_groups_created, 0);
    assert_all_pixels(&target.read_rgba8().unwrap(), want, "steady frame");

    // A new full value replaces every field.
    draw.set(
        "object",
        value! { color: [1.0, 2.0, 3.0, 4.0], gain: 10.0, bias: 0u32, shift: [7.0, 9.0] },
    )
    .unwrap();
    let changed = gpu.frame(|f| f.pass(&target, |p| p.draw(&draw))).unwrap();
    assert!(changed.stats.bytes_uploaded > 0);
    assert_all_pixels(
        &target.read_rgba8().unwrap(),
        [10, 27, 39, 40],
        "second value",
    );
    no_device_errors(&gpu);
}

#[test]
fn member_shorthand_and_partial_values_merge_onto_the_previous_value() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    let draw = fullscreen(&gpu, "object", OBJECT_FS);
    draw.set(
        "object",
        value! { color: [10.0, 20.0, 30.0, 40.0], gain: 1.0, bias: 0u32, shift: [0.0, 0.0] },
    )
    .unwrap();
    assert_all_pixels(&render(&gpu, &draw, 2, 2), [10, 20, 30, 40], "full value");

    // `gain` and `bias` are members of `object`, the only struct binding.
    draw.set("gain", Value::from(3.0)).unwrap();
    assert_all_pixels(&render(&gpu, &draw, 2, 2), [30, 60, 90, 120], "gain member");
    draw.set("bias", Value::from(7u32)).unwrap();
    assert_all_pixels(&render(&gpu, &draw, 2, 2), [37, 60, 90, 120], "bias member");
    // A partial struct through the binding name merges too.
    draw.set("object", value! { shift: [1.0, 2.0] }).unwrap();
    assert_all_pixels(
        &render(&gpu, &draw, 2, 2),
        [37, 61, 92, 120],
        "partial struct",
    );

    // Within one frame, each draw sees the member as it was when recorded.
    let left_right = gpu.target(4, 2).unwrap();
    gpu.frame(|f| {
        f.pass(&left_right, |p| {
            p.set_viewport(0.0, 0.0, 2.0, 2.0);
            p.draw(&draw)?;
            draw.set("gain", Value::from(1.0))?;
            p.set_viewport(2.0, 0.0, 2.0, 2.0);
            p.draw(&draw)
        })
    })
    .unwrap();
    let image = left_right.read_rgba8().unwrap();
    assert_eq!(image.pixel(0, 0), Some([37, 61, 92, 120]), "left: gain 3");
    assert_eq!(image.pixel(3, 1), Some([17, 21, 32, 40]), "right: gain 1");
    no_device_errors(&gpu);
}

/// The WGSL `Object { color: vec4f, gain: f32, bias: u32, shift: vec2f }` as a typed value.
#[derive(Clone, Copy, vgpu::Uniform, bytemuck::Pod, bytemuck::Zeroable)]
#[repr(C)]
struct ObjectPod {
    color: [f32; 4],
    gain: f32,
    bias: u32,
    shift: [f32; 2],
}

#[test]
fn typed_pod_values_reach_the_shader() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    let draw = fullscreen(&gpu, "object", OBJECT_FS);
    let mut pod = ObjectPod {
        color: [4.0, 8.0, 12.0, 16.0],
        gain: 5.0,
        bias: 3,
        shift: [1.0, 0.0],
    };
    draw.set("object", &pod).unwrap();
    let want = object_expected(pod.color, pod.gain, pod.bias, pod.shift);
    assert_eq!(want, [23, 41, 60, 80]);
    assert_all_pixels(&render(&gpu, &draw, 2, 2), want, "pod");

    // Pod and dynamic values set the same library-owned binding interchangeably.
    draw.set("gain", Value::from(1.0)).unwrap();
    assert_all_pixels(
        &render(&gpu, &draw, 2, 2),
        [7, 9, 12, 16],
        "member after pod",
    );
    pod.bias = 100;
    draw.set("object", &pod).unwrap();
    assert_all_pixels(&render(&gpu, &draw, 2, 2), [120, 41, 60, 80], "pod again");
    // Raw bytes (this #[repr(C)] struct happens to match WGSL's layout byte for byte).
    pod.bias = 101;
    draw.set_bytes("object", bytemuck::bytes_of(&pod)).unwrap();
    assert_all_pixels(&render(&gpu, &draw, 2, 2), [121, 41, 60, 80], "bytes");
    pod.bias = 100;

    // A pod uniforms block too.
    let block_fs = "
        struct Object { color: vec4f, gain: f32, bias: u32, shift: vec2f }
        @group(0) @binding(0) var<uniform> shared_object: Object;
        @fragment fn fs_main() -> @location(0) vec4f {
            return (shared_object.color * shared_object.gain
                + vec4f(f32(shared_object.bias), shared_object.shift, 0.0)) / 255.0;
        }";
    let block_draw = fullscreen(&gpu, "block", block_fs);
    let block = gpu.uniforms_labeled("pod block", &pod).unwrap();
    block_draw.set("shared_object", &block).unwrap();
    assert_all_pixels(
        &render(&gpu, &block_draw, 2, 2),
        [120, 41, 60, 80],
        "pod block",
    );
    pod.gain = 2.0;
    block.set(&pod).unwrap();
    assert_all_pixels(
        &render(&gpu, &block_draw, 2, 2),
        [108, 17, 24, 32],
        "pod block set",
    );

    // A typed binding (checked once when made): its sets, through the handle or a batch, reach
    // the shader, and it follows the binding after the binding held a block.
    let typed = draw.typed_binding::<ObjectPod>("object").unwrap();
    let mut value = ObjectPod {
        color: [4.0, 8.0, 12.0, 16.0],
        gain: 5.0,
        bias: 110,
        shift: [1.0, 0.0],
    };
    let expected = |v: &ObjectPod| object_expected(v.color, v.gain, v.bias, v.shift);
    typed.set(&value).unwrap();
    assert_all_pixels(
        &render(&gpu, &draw, 2, 2),
        expected(&value),
        "typed binding",
    );
    value.bias = 111;
    gpu.batch().set_typed(&typed, &value).unwrap();
    assert_all_pixels(&render(&gpu, &draw, 2, 2), expected(&value), "typed, batch");
    draw.set("object", &block).unwrap();
    assert_all_pixels(&render(&gpu, &draw, 2, 2), [108, 17, 24, 32], "block there");
    value.bias = 112;
    typed.set(&value).unwrap();
    assert_all_pixels(
        &render(&gpu, &draw, 2, 2),
        expected(&value),
        "typed after block",
    );
    value.bias = 113;
    typed.set(&value).unwrap();
    assert_all_pixels(&render(&gpu, &draw, 2, 2), expected(&value), "typed again");
    no_device_errors(&gpu);
}

const VIEW_FS: &str = "
struct View { tint: vec4f }
struct Object { color: vec4f }
@group(0) @binding(0) var<uniform> view: View;
@group(1) @binding(0) var<uniform> object: Object;
@fragment fn fs_main() -> @location(0) vec4f {
    return (view.tint + object.color) / 255.0;
}
";

/// A camera set differently for each pass, read by more draws than a uniform page holds: the
/// camera's home slot fills its page with the draws' values, so its second value is captured on
/// another page and the draws alternate between two bind groups for it. Every other draw reads
/// a fixed block instead, so the camera's group is bound again for each camera draw. Each draw
/// writes one pixel (its viewport); every pixel of both passes is checked over several frames,
/// while draws take the camera's slot from the first draw of their pass (`record_checked`'s
/// shared-block case, on either of a draw's two memoized pages).
#[test]
fn a_per_pass_camera_on_two_pages_is_seen_by_every_draw_of_each_pass() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    // More draws than a uniform page has slots (one per value, at the device's dynamic-offset
    // alignment): the camera's home page fills up.
    let align = gpu.device().limits().min_uniform_buffer_offset_alignment;
    let page = vgpu_uniforms::EngineConfig::DEFAULT_PAGE_SIZE as u32;
    const W: u32 = 64;
    let h = (page / align.max(16)) / W + 1;
    let camera = gpu
        .uniforms_labeled("camera", value! { tint: [0.0, 0.0, 0.0, 0.0] })
        .unwrap();
    // Every other draw reads another block, so each camera draw binds its group again.
    let fixed = gpu
        .uniforms_labeled("fixed", value! { tint: [1.0, 1.0, 1.0, 0.0] })
        .unwrap();
    let color = |k: u32| [(k % 100) as f32, (k / 100) as f32, 3.0, 200.0];
    // One shader: the draws share the camera's bind group.
    let shader = gpu
        .shader(
            "per-pass camera",
            &format!("{VIEW_FS}\n{}", vgpu_tests::FULLSCREEN_VS),
        )
        .unwrap();
    let draws: Vec<Draw> = (0..W * h)
        .map(|k| {
            let desc = DrawDesc {
                label: format!("draw {k}"),
                ..Default::default()
            };
            let d = gpu.draw(&shader, desc).unwrap();
            d.set("view", if k % 2 == 0 { &camera } else { &fixed })
                .unwrap();
            d.set("object", value! { color: color(k) }).unwrap();
            d
        })
        .collect();
    let shadow = gpu.target(W, h).unwrap();
    let main = gpu.target(W, h).unwrap();
    let tints = [[10.0, 20.0, 30.0, 0.0], [100.0, 110.0, 120.0, 0.0]];
    let record = |f: &mut vgpu::Frame<'_>| -> vgpu::Result<()> {
        for (target, tint) in [&shadow, &main].into_iter().zip(tints) {
            camera.set(value! { tint: tint })?;
            f.pass(target, |p| {
                for (k, d) in (0u32..).zip(&draws) {
                    p.set_viewport((k % W) as f32, (k / W) as f32, 1.0, 1.0);
                    p.draw(d)?;
                }
                Ok(())
            })?;
        }
        Ok(())
    };
    for frame in 0..4 {
        let report = gpu.frame(record).unwrap();
        for (target, tint) in [&shadow, &main].into_iter().zip(tints) {
            let image = target.read_rgba8().unwrap();
            for k in 0..W * h {
                let (c, t) = (
                    color(k),
                    if k % 2 == 0 {
                        tint
                    } else {
                        [1.0, 1.0, 1.0, 0.0]
                    },
                );
                let expected = [0, 1, 2, 3].map(|i| (c[i] + t[i]) as u8);
                assert_eq!(
                    image.pixel(k % W, k / W),
                    Some(expected),
                    "frame {frame}, tint {tint:?}, draw {k}"
                );
            }
        }
        if frame > 0 {
            assert_eq!(report.stats.bind_groups_created, 0, "frame {frame}");
            assert_eq!(report.stats.bytes_uploaded, 0, "frame {frame}");
        }
    }
}

#[test]
fn shared_uniforms_set_twice_in_a_frame_each_pass_sees_its_own_value() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    let camera = gpu
        .uniforms_labeled("camera", value! { tint: [0.0, 0.0, 0.0, 0.0] })
        .unwrap();
    let a = fullscreen(&gpu, "a", VIEW_FS);
    let b = fullscreen(&gpu, "b", VIEW_FS);
    a.set("view", &camera).unwrap();
    b.set("view", &camera).unwrap();
    a.set("object", value! { color: [1.0, 2.0, 3.0, 200.0] })
        .unwrap();
    b.set("object", value! { color: [4.0, 5.0, 6.0, 200.0] })
        .unwrap();
    let shadow = gpu.target(4, 2).unwrap();
    let main = gpu.target(4, 2).unwrap();
    let tint_shadow = value! { tint: [10.0, 20.0, 30.0, 0.0] };
    let tint_main = value! { tint: [100.0, 110.0, 120.0, 0.0] };
    let record = |f: &mut vgpu::Frame<'_>| -> vgpu::Result<()> {
        camera.set(&tint_shadow)?;
        f.pass(&shadow, |p| {
            p.set_viewport(0.0, 0.0, 2.0, 2.0);
            p.draw(&a)?;
            p.set_viewport(2.0, 0.0, 2.0, 2.0);
            p.draw(&b)
        })?;
        camera.set(&tint_main)?;
        f.pass(&main, |p| {
            p.set_viewport(0.0, 0.0, 2.0, 2.0);
            p.draw(&a)?;
            p.set_viewport(2.0, 0.0, 2.0, 2.0);
            p.draw(&b)
        })
    };
    let check = |what: &str| {
        let s = shadow.read_rgba8().unwrap();
        let m = main.read_rgba8().unwrap();
        assert_eq!(s.pixel(0, 0), Some([11, 22, 33, 200]), "{what}: shadow a");
        assert_eq!(s.pixel(3, 1), Some([14, 25, 36, 200]), "{what}: shadow b");
        assert_eq!(m.pixel(1, 1), Some([101, 112, 123, 200]), "{what}: main a");
        assert_eq!(m.pixel(2, 0), Some([104, 115, 126, 200]), "{what}: main b");
    };
    gpu.frame(record).unwrap();
    check("first frame");

    // The same two values every frame: both are resident, nothing is uploaded, and each pass
    // still sees its own value.
    let rev = camera.revision();
    let steady = gpu.frame(record).unwrap();
    check("steady frame");
    assert_eq!(steady.stats.bytes_uploaded, 0, "{:?}", steady.stats);
    assert_eq!(steady.stats.write_calls, 0);
    assert_eq!(steady.stats.bind_groups_created, 0);
    assert_eq!(
        camera.revision(),
        rev + 2,
        "two changes per frame, two revisions"
    );

    // Setting the value it already holds is free: no revision bump.
    let rev = camera.revision();
    camera.set(&tint_main).unwrap();
    assert_eq!(camera.revision(), rev);
    camera.set(value! { tint: [1.0, 1.0, 1.0, 0.0] }).unwrap();
    assert_eq!(camera.revision(), rev + 1);

    // Within one pass, too: each draw sees the block as it was when recorded.
    let one_pass = gpu.target(4, 2).unwrap();
    gpu.frame(|f| {
        f.pass(&one_pass, |p| {
            camera.set(value! { tint: [50.0, 0.0, 0.0, 0.0] })?;
            p.set_viewport(0.0, 0.0, 2.0, 2.0);
            p.draw(&a)?;
            camera.set(value! { tint: [0.0, 50.0, 0.0, 0.0] })?;
            p.set_viewport(2.0, 0.0, 2.0, 2.0);
            p.draw(&a)
        })
    })
    .unwrap();
    let image = one_pass.read_rgba8().unwrap();
    assert_eq!(image.pixel(0, 0), Some([51, 2, 3, 200]));
    assert_eq!(image.pixel(3, 0), Some([1, 52, 3, 200]));
    no_device_errors(&gpu);
}

/// `params` (uniform) plus `extra[1]` (read-only storage).
const BUFFER_FS: &str = "
struct Params { color: vec4f }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> extra: array<vec4f>;
@fragment fn fs_main() -> @location(0) vec4f {
    return (params.color + extra[1]) / 255.0;
}
";

fn fragment_storage_supported(gpu: &Gpu) -> bool {
    if gpu.context().limits().max_storage_buffers_per_shader_stage == 0 {
        vgpu_tests::skip(
            "fragment-storage",
            &format!(
                "{:?}: no storage buffers in fragment shaders; the storage sub-case",
                gpu.adapter_info().backend
            ),
        );
        return false;
    }
    true
}

#[test]
fn vgpu_buffers_bind_live_to_uniform_and_storage_bindings() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    if !fragment_storage_supported(&gpu) {
        return;
    }
    let draw = fullscreen(&gpu, "buffers", BUFFER_FS);
    let params = gpu
        .buffer_init(
            "params",
            &f32_bytes(&[10.0, 20.0, 30.0, 40.0]),
            wgpu::BufferUsages::UNIFORM,
        )
        .unwrap();
    let extra = gpu
        .buffer_init(
            "extra",
            &f32_bytes(&[99.0, 99.0, 99.0, 99.0, 1.0, 2.0, 3.0, 4.0]),
            wgpu::BufferUsages::STORAGE,
        )
        .unwrap();
    draw.set("params", &params).unwrap();
    draw.set("extra", &extra).unwrap();
    assert_all_pixels(&render(&gpu, &draw, 2, 2), [11, 22, 33, 44], "buffers");

    // Bound by identity: a write is seen by the next frame, without setting again, and a frame
    // without writes makes none.
    params.write(4, &f32_bytes(&[120.0])).unwrap();
    extra.write(16, &f32_bytes(&[5.0])).unwrap();
    let target = gpu.target(2, 2).unwrap();
    gpu.frame(|f| f.pass(&target, |p| p.draw(&draw))).unwrap();
    assert_all_pixels(
        &target.read_rgba8().unwrap(),
        [15, 122, 33, 44],
        "after writes",
    );
    let steady = gpu.frame(|f| f.pass(&target, |p| p.draw(&draw))).unwrap();
    assert_eq!(steady.stats.write_calls, 0);
    assert_eq!(steady.stats.bytes_uploaded, 0);
    assert_eq!(steady.stats.bind_groups_created, 0);

    // A range of a vgpu buffer: `extra[1]` now reads the buffer's third vec4.
    let align = u64::from(gpu.context().limits().min_storage_buffer_offset_alignment);
    let mut words = vec![0.0f32; (align as usize / 4) + 8];
    let base = align as usize / 4;
    words[base + 4..base + 8].copy_from_slice(&[7.0, 8.0, 9.0, 10.0]);
    let ranged = gpu
        .buffer_init("ranged", &f32_bytes(&words), wgpu::BufferUsages::STORAGE)
        .unwrap();
    draw.set(
        "extra",
        BindingArg::BufferRange(&ranged, align, NonZeroU64::new(32)),
    )
    .unwrap();
    assert_all_pixels(
        &render(&gpu, &draw, 2, 2),
        [17, 128, 39, 50],
        "buffer range",
    );
    no_device_errors(&gpu);
}

#[test]
fn raw_wgpu_buffer_and_buffer_binding_with_offset_bind_to_a_uniform() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    let fs = "
        struct Params { color: vec4f }
        @group(0) @binding(0) var<uniform> params: Params;
        @fragment fn fs_main() -> @location(0) vec4f { return params.color / 255.0; }";
    let ctx = gpu.context();
    let raw = ctx
        .create_buffer(&wgpu::BufferDescriptor {
            label: Some("raw uniforms"),
            size: 512,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        })
        .unwrap();
    // 256 is a multiple of every allowed `min_uniform_buffer_offset_alignment`.
    ctx.write_buffer(&raw, 0, &f32_bytes(&[1.0, 2.0, 3.0, 4.0]));
    ctx.write_buffer(&raw, 256, &f32_bytes(&[50.0, 60.0, 70.0, 80.0]));

    let whole = fullscreen(&gpu, "whole", fs);
    whole.set("params", &raw).unwrap();
    let ranged = fullscreen(&gpu, "ranged", fs);
    ranged
        .set(
            "params",
            wgpu::BufferBinding {
                buffer: &raw,
                offset: 256,
                size: NonZeroU64::new(16),
            },
        )
        .unwrap();
    let to_end = fullscreen(&gpu, "to end", fs);
    to_end
        .set(
            "params",
            wgpu::BufferBinding {
                buffer: &raw,
                offset: 256,
                size: None,
            },
        )
        .unwrap();
    let target = gpu.target(6, 2).unwrap();
    let record = |f: &mut vgpu::Frame<'_>| {
        f.pass(&target, |p| {
            for (i, d) in [&whole, &ranged, &to_end].into_iter().enumerate() {
                p.set_viewport(2.0 * i as f32, 0.0, 2.0, 2.0);
                p.draw(d)?;
            }
            Ok(())
        })
    };
    gpu.frame(record).unwrap();
    let image = target.read_rgba8().unwrap();
    assert_eq!(image.pixel(0, 0), Some([1, 2, 3, 4]), "whole buffer");
    assert_eq!(
        image.pixel(2, 1),
        Some([50, 60, 70, 80]),
        "offset 256, size 16"
    );
    assert_eq!(
        image.pixel(5, 0),
        Some([50, 60, 70, 80]),
        "offset 256 to end"
    );

    // Live: a raw write is seen by the next frame.
    ctx.write_buffer(&raw, 260, &f32_bytes(&[61.0]));
    gpu.frame(record).unwrap();
    let image = target.read_rgba8().unwrap();
    assert_eq!(image.pixel(0, 1), Some([1, 2, 3, 4]));
    assert_eq!(image.pixel(3, 0), Some([50, 61, 70, 80]));
    assert_eq!(image.pixel(4, 1), Some([50, 61, 70, 80]));
    no_device_errors(&gpu);
}

#[test]
fn texture_with_sampler_is_sampled_in_the_fragment_shader() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    let fs = "
        @group(0) @binding(0) var tex: texture_2d<f32>;
        @group(0) @binding(1) var samp: sampler;
        struct Params { size: vec4f }
        @group(0) @binding(2) var<uniform> params: Params;
        @fragment fn fs_main(@builtin(position) pos: vec4f) -> @location(0) vec4f {
            return textureSample(tex, samp, pos.xy / params.size.xy);
        }";
    let texels: [[u8; 4]; 4] = [
        [255, 0, 0, 255],
        [0, 200, 0, 255],
        [0, 0, 150, 255],
        [10, 20, 30, 40],
    ];
    let desc = TextureDesc {
        label: "checker".into(),
        width: 2,
        height: 2,
        ..Default::default()
    };
    let tex = gpu.texture_with_data(&desc, texels.as_flattened()).unwrap();
    let draw = fullscreen(&gpu, "sampled", fs);
    draw.set("tex", &tex).unwrap();
    draw.set("samp", &gpu.sampler(&SamplerDesc::nearest()).unwrap())
        .unwrap();
    draw.set("params", value! { size: [4.0, 4.0, 0.0, 0.0] })
        .unwrap();
    let image = render(&gpu, &draw, 4, 4);
    for y in 0..4 {
        for x in 0..4 {
            let texel = texels[(y / 2 * 2 + x / 2) as usize];
            assert_eq!(image.pixel(x, y), Some(texel), "nearest ({x},{y})");
        }
    }

    // A linear sampler at texel centers (2×2 target over the 2×2 texture) reads exact texels.
    draw.set("samp", &gpu.sampler(&SamplerDesc::default()).unwrap())
        .unwrap();
    draw.set("params", value! { size: [2.0, 2.0, 0.0, 0.0] })
        .unwrap();
    let image = render(&gpu, &draw, 2, 2);
    for (i, texel) in texels.iter().enumerate() {
        let (x, y) = (i as u32 % 2, i as u32 / 2);
        let got = image.pixel(x, y).unwrap();
        for c in 0..4 {
            assert!(
                got[c].abs_diff(texel[c]) <= 1,
                "linear ({x},{y}): {got:?} vs {texel:?}"
            );
        }
    }

    // The texture is bound live: new contents are sampled by the next frame.
    let inverted: Vec<u8> = texels.as_flattened().iter().map(|v| 255 - v).collect();
    tex.write(&gpu, &inverted).unwrap();
    draw.set("samp", &gpu.sampler(&SamplerDesc::nearest()).unwrap())
        .unwrap();
    let image = render(&gpu, &draw, 2, 2);
    assert_eq!(image.pixel(0, 0), Some([0, 255, 255, 0]));
    assert_eq!(image.pixel(1, 1), Some([245, 235, 225, 215]));
    no_device_errors(&gpu);
}

#[test]
fn a_targets_color_is_sampled_by_a_second_pass_of_the_same_frame() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    // Pass 1 writes a per-pixel pattern; pass 2 swizzles what it loads from pass 1's target.
    let first = fullscreen(
        &gpu,
        "pattern",
        "
        struct Object { blue: vec4f }
        @group(0) @binding(0) var<uniform> object: Object;
        @fragment fn fs_main(@builtin(position) pos: vec4f) -> @location(0) vec4f {
            return vec4f(floor(pos.x) * 16.0 + 8.0, floor(pos.y) * 16.0 + 8.0, object.blue.x, 255.0)
                / 255.0;
        }",
    );
    let second = fullscreen(
        &gpu,
        "swizzle",
        "
        @group(0) @binding(0) var src: texture_2d<f32>;
        @fragment fn fs_main(@builtin(position) pos: vec4f) -> @location(0) vec4f {
            return textureLoad(src, vec2i(pos.xy), 0).bgra;
        }",
    );
    first
        .set("object", value! { blue: [77.0, 0.0, 0.0, 0.0] })
        .unwrap();
    let a = gpu.target(4, 4).unwrap();
    let b = gpu.target(4, 4).unwrap();
    second.set("src", &a).unwrap();
    gpu.frame(|f| {
        f.pass(&a, |p| p.draw(&first))?;
        f.pass(&b, |p| p.draw(&second))
    })
    .unwrap();
    let image_a = a.read_rgba8().unwrap();
    let image_b = b.read_rgba8().unwrap();
    for y in 0..4u8 {
        for x in 0..4u8 {
            let (u, v) = (x * 16 + 8, y * 16 + 8);
            let (px, py) = (u32::from(x), u32::from(y));
            assert_eq!(image_a.pixel(px, py), Some([u, v, 77, 255]), "pass 1");
            assert_eq!(image_b.pixel(px, py), Some([77, v, u, 255]), "pass 2");
        }
    }
    no_device_errors(&gpu);
}

#[test]
fn a_depth_only_targets_depth_is_sampled_as_texture_depth_2d() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    // A vertex-only draw writes depth `depth.z.x` over the viewport.
    let depth_shader = gpu
        .shader(
            "depth writer",
            "
            struct Depth { z: vec4f }
            @group(0) @binding(0) var<uniform> depth: Depth;
            @vertex fn vs_main(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
                let p = vec2f(f32((i << 1u) & 2u), f32(i & 2u));
                return vec4f(p * 2.0 - 1.0, depth.z.x, 1.0);
            }",
        )
        .unwrap();
    let writer = gpu
        .draw(
            &depth_shader,
            DrawDesc {
                label: "depth writer".into(),
                ..Default::default()
            },
        )
        .unwrap();
    writer
        .set("depth", value! { z: [0.2, 0.0, 0.0, 0.0] })
        .unwrap();
    let shadow = gpu
        .target_with(
            &TargetDesc::depth_only(4, 4, wgpu::TextureFormat::Depth32Float).label("shadow"),
        )
        .unwrap();
    // Non-comparison reads: `textureSample` with a non-filtering sampler and `textureLoad`.
    // Not on GL: there `texture_depth_2d` becomes a `sampler2DShadow`, which only comparisons
    // can read (naga cannot emit either call); the comparison case below covers GL.
    let gl = gpu.adapter_info().backend == wgpu::Backend::Gl;
    let readers = if gl {
        vgpu_tests::skip(
            "depth-sample",
            "GL: depth textures are read by comparison only; textureSample/Load not checked",
        );
        Vec::new()
    } else {
        let sampled = fullscreen(
            &gpu,
            "depth sampler",
            "
            @group(0) @binding(0) var shadow_map: texture_depth_2d;
            @group(0) @binding(1) var nearest: sampler;
            @fragment fn fs_main(@builtin(position) pos: vec4f) -> @location(0) vec4f {
                let d = textureSample(shadow_map, nearest, pos.xy / 4.0);
                return vec4f(d, d, d, 1.0);
            }",
        );
        sampled
            .set("shadow_map", BindingArg::TargetDepth(&shadow))
            .unwrap();
        sampled
            .set("nearest", &gpu.sampler(&SamplerDesc::nearest()).unwrap())
            .unwrap();
        let loaded = fullscreen(
            &gpu,
            "depth load",
            "
            @group(0) @binding(0) var shadow_map: texture_depth_2d;
            @fragment fn fs_main(@builtin(position) pos: vec4f) -> @location(0) vec4f {
                let d = textureLoad(shadow_map, vec2i(pos.xy), 0);
                return vec4f(d, d, d, 1.0);
            }",
        );
        loaded
            .set("shadow_map", BindingArg::TargetDepth(&shadow))
            .unwrap();
        vec![
            ("textureSample", sampled, gpu.target(4, 4).unwrap()),
            ("textureLoad", loaded, gpu.target(4, 4).unwrap()),
        ]
    };
    gpu.frame(|f| {
        // Only the left half is drawn; the right half keeps the clear depth 1.0.
        f.pass(
            PassDesc::new(&shadow)
                .label("shadow")
                .clear_depth(1.0)
                .viewport(0.0, 0.0, 2.0, 4.0),
            |p| p.draw(&writer),
        )?;
        for (_, reader, out) in &readers {
            f.pass(out, |p| p.draw(reader))?;
        }
        Ok(())
    })
    .unwrap();
    let downlevel = gpu.context().adapter().get_downlevel_capabilities();
    if downlevel
        .flags
        .contains(wgpu::DownlevelFlags::DEPTH_TEXTURE_AND_BUFFER_COPIES)
    {
        let depth = shadow.read_depth().unwrap();
        assert_eq!(depth[0], 0.2, "depth attachment, drawn half");
        assert_eq!(depth[3], 1.0, "depth attachment, cleared half");
    } else {
        vgpu_tests::skip(
            "depth-read-back",
            "no depth-to-buffer copies on this adapter; read_depth not checked",
        );
    }
    for (how, _, out) in &readers {
        let image = out.read_rgba8().unwrap();
        for y in 0..4 {
            for x in 0..4 {
                let want = if x < 2 { 51 } else { 255 };
                assert_eq!(
                    image.pixel(x, y),
                    Some([want, want, want, 255]),
                    "{how}: depth at ({x},{y})"
                );
            }
        }
    }

    // Through a comparison sampler (`sampler_comparison`, LessEqual), on every backend: a
    // reference just below the stored depth passes, one just above fails, which brackets the
    // depth the GPU sees to ±0.01.
    let compare = fullscreen(
        &gpu,
        "depth compare",
        "
        @group(0) @binding(0) var shadow_map: texture_depth_2d;
        @group(0) @binding(1) var shadow_sampler: sampler_comparison;
        struct Probe { reference: vec4f }
        @group(0) @binding(2) var<uniform> probe: Probe;
        @fragment fn fs_main(@builtin(position) pos: vec4f) -> @location(0) vec4f {
            let lit = textureSampleCompare(shadow_map, shadow_sampler, pos.xy / 4.0,
                probe.reference.x);
            return vec4f(lit, lit, lit, 1.0);
        }",
    );
    compare
        .set_all([
            ("shadow_map", BindingArg::TargetDepth(&shadow)),
            (
                "shadow_sampler",
                BindingArg::from(&gpu.sampler(&SamplerDesc::shadow()).unwrap()),
            ),
            (
                "probe",
                BindingArg::from(value! { reference: [0.19, 0.0, 0.0, 0.0] }),
            ),
        ])
        .unwrap();
    let below = render(&gpu, &compare, 4, 4);
    compare
        .set("reference", Value::from([0.21, 0.0, 0.0, 0.0]))
        .unwrap();
    let above = render(&gpu, &compare, 4, 4);
    for y in 0..4 {
        assert_eq!(below.pixel(0, y), Some([255; 4]), "0.19 <= 0.2 passes");
        assert_eq!(above.pixel(1, y), Some([0, 0, 0, 255]), "0.21 <= 0.2 fails");
        assert_eq!(below.pixel(3, y), Some([255; 4]), "cleared depth");
        assert_eq!(above.pixel(2, y), Some([255; 4]), "cleared depth");
    }
    no_device_errors(&gpu);
}

#[test]
fn a_storage_buffer_written_by_compute_is_read_by_a_draw_in_the_same_frame() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    let downlevel = gpu.context().adapter().get_downlevel_capabilities();
    if !downlevel
        .flags
        .contains(wgpu::DownlevelFlags::COMPUTE_SHADERS)
    {
        vgpu_tests::skip("compute", "no compute shaders on this adapter");
        return;
    }
    if !fragment_storage_supported(&gpu) {
        return;
    }
    let cs = gpu
        .shader(
            "fill",
            "
            struct Params { base: vec4f }
            @group(0) @binding(0) var<uniform> params: Params;
            @group(0) @binding(1) var<storage, read_write> data: array<vec4f>;
            @compute @workgroup_size(4) fn cs_main(@builtin(global_invocation_id) id: vec3u) {
                data[id.x] = params.base + vec4f(f32(id.x) * 10.0, 0.0, 0.0, 0.0);
            }",
        )
        .unwrap();
    let fill = gpu
        .compute(
            &cs,
            ComputeDesc {
                label: "fill".into(),
                ..Default::default()
            },
        )
        .unwrap();
    assert_eq!(fill.workgroup_size(), [4, 1, 1]);
    let data = gpu
        .buffer(&BufferDesc {
            label: "data".into(),
            size: 64,
            usage: wgpu::BufferUsages::STORAGE,
        })
        .unwrap();
    fill.set("params", value! { base: [5.0, 50.0, 100.0, 255.0] })
        .unwrap();
    fill.set("data", &data).unwrap();
    let show = fullscreen(
        &gpu,
        "show",
        "
        @group(0) @binding(0) var<storage, read> data: array<vec4f>;
        @fragment fn fs_main(@builtin(position) pos: vec4f) -> @location(0) vec4f {
            return data[u32(pos.x)] / 255.0;
        }",
    );
    show.set("data", &data).unwrap();
    let target = gpu.target(4, 1).unwrap();
    let record = |f: &mut vgpu::Frame<'_>| {
        f.compute_pass(|c| c.dispatch(&fill, 1, 1, 1))?;
        f.pass(&target, |p| p.draw(&show))
    };
    let report = gpu.frame(record).unwrap();
    assert_eq!(report.stats.operations_recorded, 2);
    let image = target.read_rgba8().unwrap();
    for x in 0..4u8 {
        assert_eq!(
            image.pixel(u32::from(x), 0),
            Some([5 + 10 * x, 50, 100, 255]),
            "x = {x}"
        );
    }
    let bytes = data.read_blocking().unwrap();
    // The async form (what the web uses) reads the same bytes.
    assert_eq!(pollster::block_on(data.read()).unwrap(), bytes);
    let words: Vec<f32> = bytemuck::pod_collect_to_vec(&bytes);
    assert_eq!(&words[12..16], &[35.0, 50.0, 100.0, 255.0]);

    // The compute's value changes; the draw reads what this frame's dispatch wrote.
    fill.set("base", Value::from([0.0, 0.0, 200.0, 128.0]))
        .unwrap();
    gpu.frame(record).unwrap();
    let image = target.read_rgba8().unwrap();
    assert_eq!(image.pixel(0, 0), Some([0, 0, 200, 128]));
    assert_eq!(image.pixel(3, 0), Some([30, 0, 200, 128]));
    no_device_errors(&gpu);
}

#[test]
fn a_value_on_a_storage_binding_is_read_by_the_shader() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    if !fragment_storage_supported(&gpu) {
        return;
    }
    let draw = fullscreen(
        &gpu,
        "storage value",
        "
        struct Palette { count: u32, colors: array<vec4f, 3> }
        @group(0) @binding(0) var<storage, read> palette: Palette;
        @fragment fn fs_main(@builtin(position) pos: vec4f) -> @location(0) vec4f {
            let i = min(u32(pos.x), palette.count - 1u);
            return palette.colors[i] / 255.0;
        }",
    );
    draw.set(
        "palette",
        value! {
            count: 2u32,
            colors: vec![
                Value::from([1.0, 2.0, 3.0, 4.0]),
                Value::from([5.0, 6.0, 7.0, 8.0]),
                Value::from([9.0, 9.0, 9.0, 9.0]),
            ],
        },
    )
    .unwrap();
    let image = render(&gpu, &draw, 3, 1);
    assert_eq!(image.pixel(0, 0), Some([1, 2, 3, 4]));
    assert_eq!(image.pixel(1, 0), Some([5, 6, 7, 8]));
    assert_eq!(
        image.pixel(2, 0),
        Some([5, 6, 7, 8]),
        "clamped to count - 1"
    );
    draw.set("count", Value::from(3u32)).unwrap();
    let image = render(&gpu, &draw, 3, 1);
    assert_eq!(image.pixel(2, 0), Some([9, 9, 9, 9]));
    no_device_errors(&gpu);
}

#[test]
fn set_all_binds_several_kinds_at_once() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    if !fragment_storage_supported(&gpu) {
        return;
    }
    let draw = fullscreen(
        &gpu,
        "all",
        "
        struct Object { color: vec4f }
        @group(0) @binding(0) var<uniform> object: Object;
        @group(0) @binding(1) var tex: texture_2d<f32>;
        @group(0) @binding(2) var samp: sampler;
        @group(1) @binding(0) var<storage, read> extra: array<vec4f>;
        struct View { tint: vec4f }
        @group(1) @binding(1) var<uniform> view: View;
        @fragment fn fs_main() -> @location(0) vec4f {
            let t = textureSample(tex, samp, vec2f(0.5, 0.5));
            return (object.color + extra[0] + view.tint) / 255.0 + t;
        }",
    );
    let tex = gpu
        .texture_with_data(&TextureDesc::default(), &[1, 1, 1, 1])
        .unwrap();
    let sampler = gpu.sampler(&SamplerDesc::nearest()).unwrap();
    let extra = gpu
        .buffer_init(
            "extra",
            &f32_bytes(&[10.0, 20.0, 30.0, 40.0]),
            wgpu::BufferUsages::STORAGE,
        )
        .unwrap();
    let view = gpu
        .uniforms(value! { tint: [100.0, 0.0, 0.0, 0.0] })
        .unwrap();
    let before = gpu.stats();
    draw.set_all([
        (
            "object",
            BindingArg::from(value! { color: [1.0, 2.0, 3.0, 4.0] }),
        ),
        ("tex", BindingArg::from(&tex)),
        ("samp", BindingArg::from(&sampler)),
        ("extra", BindingArg::from(&extra)),
        ("view", BindingArg::from(&view)),
    ])
    .unwrap();
    assert_eq!(
        gpu.stats().write_calls,
        before.write_calls,
        "set_all uploads nothing by itself"
    );
    assert_all_pixels(&render(&gpu, &draw, 2, 2), [112, 23, 34, 45], "set_all");

    // A second set_all replaces some bindings, member shorthand included.
    draw.set_all([
        (
            "color",
            BindingArg::from(Value::from([0.0f32, 0.0, 0.0, 0.0])),
        ),
        (
            "view",
            BindingArg::from(&gpu.uniforms(value! { tint: [0.0, 9.0, 0.0, 0.0] }).unwrap()),
        ),
    ])
    .unwrap();
    assert_all_pixels(
        &render(&gpu, &draw, 2, 2),
        [11, 30, 31, 41],
        "second set_all",
    );
    no_device_errors(&gpu);
}

#[test]
fn an_effect_reads_a_uniform() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    let effect = gpu
        .effect(
            "fade",
            "
            struct Params { color: vec4f, right_gain: f32 }
            @group(0) @binding(0) var<uniform> params: Params;
            @fragment fn fs_main(@location(0) uv: vec2f) -> @location(0) vec4f {
                let gain = select(1.0, params.right_gain, uv.x > 0.5);
                return vec4f(params.color.rgb * gain, params.color.a) / 255.0;
            }",
        )
        .unwrap();
    effect
        .set(
            "params",
            value! { color: [100.0, 50.0, 200.0, 255.0], right_gain: 0.5 },
        )
        .unwrap();
    let target = gpu.target(4, 2).unwrap();
    gpu.frame(|f| f.pass(&target, |p| p.draw(&effect))).unwrap();
    let image = target.read_rgba8().unwrap();
    for y in 0..2 {
        assert_eq!(image.pixel(0, y), Some([100, 50, 200, 255]), "left");
        assert_eq!(image.pixel(1, y), Some([100, 50, 200, 255]), "left");
        assert_eq!(image.pixel(2, y), Some([50, 25, 100, 255]), "right");
        assert_eq!(image.pixel(3, y), Some([50, 25, 100, 255]), "right");
    }
    effect.set("right_gain", Value::from(0.0)).unwrap();
    gpu.frame(|f| f.pass(&target, |p| p.draw(&effect))).unwrap();
    assert_eq!(
        target.read_rgba8().unwrap().pixel(3, 1),
        Some([0, 0, 0, 255])
    );
    no_device_errors(&gpu);
}

/// A draw whose groups hold user buffers bound by identity (no library value) records from its
/// fast record in steady frames, like a draw of values, and what it binds stays right: a write
/// to the buffer is seen, a rebind to another buffer takes the full path once and shows the new
/// buffer, and a destroyed buffer is reported (VGPU-SET-DESTROYED), never bound from the memo.
#[test]
fn user_buffers_bound_by_identity_record_from_the_fast_record_and_follow_rebinds() {
    use vgpu::inspect::RecordPath;
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    // The direct path's record paths are asserted: auto-bundles (which would replay) are off.
    gpu.set_auto_bundles(false);
    let draw = fullscreen(
        &gpu,
        "user buffer",
        "struct Params { color: vec4f }
         @group(0) @binding(0) var<uniform> params: Params;
         @fragment fn fs_main() -> @location(0) vec4f { return params.color / 255.0; }",
    );
    let buffer = |label: &str, color: [f32; 4]| {
        gpu.buffer_init(label, &f32_bytes(&color), wgpu::BufferUsages::UNIFORM)
            .unwrap()
    };
    let target = gpu.target(2, 2).unwrap();
    // One frame with the inspector on: the draw's record path and the pixels.
    let frame = || {
        gpu.inspect_bindings(true);
        let result = gpu.frame(|f| f.pass(&target, |p| p.draw(&draw)));
        let paths: Vec<RecordPath> = gpu.take_inspected().iter().map(|b| b.path).collect();
        gpu.inspect_bindings(false);
        result.map(|_| (paths, target.read_rgba8().unwrap()))
    };
    // One frame that must record through `path` and show `rgba` everywhere.
    let expect = |path: RecordPath, rgba: [u8; 4], what: &str| {
        let (paths, image) = frame().unwrap();
        assert_eq!(paths, [path], "{what}");
        assert_all_pixels(&image, rgba, what);
    };

    let first = buffer("first", [10.0, 20.0, 30.0, 40.0]);
    draw.set("params", &first).unwrap();
    expect(
        RecordPath::Full,
        [10, 20, 30, 40],
        "the first record makes the fast record",
    );
    expect(RecordPath::Fast, [10, 20, 30, 40], "steady frame");

    first.write(0, &f32_bytes(&[50.0])).unwrap();
    expect(
        RecordPath::Fast,
        [50, 20, 30, 40],
        "a write does not rebind",
    );

    let second = buffer("second", [1.0, 2.0, 3.0, 4.0]);
    draw.set("params", &second).unwrap();
    expect(
        RecordPath::Full,
        [1, 2, 3, 4],
        "a rebind takes the full path once",
    );
    expect(RecordPath::Fast, [1, 2, 3, 4], "steady after the rebind");

    second.destroy();
    let err = frame().expect_err("a destroyed buffer is not bound");
    assert_eq!(err.code(), "VGPU-SET-DESTROYED", "{err}");
    no_device_errors(&gpu);
}
