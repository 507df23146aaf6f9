//! The upstream tutorial's steps, ported (`examples/by_example/`, upstream's
//! `examples/by-example-s02` … `s13`), run as binaries (`vgpu_tests::run_example`: `cargo test -p
//! vgpu-tests` alone needs `cargo build -p vgpu-examples --examples` first) in a fresh directory.
//! Each test checks what upstream's `example.test.ts` checks, on the device `VGPU_BACKEND` names:
//! the pixels (read from the PNGs the example writes, compared with values computed here from the
//! example's shader; 8-bit rounding may differ by one) on real devices, the counters each frame
//! prints on every device (the noop one included), the error codes of the fix-its everywhere.
//! The examples exit non-zero on any uncaptured wgpu error, which fails these tests.

use std::collections::HashMap;

use vgpu_tests::{ExampleRun, parse_counters, run_example};

/// The counters of the one line starting with `prefix`.
#[track_caller]
fn counters(run: &ExampleRun, prefix: &str) -> HashMap<String, u64> {
    parse_counters(run.line(prefix))
}

/// A float in 0..=1 as an 8-bit unorm channel (clamped, rounded to nearest).
fn unorm(v: f32) -> u8 {
    (v.clamp(0.0, 1.0) * 255.0).round() as u8
}

/// The coordinate an effect's `uv` has at the center of pixel `i` of `size` (0 at the top-left).
fn uv(i: u32, size: u32) -> f32 {
    (i as f32 + 0.5) / size as f32
}

/// Loads the PNG `name` the example wrote and compares every pixel with `expected(x, y)`, each
/// channel within `tolerance`; on mismatch names the first pixel that differs.
#[track_caller]
fn assert_png(
    run: &ExampleRun,
    name: &str,
    size: u32,
    tolerance: u8,
    expected: impl Fn(u32, u32) -> [u8; 4],
) -> Vec<u8> {
    let (w, h, pixels) = run.png(name);
    assert_eq!((w, h), (size, size), "{name}: size");
    let adapter = run.line("adapter: ");
    for y in 0..size {
        for x in 0..size {
            let i = ((y * size + x) * 4) as usize;
            let got = &pixels[i..i + 4];
            let want = expected(x, y);
            let near = got
                .iter()
                .zip(want)
                .all(|(&g, w)| g.abs_diff(w) <= tolerance);
            assert!(
                near,
                "{name} on {adapter}: pixel ({x},{y}) is {got:?}, expected {want:?} (±{tolerance})"
            );
        }
    }
    pixels
}

/// On the noop device: the example says it rendered nothing, and wrote no file.
#[track_caller]
fn assert_nothing_written_on_noop(run: &ExampleRun) {
    assert!(run.stdout.contains("nothing was"), "{}", run.stdout);
    assert!(!run.stdout.contains("wrote "), "{}", run.stdout);
    let files: Vec<_> = std::fs::read_dir(&run.dir)
        .expect("the example's directory")
        .collect();
    assert!(files.is_empty(), "no file written on noop: {files:?}");
}

/// §2: the blue channel is `sin(time × speed) × 0.5 + 0.5` with the explicit `time` = π/4 and
/// `speed` = 2, so 255 everywhere (upstream: > 245 at the center); red and green are the uv.
#[test]
fn s02_fullscreen_effect_renders_the_explicit_time_and_speed() {
    let run = run_example("by_example_s02_fullscreen", &[]);
    let frame = counters(&run, "frame 1: ");
    assert_eq!(frame["draws"], 1);
    assert_eq!(frame["pipelines created"], 1);
    // The 8-byte `Params { time, speed }`, uploaded once with both members set.
    assert_eq!(frame["bytes uploaded"], 8);
    if run.noop() {
        assert_nothing_written_on_noop(&run);
        return;
    }
    assert_png(&run, "by_example_s02_fullscreen.png", 8, 1, |x, y| {
        [unorm(uv(x, 8)), unorm(uv(y, 8)), 255, 255]
    });
}

/// §3: the left half is the cube's red, the right half the floor's green, both times the shared
/// buffer's exposure: 1 in frame 1, 0.5 in frame 2 after one write of that buffer; frame 2
/// creates no bind group and uploads nothing (the buffer is the app's, bound by identity).
#[test]
fn s03_shared_buffer_feeds_two_draws_with_their_own_params() {
    let run = run_example("by_example_s03_sharing", &[]);
    let first = counters(&run, "frame 1 ");
    assert_eq!(first["draws"], 2);
    // The two draws' own 16-byte colors, at least.
    assert!(first["bytes uploaded"] >= 32, "{first:?}");
    let second = counters(&run, "frame 2 ");
    assert_eq!(second["draws"], 2);
    for counter in [
        "bind groups created",
        "buffers created",
        "pipelines created",
        "write_buffer calls",
        "bytes uploaded",
    ] {
        assert_eq!(second[counter], 0, "frame 2: {counter}");
    }
    if run.noop() {
        assert_nothing_written_on_noop(&run);
        return;
    }
    for (png, exposure) in [
        ("by_example_s03_sharing.png", 1.0),
        ("by_example_s03_sharing_dim.png", 0.5),
    ] {
        let c = unorm(exposure);
        assert_png(&run, png, 16, 1, |x, _| {
            if x < 8 {
                [c, 0, 0, 255]
            } else {
                [0, c, 0, 255]
            }
        });
    }
}

/// §4: one shared block feeds both effects and is uploaded once (16 bytes: `time`, padding,
/// `mouse`); the target shows the second effect, `(time, uv.y, mouse.y, 1)` with the time set
/// after binding (0.8, upstream: red > 150) and the mouse kept by the partial set.
#[test]
fn s04_shared_uniforms_feed_two_effects_and_upload_once() {
    let run = run_example("by_example_s04_shared_uniforms", &[]);
    let frame = counters(&run, "frame 1: ");
    assert_eq!(frame["draws"], 2);
    assert_eq!(
        frame["bytes uploaded"], 16,
        "the block, once for both effects"
    );
    if run.noop() {
        assert_nothing_written_on_noop(&run);
        return;
    }
    assert_png(&run, "by_example_s04_shared_uniforms.png", 8, 1, |_, y| {
        [unorm(0.8), unorm(uv(y, 8)), unorm(0.6), 255]
    });
}

/// §5: each mistake gets its code (upstream's "Unset `samp`" and "ownership cannot change"),
/// a message naming the binding, and `vgpu::explain`'s meaning and fix; the effect whose set was
/// refused still draws its own value. The same on every device, noop included.
#[test]
fn s05_fixits_name_the_code_the_binding_and_the_fix() {
    let run = run_example("by_example_s05_fixits", &[]);
    let lines: Vec<&str> = run.stdout.lines().collect();
    for (mistake, code, names) in [
        (
            "missing binding",
            "VGPU-DRAW-UNSET-BINDING",
            "binding `samp`",
        ),
        ("ownership flip", "VGPU-SET-OWNERSHIP", "binding `params`"),
        (
            "misspelt name",
            "VGPU-SET-BINDING-UNKNOWN",
            "did you mean `speed`?",
        ),
    ] {
        let head = format!("fix-it {mistake}: {code}");
        let at = lines
            .iter()
            .position(|l| *l == head)
            .unwrap_or_else(|| panic!("no line {head:?}:\n{}", run.stdout));
        let error = lines[at + 1];
        assert!(error.starts_with(&format!("  error: {code}: ")), "{error}");
        assert!(error.contains(names), "{error} names {names}");
        let info = vgpu::explain(code).expect("the code has an entry");
        assert_eq!(lines[at + 2], format!("  meaning: {}", info.meaning));
        assert_eq!(lines[at + 3], format!("  fix: {}", info.fix));
    }
    let after = counters(&run, "frame after the mistakes: ");
    assert_eq!(after["draws"], 1);
    if run.noop() {
        assert_nothing_written_on_noop(&run);
        return;
    }
    // Red is the value set before the refused buffer (speed 2, saturated), not the buffer's 0.
    let (g, b) = (unorm(uv(0, 4)), unorm(uv(0, 4)));
    assert_eq!(
        run.line("wave pixel: "),
        format!("wave pixel: [255, {g}, {b}, 255]")
    );
}

/// §6: a cube from `geometry::cuboid` uploaded as a mesh, its `position` and `normal` feeding
/// the vertex inputs of those names, lit by one directional light through a perspective camera
/// at (2, 2, 3). Upstream checks that some pixel is brighter than 20; here the cube's silhouette
/// is where its projection says: every pixel outside the projected corners' box (one pixel of
/// margin) is the clear color, most of the box is lit, and the pixel at the projected center
/// has the three visible faces' shading (each faces the light at the same angle:
/// `(0.2, 0.5, 1.0) × 1/√3`).
#[test]
fn s06_a_mesh_box_is_lit_where_its_projection_says() {
    use glam::{Mat4, Vec3};
    let run = run_example("by_example_s06_scene", &[]);
    let frame = counters(&run, "frame 1: ");
    assert_eq!(frame["draws"], 1);
    assert_eq!(frame["pipelines created"], 1);
    assert_eq!(
        run.line("vertex inputs: "),
        "vertex inputs: position@0, normal@1"
    );
    assert!(
        run.line("mesh attributes: ")
            .contains("position Float32x3, normal Float32x3"),
        "{}",
        run.stdout
    );
    if run.noop() {
        assert_nothing_written_on_noop(&run);
        return;
    }
    let size = 32u32;
    let view_projection = Mat4::perspective_rh(45f32.to_radians(), 1.0, 0.1, 100.0)
        * Mat4::look_at_rh(Vec3::new(2.0, 2.0, 3.0), Vec3::ZERO, Vec3::Y);
    let to_pixel = |p: Vec3| {
        let ndc = view_projection.project_point3(p);
        (
            (ndc.x * 0.5 + 0.5) * size as f32,
            (0.5 - ndc.y * 0.5) * size as f32,
        )
    };
    let corners = (0..8).map(|i| {
        let c = |bit: u32| if i & bit != 0 { 0.5 } else { -0.5 };
        to_pixel(Vec3::new(c(1), c(2), c(4)))
    });
    let (mut x0, mut y0, mut x1, mut y1) = (f32::MAX, f32::MAX, f32::MIN, f32::MIN);
    for (x, y) in corners {
        (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x), y1.max(y));
    }
    let (w, h, pixels) = run.png("by_example_s06_scene.png");
    assert_eq!((w, h), (size, size));
    let clear = [unorm(0.05), unorm(0.05), unorm(0.08), 255];
    let (mut inside, mut lit) = (0, 0);
    for y in 0..size {
        for x in 0..size {
            let i = ((y * size + x) * 4) as usize;
            let px = &pixels[i..i + 4];
            let (cx, cy) = (x as f32 + 0.5, y as f32 + 0.5);
            let in_box = cx > x0 - 1.0 && cx < x1 + 1.0 && cy > y0 - 1.0 && cy < y1 + 1.0;
            if in_box {
                inside += 1;
                lit += usize::from(px[2] > 60);
            } else {
                let near = px.iter().zip(clear).all(|(&p, c)| p.abs_diff(c) <= 1);
                assert!(
                    near,
                    "pixel ({x},{y}) outside the cube's box is {px:?}, not {clear:?}"
                );
            }
        }
    }
    assert!(
        lit * 2 > inside,
        "{lit} of the {inside} pixels of the cube's box are lit (box {x0:.1}..{x1:.1} × {y0:.1}..{y1:.1})"
    );
    let (cx, cy) = to_pixel(Vec3::ZERO);
    let i = ((cy as u32 * size + cx as u32) * 4) as usize;
    let shade = 1.0 / 3f32.sqrt();
    let expected = [unorm(0.2 * shade), unorm(0.5 * shade), unorm(shade), 255];
    let center = &pixels[i..i + 4];
    let near = center
        .iter()
        .zip(expected)
        .all(|(&p, e)| p.abs_diff(e) <= 2);
    assert!(
        near,
        "the center pixel is {center:?}, expected {expected:?}"
    );
}

/// §7: the float scene keeps values above 1 (its brightest texel, 7.5, read back), and the post
/// pass tone-maps it texel by texel into the 8-bit output: `c / (1 + c)` of (x + 0.5, 1.5, 3.0)
/// (upstream: green > 100, blue > 150).
#[test]
fn s07_hdr_scene_is_tone_mapped_by_a_post_pass() {
    let run = run_example("by_example_s07_hdr_post", &[]);
    let frame = counters(&run, "frame 1: ");
    assert_eq!(frame["draws"], 2);
    assert_eq!(frame["pipelines created"], 2);
    if run.noop() {
        assert_nothing_written_on_noop(&run);
        return;
    }
    assert_eq!(
        run.line("scene pixel (7,0): "),
        "scene pixel (7,0): [7.5, 1.5, 3.0, 1.0]"
    );
    let reinhard = |c: f32| unorm(c / (1.0 + c));
    assert_png(&run, "by_example_s07_hdr_post.png", 8, 1, |x, _| {
        [reinhard(x as f32 + 0.5), reinhard(1.5), reinhard(3.0), 255]
    });
}

/// §8: the fill frame writes the uv gradient into `buf.pong` (the write side), the swap makes it
/// the read side, and `copy` (its `src` set once, before the swap) copies it into `buf.ping`:
/// every pixel is `(uv, 0.5, 1)` (upstream: blue > 100).
#[test]
fn s08_ping_pong_alternates_the_sides() {
    let run = run_example("by_example_s08_ping_pong", &[]);
    assert_eq!(
        run.line("before swap: "),
        "before swap: read buf.ping, write buf.pong"
    );
    assert_eq!(
        run.line("after swap: "),
        "after swap: read buf.pong, write buf.ping"
    );
    for prefix in ["frame 1: ", "frame 2: "] {
        let frame = counters(&run, prefix);
        assert_eq!(frame["draws"], 1, "{prefix}");
        assert_eq!(frame["pipelines created"], 1, "{prefix}");
    }
    if run.noop() {
        assert_nothing_written_on_noop(&run);
        return;
    }
    let pixels = assert_png(&run, "by_example_s08_ping_pong.png", 8, 1, |x, y| {
        [unorm(uv(x, 8)), unorm(uv(y, 8)), unorm(0.5), 255]
    });
    assert!(pixels[2] > 100, "upstream's check: blue {}", pixels[2]);
}

/// §9: the bundle is recorded once; each replay draws the fog density set before it (0.2, then
/// 0.7: upstream's before < 80, after > 150), and the second frame creates nothing and binds
/// nothing outside the bundle, uploading only the changed 4-byte value.
#[test]
fn s09_bundle_replays_see_the_latest_value() {
    let run = run_example("by_example_s09_bundles", &[]);
    let recorded = counters(&run, "recorded once: ");
    assert_eq!(recorded["draws"], 1);
    assert_eq!(recorded["pipelines created"], 1);
    let first = counters(&run, "frame 1 ");
    let second = counters(&run, "frame 2 ");
    for (i, frame) in [&first, &second].into_iter().enumerate() {
        for counter in [
            "bind groups created",
            "pipelines created",
            "set_bind_group calls",
            "set_pipeline calls",
        ] {
            assert_eq!(frame[counter], 0, "frame {}: {counter}", i + 1);
        }
        assert_eq!(frame["bytes uploaded"], 4, "frame {}: the fog value", i + 1);
    }
    assert_eq!(second["buffers created"], 0);
    if run.noop() {
        assert_nothing_written_on_noop(&run);
        return;
    }
    for (png, fog) in [
        ("by_example_s09_bundles_before.png", 0.2),
        ("by_example_s09_bundles_after.png", 0.7),
    ] {
        assert_png(&run, png, 8, 1, |x, y| {
            [unorm(fog), unorm(uv(x, 8)), unorm(uv(y, 8)), 255]
        });
    }
}

/// §10: the caller's bind group for the claimed group, with a dynamic offset per recorded draw:
/// the left half shows the buffer's first color, the right half its second (upstream: red >
/// 180); vgpu created no bind group and uploaded nothing, and refused a set into the group.
#[test]
fn s10_claimed_group_takes_the_callers_bind_group_and_offsets() {
    let run = run_example("by_example_s10_group_claim", &[]);
    assert_eq!(
        run.line("set after the claim: "),
        "set after the claim: VGPU-GROUP-CLAIMED"
    );
    let frame = counters(&run, "frame 1: ");
    assert_eq!(frame["draws"], 2);
    assert_eq!(frame["bind groups created"], 0, "the caller's group");
    assert_eq!(frame["bytes uploaded"], 0, "the caller's buffer");
    assert_eq!(frame["set_bind_group calls"], 2, "one per offset");
    if run.noop() {
        assert_nothing_written_on_noop(&run);
        return;
    }
    let [left, right] =
        [[0.9, 0.2, 0.1], [0.1, 0.3, 0.9]].map(|[r, g, b]| [unorm(r), unorm(g), unorm(b), 255]);
    assert_png(&run, "by_example_s10_group_claim.png", 8, 1, |x, _| {
        if x < 4 { left } else { right }
    });
}

/// The particles of §11 (duplicated from the example).
const PARTICLES: [[f32; 4]; 2] = [[1.0, 2.0, 3.0, 4.0], [-1.0, 10.0, 0.5, 1.0]];

/// §11: one dispatch writes `src + (0, -9.8 × 0.5, 0, 0)` into `dst`, read back (upstream:
/// `dst[0]` ≈ 1, `dst[1]` < -2).
#[test]
fn s11_compute_writes_the_storage_buffer() {
    let run = run_example("by_example_s11_compute", &[]);
    let frame = counters(&run, "frame 1: ");
    assert_eq!(frame["draws"], 1, "one dispatch");
    assert_eq!(frame["pipelines created"], 1);
    if run.noop() {
        assert_nothing_written_on_noop(&run);
        return;
    }
    for (i, p) in PARTICLES.iter().enumerate() {
        let line = run.line(&format!("dst[{i}]: "));
        let values: Vec<f32> = line
            .split_once(": ")
            .expect("dst line")
            .1
            .trim_matches(['[', ']'])
            .split(", ")
            .map(|v| v.parse().expect("a float"))
            .collect();
        let expected = [p[0], p[1] - 9.8 * 0.5, p[2], p[3]];
        assert_eq!(values.len(), 4, "{line}");
        for (got, want) in values.iter().zip(expected) {
            assert!((got - want).abs() < 1e-5, "{line}: expected {expected:?}");
        }
    }
}

/// §12: `baked` is drawn at 4×4, resized to 8×8 and drawn again with the new texel size: every
/// pixel is `(1/8, 1/8, 0.5, 1)` (upstream: red and green 30..=34, blue 126..=129); `show`, given
/// `baked` once before the resize, copies the 8×8 texture into `output` (the same pixels).
#[test]
fn s12_resize_updates_the_texel_size_and_followers() {
    let run = run_example("by_example_s12_scheduling_resize", &[]);
    assert_eq!(run.line("frame 1 size: "), "frame 1 size: (4, 4)");
    assert_eq!(run.line("frame 2 size: "), "frame 2 size: (8, 8)");
    for prefix in ["frame 1: ", "frame 2: "] {
        let frame = counters(&run, prefix);
        assert_eq!(frame["draws"], 2, "{prefix}");
    }
    if run.noop() {
        assert_nothing_written_on_noop(&run);
        return;
    }
    let expected = |_, _| [unorm(0.125), unorm(0.125), unorm(0.5), 255];
    let baked = assert_png(&run, "by_example_s12_scheduling_resize.png", 8, 1, expected);
    assert!((30..=34).contains(&baked[0]) && (30..=34).contains(&baked[1]));
    assert!((126..=129).contains(&baked[2]), "blue {}", baked[2]);
    assert_png(&run, "by_example_s12_output.png", 8, 1, expected);
}

/// §13: with fixed inputs a headless render is byte-deterministic: two devices in one process
/// render the same image, and two runs of the example write the same PNG; the image is the
/// gradient `(uv.x + 0.125, uv.y, 1, 1)`.
#[test]
fn s13_headless_render_is_deterministic() {
    let runs = [
        run_example("by_example_s13_headless", &[]),
        run_example("by_example_s13_headless", &[]),
    ];
    let mut images = Vec::new();
    for run in &runs {
        for render in ["render 1: ", "render 2: "] {
            let frame = counters(run, render);
            assert_eq!(frame["draws"], 1, "{render}");
            assert_eq!(frame["bytes uploaded"], 8, "{render}");
        }
        if run.noop() {
            assert_nothing_written_on_noop(run);
            continue;
        }
        assert_eq!(run.line("identical: "), "identical: true");
        images.push(assert_png(
            run,
            "by_example_s13_headless.png",
            8,
            1,
            |x, y| [unorm(uv(x, 8) + 0.125), unorm(uv(y, 8)), 255, 255],
        ));
    }
    if let [a, b] = &images[..] {
        assert_eq!(a, b, "two runs wrote different pixels");
    }
}
