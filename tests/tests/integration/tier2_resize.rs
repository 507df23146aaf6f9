//! `Target::resize` (issue 32, item 5): the bindings that hold a target's views follow it.
//!
//! Tier 2 (vulkan and gl): a target resized between frames is read by a draw, an effect and a
//! compute with no new `set`: their pixels and the size `textureDimensions` sees are those of
//! the new texture, a bundle recorded before reports stale naming the resize, steady frames
//! after it create no bind group, and no wgpu error is raised. A surface's followers are resized
//! with it (a real window, as the window tests run it).
//!
//! Tier 1 (noop, in this file as it is resize's): the refusals (`VGPU-TARGET-SIZE` for zero and
//! past the limit, `VGPU-TARGET-RESIZE` for a target over the app's views and during a pass
//! into the target), each leaving the previous size and textures; same size is a no-op.

use std::sync::Arc;

use vgpu::{Compute, ComputeDesc, Draw, Effect, Gpu, Target, TargetDesc};

/// Fills its target: red and green are the pixel's column and row over 16, blue the `tint`.
const FILL: &str = "
@group(0) @binding(0) var<uniform> tint: f32;
@fragment fn fs_main(@builtin(position) pos: vec4f) -> @location(0) vec4f {
    return vec4f(floor(pos.x) / 16.0, floor(pos.y) / 16.0, tint, 1.0);
}";

/// A draw that copies `src` texel for texel (`textureLoad` at its own pixel).
const COPY_DRAW: &str = "
@group(0) @binding(0) var src: texture_2d<f32>;
@fragment fn fs_main(@builtin(position) pos: vec4f) -> @location(0) vec4f {
    return textureLoad(src, vec2i(pos.xy), 0);
}";

/// An effect that copies `src` through its uv and `textureDimensions` (a stale size would read
/// other texels).
const COPY_EFFECT: &str = "
@group(0) @binding(0) var src: texture_2d<f32>;
@fragment fn fs_main(@location(0) uv: vec2f) -> @location(0) vec4f {
    let size = vec2f(textureDimensions(src));
    return textureLoad(src, vec2i(uv * size), 0);
}";

/// A compute that writes `src`'s size and its last texel's red, green and blue (0..=255).
const PROBE_COMPUTE: &str = "
@group(0) @binding(0) var src: texture_2d<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<u32, 5>;
@compute @workgroup_size(1) fn cs_main() {
    let size = textureDimensions(src);
    let c = textureLoad(src, vec2i(size) - vec2i(1, 1), 0);
    out[0] = size.x;
    out[1] = size.y;
    out[2] = u32(round(c.r * 255.0));
    out[3] = u32(round(c.g * 255.0));
    out[4] = u32(round(c.b * 255.0));
}";

/// What [`FILL`] writes at `(x, y)` with `tint`, as RGBA8.
fn filled(x: u32, y: u32, tint: f32) -> [u8; 4] {
    let unorm = |v: f32| (v * 255.0).round() as u8;
    [
        unorm(x as f32 / 16.0),
        unorm(y as f32 / 16.0),
        unorm(tint),
        255,
    ]
}

/// Asserts `target` holds [`FILL`]'s pattern with `tint` at its size, within 1 per channel.
#[track_caller]
fn assert_filled(target: &Target, tint: f32, what: &str) {
    let image = target.read_rgba8().expect("read back");
    assert_eq!((image.width, image.height), target.size(), "{what}: size");
    for y in 0..image.height {
        for x in 0..image.width {
            let got = image.pixel(x, y).expect("a pixel");
            let want = filled(x, y, tint);
            let close = got.iter().zip(want).all(|(&g, w)| g.abs_diff(w) <= 1);
            assert!(
                close,
                "{what}: pixel ({x},{y}) is {got:?}, expected {want:?}"
            );
        }
    }
}

/// The scene: the source target, its fill, and the three readers with their targets.
struct Scene {
    src: Target,
    fill: Effect,
    draw: Draw,
    draw_out: Target,
    effect: Effect,
    effect_out: Target,
    compute: Compute,
    probe: vgpu::Buffer,
}

fn scene(gpu: &Gpu) -> Scene {
    let src = gpu
        .target_with(&TargetDesc::new(4, 4).label("src"))
        .expect("src");
    let fill = gpu.effect("fill", FILL).expect("fill");
    let draw = vgpu_tests::fullscreen(gpu, "copy draw", COPY_DRAW);
    let effect = gpu.effect("copy effect", COPY_EFFECT).expect("effect");
    let shader = gpu.shader("probe", PROBE_COMPUTE).expect("compute shader");
    let compute = gpu
        .compute(&shader, ComputeDesc::default())
        .expect("compute");
    let probe = gpu
        .buffer(&vgpu::BufferDesc {
            label: "probe".into(),
            size: 20,
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
        })
        .expect("probe buffer");
    // The only sets of the readers: before the resize.
    draw.set("src", &src).expect("draw binds src");
    effect.set("src", &src).expect("effect binds src");
    compute.set("src", &src).expect("compute binds src");
    compute.set("out", &probe).expect("compute binds out");
    Scene {
        draw_out: gpu
            .target_with(&TargetDesc::new(4, 4).label("draw out"))
            .expect("out"),
        effect_out: gpu
            .target_with(&TargetDesc::new(4, 4).label("effect out"))
            .expect("out"),
        src,
        fill,
        draw,
        effect,
        compute,
        probe,
    }
}

/// One frame: fill `src` with `tint`, then the three readers.
fn render(gpu: &Gpu, s: &Scene, tint: f32) -> vgpu::FrameReport {
    s.fill.set("tint", &tint).expect("tint");
    gpu.frame(|f| {
        f.pass(&s.src, |p| p.draw(&s.fill))?;
        f.pass(&s.draw_out, |p| p.draw(&s.draw))?;
        f.pass(&s.effect_out, |p| p.draw(&s.effect))?;
        f.compute_pass(|c| c.dispatch(&s.compute, 1, 1, 1))
    })
    .expect("frame")
}

/// The probe's words: width, height, and the last texel's red, green, blue.
fn probe(s: &Scene) -> Vec<u32> {
    bytemuck::pod_collect_to_vec(&s.probe.read_blocking().expect("probe read"))
}

#[test]
fn a_resized_target_is_followed_by_a_draw_an_effect_and_a_compute_without_a_set() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    let s = scene(&gpu);
    render(&gpu, &s, 0.0);
    assert_filled(&s.draw_out, 0.0, "draw, 4x4");
    assert_filled(&s.effect_out, 0.0, "effect, 4x4");
    let [r, g, b] = filled(3, 3, 0.0).map(u32::from)[..3] else {
        unreachable!()
    };
    assert_eq!(probe(&s), [4, 4, r, g, b], "compute, 4x4");
    // A bundle of the draw, recorded before the resize.
    let bundle = gpu
        .bundle("copy bundle", s.draw_out.signature(), |b| b.draw(&s.draw))
        .expect("bundle");

    // Resized between frames (the readers' targets too: they are only rendered into).
    let old_view = s.src.color_view().expect("a color view");
    s.src.resize(8, 2).expect("resize");
    assert_eq!(s.src.size(), (8, 2));
    assert_eq!(s.src.texel_size(), [0.125, 0.5]);
    assert!(
        s.src.color_view().expect("a color view") != old_view,
        "new textures"
    );
    s.draw_out.resize(8, 2).expect("resize draw out");
    s.effect_out.resize(8, 2).expect("resize effect out");

    let report = render(&gpu, &s, 1.0);
    assert_filled(&s.src, 1.0, "src, 8x2");
    assert_filled(&s.draw_out, 1.0, "draw follows the resize");
    assert_filled(&s.effect_out, 1.0, "effect follows the resize");
    let [r, g, b] = filled(7, 1, 1.0).map(u32::from)[..3] else {
        unreachable!()
    };
    assert_eq!(probe(&s), [8, 2, r, g, b], "compute follows the resize");
    assert!(
        report.stats.bind_groups_created >= 3,
        "the three readers' groups rebuilt once: {:?}",
        report.stats
    );

    // Steady after: nothing rebuilt.
    let report = render(&gpu, &s, 1.0);
    assert_eq!(report.stats.bind_groups_created, 0, "{:?}", report.stats);

    // The bundle recorded before reports stale, naming the resize.
    let err = gpu
        .frame(|f| f.pass(&s.draw_out, |p| p.execute(&bundle)))
        .expect_err("a bundle recorded before the resize");
    assert_eq!(err.code(), "VGPU-BUNDLE-STALE", "{err}");
    let message = err.to_string();
    assert!(
        message.contains("\"src\"")
            && message.contains("resized to 8×2")
            && message.contains("`src`"),
        "{message}"
    );
    // Recorded again, it replays.
    let bundle = gpu
        .bundle("copy bundle", s.draw_out.signature(), |b| b.draw(&s.draw))
        .expect("bundle");
    gpu.frame(|f| f.pass(&s.draw_out, |p| p.execute(&bundle)))
        .expect("the bundle recorded after the resize");
    assert_filled(&s.draw_out, 1.0, "bundle after the resize");

    let errors = gpu.take_uncaptured_errors();
    assert!(errors.is_empty(), "uncaptured wgpu errors: {errors:?}");
}

/// A target's depth, bound to a `texture_depth_2d`, follows too.
#[test]
fn a_resized_targets_depth_binding_follows() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    let src = gpu
        .target_with(
            &TargetDesc::depth_only(4, 4, wgpu::TextureFormat::Depth32Float).label("depth src"),
        )
        .expect("depth target");
    let shader = gpu
        .shader(
            "depth size",
            "@group(0) @binding(0) var d: texture_depth_2d;
             @group(0) @binding(1) var<storage, read_write> out: array<u32, 2>;
             @compute @workgroup_size(1) fn cs_main() {
                 let size = textureDimensions(d);
                 out[0] = size.x;
                 out[1] = size.y;
             }",
        )
        .expect("shader");
    let k = gpu
        .compute(&shader, ComputeDesc::default())
        .expect("compute");
    let out = gpu
        .buffer(&vgpu::BufferDesc {
            label: "out".into(),
            size: 8,
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
        })
        .expect("buffer");
    k.set("d", vgpu::BindingArg::TargetDepth(&src))
        .expect("depth");
    k.set("out", &out).expect("out");
    let run = || {
        gpu.frame(|f| f.compute_pass(|c| c.dispatch(&k, 1, 1, 1)))
            .expect("frame");
        bytemuck::pod_collect_to_vec::<u8, u32>(&out.read_blocking().expect("read"))
    };
    assert_eq!(run(), [4, 4]);
    src.resize(16, 8).expect("resize");
    assert_eq!(run(), [16, 8], "the depth binding follows");
    let errors = gpu.take_uncaptured_errors();
    assert!(errors.is_empty(), "uncaptured wgpu errors: {errors:?}");
}

/// Tier 1 (noop): each refusal leaves the target's size and textures; the same size is a
/// no-op.
#[test]
fn resize_refusals_keep_the_previous_textures() {
    let gpu = Gpu::noop();
    let target = gpu
        .target_with(&TargetDesc::new(4, 2).label("kept"))
        .expect("target");
    let view = target.color_view().expect("view");
    let max = gpu.device().limits().max_texture_dimension_2d;
    let intact = |what: &str| {
        assert_eq!(target.size(), (4, 2), "{what}: size kept");
        assert_eq!(target.texel_size(), [0.25, 0.5], "{what}: texel size kept");
        assert!(
            target.color_view().expect("view") == view,
            "{what}: textures kept"
        );
    };
    for (w, h) in [(0, 2), (4, 0), (0, 0), (max + 1, 2), (4, max + 1)] {
        let err = target.resize(w, h).expect_err("an invalid size");
        assert_eq!(err.code(), "VGPU-TARGET-SIZE", "{w}x{h}: {err}");
        assert!(err.to_string().contains("\"kept\""), "{err}");
        intact(&format!("{w}x{h}"));
    }
    target.resize(4, 2).expect("the same size");
    intact("the same size");

    // A target over the app's views.
    let app = gpu
        .target_for_view("app view", &view, None)
        .expect("target over a view");
    let err = app.resize(8, 8).expect_err("an app's view");
    assert_eq!(err.code(), "VGPU-TARGET-RESIZE", "{err}");
    assert!(err.to_string().contains("\"app view\""), "{err}");
    assert_eq!(app.size(), (4, 2));

    // During a pass into the target (the pass keeps drawing into its textures).
    let err = gpu
        .frame(|f| {
            f.pass(&target, |_p| {
                let err = target.resize(8, 8).expect_err("during its pass");
                assert_eq!(err.code(), "VGPU-TARGET-RESIZE", "{err}");
                Ok(())
            })
        })
        .map(|_| ());
    err.expect("the frame itself is fine");
    intact("during a pass");
    // After the pass, it resizes.
    target.resize(8, 8).expect("after the pass");
    assert_eq!(target.size(), (8, 8));
}

/// A binding re-pointed by a resize is the normal assignment: a binding given another resource
/// since does not follow the target any more, and an operation dropped is forgotten.
#[test]
fn only_bindings_that_still_hold_the_target_follow_it() {
    vgpu_tests::each_gpu(|gpu| {
        let a = gpu
            .target_with(&TargetDesc::new(4, 4).label("a"))
            .expect("a");
        let b = gpu
            .target_with(&TargetDesc::new(2, 2).label("b"))
            .expect("b");
        let draw = vgpu_tests::fullscreen(gpu, "reader", COPY_DRAW);
        let out = gpu.target(2, 2).expect("out");
        draw.set("src", &a).expect("a");
        draw.set("src", &b).expect("then b");
        let dropped = vgpu_tests::fullscreen(gpu, "dropped", COPY_DRAW);
        dropped.set("src", &a).expect("a");
        drop(dropped);
        let bundle = gpu
            .bundle("reader", out.signature(), |r| r.draw(&draw))
            .expect("bundle");
        a.resize(8, 8).expect("resize a");
        // The reader holds b: not re-pointed, its bundle still replays.
        gpu.frame(|f| f.pass(&out, |p| p.execute(&bundle)))
            .expect("not stale: the reader holds b");
        b.resize(4, 4).expect("resize b");
        let err = gpu
            .frame(|f| f.pass(&out, |p| p.execute(&bundle)))
            .expect_err("stale: the reader holds b");
        assert_eq!(err.code(), "VGPU-BUNDLE-STALE", "{err}");
        assert!(err.to_string().contains("\"b\""), "{err}");
    });
}

#[test]
fn targets_that_follow_a_surface_are_resized_with_it() {
    let Some(setup) = crate::tier2_window::window_setup("targets_that_follow_a_surface") else {
        return;
    };
    let mut env = vec![("VGPU_BACKEND", setup.backend.as_str())];
    if let Some(display) = setup.display.as_deref() {
        env.push(("DISPLAY", display));
    }
    vgpu_tests::run_child_test(module_path!(), "surface_followers_child", &env);
}

#[test]
#[ignore = "child of targets_that_follow_a_surface_are_resized_with_it"]
fn surface_followers_child() {
    if !vgpu_tests::in_child_test("surface_followers_child") {
        return;
    }
    let (event_loop, window) = crate::tier2_window::test_window("vgpu resize test", None);
    let options = vgpu::GpuOptions::from_env()
        .expect("VGPU_BACKEND")
        .with_display(event_loop.owned_display_handle());
    let gpu = Gpu::new(&options).expect("a Gpu");
    let surface = gpu
        .surface(Arc::clone(&window), &vgpu::SurfaceDesc::new(64, 48))
        .expect("Gpu::surface");
    let scene = gpu
        .target_with(&TargetDesc::new(4, 4).label("scene"))
        .expect("scene");
    let fill = gpu.effect("fill", FILL).expect("fill");
    fill.set("tint", &0.5f32).expect("tint");
    let post = vgpu_tests::fullscreen(&gpu, "post", COPY_DRAW);
    post.set("src", &scene).expect("post binds scene");
    let out = gpu.target(4, 4).expect("out");
    surface.follow(&scene).expect("follow");
    surface.follow(&out).expect("follow");
    assert_eq!(scene.size(), (64, 48), "resized to the surface at once");
    surface.resize(32, 16).expect("surface resize");
    assert_eq!(scene.size(), (32, 16));
    assert_eq!(out.size(), (32, 16));
    gpu.frame(|f| {
        f.pass(&scene, |p| p.draw(&fill))?;
        f.pass(&out, |p| p.draw(&post))
    })
    .expect("frame");
    assert_filled(&out, 0.5, "post follows its surface-sized source");
    // Minimized: the followers keep their size.
    surface.resize(0, 0).expect("minimized");
    assert_eq!(scene.size(), (32, 16));
    // Unfollowed, dropped: left alone.
    surface.unfollow(&out);
    drop(scene);
    surface.resize(20, 10).expect("restored");
    assert_eq!(out.size(), (32, 16));
    // A target over the app's views cannot follow.
    let view = out.color_view().expect("view");
    let app = gpu.target_for_view("app", &view, None).expect("app target");
    let err = surface.follow(&app).expect_err("an app's views");
    assert_eq!(err.code(), "VGPU-TARGET-RESIZE", "{err}");
    let errors = gpu.take_uncaptured_errors();
    assert!(errors.is_empty(), "uncaptured wgpu errors: {errors:?}");
}
