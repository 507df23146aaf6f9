//! Tier 1 (noop device), plus pixels on a real device when `VGPU_BACKEND` names one: every way
//! `set()` (and recording what was set) can be rejected returns its stable code, and a rejection
//! changes nothing.
//!
//! "Nothing changed" is checked three ways: the next frame uploads 0 bytes and makes 0 writes
//! (so no value's bytes or revision moved), a bundle recorded before the rejection still replays,
//! and, on a real device, the draw still renders the previous value.

#![allow(clippy::unwrap_used, reason = "an unwrap in a test is an assertion")]

use std::num::NonZeroU64;

use vgpu::{
    BindingArg, Buffer, BufferDesc, ComputeDesc, Draw, DrawDesc, DrawRange, Gpu, IndexBuffer,
    SamplerDesc, StatsSnapshot, Target, TargetDesc, TextureDesc, Value, VertexBuffer, value,
};
// Every case runs on the noop device, then on the device `VGPU_BACKEND` names.
use vgpu_tests::{each_gpu as on_each_gpu, f32_bytes, fullscreen};

/// `object.color * object.gain + tint.value`, in units of 1/255.
const PROBE_FS: &str = "
struct Object { color: vec4f, gain: f32 }
struct Tint { value: vec4f }
@group(0) @binding(0) var<uniform> object: Object;
@group(0) @binding(1) var<uniform> tint: Tint;
@fragment fn fs_main() -> @location(0) vec4f {
    return (object.color * object.gain + tint.value) / 255.0;
}
";

fn probe(gpu: &Gpu) -> Draw {
    fullscreen(gpu, "probe", PROBE_FS)
}

/// A 2×2 target.
fn small_target(gpu: &Gpu) -> Target {
    gpu.target(2, 2).unwrap()
}

/// Renders `draw` into `target`; on a real device asserts every pixel is `expected`. Returns the
/// frame's counter deltas.
#[track_caller]
fn render(gpu: &Gpu, draw: &Draw, target: &Target, expected: [u8; 4], what: &str) -> StatsSnapshot {
    let report = gpu
        .frame(|f| f.pass(target, |p| p.draw(draw)))
        .unwrap_or_else(|e| panic!("{what}: {e}"));
    assert_pixels(gpu, target, expected, what);
    report.stats
}

#[track_caller]
fn assert_pixels(gpu: &Gpu, target: &Target, expected: [u8; 4], what: &str) {
    if gpu.is_noop() {
        return;
    }
    let image = target.read_rgba8().unwrap();
    for (i, px) in image.data.chunks_exact(4).enumerate() {
        assert_eq!(px, expected, "{what}: pixel {i}");
    }
}

/// Renders once more and asserts the frame uploaded nothing (no value changed) and drew the
/// previous pixels.
#[track_caller]
fn assert_unchanged(gpu: &Gpu, draw: &Draw, target: &Target, expected: [u8; 4], what: &str) {
    let stats = render(gpu, draw, target, expected, what);
    assert_eq!(stats.bytes_uploaded, 0, "{what}: {stats:?}");
    assert_eq!(stats.write_calls, 0, "{what}: {stats:?}");
    assert_eq!(stats.bind_groups_created, 0, "{what}: {stats:?}");
}

#[track_caller]
fn assert_code<T: std::fmt::Debug>(result: vgpu::Result<T>, code: &str) -> vgpu::Error {
    let e = result.expect_err(code);
    assert_eq!(e.code(), code, "{e}");
    assert!(
        e.to_string().starts_with(code),
        "message starts with its code: {e}"
    );
    e
}

/// Sets `probe`'s two bindings and renders twice (the second frame is steady).
fn probe_ready(gpu: &Gpu) -> (Draw, Target) {
    let draw = probe(gpu);
    draw.set(
        "object",
        value! { color: [10.0, 20.0, 30.0, 40.0], gain: 2.0 },
    )
    .unwrap();
    draw.set("tint", value! { value: [1.0, 1.0, 1.0, 1.0] })
        .unwrap();
    let target = small_target(gpu);
    render(gpu, &draw, &target, PROBE_PIXEL, "probe");
    assert_unchanged(gpu, &draw, &target, PROBE_PIXEL, "probe steady");
    (draw, target)
}

const PROBE_PIXEL: [u8; 4] = [21, 41, 61, 81];

/// A bundle of `draw` for `target`, replayed once.
fn bundle_of(gpu: &Gpu, draw: &Draw, target: &Target) -> vgpu::Bundle {
    let bundle = gpu
        .bundle("probe bundle", target.signature(), |b| b.draw(draw))
        .unwrap();
    replay(gpu, &bundle, target).unwrap();
    bundle
}

/// [`probe_ready`] plus a bundle of the probe, then frames until steady again (a bundle pins
/// the draw's values to their home slots, so the next plain frame captures them once elsewhere).
fn probe_with_bundle(gpu: &Gpu) -> (Draw, Target, vgpu::Bundle) {
    let (draw, target) = probe_ready(gpu);
    let bundle = bundle_of(gpu, &draw, &target);
    assert_pixels(gpu, &target, PROBE_PIXEL, "probe bundle");
    render(gpu, &draw, &target, PROBE_PIXEL, "probe after bundle");
    assert_unchanged(
        gpu,
        &draw,
        &target,
        PROBE_PIXEL,
        "probe steady after bundle",
    );
    (draw, target, bundle)
}

fn replay(gpu: &Gpu, bundle: &vgpu::Bundle, target: &Target) -> vgpu::Result<()> {
    gpu.frame(|f| f.pass(target, |p| p.execute(bundle)))
        .map(|_| ())
}

/// A fragment shader with a depth texture and a comparison sampler (the kinds other bindings
/// must refuse).
const DEPTH_COMPARE_FS: &str = "
    @group(0) @binding(0) var shadow_map: texture_depth_2d;
    @group(0) @binding(1) var cmp: sampler_comparison;
    @fragment fn fs_main() -> @location(0) vec4f {
        let lit = textureSampleCompare(shadow_map, cmp, vec2f(0.5, 0.5), 0.5);
        return vec4f(lit, lit, lit, 1.0);
    }";

#[test]
fn unknown_binding_lists_the_shaders_bindings_and_changes_nothing() {
    on_each_gpu(|gpu| {
        let (draw, target, bundle) = probe_with_bundle(gpu);
        let e = assert_code(
            draw.set("objetc", value! { color: [0.0; 4], gain: 0.0 }),
            "VGPU-SET-BINDING-UNKNOWN",
        );
        let message = e.to_string();
        assert!(message.contains("objetc"), "{message}");
        assert!(message.contains("\"probe\""), "names the draw: {message}");
        assert!(
            message.contains("object") && message.contains("tint"),
            "lists the bindings: {message}"
        );
        let Some(vgpu::SetError::BindingUnknown { available, .. }) = e.as_set() else {
            panic!("{e:?}")
        };
        let mut names: Vec<&str> = available.iter().map(|n| &**n).collect();
        names.sort_unstable();
        assert_eq!(names.len(), 2, "{names:?}");
        assert!(
            names[0].starts_with("object") && names[1].starts_with("tint"),
            "{names:?}"
        );
        // Not a member of any struct either.
        assert_code(
            draw.set("colour", Value::from([0.0, 0.0, 0.0, 0.0])),
            "VGPU-SET-BINDING-UNKNOWN",
        );
        replay(gpu, &bundle, &target).expect("the bundle is not stale");
        assert_pixels(gpu, &target, PROBE_PIXEL, "bundle after rejection");
        assert_unchanged(gpu, &draw, &target, PROBE_PIXEL, "after unknown names");
    });
}

/// What `fn main() -> vgpu::Result<()>` prints is `Debug`: it shows the code and the whole
/// message, and `{:#?}` the structured fields as well.
#[test]
fn debug_of_an_error_shows_its_code_and_message() {
    on_each_gpu(|gpu| {
        let draw = probe(gpu);
        let e = assert_code(
            draw.set("objetc", value! { color: [0.0; 4], gain: 0.0 }),
            "VGPU-SET-BINDING-UNKNOWN",
        );
        let message = e.to_string();
        assert!(
            message.starts_with("VGPU-SET-BINDING-UNKNOWN: "),
            "{message}"
        );
        let debug = format!("{e:?}");
        assert_eq!(debug, format!("Error({message})"));
        let pretty = format!("{e:#?}");
        assert!(pretty.contains(&message), "{pretty}");
        assert!(
            pretty.contains("BindingUnknown") && pretty.contains("available"),
            "the area's fields: {pretty}"
        );
    });
}

/// A misspelled name is first compared with the shader's bindings, then with struct members:
/// `modle` is one edit from member `mode` and two from binding `model`, and suggests `model`.
#[test]
fn did_you_mean_prefers_a_binding_over_a_closer_struct_member() {
    on_each_gpu(|gpu| {
        let draw = fullscreen(
            gpu,
            "hinted",
            "
struct Model { world: vec4f }
struct Params { mode: u32, gain: f32 }
@group(0) @binding(0) var<uniform> model: Model;
@group(0) @binding(1) var<uniform> params: Params;
@fragment fn fs_main() -> @location(0) vec4f {
    return model.world * params.gain + vec4f(f32(params.mode));
}
",
        );
        let e = assert_code(
            draw.set("modle", value! { world: [0.0; 4] }),
            "VGPU-SET-BINDING-UNKNOWN",
        );
        let Some(vgpu::SetError::BindingUnknown { hint, .. }) = e.as_set() else {
            panic!("{e:?}")
        };
        assert_eq!(hint.as_deref(), Some("did you mean `model`?"), "{e}");
        assert!(e.to_string().ends_with("did you mean `model`?"), "{e}");
        // With no binding close, a member is still suggested.
        let e = assert_code(
            draw.set("mdoe", Value::from(1u32)),
            "VGPU-SET-BINDING-UNKNOWN",
        );
        let Some(vgpu::SetError::BindingUnknown { hint, .. }) = e.as_set() else {
            panic!("{e:?}")
        };
        assert_eq!(hint.as_deref(), Some("did you mean `mode`?"), "{e}");
    });
}

/// A first value missing a field is refused with a hint naming the ways the API offers to set
/// only some fields, and each of those ways works once the binding holds a whole value.
#[test]
fn a_missing_field_names_the_ways_to_set_some_fields() {
    on_each_gpu(|gpu| {
        let draw = probe(gpu);
        let e = assert_code(
            draw.set("object", value! { color: [1.0, 2.0, 3.0, 4.0] }),
            "VGPU-SET-VALUE-INVALID",
        );
        let message = e.to_string();
        assert!(
            message.contains("binding `object` at $.gain: expected a value of type f32, got nothing (missing field)"),
            "{message}"
        );
        assert!(message.contains(r#"draw.set("gain", …)"#), "{message}");
        assert!(message.contains("value! { gain: … }"), "{message}");
        assert!(!message.contains("pack_partial"), "{message}");

        // What the hint says: a whole value first, then partial structs and member sets.
        draw.set(
            "object",
            value! { color: [10.0, 20.0, 30.0, 40.0], gain: 1.0 },
        )
        .unwrap();
        draw.set("tint", value! { value: [0.0; 4] }).unwrap();
        let target = small_target(gpu);
        render(gpu, &draw, &target, [10, 20, 30, 40], "whole value");
        draw.set("object", value! { gain: 2.0 }).unwrap();
        render(gpu, &draw, &target, [20, 40, 60, 80], "partial struct");
        draw.set("gain", Value::from(3.0)).unwrap();
        let stats = render(gpu, &draw, &target, [30, 60, 90, 120], "member set");
        assert!(stats.bytes_uploaded > 0, "the member set uploads");
    });
}

#[test]
fn wrong_shapes_name_path_expected_and_actual_and_write_nothing() {
    on_each_gpu(|gpu| {
        let (draw, target, bundle) = probe_with_bundle(gpu);

        let e = assert_code(
            draw.set("object", value! { color: [1.0, 2.0], gain: 1.0 }),
            "VGPU-SET-VALUE-INVALID",
        );
        let Some(vgpu::SetError::ValueInvalid {
            label,
            binding,
            path,
            expected,
            actual,
            ..
        }) = e.as_set()
        else {
            panic!("{e:?}")
        };
        assert_eq!(
            (&**label, &**binding, &**path),
            ("probe", "object", "$.color")
        );
        assert!(expected.contains("vec4"), "{e}");
        assert!(actual.contains('2'), "{e}");

        // The first field is valid, the second is not: nothing of the value is written.
        let e = assert_code(
            draw.set(
                "object",
                value! { color: [99.0, 99.0, 99.0, 99.0], gain: [1.0, 2.0] },
            ),
            "VGPU-SET-VALUE-INVALID",
        );
        assert!(e.to_string().contains("$.gain"), "{e}");
        // The same through a partial value, member shorthand, and an unknown field.
        assert_code(
            draw.set("object", value! { gain: [1.0, 2.0, 3.0] }),
            "VGPU-SET-VALUE-INVALID",
        );
        assert_code(
            draw.set("gain", Value::from([1.0, 2.0])),
            "VGPU-SET-VALUE-INVALID",
        );
        let e = assert_code(
            draw.set("object", value! { colour: [1.0, 2.0, 3.0, 4.0] }),
            "VGPU-SET-VALUE-INVALID",
        );
        assert!(e.to_string().contains("colour"), "{e}");
        // Raw bytes of the wrong size.
        assert_code(
            draw.set_bytes("object", bytemuck::bytes_of(&[0.0f32; 4])),
            "VGPU-SET-POD-SIZE",
        );
        // A typed value of another type.
        assert_code(draw.set("object", &[0.0f32; 4]), "VGPU-SET-TYPED-LAYOUT");
        // An integer that f32 cannot hold exactly.
        let e = assert_code(
            draw.set("tint", value! { value: [16_777_217u32, 0, 0, 0] }),
            "VGPU-SET-VALUE-INVALID",
        );
        assert!(e.to_string().contains("$.value[0]"), "{e}");

        replay(gpu, &bundle, &target).expect("the bundle is not stale");
        assert_unchanged(gpu, &draw, &target, PROBE_PIXEL, "after wrong shapes");

        // A shared block keeps its value and revision too.
        let block = gpu
            .uniforms_labeled("tint block", value! { value: [5.0, 5.0, 5.0, 5.0] })
            .unwrap();
        let other = probe(gpu);
        other
            .set("object", value! { color: [0.0; 4], gain: 0.0 })
            .unwrap();
        other.set("tint", &block).unwrap();
        render(gpu, &other, &target, [5; 4], "block");
        let revision = block.revision();
        assert_code(
            block.set(value! { value: [1.0, 2.0, 3.0] }),
            "VGPU-SET-VALUE-INVALID",
        );
        assert_code(
            block.set_bytes(bytemuck::bytes_of(&[0u32; 3])),
            "VGPU-SET-POD-SIZE",
        );
        assert_code(block.set(&[0u32; 3]), "VGPU-SET-TYPED-LAYOUT");
        assert_eq!(block.revision(), revision);
        assert_unchanged(gpu, &other, &target, [5; 4], "block after wrong shapes");
    });
}

fn params_buffer(gpu: &Gpu, label: &str, color: [f32; 4]) -> Buffer {
    gpu.buffer_init(label, &f32_bytes(&color), wgpu::BufferUsages::UNIFORM)
        .unwrap()
}

#[test]
fn ownership_latches_on_first_set() {
    on_each_gpu(|gpu| {
        let buffer = params_buffer(gpu, "tint buffer", [3.0, 3.0, 3.0, 3.0]);
        let raw = params_buffer(gpu, "raw tint", [4.0; 4]);
        let block = gpu.uniforms(value! { value: [6.0; 4] }).unwrap();

        // Value first: no buffer of any kind afterwards.
        let (draw, target) = probe_ready(gpu);
        let e = assert_code(draw.set("tint", &buffer), "VGPU-SET-OWNERSHIP");
        assert!(e.to_string().contains("`tint`"), "{e}");
        assert_code(draw.set("tint", raw.raw()), "VGPU-SET-OWNERSHIP");
        assert_code(
            draw.set(
                "tint",
                wgpu::BufferBinding {
                    buffer: raw.raw(),
                    offset: 0,
                    size: None,
                },
            ),
            "VGPU-SET-OWNERSHIP",
        );
        assert_unchanged(gpu, &draw, &target, PROBE_PIXEL, "value-latched");
        // A block is library-owned too: allowed.
        draw.set("tint", &block).unwrap();
        render(gpu, &draw, &target, [26, 46, 66, 86], "value then block");

        // Buffer first: no value, no pod, no block afterwards; other buffers are fine.
        let draw = probe(gpu);
        draw.set("object", value! { color: [0.0; 4], gain: 0.0 })
            .unwrap();
        draw.set("tint", &buffer).unwrap();
        render(gpu, &draw, &target, [3; 4], "buffer-latched");
        assert_code(
            draw.set("tint", value! { value: [9.0; 4] }),
            "VGPU-SET-OWNERSHIP",
        );
        assert_code(draw.set("tint", &[9.0f32; 4]), "VGPU-SET-OWNERSHIP");
        assert_code(
            draw.set_bytes("tint", bytemuck::bytes_of(&[9.0f32; 4])),
            "VGPU-SET-OWNERSHIP",
        );
        assert_code(draw.set("tint", &block), "VGPU-SET-OWNERSHIP");
        assert_code(
            draw.set("value", Value::from([9.0, 9.0, 9.0, 9.0])),
            "VGPU-SET-OWNERSHIP",
        );
        assert_unchanged(gpu, &draw, &target, [3; 4], "buffer-latched");
        draw.set("tint", raw.raw()).unwrap();
        render(gpu, &draw, &target, [4; 4], "another buffer");
    });
}

#[test]
fn destroyed_buffers_are_rejected_at_set_and_when_recorded() {
    on_each_gpu(|gpu| {
        let draw = probe(gpu);
        draw.set("object", value! { color: [0.0; 4], gain: 0.0 })
            .unwrap();
        let live = params_buffer(gpu, "live", [7.0; 4]);
        draw.set("tint", &live).unwrap();
        let target = small_target(gpu);
        render(gpu, &draw, &target, [7; 4], "live buffer");

        let dead = params_buffer(gpu, "dead", [8.0; 4]);
        dead.destroy();
        assert!(dead.is_destroyed());
        let e = assert_code(draw.set("tint", &dead), "VGPU-SET-DESTROYED");
        assert!(e.to_string().contains("dead"), "{e}");
        assert_code(
            draw.set(
                "tint",
                BindingArg::BufferRange(&dead, 0, NonZeroU64::new(16)),
            ),
            "VGPU-SET-DESTROYED",
        );
        assert_code(dead.write(0, &[0; 16]), "VGPU-BUFFER-DESTROYED");
        assert_code(dead.read_blocking(), "VGPU-BUFFER-DESTROYED");
        assert_unchanged(
            gpu,
            &draw,
            &target,
            [7; 4],
            "after rejected destroyed buffer",
        );

        // The bound buffer is destroyed: recording the draw fails, nothing is submitted.
        live.destroy();
        let before = gpu.stats();
        let e = gpu
            .frame(|f| f.pass(&target, |p| p.draw(&draw)))
            .expect_err("a draw whose buffer was destroyed must not record");
        let message = e.to_string();
        assert!(
            message.contains("destroyed") && message.contains("live"),
            "names the destroyed buffer: {message}"
        );
        let after = gpu.stats();
        assert_eq!(after.operations_recorded, before.operations_recorded);
        assert_eq!(after.write_calls, before.write_calls);
        // Named with the draw and the WGSL binding.
        assert_eq!(e.code(), "VGPU-SET-DESTROYED", "{e}");
        assert!(
            e.to_string().contains("tint") && e.to_string().contains("probe"),
            "{e}"
        );

        // Binding a live buffer again recovers.
        let fresh = params_buffer(gpu, "fresh", [9.0; 4]);
        draw.set("tint", &fresh).unwrap();
        render(gpu, &draw, &target, [9; 4], "fresh buffer");
    });
}

#[test]
fn a_binding_never_set_fails_when_recorded() {
    on_each_gpu(|gpu| {
        let draw = probe(gpu);
        draw.set("object", value! { color: [1.0; 4], gain: 1.0 })
            .unwrap();
        let target = small_target(gpu);
        let before = gpu.stats();
        let e = assert_code(
            gpu.frame(|f| f.pass(&target, |p| p.draw(&draw))),
            "VGPU-DRAW-UNSET-BINDING",
        );
        let message = e.to_string();
        assert!(
            message.contains("`tint`") && message.contains("\"probe\""),
            "{message}"
        );
        assert!(message.contains("group 0, binding 1"), "{message}");
        let after = gpu.stats();
        assert_eq!(after.operations_recorded, before.operations_recorded);
        assert_eq!(
            after.write_calls, before.write_calls,
            "the frame was cancelled"
        );
        assert_eq!(after.bytes_uploaded, before.bytes_uploaded);

        // A bundle cannot record it either, and the frame machinery is usable afterwards.
        assert_code(
            gpu.bundle("unset", target.signature(), |b| b.draw(&draw)),
            "VGPU-DRAW-UNSET-BINDING",
        );
        draw.set("tint", value! { value: [2.0; 4] }).unwrap();
        render(gpu, &draw, &target, [3; 4], "after setting it");

        // Computes too.
        let cs = gpu
            .shader(
                "unset compute",
                "
                struct P { n: vec4u }
                @group(0) @binding(0) var<uniform> p: P;
                @group(0) @binding(1) var<storage, read_write> out: array<u32>;
                @compute @workgroup_size(1) fn cs_main() { out[0] = p.n.x; }",
            )
            .unwrap();
        let k = gpu.compute(&cs, ComputeDesc::default()).unwrap();
        k.set("p", value! { n: [1u32, 0, 0, 0] }).unwrap();
        let e = assert_code(
            gpu.frame(|f| f.compute_pass(|c| c.dispatch(&k, 1, 1, 1))),
            "VGPU-DRAW-UNSET-BINDING",
        );
        assert!(e.to_string().contains("`out`"), "{e}");
    });
}

#[test]
fn out_of_range_buffer_ranges_are_rejected_at_set() {
    on_each_gpu(|gpu| {
        let (draw, target) = probe_ready(gpu);
        // `object` is 32 bytes (vec4f + f32, rounded to 16).
        let uniform = gpu
            .buffer(&BufferDesc {
                label: "uniform 512".into(),
                size: 512,
                usage: wgpu::BufferUsages::UNIFORM,
            })
            .unwrap();
        let storage_only = gpu
            .buffer(&BufferDesc {
                label: "storage only".into(),
                size: 512,
                usage: wgpu::BufferUsages::STORAGE,
            })
            .unwrap();
        let other = probe(gpu);
        other.set("object", &uniform).unwrap();
        other
            .set(
                "tint",
                BindingArg::BufferRange(&uniform, 256, NonZeroU64::new(16)),
            )
            .unwrap();
        let range_err = |b: BindingArg<'_>, what: &str| {
            let e = assert_code(other.set("tint", b), "VGPU-SET-BUFFER-RANGE");
            assert!(e.to_string().contains("`tint`"), "{what}: {e}");
            e
        };
        range_err(
            BindingArg::BufferRange(&uniform, 256, NonZeroU64::new(512)),
            "past the end",
        );
        range_err(
            BindingArg::BufferRange(&uniform, 1024, None),
            "offset past the end",
        );
        range_err(
            BindingArg::BufferRange(&uniform, 4, NonZeroU64::new(16)),
            "misaligned offset",
        );
        range_err(
            BindingArg::BufferRange(&uniform, 0, NonZeroU64::new(8)),
            "smaller than the WGSL type",
        );
        range_err(BindingArg::Buffer(&storage_only), "no UNIFORM usage");
        range_err(
            BindingArg::RawBufferBinding(wgpu::BufferBinding {
                buffer: uniform.raw(),
                offset: 256,
                size: NonZeroU64::new(u64::MAX),
            }),
            "offset + size overflows",
        );
        range_err(
            BindingArg::RawBufferBinding(wgpu::BufferBinding {
                buffer: uniform.raw(),
                offset: 0,
                size: NonZeroU64::new(u64::MAX),
            }),
            "size past the end",
        );
        let max = gpu.context().limits().max_uniform_buffer_binding_size;
        if max < 1 << 30 {
            let huge = gpu
                .buffer(&BufferDesc {
                    label: "huge".into(),
                    size: max + 256,
                    usage: wgpu::BufferUsages::UNIFORM,
                })
                .unwrap();
            range_err(BindingArg::Buffer(&huge), "over the binding size limit");
        }
        // Still the range set before the rejections: one frame renders, with no new group.
        gpu.frame(|f| f.pass(&target, |p| p.draw(&other))).unwrap();
        let steady = gpu.frame(|f| f.pass(&target, |p| p.draw(&other))).unwrap();
        assert_eq!(steady.stats.bind_groups_created, 0);
        assert_unchanged(gpu, &draw, &target, PROBE_PIXEL, "other draw untouched");
    });
}

const SAMPLED_FS: &str = "
@group(0) @binding(0) var tex: texture_2d<f32>;
@group(0) @binding(1) var samp: sampler;
@fragment fn fs_main() -> @location(0) vec4f {
    return textureSample(tex, samp, vec2f(0.5, 0.5));
}
";

#[test]
fn wrong_texture_and_sampler_kinds_are_rejected_at_set() {
    on_each_gpu(|gpu| {
        let draw = fullscreen(gpu, "sampled", SAMPLED_FS);
        let good = gpu
            .texture_with_data(&TextureDesc::default(), &[10, 20, 30, 40])
            .unwrap();
        let nearest = gpu.sampler(&SamplerDesc::nearest()).unwrap();
        draw.set("tex", &good).unwrap();
        draw.set("samp", &nearest).unwrap();
        let target = small_target(gpu);
        render(gpu, &draw, &target, [10, 20, 30, 40], "good texture");

        let kind = |b: BindingArg<'_>, binding: &str, what: &str| {
            let e = assert_code(draw.set(binding, b), "VGPU-SET-KIND");
            assert!(
                e.to_string().contains(&format!("`{binding}`")),
                "{what}: {e}"
            );
            e
        };
        let uint = gpu
            .texture(&TextureDesc {
                format: wgpu::TextureFormat::Rgba32Uint,
                ..Default::default()
            })
            .unwrap();
        let e = kind(BindingArg::Texture(&uint), "tex", "uint texture");
        assert!(e.to_string().contains("Rgba32Uint"), "{e}");
        assert!(e.to_string().contains("binds as texture_2d<u32>"), "{e}");
        let depth = gpu
            .target_with(&TargetDesc::depth_only(
                2,
                2,
                wgpu::TextureFormat::Depth32Float,
            ))
            .unwrap();
        let e = kind(
            BindingArg::TargetDepth(&depth),
            "tex",
            "depth to a filterable float",
        );
        assert!(
            e.to_string()
                .contains("a Depth32Float texture, which binds as texture_depth_2d"),
            "{e}"
        );
        kind(
            BindingArg::TargetColor(&depth),
            "tex",
            "a depth-only target's color",
        );
        kind(
            BindingArg::TargetDepth(&target),
            "tex",
            "a target without depth",
        );
        if !gpu
            .context()
            .features()
            .contains(wgpu::Features::FLOAT32_FILTERABLE)
        {
            let float = gpu
                .texture(&TextureDesc {
                    format: wgpu::TextureFormat::Rgba32Float,
                    ..Default::default()
                })
                .unwrap();
            let e = kind(BindingArg::Texture(&float), "tex", "unfilterable float");
            let message = e.to_string();
            assert!(message.contains("Rgba32Float"), "{message}");
            assert!(message.contains("not filterable"), "{message}");
            assert!(message.contains("FLOAT32_FILTERABLE"), "{message}");
        }
        kind(
            BindingArg::Sampler(&nearest),
            "tex",
            "a sampler for a texture",
        );
        kind(
            BindingArg::Texture(&good),
            "samp",
            "a texture for a sampler",
        );
        let shadow = gpu.sampler(&SamplerDesc::shadow()).unwrap();
        let e = kind(BindingArg::Sampler(&shadow), "samp", "a comparison sampler");
        assert!(e.to_string().contains("binds as sampler_comparison"), "{e}");
        kind(
            BindingArg::from(value! { x: 1.0 }),
            "tex",
            "a value for a texture",
        );
        // A texture on a uniform binding.
        let (probe_draw, probe_target) = probe_ready(gpu);
        let e = assert_code(probe_draw.set("tint", &good), "VGPU-SET-KIND");
        assert!(e.to_string().contains("`tint`"), "{e}");
        assert_unchanged(gpu, &probe_draw, &probe_target, PROBE_PIXEL, "probe");

        // Depth and comparison bindings reject the opposite kinds.
        let depth_draw = fullscreen(gpu, "depth", DEPTH_COMPARE_FS);
        let e = assert_code(depth_draw.set("shadow_map", &good), "VGPU-SET-KIND");
        assert!(e.to_string().contains("Rgba8Unorm"), "{e}");
        let e = assert_code(depth_draw.set("cmp", &nearest), "VGPU-SET-KIND");
        assert!(e.to_string().contains("expects sampler_comparison"), "{e}");
        // Multisampled depth is not a texture_depth_2d.
        let msaa = gpu
            .target_with(
                &TargetDesc::new(2, 2)
                    .depth(wgpu::TextureFormat::Depth32Float)
                    .samples(4),
            )
            .unwrap();
        assert_code(
            depth_draw.set("shadow_map", BindingArg::TargetDepth(&msaa)),
            "VGPU-SET-KIND",
        );
        depth_draw
            .set("shadow_map", BindingArg::TargetDepth(&depth))
            .unwrap();
        depth_draw.set("cmp", &shadow).unwrap();
        gpu.frame(|f| f.pass(&depth, |_| Ok(()))).unwrap();
        // Depth cleared to 1.0: the reference 0.5 passes.
        render(gpu, &depth_draw, &target, [255; 4], "depth compare");

        // A view of a texture without TEXTURE_BINDING usage is rejected at set, not when the
        // bind group is created.
        let unsampleable = gpu
            .context()
            .create_texture(&wgpu::TextureDescriptor {
                label: Some("attachment only"),
                size: wgpu::Extent3d {
                    width: 1,
                    height: 1,
                    depth_or_array_layers: 1,
                },
                mip_level_count: 1,
                sample_count: 1,
                dimension: wgpu::TextureDimension::D2,
                format: wgpu::TextureFormat::Rgba8Unorm,
                usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
                view_formats: &[],
            })
            .unwrap();
        let view = unsampleable.create_view(&Default::default());
        assert_code(draw.set("tex", &view), "VGPU-SET-KIND");

        // The draw still samples the texture set before the rejections.
        assert_unchanged(gpu, &draw, &target, [10, 20, 30, 40], "after rejections");
    });
}

/// Kind errors name textures and samplers by their WGSL types, not by wgpu's binding types
/// (`Float { filterable: true }`, `Comparison`), and say how to fix an unfilterable float
/// texture.
#[test]
fn texture_and_sampler_kind_errors_speak_wgsl() {
    on_each_gpu(|gpu| {
        let message = |e: vgpu::Error| {
            let m = e.to_string();
            assert!(m.starts_with("VGPU-SET-KIND: "), "{m}");
            for wgpu_words in ["Float {", "filterable:", "Comparison", "D2", "WriteOnly"] {
                assert!(!m.contains(wgpu_words), "{wgpu_words}: {m}");
            }
            m
        };
        let draw = fullscreen(gpu, "sampled", SAMPLED_FS);
        let uint = gpu
            .texture(&TextureDesc {
                format: wgpu::TextureFormat::Rgba32Uint,
                ..Default::default()
            })
            .unwrap();
        let m = message(draw.set("tex", &uint).unwrap_err());
        assert!(
            m.contains(
                "binding `tex` expects texture_2d<f32> (a filterable float format), \
                 got a Rgba32Uint texture, which binds as texture_2d<u32>"
            ),
            "{m}"
        );
        let shadow = gpu.sampler(&SamplerDesc::shadow()).unwrap();
        let m = message(draw.set("samp", &shadow).unwrap_err());
        assert!(
            m.contains("binding `samp` expects sampler, got a comparison sampler (compare LessEqual), which binds as sampler_comparison"),
            "{m}"
        );
        let m = message(draw.set("samp", &uint).unwrap_err());
        assert!(m.contains("binding `samp` expects sampler, got"), "{m}");

        let unfilterable = [
            wgpu::TextureFormat::R32Float,
            wgpu::TextureFormat::Rgba32Float,
        ];
        if !gpu
            .context()
            .features()
            .contains(wgpu::Features::FLOAT32_FILTERABLE)
        {
            for format in unfilterable {
                let float = gpu
                    .texture(&TextureDesc {
                        format,
                        ..Default::default()
                    })
                    .unwrap();
                let m = message(draw.set("tex", &float).unwrap_err());
                assert!(
                    m.contains(&format!("got a {format:?} texture, whose float texels are not filterable on this device")),
                    "{m}"
                );
                assert!(m.contains("Rgba16Float"), "names a filterable format: {m}");
                assert!(
                    m.contains(
                        "wgpu::Features::FLOAT32_FILTERABLE in GpuOptions::required_features"
                    ),
                    "{m}"
                );
            }
        }

        let depth = fullscreen(gpu, "depth", DEPTH_COMPARE_FS);
        let color = gpu.texture(&TextureDesc::default()).unwrap();
        let m = message(depth.set("shadow_map", &color).unwrap_err());
        assert!(
            m.contains(
                "expects texture_depth_2d, got a Rgba8Unorm texture, which binds as texture_2d<f32>"
            ),
            "{m}"
        );
        let nearest = gpu.sampler(&SamplerDesc::nearest()).unwrap();
        let m = message(depth.set("cmp", &nearest).unwrap_err());
        assert!(
            m.contains("expects sampler_comparison, got a sampler without compare"),
            "{m}"
        );
        assert!(m.contains("SamplerDesc::shadow()"), "{m}");

        let cs = gpu
            .shader(
                "storage texture",
                "
                @group(0) @binding(0) var img: texture_storage_2d<rgba8unorm, write>;
                @compute @workgroup_size(1) fn cs_main() {
                    textureStore(img, vec2u(0u, 0u), vec4f(1.0));
                }",
            )
            .unwrap();
        let k = gpu.compute(&cs, ComputeDesc::default()).unwrap();
        let r32 = gpu
            .texture(&TextureDesc {
                format: wgpu::TextureFormat::R32Float,
                usage: wgpu::TextureUsages::STORAGE_BINDING,
                ..Default::default()
            })
            .unwrap();
        let m = message(k.set("img", &r32).unwrap_err());
        assert!(
            m.contains("expects texture_storage_2d<rgba8unorm, write>, got a R32Float texture (texel format r32float)"),
            "{m}"
        );
    });
}

#[test]
fn dispatch_over_the_device_limit_is_rejected_and_records_nothing() {
    on_each_gpu(|gpu| {
        if !gpu
            .context()
            .adapter()
            .get_downlevel_capabilities()
            .flags
            .contains(wgpu::DownlevelFlags::COMPUTE_SHADERS)
        {
            vgpu_tests::skip("compute", "no compute shaders on this adapter");
            return;
        }
        let cs = gpu
            .shader(
                "count",
                "
                @group(0) @binding(0) var<storage, read_write> counter: array<atomic<u32>, 4>;
                @compute @workgroup_size(1) fn cs_main() { atomicAdd(&counter[0], 1u); }",
            )
            .unwrap();
        let k = gpu
            .compute(
                &cs,
                ComputeDesc {
                    label: "count".into(),
                    ..Default::default()
                },
            )
            .unwrap();
        let counter = gpu
            .buffer(&BufferDesc {
                label: "counter".into(),
                size: 16,
                usage: wgpu::BufferUsages::STORAGE,
            })
            .unwrap();
        k.set("counter", &counter).unwrap();
        let max = gpu.context().limits().max_compute_workgroups_per_dimension;
        let report = gpu
            .frame(|f| {
                f.compute_pass(|c| {
                    for dims in [[max + 1, 1, 1], [1, max + 1, 1], [1, 1, max + 1]] {
                        let e = assert_code(
                            c.dispatch(&k, dims[0], dims[1], dims[2]),
                            "VGPU-DISPATCH-LIMIT",
                        );
                        let Some(vgpu::FrameError::DispatchLimit {
                            label,
                            expected,
                            actual,
                        }) = e.as_frame()
                        else {
                            panic!("{e:?}")
                        };
                        assert_eq!((label.as_str(), *expected, *actual), ("count", max, dims));
                    }
                    assert_code(
                        c.dispatch(&k, u32::MAX, u32::MAX, u32::MAX),
                        "VGPU-DISPATCH-LIMIT",
                    );
                    // The pass is still usable: a valid dispatch records.
                    c.dispatch(&k, 3, 1, 1)
                })
            })
            .unwrap();
        assert_eq!(
            report.stats.operations_recorded, 1,
            "only the valid dispatch"
        );
        if !gpu.is_noop() {
            let words: Vec<u32> = bytemuck::pod_collect_to_vec(&counter.read_blocking().unwrap());
            assert_eq!(words[0], 3, "only the valid dispatch ran");
        }
    });
}

#[test]
fn stale_bundles_fail_instead_of_drawing_garbage() {
    on_each_gpu(|gpu| {
        let draw = probe(gpu);
        draw.set("object", value! { color: [0.0; 4], gain: 0.0 })
            .unwrap();
        let a = params_buffer(gpu, "a", [11.0; 4]);
        draw.set("tint", &a).unwrap();
        let target = small_target(gpu);
        let bundle = bundle_of(gpu, &draw, &target);
        assert_pixels(gpu, &target, [11; 4], "bundle");

        // Values bound by a bundle's draws are live; setting the same buffer again is a no-op.
        draw.set("object", value! { color: [1.0; 4], gain: 1.0 })
            .unwrap();
        draw.set("tint", &a).unwrap();
        replay(gpu, &bundle, &target).expect("not stale");
        assert_pixels(gpu, &target, [12; 4], "live value in the bundle");

        // Rebinding the buffer makes it stale.
        let b = params_buffer(gpu, "b", [20.0; 4]);
        draw.set("tint", &b).unwrap();
        let e = assert_code(replay(gpu, &bundle, &target), "VGPU-BUNDLE-STALE");
        let message = e.to_string();
        assert!(
            message.contains("probe bundle") && message.contains("\"probe\""),
            "{message}"
        );
        // The failed frame was cancelled; the draw itself still renders.
        render(gpu, &draw, &target, [21; 4], "draw after stale bundle");

        // Recorded again, then its buffer destroyed: stale again, naming the buffer.
        let bundle = bundle_of(gpu, &draw, &target);
        assert_pixels(gpu, &target, [21; 4], "re-recorded bundle");
        b.destroy();
        let e = assert_code(replay(gpu, &bundle, &target), "VGPU-BUNDLE-STALE");
        assert!(e.to_string().contains("destroyed"), "{e}");
        assert!(e.to_string().contains("\"b\""), "{e}");

        // A rebound uniforms block makes a bundle stale too.
        let block_draw = probe(gpu);
        let block1 = gpu.uniforms(value! { value: [1.0; 4] }).unwrap();
        let block2 = gpu.uniforms(value! { value: [2.0; 4] }).unwrap();
        block_draw
            .set("object", value! { color: [0.0; 4], gain: 0.0 })
            .unwrap();
        block_draw.set("tint", &block1).unwrap();
        let bundle = bundle_of(gpu, &block_draw, &target);
        block1.set(value! { value: [3.0; 4] }).unwrap();
        replay(gpu, &bundle, &target).expect("a block set writes through");
        assert_pixels(gpu, &target, [3; 4], "live block in the bundle");
        block_draw.set("tint", &block2).unwrap();
        assert_code(replay(gpu, &bundle, &target), "VGPU-BUNDLE-STALE");

        // Another target signature.
        let float = gpu
            .target_with(&TargetDesc::new(2, 2).format(wgpu::TextureFormat::Bgra8Unorm))
            .unwrap();
        let bundle = bundle_of(gpu, &block_draw, &target);
        assert_code(replay(gpu, &bundle, &float), "VGPU-BUNDLE-SIGNATURE");
    });
}

#[test]
fn rejected_sets_do_not_make_bundles_stale() {
    on_each_gpu(|gpu| {
        let (draw, target, bundle) = probe_with_bundle(gpu);
        let buffer = params_buffer(gpu, "buffer", [1.0; 4]);
        assert_code(draw.set("tint", &buffer), "VGPU-SET-OWNERSHIP");
        replay(gpu, &bundle, &target).expect("after an ownership error");
        assert_code(
            draw.set("object", value! { color: [1.0], gain: 1.0 }),
            "VGPU-SET-VALUE-INVALID",
        );
        replay(gpu, &bundle, &target).expect("after a wrong shape");
        assert_code(
            draw.set_all([
                (
                    "object",
                    BindingArg::from(value! { color: [5.0; 4], gain: 1.0 }),
                ),
                ("nope", BindingArg::from(value! { x: 1.0 })),
            ]),
            "VGPU-SET-BINDING-UNKNOWN",
        );
        replay(gpu, &bundle, &target).expect("after a rejected set_all");
        assert_pixels(gpu, &target, PROBE_PIXEL, "bundle after rejections");
    });
}

#[test]
fn set_all_applies_all_or_nothing() {
    on_each_gpu(|gpu| {
        let (draw, target) = probe_ready(gpu);
        let dead = params_buffer(gpu, "dead", [1.0; 4]);
        dead.destroy();

        // A valid first entry, an unknown second: neither applies.
        assert_code(
            draw.set_all([
                (
                    "object",
                    BindingArg::from(value! { color: [50.0; 4], gain: 1.0 }),
                ),
                ("nope", BindingArg::from(value! { x: 1.0 })),
            ]),
            "VGPU-SET-BINDING-UNKNOWN",
        );
        assert_unchanged(gpu, &draw, &target, PROBE_PIXEL, "unknown second entry");
        // The same binding twice, the second invalid.
        assert_code(
            draw.set_all([
                (
                    "object",
                    BindingArg::from(value! { color: [50.0; 4], gain: 1.0 }),
                ),
                ("object", BindingArg::from(value! { color: [1.0, 2.0] })),
            ]),
            "VGPU-SET-VALUE-INVALID",
        );
        assert_unchanged(gpu, &draw, &target, PROBE_PIXEL, "same binding twice");
        // Member shorthand first, then a buffer on a value-latched binding.
        assert_code(
            draw.set_all([
                ("gain", BindingArg::from(Value::from(5.0))),
                ("value", BindingArg::from(Value::from([9.0, 9.0, 9.0, 9.0]))),
                ("tint", BindingArg::from(&dead)),
            ]),
            "VGPU-SET-OWNERSHIP",
        );
        assert_unchanged(
            gpu,
            &draw,
            &target,
            PROBE_PIXEL,
            "member shorthand, then dead",
        );

        // Resources roll back too: a buffer-latched draw keeps its buffer.
        let other = probe(gpu);
        let first = params_buffer(gpu, "first", [30.0; 4]);
        let second = params_buffer(gpu, "second", [40.0; 4]);
        other
            .set_all([
                (
                    "object",
                    BindingArg::from(value! { color: [0.0; 4], gain: 0.0 }),
                ),
                ("tint", BindingArg::from(&first)),
            ])
            .unwrap();
        render(gpu, &other, &target, [30; 4], "first buffer");
        assert_code(
            other.set_all([
                ("tint", BindingArg::from(&second)),
                ("object", BindingArg::from(&second)),
            ]),
            "VGPU-SET-OWNERSHIP",
        );
        assert_unchanged(gpu, &other, &target, [30; 4], "resource rolled back");

        // A value binding switched to a shared block, then a rejected entry: the value (its owner
        // and bytes) is back, and later sets of it still work.
        let block = gpu.uniforms(value! { value: [7.0; 4] }).unwrap();
        assert_code(
            draw.set_all([
                ("tint", BindingArg::from(&block)),
                ("nope", BindingArg::from(Value::from(1.0))),
            ]),
            "VGPU-SET-BINDING-UNKNOWN",
        );
        render(
            gpu,
            &draw,
            &target,
            PROBE_PIXEL,
            "value binding back after a rollback",
        );
        draw.set("tint", value! { value: [2.0; 4] }).unwrap();
        render(
            gpu,
            &draw,
            &target,
            [22, 42, 62, 82],
            "value set after a rollback",
        );
        draw.set("tint", value! { value: [1.0; 4] }).unwrap();

        // On a fresh draw, a failed set_all leaves every binding unset.
        let fresh = probe(gpu);
        assert_code(
            fresh.set_all([
                (
                    "object",
                    BindingArg::from(value! { color: [1.0; 4], gain: 1.0 }),
                ),
                ("tint", BindingArg::from(&dead)),
            ]),
            "VGPU-SET-DESTROYED",
        );
        let e = assert_code(
            gpu.frame(|f| f.pass(&target, |p| p.draw(&fresh))),
            "VGPU-DRAW-UNSET-BINDING",
        );
        assert!(e.to_string().contains("`object`"), "{e}");
    });
}

/// Two struct bindings that share a member name (`color`).
const TWO_STRUCTS_FS: &str = "
struct A { color: vec4f, gain: f32 }
struct B { color: vec4f }
@group(0) @binding(0) var<uniform> a: A;
@group(0) @binding(1) var<uniform> b: B;
@fragment fn fs_main() -> @location(0) vec4f {
    return (a.color * a.gain + b.color) / 255.0;
}
";

#[test]
fn members_and_blocks_that_do_not_fit_are_rejected() {
    on_each_gpu(|gpu| {
        let draw = fullscreen(gpu, "two", TWO_STRUCTS_FS);
        let target = small_target(gpu);
        // Member shorthand before the binding holds a full value: nothing to merge onto.
        let e = assert_code(draw.set("gain", Value::from(1.0)), "VGPU-SET-VALUE-INVALID");
        assert!(e.to_string().contains("$.color"), "{e}");
        // A member of two bindings.
        let e = assert_code(
            draw.set("color", Value::from([1.0, 1.0, 1.0, 1.0])),
            "VGPU-SET-MEMBER-AMBIGUOUS",
        );
        assert!(
            e.to_string().contains("a.color") && e.to_string().contains("b.color"),
            "{e}"
        );
        // Both rejected: `a` is still unset.
        let e = assert_code(
            gpu.frame(|f| f.pass(&target, |p| p.draw(&draw))),
            "VGPU-DRAW-UNSET-BINDING",
        );
        assert!(e.to_string().contains("`a`"), "{e}");

        // A block whose value does not fit the first binding it meets is not adopted.
        let block = gpu
            .uniforms_labeled("color block", value! { color: [4.0, 5.0, 6.0, 7.0] })
            .unwrap();
        assert_code(draw.set("a", &block), "VGPU-SET-VALUE-INVALID");
        // It fits `b` and adopts B's layout; then `a` (another layout) is a mismatch.
        draw.set("b", &block).unwrap();
        let e = assert_code(draw.set("a", &block), "VGPU-SET-LAYOUT-MISMATCH");
        assert!(e.to_string().contains("color block"), "{e}");
        draw.set("a", value! { color: [1.0; 4], gain: 1.0 })
            .unwrap();
        render(gpu, &draw, &target, [5, 6, 7, 8], "block on b");
        let revision = block.revision();
        assert_code(
            block.set(value! { color: [1.0; 4], gain: 1.0 }),
            "VGPU-SET-VALUE-INVALID",
        );
        assert_eq!(block.revision(), revision);
        assert_unchanged(gpu, &draw, &target, [5, 6, 7, 8], "block unchanged");

        // A block on a storage binding.
        let storage = fullscreen(
            gpu,
            "storage",
            "
            struct C { v: vec4f }
            @group(0) @binding(0) var<storage, read> c: C;
            @fragment fn fs_main() -> @location(0) vec4f { return c.v; }",
        );
        if gpu.context().limits().max_storage_buffers_per_shader_stage > 0 {
            assert_code(storage.set("c", &block), "VGPU-SET-KIND");
            let uniform_only = params_buffer(gpu, "uniform only", [0.0; 4]);
            assert_code(storage.set("c", &uniform_only), "VGPU-SET-BUFFER-RANGE");
        }
    });
}

/// A buffer destroyed after a draw using it was recorded, before the frame is submitted: wgpu
/// rejects the whole submission, and `Frame::submit` returns the validation error, caught by the
/// frame's error scopes and attributed to `Queue::submit` with the frame's label and wgpu's
/// description (which names the buffer); nothing reaches the uncaptured-error log.
#[test]
fn a_buffer_destroyed_between_record_and_submit_fails_the_submit() {
    on_each_gpu(|gpu| {
        let draw = probe(gpu);
        draw.set("object", value! { color: [0.0; 4], gain: 0.0 })
            .unwrap();
        let buffer = params_buffer(gpu, "destroyed mid-frame", [1.0; 4]);
        draw.set("tint", &buffer).unwrap();
        let target = small_target(gpu);
        let result = gpu.frame(|f| {
            f.pass(&target, |p| p.draw(&draw))?;
            buffer.destroy();
            Ok(())
        });
        let uncaptured = gpu.take_uncaptured_errors();
        let e = assert_code(result, "VGPU-DEVICE-VALIDATION");
        let message = e.to_string();
        assert!(message.contains("destroyed mid-frame"), "{e}");
        assert!(
            message.starts_with("VGPU-DEVICE-VALIDATION: Queue::submit \"vgpu frame\""),
            "{e}"
        );
        assert!(uncaptured.is_empty(), "{uncaptured:?}");
    });
}

/// A raw command wgpu rejects (recorded through `Frame::encoder`) fails the frame at
/// `CommandEncoder::finish`: the frame's error scopes catches it and the error names that
/// call, not the submit that follows it in the same scope; the next frame is unaffected.
#[test]
fn a_rejected_raw_command_fails_the_frame_at_finish() {
    on_each_gpu(|gpu| {
        let (draw, target) = probe_ready(gpu);
        let buffer = params_buffer(gpu, "cleared badly", [1.0; 4]);
        let result = gpu.frame(|f| {
            f.pass(&target, |p| p.draw(&draw))?;
            // Offset 3 is not a multiple of 4: rejected when the encoder is finished.
            f.encoder().clear_buffer(buffer.raw(), 3, None);
            Ok(())
        });
        let e = assert_code(result, "VGPU-DEVICE-VALIDATION");
        assert!(
            e.to_string()
                .starts_with("VGPU-DEVICE-VALIDATION: CommandEncoder::finish \"vgpu frame\""),
            "{e}"
        );
        assert!(gpu.take_uncaptured_errors().is_empty());
        gpu.frame(|f| f.pass(&target, |p| p.draw(&draw)))
            .expect("the next frame");
        assert!(gpu.take_uncaptured_errors().is_empty());
        assert_pixels(gpu, &target, PROBE_PIXEL, "after the failed frame");
    });
}

/// Operation keys belong to the `Gpu` that created them: recording a draw or a dispatch in a
/// frame or bundle of another `Gpu` is an error naming the operation, and records nothing.
#[test]
fn operations_of_another_gpu_are_refused() {
    on_each_gpu(|gpu| {
        let other = Gpu::noop();
        // Same creation order on both: the keys collide.
        let (mine, target) = probe_ready(gpu);
        let (theirs, _) = probe_ready(&other);
        let before = gpu.stats();
        let e = assert_code(
            gpu.frame(|f| f.pass(&target, |p| p.draw(&theirs))),
            "VGPU-FOREIGN-GPU",
        );
        assert!(e.to_string().contains("\"probe\""), "{e}");
        assert_code(
            gpu.frame(|f| {
                f.pass(&target, |p| {
                    p.draw_with(
                        &theirs,
                        DrawRange {
                            vertices: 0..3,
                            instances: 0..1,
                        },
                    )
                })
            }),
            "VGPU-FOREIGN-GPU",
        );
        assert_eq!((gpu.stats() - before).operations_recorded, 0);
        assert_code(
            gpu.bundle("foreign", target.signature(), |b| b.draw(&theirs)),
            "VGPU-FOREIGN-GPU",
        );
        let cs = other
            .shader(
                "foreign compute",
                "
                @group(0) @binding(0) var<storage, read_write> out: array<u32>;
                @compute @workgroup_size(1) fn cs_main() { out[0] = 1u; }",
            )
            .unwrap();
        let k = other.compute(&cs, ComputeDesc::default()).unwrap();
        assert_code(
            gpu.frame(|f| f.compute_pass(|c| c.dispatch(&k, 1, 1, 1))),
            "VGPU-FOREIGN-GPU",
        );
        // Its own draw still records.
        gpu.frame(|f| f.pass(&target, |p| p.draw(&mine)))
            .expect("own draw");
        assert_pixels(gpu, &target, PROBE_PIXEL, "own draw after refusals");
    });
}

/// Vertex and index buffer ranges wgpu would panic on (an empty slice, an overflowing range) or
/// reject are refused when the draw is created, naming the buffer, expected vs actual.
#[test]
fn vertex_and_index_ranges_are_checked_at_creation() {
    on_each_gpu(|gpu| {
        let shader = gpu
            .shader(
                "positions",
                "
                @vertex fn vs_main(@location(0) p: vec4f) -> @builtin(position) vec4f { return p; }
                @fragment fn fs_main() -> @location(0) vec4f { return vec4f(1.0); }",
            )
            .unwrap();
        let buffer = |label: &str, usage| {
            gpu.buffer(&BufferDesc {
                label: label.into(),
                size: 64,
                usage,
            })
            .unwrap()
        };
        let vertices = buffer("vertices", wgpu::BufferUsages::VERTEX);
        let indices = buffer("indices", wgpu::BufferUsages::INDEX);
        let vertex = |buffer: &Buffer, offset| VertexBuffer {
            buffer: buffer.clone(),
            offset,
            stride: 16,
            step_mode: wgpu::VertexStepMode::Vertex,
            attributes: vec![wgpu::VertexAttribute {
                format: wgpu::VertexFormat::Float32x4,
                offset: 0,
                shader_location: 0,
            }],
        };
        let index = |buffer: &Buffer, offset, count| IndexBuffer {
            buffer: buffer.clone(),
            offset,
            format: wgpu::IndexFormat::Uint32,
            count,
            base_vertex: 0,
        };
        let draw_of = |vb: VertexBuffer, ib: Option<IndexBuffer>| {
            gpu.draw(
                &shader,
                DrawDesc {
                    label: "ranged".into(),
                    vertex_buffers: vec![vb],
                    index_buffer: ib,
                    ..Default::default()
                },
            )
        };
        let draw = |offset, ib: Option<IndexBuffer>| draw_of(vertex(&vertices, offset), ib);
        draw(0, Some(index(&indices, 0, 16))).expect("in range");
        // A bundle of a draw goes stale when its index or vertex buffer is destroyed.
        let target = small_target(gpu);
        for (destroyed, what) in [(0, "index buffer \"dead\""), (1, "vertex buffer \"dead\"")] {
            let dead_usage = [wgpu::BufferUsages::INDEX, wgpu::BufferUsages::VERTEX][destroyed];
            let dead = buffer("dead", dead_usage);
            let ranged = if destroyed == 0 {
                draw_of(vertex(&vertices, 0), Some(index(&dead, 0, 3)))
            } else {
                draw_of(vertex(&dead, 0), Some(index(&indices, 0, 3)))
            }
            .expect("in range");
            let bundle = bundle_of(gpu, &ranged, &target);
            dead.destroy();
            let e = assert_code(replay(gpu, &bundle, &target), "VGPU-BUNDLE-STALE");
            assert!(e.to_string().contains(what), "{e}");
        }
        for (offset, what) in [(64, "at the end"), (200, "past the end"), (2, "misaligned")] {
            let e = assert_code(draw(offset, None), "VGPU-DRAW-VERTEX-LAYOUT");
            assert!(e.to_string().contains("\"vertices\""), "{what}: {e}");
            assert!(e.to_string().contains(&offset.to_string()), "{what}: {e}");
        }
        for (offset, count, what) in [
            (0, 17, "one index too many"),
            (64, 0, "empty at the end"),
            (2, 1, "misaligned"),
            (u64::MAX - 3, 2, "overflowing"),
        ] {
            let e = assert_code(
                draw(0, Some(index(&indices, offset, count))),
                "VGPU-DRAW-VERTEX-LAYOUT",
            );
            assert!(e.to_string().contains("index range"), "{what}: {e}");
            assert!(
                e.to_string()
                    .contains(&format!("offset {offset}, count {count}")),
                "{what}: {e}"
            );
        }
    });
}

/// Passes of two `Gpu`s nested on one thread: setting a value of the outer `Gpu` inside the
/// inner pass reaches the outer pass's held state instead of locking it again (a deadlock), and
/// each `Gpu`'s frame records its own draw: the outer frame records one draw and captures the
/// value set mid-pass into a slot of its own (as a set inside a pass of one `Gpu` does), the
/// inner one records one draw and uploads or captures nothing (its values did not change).
#[test]
fn nested_passes_of_two_gpus_reach_each_state() {
    let (done, result) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let (a, b) = (Gpu::noop(), Gpu::noop());
        let (draw_a, target_a) = probe_ready(&a);
        let (draw_b, target_b) = probe_ready(&b);
        let mut inner = None;
        let r = a.frame(|fa| {
            fa.pass(&target_a, |pa| {
                let report = b.frame(|fb| {
                    fb.pass(&target_b, |pb| {
                        draw_a.set("object", value! { color: [1.0; 4], gain: 1.0 })?;
                        pb.draw(&draw_b)
                    })
                })?;
                inner = Some(report.stats);
                pa.draw(&draw_a)
            })
        });
        let stats = r.map(|outer| (outer.stats, inner.expect("the inner frame ran")));
        let _ = done.send(stats.map_err(|e| e.to_string()));
    });
    let (outer, inner) = result
        .recv_timeout(std::time::Duration::from_secs(60))
        .expect("nested passes of two Gpus deadlocked")
        .expect("nested frames");
    assert_eq!(
        (outer.operations_recorded, outer.slots_captured),
        (1, 1),
        "a's frame draws a's draw with a's new value: {outer:?}"
    );
    assert!(outer.bytes_uploaded > 0, "{outer:?}");
    assert_eq!(
        (
            inner.operations_recorded,
            inner.slots_captured,
            inner.bytes_uploaded
        ),
        (1, 0, 0),
        "b's frame draws b's draw and nothing of a's: {inner:?}"
    );
}
