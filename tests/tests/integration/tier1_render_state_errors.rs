//! Render state's errors (tier 1, noop): `VGPU-DRAW-COLOR-OUTPUT` (fragment outputs against a
//! target's color attachments), `VGPU-DRAW-STENCIL` (stencil state without a stencil aspect),
//! `VGPU-FEATURE-MISSING` (unclipped depth without `DEPTH_CLIP_CONTROL`) and
//! `VGPU-TARGET-ATTACHMENTS` (a target's attachments, an attachment index, a pass's clears).
//! Each names the draw or target and what was expected; a refused draw creates no pipeline, a
//! refused target no texture.

#![allow(clippy::unwrap_used, reason = "an unwrap in a test is an assertion")]

use vgpu::{BindingArg, ColorTarget, DrawDesc, Gpu, PassDesc, Target, TargetDesc};
use wgpu::TextureFormat as F;

const VS: &str = "
@vertex fn vs_main(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
    let p = vec2f(f32((i << 1u) & 2u), f32(i & 2u));
    return vec4f(p * 2.0 - 1.0, 0.0, 1.0);
}
";

/// A draw labelled `label` of `fragment` (`fs_main` and what it needs), its state set by `state`.
fn draw(gpu: &Gpu, label: &str, fragment: &str, state: impl FnOnce(&mut DrawDesc)) -> vgpu::Draw {
    let shader = gpu.shader(label, &format!("{fragment}\n{VS}")).unwrap();
    let mut desc = DrawDesc {
        label: label.to_owned(),
        ..Default::default()
    };
    state(&mut desc);
    gpu.draw(&shader, desc).unwrap()
}

/// Records `draw` into a pass of `target`; returns the error and asserts nothing was created.
#[track_caller]
fn refused(gpu: &Gpu, target: &Target, draw: &vgpu::Draw) -> vgpu::Error {
    let before = gpu.stats();
    let e = gpu
        .frame(|f| f.pass(target, |p| p.draw(draw)))
        .expect_err("the draw must be refused");
    let after = gpu.stats();
    assert_eq!(after.pipelines_created, before.pipelines_created, "{e}");
    assert!(gpu.take_uncaptured_errors().is_empty(), "{e}");
    e
}

/// Records `draw` into a pass of `target`, which must succeed and create one pipeline.
#[track_caller]
fn accepted(gpu: &Gpu, target: &Target, draw: &vgpu::Draw) {
    let before = gpu.stats();
    gpu.frame(|f| f.pass(target, |p| p.draw(draw))).unwrap();
    assert_eq!(gpu.stats().pipelines_created, before.pipelines_created + 1);
    assert!(gpu.take_uncaptured_errors().is_empty());
}

#[track_caller]
fn assert_message(e: &vgpu::Error, parts: &[&str]) {
    let msg = e.to_string();
    for part in parts {
        assert!(msg.contains(part), "{part:?} not in {msg}");
    }
}

const ONE_OUTPUT: &str = "@fragment fn fs_main() -> @location(0) vec4f { return vec4f(1.0); }";

fn two_colors(gpu: &Gpu) -> Target {
    gpu.target_with(
        &TargetDesc::new(4, 4)
            .colors(&[F::Rgba8Unorm, F::Rgba16Float])
            .label("two"),
    )
    .unwrap()
}

/// A written attachment without an output is refused; with its write mask empty it is not.
#[test]
fn a_written_attachment_needs_an_output() {
    let gpu = Gpu::noop();
    let target = two_colors(&gpu);
    let d = draw(&gpu, "one output", ONE_OUTPUT, |_| {});
    let e = refused(&gpu, &target, &d);
    assert_eq!(e.code(), "VGPU-DRAW-COLOR-OUTPUT", "{e}");
    assert_message(
        &e,
        &[
            "\"one output\"",
            "@location(1)",
            "Rgba16Float",
            "no such output",
        ],
    );

    let masked = draw(&gpu, "masked", ONE_OUTPUT, |d| {
        d.colors = vec![
            ColorTarget::default(),
            ColorTarget {
                blend: None,
                write_mask: wgpu::ColorWrites::empty(),
            },
        ];
    });
    accepted(&gpu, &target, &masked);
}

/// An output of another scalar kind than the format's, or with fewer components, is refused.
#[test]
fn an_output_must_fit_its_attachment() {
    let gpu = Gpu::noop();
    let target = gpu.target(4, 4).unwrap();
    let uint = draw(
        &gpu,
        "uint",
        "@fragment fn fs_main() -> @location(0) vec4u { return vec4u(1u); }",
        |_| {},
    );
    let e = refused(&gpu, &target, &uint);
    assert_eq!(e.code(), "VGPU-DRAW-COLOR-OUTPUT", "{e}");
    assert_message(
        &e,
        &["\"uint\"", "@location(0)", "vec4<f32>", "got vec4<u32>"],
    );

    let short = draw(
        &gpu,
        "short",
        "@fragment fn fs_main() -> @location(0) vec2f { return vec2f(1.0); }",
        |_| {},
    );
    let e = refused(&gpu, &target, &short);
    assert_eq!(e.code(), "VGPU-DRAW-COLOR-OUTPUT", "{e}");
    assert_message(&e, &["\"short\"", "Rgba8Unorm", "got vec2<f32>"]);

    // One component into a one-channel format is fine.
    let r8 = gpu
        .target_with(&TargetDesc::new(4, 4).format(F::R8Unorm))
        .unwrap();
    let scalar = draw(
        &gpu,
        "scalar",
        "@fragment fn fs_main() -> @location(0) f32 { return 1.0; }",
        |_| {},
    );
    accepted(&gpu, &r8, &scalar);
}

/// An output with no attachment, and more `colors` entries than attachments, are refused.
#[test]
fn outputs_and_colors_past_the_attachments_are_refused() {
    let gpu = Gpu::noop();
    let target = gpu.target(4, 4).unwrap();
    let extra = draw(
        &gpu,
        "extra",
        "struct Out { @location(0) a: vec4f, @location(1) b: vec4f }
         @fragment fn fs_main() -> Out { return Out(vec4f(1.0), vec4f(1.0)); }",
        |_| {},
    );
    let e = refused(&gpu, &target, &extra);
    assert_eq!(e.code(), "VGPU-DRAW-COLOR-OUTPUT", "{e}");
    assert_message(&e, &["\"extra\"", "@location(1)", "output `b`"]);

    let colors = draw(&gpu, "colors", ONE_OUTPUT, |d| {
        d.colors = vec![ColorTarget::default(); 2];
    });
    let e = refused(&gpu, &target, &colors);
    assert_eq!(e.code(), "VGPU-DRAW-COLOR-OUTPUT", "{e}");
    assert_message(&e, &["\"colors\"", "at most 1 entries", "2 entries"]);
}

fn stencil_writing() -> wgpu::StencilState {
    let face = wgpu::StencilFaceState {
        compare: wgpu::CompareFunction::Always,
        fail_op: wgpu::StencilOperation::Keep,
        depth_fail_op: wgpu::StencilOperation::Keep,
        pass_op: wgpu::StencilOperation::Replace,
    };
    wgpu::StencilState {
        front: face,
        back: face,
        read_mask: 0xff,
        write_mask: 0xff,
    }
}

/// A stencil state on a target without stencil (depth only, or no depth) is refused, naming
/// the target's depth format; on `Depth24PlusStencil8` it is drawn.
#[test]
fn stencil_state_needs_a_stencil_aspect() {
    let gpu = Gpu::noop();
    let d = draw(&gpu, "stencil", ONE_OUTPUT, |d| {
        d.stencil = stencil_writing()
    });
    let depth = gpu
        .target_with(&TargetDesc::new(4, 4).depth(F::Depth32Float))
        .unwrap();
    let e = refused(&gpu, &depth, &d);
    assert_eq!(e.code(), "VGPU-DRAW-STENCIL", "{e}");
    assert_message(
        &e,
        &["\"stencil\"", "Depth24PlusStencil8", "Some(Depth32Float)"],
    );
    let plain = gpu.target(4, 4).unwrap();
    let e = refused(&gpu, &plain, &d);
    assert_eq!(e.code(), "VGPU-DRAW-STENCIL", "{e}");
    assert_message(&e, &["\"stencil\"", "None"]);
    let stencil = gpu
        .target_with(&TargetDesc::new(4, 4).depth(F::Depth24PlusStencil8))
        .unwrap();
    accepted(&gpu, &stencil, &d);
}

/// `unclipped_depth` without `DEPTH_CLIP_CONTROL` is refused at `Gpu::draw`, naming the draw
/// and the feature.
#[test]
fn unclipped_depth_needs_its_feature() {
    let gpu = Gpu::noop();
    assert!(
        !gpu.context()
            .features()
            .contains(wgpu::Features::DEPTH_CLIP_CONTROL)
    );
    let shader = gpu.shader("s", &format!("{ONE_OUTPUT}\n{VS}")).unwrap();
    let before = gpu.stats();
    let e = gpu
        .draw(
            &shader,
            DrawDesc {
                label: "far".into(),
                unclipped_depth: true,
                ..Default::default()
            },
        )
        .unwrap_err();
    assert_eq!(e.code(), "VGPU-FEATURE-MISSING", "{e}");
    assert_message(&e, &["\"far\"", "DEPTH_CLIP_CONTROL"]);
    assert_eq!(gpu.stats(), before);
}

/// Targets whose color attachments are too many, too many bytes per sample, or nothing at all
/// are refused before any texture is created.
#[test]
fn targets_with_unusable_attachments_are_refused() {
    let gpu = Gpu::noop();
    let max = gpu.context().limits().max_color_attachments as usize;
    let cases = [
        (
            "nine",
            vec![F::R8Unorm; max.max(8) + 1],
            "color attachments",
        ),
        ("fat", vec![F::Rgba32Float; 4], "color bytes per sample"),
        (
            "empty",
            Vec::new(),
            "at least one color or a depth attachment",
        ),
    ];
    for (label, colors, what) in cases {
        let before = gpu.stats();
        let e = gpu
            .target_with(&TargetDesc::new(4, 4).colors(&colors).label(label))
            .unwrap_err();
        assert_eq!(e.code(), "VGPU-TARGET-ATTACHMENTS", "{e}");
        assert_message(&e, &[&format!("{label:?}"), what]);
        assert_eq!(gpu.stats().textures_created, before.textures_created, "{e}");
    }
    // A depth-only target has no color attachment, and that is fine.
    let shadow = gpu
        .target_with(&TargetDesc::depth_only(4, 4, F::Depth32Float))
        .unwrap();
    assert_eq!(shadow.color_count(), 0);
}

/// Reading or binding an attachment past the last, and a pass with more clears than
/// attachments, are refused, naming the target or pass.
#[test]
fn an_attachment_index_past_the_last_is_refused() {
    let gpu = Gpu::noop();
    let target = two_colors(&gpu);
    let e = target.read_rgba8_at(2).unwrap_err();
    assert_eq!(e.code(), "VGPU-TARGET-ATTACHMENTS", "{e}");
    assert_message(&e, &["\"two\"", "color attachment index"]);
    let e = target.read_f32_at(5).unwrap_err();
    assert_eq!(e.code(), "VGPU-TARGET-ATTACHMENTS", "{e}");

    let show = draw(
        &gpu,
        "show",
        "@group(0) @binding(0) var plane: texture_2d<f32>;
         @fragment fn fs_main() -> @location(0) vec4f { return textureLoad(plane, vec2i(0), 0); }",
        |_| {},
    );
    let e = show
        .set("plane", BindingArg::TargetColorAt(&target, 2))
        .unwrap_err();
    assert_eq!(e.code(), "VGPU-SET-KIND", "{e}");
    assert_message(&e, &["plane", "past the target's last"]);
    show.set("plane", BindingArg::TargetColorAt(&target, 1))
        .unwrap();

    let clears = [Some([0.0; 4]); 3];
    let e = gpu
        .frame(|f| {
            f.pass(
                PassDesc::new(&target)
                    .label("three clears")
                    .clear_attachments(&clears),
                |_| Ok(()),
            )
        })
        .unwrap_err();
    assert_eq!(e.code(), "VGPU-TARGET-ATTACHMENTS", "{e}");
    assert_message(
        &e,
        &[
            "\"three clears\"",
            "attachment_clears",
            "at most 2",
            "got 3",
        ],
    );
    assert!(gpu.take_uncaptured_errors().is_empty());
}

/// `texel_size` is one texel in UV units; `color_count` and the signature list the formats.
#[test]
fn texel_size_and_attachment_count() {
    let gpu = Gpu::noop();
    let target = gpu.target(4, 8).unwrap();
    assert_eq!(target.texel_size(), [0.25, 0.125]);
    assert_eq!(target.color_count(), 1);
    let gbuffer = two_colors(&gpu);
    assert_eq!(gbuffer.color_count(), 2);
    assert_eq!(
        gbuffer.signature().colors.as_slice(),
        &[F::Rgba8Unorm, F::Rgba16Float]
    );
    assert_eq!(gbuffer.signature().color(), Some(F::Rgba8Unorm));
    assert_eq!(gbuffer.format(), F::Rgba8Unorm);
}

/// Blending into a format that cannot blend (an integer format) is `VGPU-DRAW-BLEND`, naming
/// the draw, the attachment and its format; without blend the same draw records.
#[test]
fn blending_into_a_format_that_cannot_blend_is_refused() {
    let gpu = Gpu::noop();
    let target = gpu
        .target_with(&TargetDesc::new(4, 4).format(F::Rgba8Uint))
        .unwrap();
    let uint = "@fragment fn fs_main() -> @location(0) vec4<u32> { return vec4<u32>(1u); }";
    let blended = draw(&gpu, "blended ids", uint, |d| {
        d.blend = Some(wgpu::BlendState::ALPHA_BLENDING);
    });
    let e = refused(&gpu, &target, &blended);
    assert_eq!(e.code(), "VGPU-DRAW-BLEND", "{e}");
    let text = e.to_string();
    assert!(
        text.contains("blended ids") && text.contains("Rgba8Uint"),
        "{text}"
    );
    assert!(text.contains("attachment 0"), "{text}");
    let plain = draw(&gpu, "plain ids", uint, |_| {});
    gpu.frame(|f| f.pass(&target, |p| p.draw(&plain))).unwrap();
}

/// A sample count no format supports, and a format whose feature the device lacks, are
/// `VGPU-TARGET-FORMAT` before any texture is made.
#[test]
fn unsupported_sample_counts_and_formats_are_refused() {
    let gpu = Gpu::noop();
    let before = gpu.stats().textures_created;
    let e = gpu
        .target_with(&TargetDesc::new(4, 4).samples(3))
        .unwrap_err();
    assert_eq!(e.code(), "VGPU-TARGET-FORMAT", "{e}");
    assert!(e.to_string().contains("sample count"), "{e}");
    let e = gpu
        .target_with(&TargetDesc::new(4, 4).depth(F::Depth32FloatStencil8))
        .unwrap_err();
    assert_eq!(e.code(), "VGPU-TARGET-FORMAT", "{e}");
    assert!(e.to_string().contains("Depth32FloatStencil8"), "{e}");
    assert_eq!(gpu.stats().textures_created, before);
    assert!(gpu.take_uncaptured_errors().is_empty());
}

/// A stencil-only target (`Stencil8`, found by the `api` fuzz target: it left an uncaptured
/// wgpu error) is made without one, and a draw with the default depth state records into it:
/// there is no depth to test, every fragment passes.
#[test]
fn a_stencil_only_target_takes_draws_with_the_default_depth_state() {
    let gpu = Gpu::noop();
    let target = gpu
        .target_with(&TargetDesc::new(4, 4).depth(F::Stencil8))
        .unwrap();
    assert!(gpu.take_uncaptured_errors().is_empty());
    let red = draw(
        &gpu,
        "red",
        "@fragment fn fs_main() -> @location(0) vec4f { return vec4f(1.0, 0.0, 0.0, 1.0); }",
        |_| {},
    );
    gpu.frame(|f| f.pass(&target, |p| p.draw(&red))).unwrap();
    let errors = gpu.take_uncaptured_errors();
    assert!(errors.is_empty(), "{errors:?}");
}
