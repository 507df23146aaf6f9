//! Tier 2 (real device: VGPU_BACKEND=vulkan or gl): render state read back as pixels and depth:
//! the blend constant (`PassDesc::blend_constant`, `Pass::set_blend_constant`), the depth bias
//! clamp, unclipped depth (`DEPTH_CLIP_CONTROL`), the multisample mask, and read-only depth
//! passes (testing without writing; sampling the depth they test against). Where GL lacks a
//! capability (the bias clamp, sampling a read-only depth attachment, depth read-back), the
//! test checks the refusal there instead and says so; GL ignores the multisample mask, as
//! asserted. The rectangles here are `rect` draws: a quad whose corners, depth and color are
//! `override` constants (no binding to set).

#![allow(clippy::unwrap_used, reason = "an unwrap in a test is an assertion")]

use vgpu::{BindingArg, DepthState, Draw, DrawDesc, Gpu, GpuOptions, PassDesc, TargetDesc};
use wgpu::TextureFormat as F;

/// A quad from (`x0`, `y0`) to (`x1`, `y1`) in clip space at depth `z`, colored `r g b a`, all
/// `override` constants; `vs_main` needs `vertex_count: Some(6)`.
pub(crate) const RECT: &str = "
override x0: f32 = -1.0;
override x1: f32 = 1.0;
override y0: f32 = -1.0;
override y1: f32 = 1.0;
override z: f32 = 0.0;
override r: f32 = 1.0;
override g: f32 = 1.0;
override b: f32 = 1.0;
override a: f32 = 1.0;
@vertex fn vs_main(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
    let right = i == 1u || i == 4u || i == 5u;
    let top = i == 2u || i == 3u || i == 5u;
    return vec4f(select(x0, x1, right), select(y0, y1, top), z, 1.0);
}
@fragment fn fs_main() -> @location(0) vec4f { return vec4f(r, g, b, a); }
";

/// The whole viewport.
pub(crate) const FULL: [f32; 4] = [-1.0, 1.0, -1.0, 1.0];
/// The left half of the viewport (pixel columns `0..width / 2`).
pub(crate) const LEFT: [f32; 4] = [-1.0, 0.0, -1.0, 1.0];
/// The right half of the viewport.
pub(crate) const RIGHT: [f32; 4] = [0.0, 1.0, -1.0, 1.0];

/// A [`RECT`] draw over `[x0, x1, y0, y1]` at depth `z` in `color`, its other state set by
/// `state`.
pub(crate) fn rect(
    gpu: &Gpu,
    label: &str,
    [x0, x1, y0, y1]: [f32; 4],
    z: f32,
    [r, g, b, a]: [f32; 4],
    state: impl FnOnce(&mut DrawDesc),
) -> Draw {
    let shader = gpu.shader("rect", RECT).unwrap();
    let constants = [
        ("x0", x0),
        ("x1", x1),
        ("y0", y0),
        ("y1", y1),
        ("z", z),
        ("r", r),
        ("g", g),
        ("b", b),
        ("a", a),
    ];
    let mut desc = DrawDesc {
        label: label.to_owned(),
        vertex_count: Some(6),
        constants: constants
            .iter()
            .map(|(k, v)| ((*k).to_owned(), f64::from(*v)))
            .collect(),
        ..Default::default()
    };
    state(&mut desc);
    gpu.draw(&shader, desc).unwrap()
}

/// Asserts `image`'s pixel columns `columns` are `expected` (each channel within `tolerance`)
/// in every row.
#[track_caller]
pub(crate) fn assert_columns(
    image: &vgpu::RgbaImage,
    columns: std::ops::Range<u32>,
    expected: [u8; 4],
    tolerance: u8,
    what: &str,
) {
    for y in 0..image.height {
        for x in columns.clone() {
            let p = image.pixel(x, y).unwrap();
            let near = p
                .iter()
                .zip(expected)
                .all(|(a, e)| a.abs_diff(e) <= tolerance);
            assert!(
                near,
                "{what}: pixel ({x},{y}) is {p:?}, expected {expected:?} ±{tolerance}"
            );
        }
    }
}

/// `BlendFactor::Constant` blends each draw with the blend constant in force when it is drawn:
/// the pass's (`PassDesc::blend_constant`) for the first, `Pass::set_blend_constant`'s for the
/// second.
#[test]
fn the_blend_constant_of_the_pass_and_of_set_blend_constant() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    // The result is the constant itself: src × constant + dst × 0, with src white.
    let by_constant = |d: &mut DrawDesc| {
        let c = wgpu::BlendComponent {
            src_factor: wgpu::BlendFactor::Constant,
            dst_factor: wgpu::BlendFactor::Zero,
            operation: wgpu::BlendOperation::Add,
        };
        d.blend = Some(wgpu::BlendState { color: c, alpha: c });
    };
    let left = rect(&gpu, "left", LEFT, 0.0, [1.0; 4], by_constant);
    let right = rect(&gpu, "right", RIGHT, 0.0, [1.0; 4], by_constant);
    let target = gpu.target(8, 4).unwrap();
    gpu.frame(|f| {
        f.pass(
            PassDesc::new(&target).blend_constant([0.2, 0.4, 0.6, 0.8]),
            |p| {
                p.draw(&left)?;
                p.set_blend_constant([0.8, 0.6, 0.4, 0.2]);
                p.draw(&right)
            },
        )
    })
    .unwrap();
    let image = target.read_rgba8().unwrap();
    assert_columns(
        &image,
        0..4,
        [51, 102, 153, 204],
        1,
        "PassDesc::blend_constant",
    );
    assert_columns(
        &image,
        4..8,
        [204, 153, 102, 51],
        1,
        "Pass::set_blend_constant",
    );
    let errors = gpu.take_uncaptured_errors();
    assert!(errors.is_empty(), "uncaptured wgpu errors: {errors:?}");
}

/// Whether `gpu`'s device copies depth to buffers (`Target::read_depth`; not GL).
fn reads_depth(gpu: &Gpu) -> bool {
    gpu.context()
        .adapter()
        .get_downlevel_capabilities()
        .flags
        .contains(wgpu::DownlevelFlags::DEPTH_TEXTURE_AND_BUFFER_COPIES)
}

/// The depths the probes of [`biased_depth`] test against, one per pair of pixel columns.
const PROBES: [f32; 4] = [0.505, 0.515, 0.53, 0.9];

/// The depth written by a quad at z = 0.5 with constant depth bias `bias` clamped to `clamp`
/// (0: no clamp): which [`PROBES`] lie in front of it (white quads at those depths, compare
/// `Less`, into the loaded depth), and the depth read back where the device can.
fn biased_depth(gpu: &Gpu, bias: i32, clamp: f32) -> vgpu::Result<([bool; 4], Option<f32>)> {
    let quad = rect(gpu, "biased", FULL, 0.5, [1.0; 4], |d| {
        d.write_mask = wgpu::ColorWrites::empty();
        d.depth = DepthState {
            compare: wgpu::CompareFunction::Always,
            ..DepthState::default().bias(bias, 0.0, clamp)
        };
    });
    let probes: Vec<Draw> = PROBES
        .iter()
        .enumerate()
        .map(|(i, &z)| {
            let x0 = -1.0 + 0.5 * i as f32;
            rect(gpu, "probe", [x0, x0 + 0.5, -1.0, 1.0], z, [1.0; 4], |d| {
                d.depth.write = false;
            })
        })
        .collect();
    let target = gpu
        .target_with(&TargetDesc::new(8, 4).depth(F::Depth32Float))
        .unwrap();
    gpu.frame(|f| {
        f.pass(&target, |p| p.draw(&quad))?;
        f.pass(PassDesc::new(&target).load(), |p| {
            probes.iter().try_for_each(|probe| p.draw(probe))
        })
    })?;
    let image = target.read_rgba8().unwrap();
    let in_front = [0, 1, 2, 3].map(|i| image.pixel(2 * i, 0) == Some([255; 4]));
    let depth = match target.read_depth() {
        Ok(depth) => {
            assert!(reads_depth(gpu));
            assert!(
                depth.iter().all(|&d| d == depth[0]),
                "a flat quad's depth is the same everywhere: {depth:?}"
            );
            Some(depth[0])
        }
        Err(e) => {
            assert!(!reads_depth(gpu), "{e}");
            // As `Target::read_depth_async`'s test asserts: wgpu's refusal, not a vgpu check.
            assert_eq!(e.code(), "VGPU-DEVICE-VALIDATION", "{e}");
            assert!(
                e.to_string().contains("DEPTH_TEXTURE_AND_BUFFER_COPIES"),
                "{e}"
            );
            None
        }
    };
    Ok((in_front, depth))
}

/// A large constant depth bias moves the quad's depth well past 0.5; with a clamp of 0.01 it
/// moves it by 0.01 exactly (the clamp is the bias's largest magnitude). Seen by probes at
/// depths in front of and behind it, and read back where the device copies depth (not GL).
/// GL (no `DownlevelFlags::DEPTH_BIAS_CLAMP`: `glPolygonOffset` has no clamp) refuses the
/// clamped draw with `VGPU-DOWNLEVEL-MISSING` before wgpu sees its pipeline.
#[test]
fn the_depth_bias_clamp_limits_the_bias() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    // For a float depth format one unit of constant bias is 2^(e - 23), e the exponent of the
    // primitive's largest depth (-1 at 0.5): 2^-24, so 10^6 units are about 0.06.
    let (none, none_depth) = biased_depth(&gpu, 0, 0.0).unwrap();
    assert_eq!(none, [false; 4], "no bias: every probe behind 0.5");
    let (unclamped, unclamped_depth) = biased_depth(&gpu, 1_000_000, 0.0).unwrap();
    assert_eq!(
        unclamped,
        [true, true, true, false],
        "unclamped: past 0.53, before 0.9"
    );
    if let (Some(none), Some(unclamped)) = (none_depth, unclamped_depth) {
        assert_eq!(none, 0.5, "no bias");
        assert!(
            unclamped > 0.53 && unclamped < 0.6,
            "an unclamped bias of 10^6 units at z = 0.5: {unclamped}"
        );
    }
    let clamps = gpu
        .context()
        .adapter()
        .get_downlevel_capabilities()
        .flags
        .contains(wgpu::DownlevelFlags::DEPTH_BIAS_CLAMP);
    let clamped = biased_depth(&gpu, 1_000_000, 0.01);
    if !clamps {
        let e = clamped.unwrap_err();
        assert_eq!(e.code(), "VGPU-DOWNLEVEL-MISSING", "{e}");
        assert!(e.to_string().contains("DEPTH_BIAS_CLAMP"), "{e}");
        vgpu_tests::skip(
            "depth_bias_clamp",
            "the adapter lacks DownlevelFlags::DEPTH_BIAS_CLAMP: checked that it is refused",
        );
        return;
    }
    let (clamped, clamped_depth) = clamped.unwrap();
    assert_eq!(clamped, [true, false, false, false], "clamped to 0.51");
    if let Some(clamped) = clamped_depth {
        assert!(
            (clamped - 0.51).abs() < 1e-4,
            "the bias clamped to 0.01: {clamped}"
        );
    }
    let errors = gpu.take_uncaptured_errors();
    assert!(errors.is_empty(), "uncaptured wgpu errors: {errors:?}");
}

/// Whether a white quad at z = 1.5 (beyond the far plane) drawn by `gpu` into a target without
/// depth covers it (else nothing is drawn: the target keeps its clear color).
fn far_quad_drawn(gpu: &Gpu, unclipped: bool) -> bool {
    let far = rect(gpu, "far", FULL, 1.5, [1.0; 4], |d| {
        d.unclipped_depth = unclipped;
    });
    let target = gpu.target(4, 4).unwrap();
    gpu.frame(|f| f.pass(&target, |p| p.draw(&far))).unwrap();
    let image = target.read_rgba8().unwrap();
    let white = image.data.iter().all(|&c| c == 255);
    assert!(
        white || image.data.iter().all(|&c| c == 0),
        "all drawn or none: {:?}",
        image.data
    );
    white
}

/// A triangle beyond the far plane is clipped by default; `unclipped_depth` draws it, on a
/// `Gpu` created with `DEPTH_CLIP_CONTROL`. Without the feature the draw is
/// `VGPU-FEATURE-MISSING` at `Gpu::draw`; where the adapter lacks it, only that is checked (and
/// the feature test is skipped visibly).
#[test]
fn unclipped_depth_draws_beyond_the_far_plane() {
    let Some(plain) = vgpu_tests::real_gpu() else {
        return;
    };
    assert!(!far_quad_drawn(&plain, false), "clipped by default");
    let shader = plain.shader("rect", RECT).unwrap();
    let before = plain.stats();
    let e = plain
        .draw(
            &shader,
            DrawDesc {
                label: "unclipped".into(),
                unclipped_depth: true,
                ..Default::default()
            },
        )
        .unwrap_err();
    assert_eq!(e.code(), "VGPU-FEATURE-MISSING", "{e}");
    assert!(e.to_string().contains("\"unclipped\""), "{e}");
    assert_eq!(plain.stats().pipelines_created, before.pipelines_created);

    let feature = wgpu::Features::DEPTH_CLIP_CONTROL;
    if !plain.context().adapter().features().contains(feature) {
        vgpu_tests::skip(
            "depth_clip_control",
            "the adapter lacks DEPTH_CLIP_CONTROL: checked VGPU-FEATURE-MISSING only",
        );
        return;
    }
    let gpu = Gpu::new(&GpuOptions {
        required_features: feature,
        ..GpuOptions::from_env().unwrap()
    })
    .unwrap();
    assert!(!far_quad_drawn(&gpu, false), "clipped with the feature on");
    assert!(far_quad_drawn(&gpu, true), "unclipped_depth draws it");
    let errors = gpu.take_uncaptured_errors();
    assert!(errors.is_empty(), "uncaptured wgpu errors: {errors:?}");
}

/// The resolved color of a white fullscreen draw with sample mask `mask` into a 4× MSAA target
/// cleared to transparent black.
fn masked_white(gpu: &Gpu, mask: u64) -> vgpu::RgbaImage {
    let white = rect(gpu, "white", FULL, 0.0, [1.0; 4], |d| {
        d.multisample_mask = mask;
    });
    let target = gpu.target_with(&TargetDesc::new(4, 4).samples(4)).unwrap();
    gpu.frame(|f| f.pass(&target, |p| p.draw(&white))).unwrap();
    target.read_rgba8().unwrap()
}

/// `multisample_mask` writes only the samples it lists: one of four gives a quarter of white
/// once resolved, all four give white. GL ignores the mask (wgpu's GL backend never sets
/// `glSampleMaski`, and nothing reports it): there every sample is written, as asserted.
#[test]
fn the_multisample_mask_writes_only_its_samples() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    let quarter = masked_white(&gpu, 0b0001);
    if gpu.context().adapter().get_info().backend == wgpu::Backend::Gl {
        assert_columns(&quarter, 0..4, [255; 4], 0, "GL: mask 0b0001 ignored");
    } else {
        assert_columns(&quarter, 0..4, [64; 4], 2, "mask 0b0001");
    }
    let all = masked_white(&gpu, !0);
    assert_columns(&all, 0..4, [255; 4], 0, "every sample");
    let errors = gpu.take_uncaptured_errors();
    assert!(errors.is_empty(), "uncaptured wgpu errors: {errors:?}");
}

/// Shows in red whether the target's depth at the fragment is at least 0.99 (a comparison
/// sample: GLSL has no other on depth textures), drawn fullscreen at z = 0.5.
const SAMPLE_DEPTH: &str = "
@group(0) @binding(0) var depth: texture_depth_2d;
@group(0) @binding(1) var at_least: sampler_comparison;
@vertex fn vs_main(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
    let p = vec2f(f32((i << 1u) & 2u), f32(i & 2u));
    return vec4f(p * 2.0 - 1.0, 0.5, 1.0);
}
@fragment fn fs_main(@builtin(position) pos: vec4f) -> @location(0) vec4f {
    let uv = pos.xy / vec2f(textureDimensions(depth));
    return vec4f(textureSampleCompare(depth, at_least, uv, 0.99), 0.0, 0.0, 1.0);
}
";

/// A fullscreen draw of [`SAMPLE_DEPTH`] sampling `target`'s depth.
fn sample_depth(gpu: &Gpu, target: &vgpu::Target) -> Draw {
    let shader = gpu.shader("sample depth", SAMPLE_DEPTH).unwrap();
    let sample = gpu
        .draw(
            &shader,
            DrawDesc {
                label: "sample depth".into(),
                ..Default::default()
            },
        )
        .unwrap();
    sample
        .set("depth", BindingArg::TargetDepth(target))
        .unwrap();
    // 1 where the sampled depth is at least 0.99 (LessEqual: the reference 0.99 ≤ depth).
    let at_least = gpu
        .sampler(&vgpu::SamplerDesc {
            compare: Some(wgpu::CompareFunction::LessEqual),
            ..vgpu::SamplerDesc::nearest()
        })
        .unwrap();
    sample.set("at_least", &at_least).unwrap();
    sample
}

/// A pass with `depth_read_only` tests against the depth an earlier pass wrote (0.25 on the
/// left half) but writes none, although its draw's state writes: a fullscreen red draw at
/// z = 0.5 (compare `Less`) covers the right half only, and a later green draw at 0.75 still
/// passes there (the depth is still 1.0; read back where the device copies depth). The draw
/// recorded earlier into a pass that writes depth does not lend the read-only pass its pipeline.
#[test]
fn a_read_only_depth_pass_tests_without_writing() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    let target = gpu
        .target_with(&TargetDesc::new(8, 4).depth(F::Depth32Float))
        .unwrap();
    let near = rect(&gpu, "near", LEFT, 0.25, [0.0, 0.0, 1.0, 1.0], |_| {});
    let red = rect(&gpu, "red", FULL, 0.5, [1.0, 0.0, 0.0, 1.0], |_| {});
    let green = rect(&gpu, "green", FULL, 0.75, [0.0, 1.0, 0.0, 1.0], |_| {});
    // The same draw in a pass that writes depth, into a target of the same formats, first:
    // the read-only pass must get a pipeline of its own (one that writes no depth).
    let other = gpu
        .target_with(&TargetDesc::new(8, 4).depth(F::Depth32Float))
        .unwrap();
    gpu.frame(|f| {
        f.pass(&other, |p| p.draw(&red))?;
        f.pass(&target, |p| p.draw(&near))?;
        f.pass(PassDesc::new(&target).depth_read_only(), |p| {
            assert!(p.signature().depth_read_only);
            p.draw(&red)
        })
    })
    .unwrap();
    let image = target.read_rgba8().unwrap();
    assert_columns(&image, 0..4, [0; 4], 0, "left: nearer depth, not drawn");
    assert_columns(&image, 4..8, [255, 0, 0, 255], 0, "right: drawn");
    gpu.frame(|f| f.pass(PassDesc::new(&target).load(), |p| p.draw(&green)))
        .unwrap();
    let image = target.read_rgba8().unwrap();
    assert_columns(&image, 0..4, [0; 4], 0, "left: still 0.25");
    assert_columns(
        &image,
        4..8,
        [0, 255, 0, 255],
        0,
        "right: still 1.0, not 0.5",
    );
    if reads_depth(&gpu) {
        let depth = target.read_depth().unwrap();
        for (i, d) in depth.iter().enumerate() {
            let expected = if i % 8 < 4 { 0.25 } else { 0.75 };
            assert_eq!(*d, expected, "depth at pixel {i}");
        }
    }
    let errors = gpu.take_uncaptured_errors();
    assert!(errors.is_empty(), "uncaptured wgpu errors: {errors:?}");
}

/// A draw of a `depth_read_only` pass samples the depth it tests against: the right half (depth
/// 1.0, behind z = 0.5) shows the sample (≥ 0.99: red), the left half (0.25) is not drawn, and
/// the depth is unchanged. A device without `DownlevelFlags::READ_ONLY_DEPTH_STENCIL` (GL)
/// cannot bind an attachment it tests against: the frame fails with wgpu's validation error
/// (not a vgpu code).
#[test]
fn a_read_only_depth_pass_samples_the_depth_it_tests_against() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    let target = gpu
        .target_with(&TargetDesc::new(8, 4).depth(F::Depth32Float))
        .unwrap();
    let near = rect(&gpu, "near", LEFT, 0.25, [0.0, 0.0, 1.0, 1.0], |_| {});
    let sample = sample_depth(&gpu, &target);
    let result = gpu.frame(|f| {
        f.pass(&target, |p| p.draw(&near))?;
        f.pass(PassDesc::new(&target).depth_read_only(), |p| {
            p.draw(&sample)
        })
    });
    let flags = gpu.context().adapter().get_downlevel_capabilities().flags;
    if !flags.contains(wgpu::DownlevelFlags::READ_ONLY_DEPTH_STENCIL) {
        let e = result.unwrap_err();
        assert_eq!(e.code(), "VGPU-DEVICE-VALIDATION", "{e}");
        assert!(e.to_string().contains("conflicting usages"), "{e}");
        vgpu_tests::skip(
            "read_only_depth_stencil",
            "the adapter lacks DownlevelFlags::READ_ONLY_DEPTH_STENCIL: checked that sampling \
             a read-only depth attachment is refused",
        );
        return;
    }
    result.unwrap();
    let image = target.read_rgba8().unwrap();
    assert_columns(
        &image,
        0..4,
        [0, 0, 0, 0],
        0,
        "left: nearer depth, not drawn",
    );
    assert_columns(
        &image,
        4..8,
        [255, 0, 0, 255],
        0,
        "right: the sampled depth 1.0",
    );
    if reads_depth(&gpu) {
        let depth = target.read_depth().unwrap();
        for (i, d) in depth.iter().enumerate() {
            let expected = if i % 8 < 4 { 0.25 } else { 1.0 };
            assert_eq!(*d, expected, "depth at pixel {i} after the read-only pass");
        }
    }
    let errors = gpu.take_uncaptured_errors();
    assert!(errors.is_empty(), "uncaptured wgpu errors: {errors:?}");
}

/// The depth of a depth-stencil target binds as a `texture_depth_2d` (vgpu binds a view of the
/// depth aspect alone: a view with both aspects cannot be bound): a later pass into another
/// target samples the depth an earlier pass wrote (0.25 on the left half, 1.0 on the right).
#[test]
fn the_depth_of_a_depth_stencil_target_is_sampled() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    let target = gpu
        .target_with(&TargetDesc::new(8, 4).depth(F::Depth24PlusStencil8))
        .unwrap();
    let near = rect(&gpu, "near", LEFT, 0.25, [0.0, 0.0, 1.0, 1.0], |_| {});
    let sample = sample_depth(&gpu, &target);
    let out = gpu.target(8, 4).unwrap();
    gpu.frame(|f| {
        f.pass(&target, |p| p.draw(&near))?;
        f.pass(&out, |p| p.draw(&sample))
    })
    .unwrap();
    let image = out.read_rgba8().unwrap();
    assert_columns(
        &image,
        0..4,
        [0, 0, 0, 255],
        0,
        "left: depth 0.25, below 0.99",
    );
    assert_columns(&image, 4..8, [255, 0, 0, 255], 0, "right: depth 1.0");
    let errors = gpu.take_uncaptured_errors();
    assert!(errors.is_empty(), "uncaptured wgpu errors: {errors:?}");
}

/// An effect's options reach its pipeline: its override constant (the green level), its write
/// mask (green only: red, blue and alpha keep the clear color) and its stencil test (only where
/// an earlier draw wrote the reference: the left half).
#[test]
fn effect_options_give_constants_write_mask_and_stencil() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    let target = gpu
        .target_with(&TargetDesc::new(8, 4).depth(F::Depth24PlusStencil8))
        .unwrap();
    let face = |compare, pass_op| wgpu::StencilFaceState {
        compare,
        fail_op: wgpu::StencilOperation::Keep,
        depth_fail_op: wgpu::StencilOperation::Keep,
        pass_op,
    };
    let mark = rect(&gpu, "mark", LEFT, 0.5, [1.0; 4], |d| {
        d.write_mask = wgpu::ColorWrites::empty();
        let f = face(
            wgpu::CompareFunction::Always,
            wgpu::StencilOperation::Replace,
        );
        d.stencil = wgpu::StencilState {
            front: f,
            back: f,
            read_mask: 0xff,
            write_mask: 0xff,
        };
    });
    let equal = face(wgpu::CompareFunction::Equal, wgpu::StencilOperation::Keep);
    let green = gpu
        .effect_with(
            "green level",
            "override level: f32 = 0.0;
             @fragment fn fs_main() -> @location(0) vec4f { return vec4f(1.0, level, 1.0, 1.0); }",
            vgpu::EffectOptions {
                write_mask: wgpu::ColorWrites::GREEN,
                depth: DepthState {
                    compare: wgpu::CompareFunction::Always,
                    write: false,
                    ..DepthState::default()
                },
                stencil: wgpu::StencilState {
                    front: equal,
                    back: equal,
                    read_mask: 0xff,
                    write_mask: 0,
                },
                constants: vec![("level".into(), 1.0)],
                ..Default::default()
            },
        )
        .unwrap();
    gpu.frame(|f| {
        f.pass(PassDesc::new(&target).stencil_reference(1), |p| {
            p.draw(&mark)?;
            p.draw(&green)
        })
    })
    .unwrap();
    let image = target.read_rgba8().unwrap();
    assert_columns(
        &image,
        0..4,
        [0, 255, 0, 0],
        0,
        "left: marked, green written only",
    );
    assert_columns(&image, 4..8, [0, 0, 0, 0], 0, "right: not marked");
}
