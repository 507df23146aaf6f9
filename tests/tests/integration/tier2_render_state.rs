//! Tier 2 (real device: VGPU_BACKEND=vulkan or gl): render state read back as pixels and depth:
//! the blend constant (`PassDesc::blend_constant`, `Pass::set_blend_constant`), the depth bias
//! clamp, unclipped depth (`DEPTH_CLIP_CONTROL`), the multisample mask and a read-only depth
//! pass that samples the depth it tests against. The rectangles here are `rect` draws: a quad
//! whose corners, depth and color are `override` constants (no binding to set).

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
            assert!(near, "{what}: pixel ({x},{y}) is {p:?}, expected {expected:?} ±{tolerance}");
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
        d.blend = Some(wgpu::BlendState {
            color: c,
            alpha: c,
        });
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
    assert_columns(&image, 0..4, [51, 102, 153, 204], 1, "PassDesc::blend_constant");
    assert_columns(&image, 4..8, [204, 153, 102, 51], 1, "Pass::set_blend_constant");
    let errors = gpu.take_uncaptured_errors();
    assert!(errors.is_empty(), "uncaptured wgpu errors: {errors:?}");
}

/// The depth written by a quad at z = 0.5 with constant depth bias `bias` clamped to `clamp`
/// (0: no clamp), read back from a `Depth32Float` target.
fn biased_depth(gpu: &Gpu, bias: i32, clamp: f32) -> f32 {
    let quad = rect(gpu, "biased", FULL, 0.5, [1.0; 4], |d| {
        d.depth = DepthState {
            compare: wgpu::CompareFunction::Always,
            ..DepthState::default().bias(bias, 0.0, clamp)
        };
    });
    let target = gpu
        .target_with(&TargetDesc::new(4, 4).depth(F::Depth32Float))
        .unwrap();
    gpu.frame(|f| f.pass(&target, |p| p.draw(&quad))).unwrap();
    let depth = target.read_depth().unwrap();
    assert!(
        depth.iter().all(|&d| d == depth[0]),
        "a flat quad's depth is the same everywhere: {depth:?}"
    );
    depth[0]
}

/// A large constant depth bias moves the quad's depth well past 0.5; with a clamp of 0.01 it
/// moves it by 0.01 exactly (the clamp is the bias's largest magnitude).
#[test]
fn the_depth_bias_clamp_limits_the_bias() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    // For a float depth format one unit of constant bias is 2^(e - 23), e the exponent of the
    // primitive's largest depth (-1 at 0.5): 2^-24, so 10^6 units are about 0.06.
    let none = biased_depth(&gpu, 0, 0.0);
    let unclamped = biased_depth(&gpu, 1_000_000, 0.0);
    let clamped = biased_depth(&gpu, 1_000_000, 0.01);
    assert_eq!(none, 0.5, "no bias");
    assert!(
        unclamped > 0.52 && unclamped < 1.0,
        "an unclamped bias of 10^6 units at z = 0.5: {unclamped}"
    );
    assert!(
        (clamped - 0.51).abs() < 1e-4,
        "the bias clamped to 0.01: {clamped} (unclamped {unclamped})"
    );
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
/// once resolved, all four give white.
#[test]
fn the_multisample_mask_writes_only_its_samples() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    let quarter = masked_white(&gpu, 0b0001);
    assert_columns(&quarter, 0..4, [64; 4], 2, "mask 0b0001");
    let all = masked_white(&gpu, !0);
    assert_columns(&all, 0..4, [255; 4], 0, "every sample");
    let errors = gpu.take_uncaptured_errors();
    assert!(errors.is_empty(), "uncaptured wgpu errors: {errors:?}");
}

/// Outputs the target's depth at the fragment, in red.
const SAMPLE_DEPTH: &str = "
@group(0) @binding(0) var depth: texture_depth_2d;
@vertex fn vs_main(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
    let p = vec2f(f32((i << 1u) & 2u), f32(i & 2u));
    return vec4f(p * 2.0 - 1.0, 0.5, 1.0);
}
@fragment fn fs_main(@builtin(position) pos: vec4f) -> @location(0) vec4f {
    return vec4f(textureLoad(depth, vec2i(pos.xy), 0), 0.0, 0.0, 1.0);
}
";

/// A pass with `depth_read_only` tests against depth an earlier pass wrote while sampling it:
/// a fullscreen draw at z = 0.5 (compare `Less`) fails where the left half is at 0.25 and shows
/// the sampled 1.0 on the right; the depth is unchanged afterwards although the draw's state
/// writes depth.
#[test]
fn a_read_only_depth_pass_samples_the_depth_it_tests_against() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    let target = gpu
        .target_with(&TargetDesc::new(8, 4).depth(F::Depth32Float))
        .unwrap();
    let near = rect(&gpu, "near", LEFT, 0.25, [0.0, 0.0, 1.0, 1.0], |_| {});
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
    sample.set("depth", BindingArg::TargetDepth(&target)).unwrap();
    gpu.frame(|f| {
        f.pass(&target, |p| p.draw(&near))?;
        f.pass(PassDesc::new(&target).depth_read_only(), |p| p.draw(&sample))
    })
    .unwrap();
    let image = target.read_rgba8().unwrap();
    assert_columns(&image, 0..4, [0, 0, 0, 0], 0, "left: nearer depth, not drawn");
    assert_columns(&image, 4..8, [255, 0, 0, 255], 0, "right: the sampled depth 1.0");
    let depth = target.read_depth().unwrap();
    for (i, d) in depth.iter().enumerate() {
        let expected = if i % 8 < 4 { 0.25 } else { 1.0 };
        assert_eq!(*d, expected, "depth at pixel {i} after the read-only pass");
    }
    let errors = gpu.take_uncaptured_errors();
    assert!(errors.is_empty(), "uncaptured wgpu errors: {errors:?}");
}
