//! Tier 2 (real device: VGPU_BACKEND=vulkan or gl): several color attachments (each written by
//! its `@location`, cleared or kept per attachment, blended and masked per attachment, bound as
//! a texture later) and stencil (`Depth24PlusStencil8`: written with `Replace`, tested with
//! `Equal`, its clear value, its reference set per pass and between draws, a read-only pass,
//! under MSAA).

#![allow(clippy::unwrap_used, reason = "an unwrap in a test is an assertion")]

use vgpu::{
    BindingArg, ColorTarget, DepthState, Draw, DrawDesc, Gpu, PassDesc, Target, TargetDesc,
};
use wgpu::TextureFormat as F;

use super::tier2_render_state::{FULL, LEFT, RIGHT, assert_columns, rect};

/// Writes another color to each of three attachments (the second in a float format, with
/// values past 1).
const THREE_OUTPUTS: &str = "
struct Out {
    @location(0) a: vec4f,
    @location(1) b: vec4f,
    @location(2) c: vec4f,
}
@vertex fn vs_main(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
    let p = vec2f(f32((i << 1u) & 2u), f32(i & 2u));
    return vec4f(p * 2.0 - 1.0, 0.0, 1.0);
}
@fragment fn fs_main() -> Out {
    return Out(vec4f(1.0, 0.0, 0.0, 1.0), vec4f(0.25, 0.5, 2.0, 1.0), vec4f(0.0, 0.0, 1.0, 1.0));
}
";

/// The formats of the G-buffer the MRT tests render into.
const GBUFFER: [F; 3] = [F::Rgba8Unorm, F::Rgba16Float, F::Rgba8Unorm];

fn gbuffer(gpu: &Gpu) -> Target {
    gbuffer_with(gpu, 1)
}

fn gbuffer_with(gpu: &Gpu, samples: u32) -> Target {
    let desc = TargetDesc::new(8, 4).colors(&GBUFFER).samples(samples);
    gpu.target_with(&desc.label("gbuffer")).unwrap()
}

fn three_outputs(gpu: &Gpu, state: impl FnOnce(&mut DrawDesc)) -> Draw {
    let shader = gpu.shader("three outputs", THREE_OUTPUTS).unwrap();
    let mut desc = DrawDesc {
        label: "three outputs".into(),
        ..Default::default()
    };
    state(&mut desc);
    gpu.draw(&shader, desc).unwrap()
}

/// Asserts every pixel of `pixels` is `expected`, each channel within `tolerance`.
#[track_caller]
fn assert_f32_all(pixels: &[[f32; 4]], expected: [f32; 4], tolerance: f32, what: &str) {
    for (i, p) in pixels.iter().enumerate() {
        let near = p
            .iter()
            .zip(expected)
            .all(|(a, e)| (a - e).abs() <= tolerance);
        assert!(near, "{what}: pixel {i} is {p:?}, expected {expected:?}");
    }
}

#[track_caller]
fn assert_clean(gpu: &Gpu) {
    let errors = gpu.take_uncaptured_errors();
    assert!(errors.is_empty(), "uncaptured wgpu errors: {errors:?}");
}

/// Each attachment holds its `@location`'s output; a later pass clears one attachment, keeps
/// another (`None`) and clears the third to another color. Single-sample, and under 4× MSAA
/// (each attachment resolved into its own texture).
#[test]
fn each_attachment_gets_its_location_and_its_own_clear() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    for samples in [1, 4] {
        locations_and_clears(&gpu, samples);
    }
    assert_clean(&gpu);
}

fn locations_and_clears(gpu: &Gpu, samples: u32) {
    let target = gbuffer_with(gpu, samples);
    assert_eq!(target.color_count(), 3);
    assert_eq!(target.signature().colors.as_slice(), &GBUFFER);
    let draw = three_outputs(gpu, |_| {});
    gpu.frame(|f| f.pass(&target, |p| p.draw(&draw))).unwrap();
    vgpu_tests::assert_all_pixels(
        &target.read_rgba8_at(0).unwrap(),
        [255, 0, 0, 255],
        &format!("{samples}×: 0"),
    );
    assert_f32_all(
        &target.read_f32_at(1).unwrap(),
        [0.25, 0.5, 2.0, 1.0],
        0.0,
        &format!("{samples}×: 1"),
    );
    vgpu_tests::assert_all_pixels(
        &target.read_rgba8_at(2).unwrap(),
        [0, 0, 255, 255],
        &format!("{samples}×: 2"),
    );
    assert_eq!(
        target.read_rgba8().unwrap(),
        target.read_rgba8_at(0).unwrap()
    );

    let clears = [Some([0.0, 1.0, 0.0, 1.0]), None, Some([1.0, 1.0, 0.0, 1.0])];
    gpu.frame(|f| {
        f.pass(
            PassDesc::new(&target).clear_attachments(&clears),
            |_| Ok(()),
        )
    })
    .unwrap();
    vgpu_tests::assert_all_pixels(
        &target.read_rgba8_at(0).unwrap(),
        [0, 255, 0, 255],
        &format!("{samples}×: 0"),
    );
    assert_f32_all(
        &target.read_f32_at(1).unwrap(),
        [0.25, 0.5, 2.0, 1.0],
        0.0,
        &format!("{samples}×: 1 kept"),
    );
    vgpu_tests::assert_all_pixels(
        &target.read_rgba8_at(2).unwrap(),
        [255, 255, 0, 255],
        &format!("{samples}×: 2"),
    );
}

/// Per attachment state: attachment 0 adds to what is there, attachment 1 writes red only,
/// attachment 2 (past `colors`) takes the draw's `blend` and `write_mask` (replace, all).
#[test]
fn blend_and_write_mask_per_attachment() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    let target = gbuffer(&gpu);
    let draw = three_outputs(&gpu, |d| {
        d.colors = vec![
            ColorTarget {
                blend: Some(wgpu::BlendState {
                    color: wgpu::BlendComponent {
                        src_factor: wgpu::BlendFactor::One,
                        dst_factor: wgpu::BlendFactor::One,
                        operation: wgpu::BlendOperation::Add,
                    },
                    alpha: wgpu::BlendComponent::REPLACE,
                }),
                write_mask: wgpu::ColorWrites::ALL,
            },
            ColorTarget {
                blend: None,
                write_mask: wgpu::ColorWrites::RED,
            },
        ];
    });
    gpu.frame(|f| {
        f.pass(
            PassDesc::new(&target).clear_attachments(&[
                Some([0.0, 0.4, 0.2, 0.6]),
                Some([0.1, 0.2, 0.3, 0.4]),
                Some([0.5, 0.5, 0.5, 0.5]),
            ]),
            |p| p.draw(&draw),
        )
    })
    .unwrap();
    // (1, 0, 0, 1) added to (0, 0.4, 0.2, _), alpha replaced.
    assert_f32_all(
        &target.read_f32_at(0).unwrap(),
        [1.0, 0.4, 0.2, 1.0],
        1.0 / 255.0,
        "add",
    );
    // Red 0.25 written, green, blue and alpha kept (f16 of the clear values).
    assert_f32_all(
        &target.read_f32_at(1).unwrap(),
        [0.25, 0.2, 0.3, 0.4],
        1e-3,
        "red only",
    );
    vgpu_tests::assert_all_pixels(&target.read_rgba8_at(2).unwrap(), [0, 0, 255, 255], "2");
    assert_clean(&gpu);
}

/// Shows attachment 1 of a G-buffer, bound with `BindingArg::TargetColorAt`.
const SHOW: &str = "
@group(0) @binding(0) var plane: texture_2d<f32>;
@fragment fn fs_main(@builtin(position) pos: vec4f) -> @location(0) vec4f {
    return textureLoad(plane, vec2i(pos.xy), 0);
}
";

/// Attachment 1 written in one pass is seen by a draw of a later pass that binds it as a
/// texture: its left half as drawn, its right half as cleared.
#[test]
fn an_attachment_is_sampled_in_a_later_pass() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    let target = gbuffer(&gpu);
    let left = three_outputs(&gpu, |_| {});
    let show = vgpu_tests::fullscreen(&gpu, "show", SHOW);
    show.set("plane", BindingArg::TargetColorAt(&target, 1))
        .unwrap();
    let out = gpu.target(8, 4).unwrap();
    gpu.frame(|f| {
        f.pass(
            PassDesc::new(&target)
                .clear([0.0, 0.0, 1.0, 1.0])
                .scissor(0, 0, 4, 4),
            |p| p.draw(&left),
        )?;
        f.pass(&out, |p| p.draw(&show))
    })
    .unwrap();
    let image = out.read_rgba8().unwrap();
    // (0.25, 0.5, 2.0, 1.0) clamped to 8 bits.
    assert_columns(&image, 0..4, [64, 128, 255, 255], 0, "drawn half");
    assert_columns(&image, 4..8, [0, 0, 255, 255], 0, "cleared half");
    assert_clean(&gpu);
}

/// A target with color and `Depth24PlusStencil8`.
fn stencil_target(gpu: &Gpu, samples: u32) -> Target {
    gpu.target_with(
        &TargetDesc::new(8, 4)
            .depth(F::Depth24PlusStencil8)
            .samples(samples),
    )
    .unwrap()
}

/// A stencil state of `compare` and `pass_op` on both faces, reading and writing every bit.
fn stencil(compare: wgpu::CompareFunction, pass_op: wgpu::StencilOperation) -> wgpu::StencilState {
    let face = wgpu::StencilFaceState {
        compare,
        fail_op: wgpu::StencilOperation::Keep,
        depth_fail_op: wgpu::StencilOperation::Keep,
        pass_op,
    };
    wgpu::StencilState {
        front: face,
        back: face,
        read_mask: 0xff,
        write_mask: 0xff,
    }
}

/// Writes the pass's stencil reference where it covers (`region`), and no color.
fn mark(gpu: &Gpu, region: [f32; 4]) -> Draw {
    rect(gpu, "mark", region, 0.0, [1.0; 4], |d| {
        d.write_mask = wgpu::ColorWrites::empty();
        d.depth = DepthState {
            compare: wgpu::CompareFunction::Always,
            write: false,
            ..DepthState::default()
        };
        d.stencil = stencil(
            wgpu::CompareFunction::Always,
            wgpu::StencilOperation::Replace,
        );
    })
}

/// A fullscreen quad of `color` where the stencil equals the reference (`pass_op` on pass).
fn where_equal(gpu: &Gpu, color: [f32; 4], pass_op: wgpu::StencilOperation) -> Draw {
    rect(gpu, "where equal", FULL, 0.0, color, |d| {
        d.depth = DepthState {
            compare: wgpu::CompareFunction::Always,
            write: false,
            ..DepthState::default()
        };
        d.stencil = stencil(wgpu::CompareFunction::Equal, pass_op);
    })
}

const RED: [f32; 4] = [1.0, 0.0, 0.0, 1.0];
const GREEN: [f32; 4] = [0.0, 1.0, 0.0, 1.0];
const KEEP: wgpu::StencilOperation = wgpu::StencilOperation::Keep;

/// Pass 1 writes stencil 1 on the left half; pass 2 (loading it) draws red where it is 1:
/// the left half only, single-sample and under 4× MSAA. A pass that clears stencil to 1 draws
/// red everywhere.
#[test]
fn stencil_equal_draws_only_where_the_reference_was_written() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    for samples in [1, 4] {
        let target = stencil_target(&gpu, samples);
        let (mark, red) = (mark(&gpu, LEFT), where_equal(&gpu, RED, KEEP));
        gpu.frame(|f| {
            f.pass(PassDesc::new(&target).stencil_reference(1), |p| {
                p.draw(&mark)
            })?;
            f.pass(PassDesc::new(&target).load().stencil_reference(1), |p| {
                p.draw(&red)
            })
        })
        .unwrap();
        let image = target.read_rgba8().unwrap();
        let what = format!("{samples} sample(s)");
        assert_columns(&image, 0..4, [255, 0, 0, 255], 0, &format!("{what}: left"));
        assert_columns(&image, 4..8, [0; 4], 0, &format!("{what}: right"));

        gpu.frame(|f| {
            let desc = PassDesc::new(&target).clear_stencil(1).stencil_reference(1);
            f.pass(desc, |p| p.draw(&red))
        })
        .unwrap();
        let image = target.read_rgba8().unwrap();
        assert_columns(
            &image,
            0..8,
            [255, 0, 0, 255],
            0,
            &format!("{what}: clear 1"),
        );
    }
    assert_clean(&gpu);
}

/// `Pass::set_stencil_reference` between draws: one pass marks the left half with 1 and the
/// right half with 2; the next draws red where the stencil is 1 and, after setting 2, green
/// where it is 2.
#[test]
fn set_stencil_reference_between_draws() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    let target = stencil_target(&gpu, 1);
    let (left, right) = (mark(&gpu, LEFT), mark(&gpu, RIGHT));
    let (red, green) = (where_equal(&gpu, RED, KEEP), where_equal(&gpu, GREEN, KEEP));
    gpu.frame(|f| {
        f.pass(PassDesc::new(&target).stencil_reference(1), |p| {
            p.draw(&left)?;
            p.set_stencil_reference(2);
            p.draw(&right)
        })?;
        f.pass(PassDesc::new(&target).load(), |p| {
            p.set_stencil_reference(1);
            p.draw(&red)?;
            p.set_stencil_reference(2);
            p.draw(&green)
        })
    })
    .unwrap();
    let image = target.read_rgba8().unwrap();
    assert_columns(&image, 0..4, [255, 0, 0, 255], 0, "stencil 1");
    assert_columns(&image, 4..8, [0, 255, 0, 255], 0, "stencil 2");
    assert_clean(&gpu);
}

/// A `stencil_read_only` pass tests against the stencil but writes none of it, although its
/// draw's state increments on pass: a later pass still finds 1 on the left half.
#[test]
fn a_stencil_read_only_pass_tests_without_writing() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    let target = stencil_target(&gpu, 1);
    let mark = mark(&gpu, LEFT);
    let red_incr = where_equal(&gpu, RED, wgpu::StencilOperation::IncrementClamp);
    let green = where_equal(&gpu, GREEN, KEEP);
    gpu.frame(|f| {
        f.pass(PassDesc::new(&target).stencil_reference(1), |p| {
            p.draw(&mark)
        })?;
        let read_only = PassDesc::new(&target)
            .load()
            .stencil_read_only()
            .stencil_reference(1);
        f.pass(read_only, |p| {
            assert!(p.signature().stencil_read_only);
            p.draw(&red_incr)
        })
    })
    .unwrap();
    let image = target.read_rgba8().unwrap();
    assert_columns(&image, 0..4, [255, 0, 0, 255], 0, "read-only pass: left");
    assert_columns(&image, 4..8, [0; 4], 0, "read-only pass: right");
    gpu.frame(|f| {
        f.pass(PassDesc::new(&target).load().stencil_reference(1), |p| {
            p.draw(&green)
        })
    })
    .unwrap();
    let image = target.read_rgba8().unwrap();
    assert_columns(&image, 0..4, [0, 255, 0, 255], 0, "stencil still 1: left");
    assert_columns(&image, 4..8, [0; 4], 0, "stencil still 0: right");
    assert_clean(&gpu);
}
