//! Auto-bundles (issue 33): a pass that records the same draws as in its previous frames is
//! replayed from a render bundle vgpu recorded for it, and every structural change makes the
//! next frame record directly, with the right pixels, and says why.
//!
//! Each test renders a few frames (a pass warms up in two and replays from the third: the
//! frame's `stats.auto_bundle_draws` counts its draws and `direct_passes` is empty), then makes
//! ONE change (a cause of invalidation, or a value changed in place that must not invalidate),
//! and asserts the next frame's pixels (read back) show the change, the pass's
//! [`DirectReason`], and that the pass replays again once steady (`auto_bundles_recorded`).
//!
//! Warm-ups replay [`PAID_REPLAYS`] frames before the change: a bundle invalidated after that
//! many replays lets the pass record its next one after two steady frames (the hysteresis,
//! `docs/auto-bundles.md`), which the tests assert exactly.
//!
//! Tier 2 (vulkan and gl) checks the pixels; on the noop device (`each_gpu` runs it first) the
//! same frames run and the counters and reasons are asserted, the pixels skipped.
//!
//! Each test was shown to fail with the check it guards removed from the engine (in a copy of
//! the tree): the sequence compare (b, c, d, k), the journal notes (e, f, g, j), the value
//! checks (h, i), the opt-outs and the passes a bundle cannot hold (l, m).

#![allow(clippy::unwrap_used, reason = "an unwrap in a test is an assertion")]

use vgpu::{DirectReason, Draw, DrawDesc, FrameReport, Gpu, PassDesc, Target, Uniform};
use vgpu_tests::each_gpu;
use vgpu_tests::quad::{QUAD_WGSL, Quad, quad_draw};

/// The same quad, its color from a shared `tint` block (group 1).
const TINTED_WGSL: &str = "
struct Quad { rect: vec4f, color: vec4f }
@group(0) @binding(0) var<uniform> quad: Quad;
struct Tint { color: vec4f }
@group(1) @binding(0) var<uniform> tint: Tint;
@vertex fn vs_main(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
    var xs = array<f32, 6>(0.0, 1.0, 0.0, 1.0, 1.0, 0.0);
    var ys = array<f32, 6>(0.0, 0.0, 1.0, 0.0, 1.0, 1.0);
    return vec4f(mix(quad.rect.x, quad.rect.y, xs[i]), mix(quad.rect.z, quad.rect.w, ys[i]), 0.0, 1.0);
}
@fragment fn fs_main() -> @location(0) vec4f { return tint.color / 255.0; }
";

/// A fullscreen draw in the color a uniform buffer holds (`params.color / 255`).
const PARAMS_WGSL: &str = "
struct Params { color: vec4f }
@group(0) @binding(0) var<uniform> params: Params;
@fragment fn fs_main() -> @location(0) vec4f { return params.color / 255.0; }
";

/// A fullscreen draw in the color of texel (0, 0) of `src`.
const SAMPLE_WGSL: &str = "
@group(0) @binding(0) var src: texture_2d<f32>;
@fragment fn fs_main() -> @location(0) vec4f { return textureLoad(src, vec2i(0, 0), 0); }
";

#[derive(Clone, Copy, Uniform)]
struct Tint {
    color: [f32; 4],
}

/// Target size (pixels, square).
const SIZE: u32 = 4;
const FULL: [f32; 4] = [-1.0, 1.0, -1.0, 1.0];
const LEFT: [f32; 4] = [-1.0, 0.0, -1.0, 1.0];
const RIGHT: [f32; 4] = [0.0, 1.0, -1.0, 1.0];
/// A pixel of the left half and one of the right half (top rows: see `set_counts`).
const AT_LEFT: (u32, u32) = (0, 0);
const AT_RIGHT: (u32, u32) = (3, 0);
/// What a pass's clear leaves (transparent black).
const CLEARED: [u8; 4] = [0, 0, 0, 0];

const RED: [u8; 4] = [200, 10, 10, 255];
const GREEN: [u8; 4] = [10, 200, 10, 255];
const BLUE: [u8; 4] = [10, 10, 200, 255];
const GRAY: [u8; 4] = [90, 90, 90, 255];

/// Replays a warm-up ends with (the hysteresis's "paid for itself", see the module doc).
const PAID_REPLAYS: usize = 8;

fn color(c: [u8; 4]) -> [f32; 4] {
    c.map(f32::from)
}

fn target(gpu: &Gpu, label: &str) -> Target {
    gpu.target_with(&vgpu::TargetDesc::new(SIZE, SIZE).label(label))
        .unwrap()
}

/// One frame of `record`.
fn frame(gpu: &Gpu, record: impl FnOnce(&mut vgpu::Frame<'_>) -> vgpu::Result<()>) -> FrameReport {
    gpu.frame(record).unwrap()
}

/// Asserts pixel `at` of `target` is `want` (skipped on the noop device, where passes do not
/// execute).
#[track_caller]
fn pixel(gpu: &Gpu, target: &Target, at: (u32, u32), want: [u8; 4], what: &str) {
    if gpu.is_noop() {
        return;
    }
    let image = target.read_rgba8().unwrap();
    assert_eq!(image.pixel(at.0, at.1), Some(want), "{what}: pixel {at:?}");
}

/// Asserts the left and right halves of `target`.
#[track_caller]
fn halves(gpu: &Gpu, target: &Target, left: [u8; 4], right: [u8; 4], what: &str) {
    pixel(gpu, target, AT_LEFT, left, what);
    pixel(gpu, target, AT_RIGHT, right, what);
}

/// Asserts the frame replayed every pass from its auto-bundle: `draws` draws in all.
#[track_caller]
fn replayed(report: &FrameReport, draws: u64, what: &str) {
    assert!(
        report.direct_passes.is_empty(),
        "{what}: passes recorded directly: {:?}",
        report.direct_passes
    );
    assert_eq!(
        report.stats.auto_bundle_draws, draws,
        "{what}: draws replayed"
    );
    assert_eq!(report.stats.passes_recorded_directly, 0, "{what}");
}

/// Asserts the frame's only pass (or its pass `index`) was recorded directly for `reason`.
#[track_caller]
fn direct(report: &FrameReport, index: u32, reason: &DirectReason, what: &str) {
    let pass = report
        .direct_passes
        .iter()
        .find(|p| p.index == index)
        .unwrap_or_else(|| {
            panic!(
                "{what}: pass #{index} was not recorded directly: {:?} ({} draws replayed)",
                report.direct_passes, report.stats.auto_bundle_draws
            )
        });
    assert_eq!(&pass.reason, reason, "{what}: {pass}");
}

const WARMING: DirectReason = DirectReason::Warming { frames: 2 };

/// Runs `run` (one frame of a pass of `draws` draws, or of several passes) until it replays,
/// asserting the first warm-up exactly: two frames recorded directly (the second records the
/// bundle), then [`PAID_REPLAYS`] frames replayed. `check` runs after each frame.
#[track_caller]
fn warm_up(run: &dyn Fn() -> FrameReport, draws: u64, check: &dyn Fn(&str)) {
    let first = run();
    direct(&first, 0, &WARMING, "frame 1");
    assert_eq!(first.stats.auto_bundles_recorded, 0, "frame 1");
    check("frame 1");
    let second = run();
    direct(&second, 0, &WARMING, "frame 2 (records the bundle)");
    assert!(
        second.stats.auto_bundles_recorded >= 1,
        "frame 2 records the bundle: {:?}",
        second.direct_passes
    );
    check("frame 2");
    for i in 0..PAID_REPLAYS {
        let what = format!("replayed frame {i}");
        replayed(&run(), draws, &what);
        check(&what);
    }
}

/// After a frame recorded directly: the next frame records the bundle again (two steady frames
/// in a row), the one after replays it. `check` runs after each frame.
#[track_caller]
fn steady_again(run: &dyn Fn() -> FrameReport, draws: u64, check: &dyn Fn(&str)) {
    let again = run();
    check("the frame after the change");
    direct(&again, 0, &WARMING, "the frame after the change");
    assert_eq!(
        again.stats.auto_bundles_recorded, 1,
        "the frame after the change records the bundle again: {:?}",
        again.direct_passes
    );
    let steady = run();
    check("steady again");
    replayed(&steady, draws, "steady again");
}

/// Two quads, left and right, in one pass.
struct Halves {
    target: Target,
    left: Draw,
    right: Draw,
}

fn halves_scene(gpu: &Gpu) -> Halves {
    Halves {
        target: target(gpu, "halves"),
        left: quad_draw(gpu, "left", LEFT, RED),
        right: quad_draw(gpu, "right", RIGHT, GREEN),
    }
}

/// One frame drawing `draws` in order into `target`.
fn draw_frame(gpu: &Gpu, target: &Target, draws: &[&Draw]) -> FrameReport {
    frame(gpu, |f| {
        f.pass(target, |p| draws.iter().try_for_each(|d| p.draw(d)))
    })
}

/// a. A value changed in place between frames (its home slot): no invalidation, the replay
/// reads the new bytes.
#[test]
fn a_value_changed_in_place_is_replayed_with_its_new_bytes() {
    each_gpu(|gpu: &Gpu| {
        let s = halves_scene(gpu);
        let run = || draw_frame(gpu, &s.target, &[&s.left, &s.right]);
        warm_up(&run, 2, &|what| halves(gpu, &s.target, RED, GREEN, what));
        s.left.set("quad", &Quad::new(LEFT, BLUE)).unwrap();
        let changed = run();
        replayed(&changed, 2, "a value changed in place");
        assert!(
            changed.stats.bytes_uploaded > 0,
            "the new bytes are uploaded"
        );
        halves(gpu, &s.target, BLUE, GREEN, "a value changed in place");
        assert_eq!(changed.stats.auto_bundles_recorded, 0);
        replayed(&run(), 2, "the frame after");
        halves(gpu, &s.target, BLUE, GREEN, "the frame after");
    });
}

/// b. The draw order changed: of two overlapping draws after a first one, the other one is on
/// top (the first draw still matches: the difference is found at the second).
#[test]
fn b_draw_order_changed_records_directly_in_the_new_order() {
    each_gpu(|gpu: &Gpu| {
        let target = target(gpu, "order");
        let base = quad_draw(gpu, "base", FULL, GRAY);
        let red = quad_draw(gpu, "red", LEFT, RED);
        let blue = quad_draw(gpu, "blue", LEFT, BLUE);
        let before = || draw_frame(gpu, &target, &[&base, &red, &blue]);
        warm_up(&before, 3, &|what| halves(gpu, &target, BLUE, GRAY, what));
        let after = || draw_frame(gpu, &target, &[&base, &blue, &red]);
        let changed = after();
        halves(gpu, &target, RED, GRAY, "reordered: red on top");
        direct(&changed, 0, &DirectReason::DrawOrderChanged, "reordered");
        steady_again(&after, 3, &|what| halves(gpu, &target, RED, GRAY, what));
    });
}

/// c. A draw culled (the last one): the replay must not draw it.
#[test]
fn c_a_culled_draw_is_not_drawn() {
    each_gpu(|gpu: &Gpu| {
        let s = halves_scene(gpu);
        let both = || draw_frame(gpu, &s.target, &[&s.left, &s.right]);
        warm_up(&both, 2, &|what| halves(gpu, &s.target, RED, GREEN, what));
        let culled = || draw_frame(gpu, &s.target, &[&s.left]);
        let changed = culled();
        halves(gpu, &s.target, RED, CLEARED, "culled");
        direct(&changed, 0, &DirectReason::DrawsRemoved, "culled");
        steady_again(&culled, 1, &|what| {
            halves(gpu, &s.target, RED, CLEARED, what);
        });
    });
}

/// d. A draw added after the others.
#[test]
fn d_an_added_draw_is_drawn() {
    each_gpu(|gpu: &Gpu| {
        let s = halves_scene(gpu);
        let one = || draw_frame(gpu, &s.target, &[&s.left]);
        warm_up(&one, 1, &|what| halves(gpu, &s.target, RED, CLEARED, what));
        let two = || draw_frame(gpu, &s.target, &[&s.left, &s.right]);
        let changed = two();
        halves(gpu, &s.target, RED, GREEN, "added");
        direct(&changed, 0, &DirectReason::DrawsAdded, "added");
        steady_again(&two, 2, &|what| halves(gpu, &s.target, RED, GREEN, what));
    });
}

/// e. A draw rebound to another user buffer: `DrawChanged` names it.
#[test]
fn e_a_draw_rebound_to_another_buffer_shows_it() {
    each_gpu(|gpu: &Gpu| {
        let target = target(gpu, "rebind");
        let draw = vgpu_tests::fullscreen(gpu, "params", PARAMS_WGSL);
        let buffer = |label: &str, c: [u8; 4]| {
            let bytes = vgpu_tests::f32_bytes(&color(c));
            gpu.buffer_init(label, &bytes, wgpu::BufferUsages::UNIFORM)
                .unwrap()
        };
        let first = buffer("first", RED);
        let second = buffer("second", BLUE);
        draw.set("params", &first).unwrap();
        let run = || draw_frame(gpu, &target, &[&draw]);
        warm_up(&run, 1, &|what| halves(gpu, &target, RED, RED, what));
        draw.set("params", &second).unwrap();
        let changed = run();
        let reason = DirectReason::DrawChanged {
            draw: "params".into(),
        };
        halves(gpu, &target, BLUE, BLUE, "rebound");
        direct(&changed, 0, &reason, "rebound");
        steady_again(&run, 1, &|what| halves(gpu, &target, BLUE, BLUE, what));
    });
}

/// f. A target a draw samples resized: the draw's binding follows it (`DrawChanged`), and the
/// replay afterwards samples the new texture.
#[test]
fn f_a_sampled_target_resized_is_sampled_anew() {
    each_gpu(|gpu: &Gpu| {
        let src = target(gpu, "src");
        let out = target(gpu, "out");
        let fill = quad_draw(gpu, "fill", FULL, RED);
        let copy = vgpu_tests::fullscreen(gpu, "copy", SAMPLE_WGSL);
        copy.set("src", &src).unwrap();
        let run = || {
            frame(gpu, |f| {
                f.pass(PassDesc::new(&src).label("fill"), |p| p.draw(&fill))?;
                f.pass(PassDesc::new(&out).label("copy"), |p| p.draw(&copy))
            })
        };
        warm_up(&run, 2, &|what| halves(gpu, &out, RED, RED, what));
        src.resize(2 * SIZE, SIZE).unwrap();
        // A value changed in place: the fill pass replays, into the new texture.
        fill.set("quad", &Quad::new(FULL, BLUE)).unwrap();
        let changed = run();
        let reason = DirectReason::DrawChanged {
            draw: "copy".into(),
        };
        halves(gpu, &out, BLUE, BLUE, "the copy samples the resized target");
        direct(&changed, 1, &reason, "resized");
        let again = run();
        halves(gpu, &out, BLUE, BLUE, "the frame after the resize");
        direct(&again, 1, &WARMING, "the frame after the resize");
        assert_eq!(
            again.stats.auto_bundles_recorded, 1,
            "{:?}",
            again.direct_passes
        );
        replayed(&run(), 2, "steady again");
        halves(gpu, &out, BLUE, BLUE, "steady again");
    });
}

/// g. A buffer a draw binds destroyed, the draw rebound to a new one: `ResourcesChanged`, the
/// new buffer's color right after.
#[test]
fn g_a_destroyed_buffer_replaced_is_seen_right_after() {
    each_gpu(|gpu: &Gpu| {
        let target = target(gpu, "destroy");
        let draw = vgpu_tests::fullscreen(gpu, "params", PARAMS_WGSL);
        let other = quad_draw(gpu, "right", RIGHT, GREEN);
        let buffer = |label: &str, c: [u8; 4]| {
            let bytes = vgpu_tests::f32_bytes(&color(c));
            gpu.buffer_init(label, &bytes, wgpu::BufferUsages::UNIFORM)
                .unwrap()
        };
        let old = buffer("old", RED);
        draw.set("params", &old).unwrap();
        let run = || draw_frame(gpu, &target, &[&draw, &other]);
        warm_up(&run, 2, &|what| halves(gpu, &target, RED, GREEN, what));
        old.destroy();
        let new = buffer("new", BLUE);
        draw.set("params", &new).unwrap();
        let changed = run();
        halves(gpu, &target, BLUE, GREEN, "destroyed and replaced");
        direct(&changed, 0, &DirectReason::ResourcesChanged, "destroyed");
        steady_again(&run, 2, &|what| halves(gpu, &target, BLUE, GREEN, what));
        // A buffer no draw of the pass binds, destroyed: the pass is checked again from scratch
        // (`ResourcesChanged`) and stays right.
        buffer("unrelated", GRAY).destroy();
        let changed = run();
        halves(gpu, &target, BLUE, GREEN, "another buffer destroyed");
        direct(
            &changed,
            0,
            &DirectReason::ResourcesChanged,
            "another buffer",
        );
    });
}

/// h. A shared camera (tint) block set differently before each of two passes, every frame
/// (other bytes each frame too): each pass shows its own value in replayed frames.
#[test]
fn h_per_pass_values_are_seen_per_pass_in_replayed_frames() {
    each_gpu(|gpu: &Gpu| {
        let targets = [target(gpu, "first"), target(gpu, "second")];
        let shader = gpu.shader("tinted", TINTED_WGSL).unwrap();
        let tint = gpu.uniforms(&Tint { color: color(RED) }).unwrap();
        let draws: Vec<Draw> = [("left", LEFT), ("right", RIGHT)]
            .into_iter()
            .map(|(label, rect)| {
                let d = gpu
                    .draw(
                        &shader,
                        DrawDesc {
                            label: label.to_owned(),
                            vertex_count: Some(6),
                            ..Default::default()
                        },
                    )
                    .unwrap();
                d.set("quad", &Quad::new(rect, GRAY)).unwrap();
                d.set("tint", &tint).unwrap();
                d
            })
            .collect();
        // Frame n's tints: pass 0 red-ish, pass 1 blue-ish, both moving with n.
        let tints = |n: u8| [[200, n, 10, 255], [10, n, 200, 255]];
        let n = std::cell::Cell::new(0u8);
        let run = || {
            n.set(n.get() + 1);
            frame(gpu, |f| {
                for (t, c) in targets.iter().zip(tints(n.get())) {
                    tint.set(&Tint { color: color(c) })?;
                    f.pass(t, |p| draws.iter().try_for_each(|d| p.draw(d)))?;
                }
                Ok(())
            })
        };
        let check = |what: &str| {
            for (t, c) in targets.iter().zip(tints(n.get())) {
                halves(gpu, t, c, c, what);
            }
        };
        warm_up(&run, 4, &check);
    });
}

/// i. A value set between two draws of a replayed pass: the first draw sees the old value,
/// the second the new one (`ValueMoved`: the value resolves to another slot than the bundle's).
#[test]
fn i_a_value_set_between_two_draws_of_a_replayed_pass() {
    each_gpu(|gpu: &Gpu| {
        let target = target(gpu, "inside");
        let shader = gpu.shader("tinted", TINTED_WGSL).unwrap();
        let tint = gpu
            .uniforms_labeled("tint", &Tint { color: color(RED) })
            .unwrap();
        let draws: Vec<Draw> = [("left", LEFT), ("right", RIGHT)]
            .into_iter()
            .map(|(label, rect)| {
                let d = gpu
                    .draw(
                        &shader,
                        DrawDesc {
                            label: label.to_owned(),
                            vertex_count: Some(6),
                            ..Default::default()
                        },
                    )
                    .unwrap();
                d.set("quad", &Quad::new(rect, GRAY)).unwrap();
                d.set("tint", &tint).unwrap();
                d
            })
            .collect();
        let run = || draw_frame(gpu, &target, &[&draws[0], &draws[1]]);
        warm_up(&run, 2, &|what| halves(gpu, &target, RED, RED, what));
        let changed = frame(gpu, |f| {
            f.pass(&target, |p| {
                p.draw(&draws[0])?;
                tint.set(&Tint { color: color(BLUE) })?;
                p.draw(&draws[1])
            })
        });
        let reason = DirectReason::ValueMoved {
            value: "tint".into(),
        };
        halves(gpu, &target, RED, BLUE, "set between the draws");
        direct(&changed, 0, &reason, "set between the draws");
        // Set back before the pass: steady again with the first value.
        tint.set(&Tint { color: color(RED) }).unwrap();
        steady_again(&run, 2, &|what| halves(gpu, &target, RED, RED, what));
    });
}

/// j. `set_counts` changed: `DrawChanged`, the draw draws its new count (one triangle of the
/// quad: the top-right pixel is left cleared).
#[test]
fn j_set_counts_changed_draws_the_new_counts() {
    each_gpu(|gpu: &Gpu| {
        let target = target(gpu, "counts");
        let draw = quad_draw(gpu, "full", FULL, RED);
        let run = || draw_frame(gpu, &target, &[&draw]);
        // The first triangle covers the bottom-left half; (3, 0) is in the other one.
        let bottom_left = (0, SIZE - 1);
        let check = |top_right: [u8; 4], what: &str| {
            pixel(gpu, &target, bottom_left, RED, what);
            pixel(gpu, &target, AT_RIGHT, top_right, what);
        };
        warm_up(&run, 1, &|what| check(RED, what));
        draw.set_counts(3, 1);
        let changed = run();
        let reason = DirectReason::DrawChanged {
            draw: "full".into(),
        };
        check(CLEARED, "set_counts");
        direct(&changed, 0, &reason, "set_counts");
        steady_again(&run, 1, &|what| check(CLEARED, what));
    });
}

/// k. A viewport set between draws cuts the bundle into segments: replayed and right; the
/// viewport changed: `PassStateChanged`, the draw lands in the new viewport.
#[test]
fn k_viewports_between_draws_replay_and_a_changed_one_records_directly() {
    each_gpu(|gpu: &Gpu| {
        let target = target(gpu, "viewports");
        let red = quad_draw(gpu, "red", FULL, RED);
        let green = quad_draw(gpu, "green", FULL, GREEN);
        let half = SIZE as f32 / 2.0;
        let run = |second_x: f32| {
            frame(gpu, |f| {
                f.pass(&target, |p| {
                    p.set_viewport(0.0, 0.0, half, SIZE as f32);
                    p.draw(&red)?;
                    p.set_viewport(second_x, 0.0, half, SIZE as f32);
                    p.draw(&green)
                })
            })
        };
        let before = || run(half);
        warm_up(&before, 2, &|what| halves(gpu, &target, RED, GREEN, what));
        let after = || run(0.0);
        let changed = after();
        halves(gpu, &target, GREEN, CLEARED, "viewport moved");
        direct(
            &changed,
            0,
            &DirectReason::PassStateChanged,
            "viewport moved",
        );
        steady_again(&after, 2, &|what| {
            halves(gpu, &target, GREEN, CLEARED, what)
        });
    });
}

/// Runs `run` four frames: each is recorded directly for `reason`, no bundle recorded; `check`
/// after each.
#[track_caller]
fn always_direct(run: &dyn Fn() -> FrameReport, reason: &DirectReason, check: &dyn Fn(&str)) {
    for i in 0..4 {
        let what = format!("frame {i}");
        let r = run();
        direct(&r, 0, reason, &what);
        assert_eq!(r.stats.auto_bundle_draws, 0, "{what}");
        assert_eq!(r.stats.auto_bundles_recorded, 0, "{what}");
        assert_eq!(r.stats.passes_recorded_directly, 1, "{what}");
        check(&what);
    }
}

/// l. `Pass::raw()`, occlusion queries and `Pass::execute` record the pass directly, with their
/// reason, in every frame.
#[test]
fn l_raw_occlusion_and_user_bundles_record_directly() {
    each_gpu(|gpu: &Gpu| {
        let s = halves_scene(gpu);
        let check = |what: &str| halves(gpu, &s.target, RED, GREEN, what);
        let raw = || {
            frame(gpu, |f| {
                f.pass(&s.target, |p| {
                    p.draw(&s.left)?;
                    let _ = p.raw();
                    p.draw(&s.right)
                })
            })
        };
        always_direct(&raw, &DirectReason::RawPass, &check);

        let queries = gpu.occlusion_queries("visible", 1).unwrap();
        let occlusion = || {
            frame(gpu, |f| {
                f.pass(PassDesc::new(&s.target).occlusion(&queries), |p| {
                    p.occlusion_query(0, |p| p.draw(&s.left))?;
                    p.draw(&s.right)
                })
            })
        };
        always_direct(&occlusion, &DirectReason::OcclusionQueries, &check);

        let bundle = gpu
            .bundle("right", s.target.signature(), |b| b.draw(&s.right))
            .unwrap();
        let execute = || {
            frame(gpu, |f| {
                f.pass(&s.target, |p| {
                    p.draw(&s.left)?;
                    p.execute(&bundle)
                })
            })
        };
        always_direct(&execute, &DirectReason::UserBundle, &check);
    });
}

/// m. The opt-outs: `PassDesc::auto_bundle(false)` and `Gpu::set_auto_bundles(false)` record
/// directly (`Disabled`); turned on again, the pass warms up and replays.
#[test]
fn m_opted_out_passes_record_directly() {
    each_gpu(|gpu: &Gpu| {
        let s = halves_scene(gpu);
        let check = |what: &str| halves(gpu, &s.target, RED, GREEN, what);
        let pass_off = || {
            frame(gpu, |f| {
                f.pass(PassDesc::new(&s.target).auto_bundle(false), |p| {
                    p.draw(&s.left)?;
                    p.draw(&s.right)
                })
            })
        };
        always_direct(&pass_off, &DirectReason::Disabled, &check);
        let run = || draw_frame(gpu, &s.target, &[&s.left, &s.right]);
        gpu.set_auto_bundles(false);
        always_direct(&run, &DirectReason::Disabled, &check);
        gpu.set_auto_bundles(true);
        warm_up(&run, 2, &check);
        gpu.set_auto_bundles(false);
        always_direct(&run, &DirectReason::Disabled, &check);
    });
}

/// A pass that leaves its replay issues the draws it matched so far from its bundle's commands:
/// they are drawn, and the frame counts them in `operations_recorded` like every other draw
/// (found by the capture model: they were not counted, fixed in 9fa2b78).
#[test]
fn a_pass_leaving_its_replay_counts_the_draws_it_issued() {
    each_gpu(|gpu: &Gpu| {
        let s = halves_scene(gpu);
        let both = || draw_frame(gpu, &s.target, &[&s.left, &s.right]);
        warm_up(&both, 2, &|what| halves(gpu, &s.target, RED, GREEN, what));
        // The first draw matches the bundle, the second is culled: the first is issued from
        // the bundle's commands at the pass's end.
        let culled = draw_frame(gpu, &s.target, &[&s.left]);
        halves(gpu, &s.target, RED, CLEARED, "culled");
        direct(&culled, 0, &DirectReason::DrawsRemoved, "culled");
        assert_eq!(
            culled.stats.operations_recorded, 1,
            "culled: draws recorded"
        );
        // Reordered after the first draw: one issued from the bundle, two recorded directly.
        let reordered = draw_frame(gpu, &s.target, &[&s.left, &s.right]);
        assert_eq!(reordered.stats.operations_recorded, 2, "the frame after");
    });
}

/// n. A draw whose blend reads the blend constant is not replayed (wgpu 30 applies the blend
/// constant and the stencil reference to a pipeline a pass sets, not to one a bundle sets): the
/// pass records directly every frame with `PassConstants`, and the pixels blend with the
/// constant in every frame (with a replay they lost it: the deferred example's stencil-tested
/// lighting did).
#[test]
fn n_a_draw_reading_the_blend_constant_is_recorded_directly() {
    each_gpu(|gpu: &Gpu| {
        let shader = gpu.shader("constant", QUAD_WGSL).unwrap();
        let constant = wgpu::BlendComponent {
            src_factor: wgpu::BlendFactor::Constant,
            dst_factor: wgpu::BlendFactor::Zero,
            operation: wgpu::BlendOperation::Add,
        };
        let draw = gpu
            .draw(
                &shader,
                DrawDesc {
                    label: "constant".to_owned(),
                    vertex_count: Some(6),
                    blend: Some(wgpu::BlendState {
                        color: constant,
                        alpha: constant,
                    }),
                    ..Default::default()
                },
            )
            .unwrap();
        draw.set("quad", &Quad::new(LEFT, [255, 255, 255, 255]))
            .unwrap();
        let target = target(gpu, "constant");
        let run = || {
            frame(gpu, |f| {
                let desc = PassDesc::new(&target).blend_constant([0.0, 1.0, 0.0, 1.0]);
                f.pass(desc, |p| p.draw(&draw))
            })
        };
        let first = run();
        direct(&first, 0, &WARMING, "frame 1");
        for i in 0..4 {
            let report = run();
            let what = format!("frame {}", i + 2);
            let reason = DirectReason::PassConstants {
                draw: "constant".into(),
            };
            direct(&report, 0, &reason, &what);
            assert_eq!(report.stats.auto_bundle_draws, 0, "{what}");
            // White × the constant (pure green), in the left half.
            pixel(gpu, &target, AT_LEFT, [0, 255, 0, 255], &what);
        }
    });
}
