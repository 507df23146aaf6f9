//! The `per_pass_camera`, `instancing_storage` and `bundle_static_scene` examples, run as
//! binaries (`vgpu_tests::run_example`: `cargo test -p vgpu-tests` alone needs `cargo build
//! --examples` first) in a fresh directory. On a real device every PNG they write is compared
//! pixel for pixel with an image computed here on the CPU from the example's scene description
//! (duplicated below from the example's file; all edges land on pixel boundaries, so there is no
//! rasterization tolerance). On every device, the noop one included, the counters each example
//! prints for each frame are checked against what the capture contract promises. The examples
//! exit non-zero on any uncaptured wgpu error, which fails these tests.

use std::collections::{HashMap, HashSet};

use vgpu_tests::{ExampleRun, parse_counters, run_example};

/// Compares two images of the same size; on mismatch names the first differing pixel and how
/// many differ.
fn assert_image_eq(actual: &[u8], expected: &[u8], width: u32, what: &str) {
    assert_eq!(actual.len(), expected.len(), "{what}: size");
    let diffs: Vec<usize> = actual
        .chunks_exact(4)
        .zip(expected.chunks_exact(4))
        .enumerate()
        .filter(|(_, (a, e))| a != e)
        .map(|(i, _)| i)
        .collect();
    if let Some(&i) = diffs.first() {
        let (x, y) = (i as u32 % width, i as u32 / width);
        panic!(
            "{what}: {} pixels differ; first at ({x},{y}): got {:?}, expected {:?}",
            diffs.len(),
            &actual[i * 4..i * 4 + 4],
            &expected[i * 4..i * 4 + 4]
        );
    }
}

/// The counters of every `frame N…: …` line the example printed, in order.
fn frame_counters(run: &ExampleRun) -> Vec<HashMap<String, u64>> {
    run.lines_starting("frame ")
        .into_iter()
        .map(parse_counters)
        .collect()
}

/// On the noop device: the example says it wrote no PNG, and did not.
fn assert_no_png_on_noop(run: &ExampleRun) {
    assert!(
        run.stdout.contains("nothing was rendered"),
        "{}",
        run.stdout
    );
    assert!(!run.stdout.contains("wrote "), "{}", run.stdout);
    let files: Vec<_> = std::fs::read_dir(&run.dir)
        .expect("the example's directory")
        .collect();
    assert!(files.is_empty(), "no file written on noop: {files:?}");
}

// ---------------------------------------------------------------------------------------------
// per_pass_camera (its scene, duplicated from examples/per_pass_camera.rs)

/// Width and height of each image.
const PER_PASS_SIZE: u32 = 256;
/// The clear color in 8-bit RGBA.
const PER_PASS_CLEAR: [u8; 4] = [0, 0, 0, 255];
/// The objects: (name, center, half size, color).
const PER_PASS_OBJECTS: [(&str, [f32; 2], f32, [u8; 4]); 3] = [
    ("red", [-0.5, -0.5], 0.25, [255, 0, 0, 255]),
    ("green", [0.5, -0.5], 0.25, [0, 255, 0, 255]),
    ("blue", [0.0, 0.5], 0.25, [0, 0, 255, 255]),
];
/// The cameras, one per pass and PNG: (name, offset, scale).
const PER_PASS_CAMERAS: [(&str, [f32; 2], f32); 3] = [
    ("front", [0.0, 0.0], 1.0),
    ("shifted", [0.25, 0.25], 1.0),
    ("zoomed_out", [0.0, 0.0], 0.5),
];

/// The expected image of a camera: a pixel is an object's color if its center lies inside the
/// object's square as that camera places it (scale, then offset), else the clear color.
fn per_pass_expected(offset: [f32; 2], scale: f32) -> Vec<u8> {
    let size = PER_PASS_SIZE;
    let mut image = Vec::with_capacity((size * size * 4) as usize);
    for y in 0..size {
        for x in 0..size {
            let nx = (x as f32 + 0.5) / size as f32 * 2.0 - 1.0;
            let ny = 1.0 - (y as f32 + 0.5) / size as f32 * 2.0;
            let hit = PER_PASS_OBJECTS.iter().find(|(_, center, half, _)| {
                let cx = center[0] * scale + offset[0];
                let cy = center[1] * scale + offset[1];
                let h = half * scale;
                (nx - cx).abs() < h && (ny - cy).abs() < h
            });
            image.extend_from_slice(&hit.map_or(PER_PASS_CLEAR, |o| o.3));
        }
    }
    image
}

/// Each `per_pass_camera_<camera>.png` shows the scene as its own camera placed it (the camera
/// block was set to another value before each pass of the same frame), and the frames' counters
/// hold (checked on the noop device too).
#[test]
fn per_pass_camera_each_png_shows_its_own_camera_and_steady_frames_upload_nothing() {
    let run = run_example("per_pass_camera", &[]);
    check_per_pass_counters(&frame_counters(&run));
    if run.noop() {
        assert_no_png_on_noop(&run);
        return;
    }
    let adapter = run.line("adapter: ");
    let mut seen = HashSet::new();
    for (name, offset, scale) in PER_PASS_CAMERAS {
        let (w, h, pixels) = run.png(&format!("per_pass_camera_{name}.png"));
        assert_eq!((w, h), (PER_PASS_SIZE, PER_PASS_SIZE));
        let expected = per_pass_expected(offset, scale);
        // Every object is visible under every camera (its color is in the image).
        for (object, _, _, color) in PER_PASS_OBJECTS {
            assert!(
                expected.chunks_exact(4).any(|p| p == color),
                "scene sanity: {object} visible under {name}"
            );
        }
        assert_image_eq(
            &pixels,
            &expected,
            w,
            &format!("camera {name} on {adapter}"),
        );
        // The three placements differ, so an image can only match its own camera.
        assert!(seen.insert(expected), "cameras {name} must differ");
    }
}

fn check_per_pass_counters(frames: &[HashMap<String, u64>]) {
    assert_eq!(frames.len(), 3, "the example renders three frames");
    let draws = (PER_PASS_OBJECTS.len() * PER_PASS_CAMERAS.len()) as u64;
    let first = &frames[0];
    assert_eq!(first["draws"], draws);
    // First frame: three camera values (64 bytes each) and three objects (80 bytes each).
    assert!(
        first["bytes uploaded"] >= 3 * 64 + 3 * 80,
        "first frame uploads {}",
        first["bytes uploaded"]
    );
    for (i, s) in frames.iter().enumerate().skip(1) {
        assert_eq!(s["draws"], draws, "frame {i}");
        assert_eq!(s["bind groups created"], 0, "frame {i}: bind groups");
        assert_eq!(s["buffers created"], 0, "frame {i}: buffers");
        assert_eq!(s["write_buffer calls"], 0, "frame {i}: write_buffer calls");
        assert_eq!(
            s["bytes uploaded"], 0,
            "frame {i}: bytes (camera values are resident)"
        );
        assert_eq!(s["slots captured"], 0, "frame {i}: slots captured");
        assert_eq!(s["pipelines created"], 0, "frame {i}: pipelines");
    }
}

// ---------------------------------------------------------------------------------------------
// instancing_storage (its layout, duplicated from examples/instancing_storage.rs)

/// Squares per row and column.
const GRID: u32 = 100;
/// Instances (one per cell).
const INSTANCES: u32 = GRID * GRID;
/// Pixels per cell side.
const CELL: u32 = 8;
/// Side of each square, centered in its cell (a one-pixel margin of clear color around it).
const SQUARE_SIDE: u32 = 6;
/// Image width and height.
const INST_SIZE: u32 = GRID * CELL;
/// The placement permutation's multiplier.
const PERMUTATION: u32 = 7919;
/// The clear color in 8-bit RGBA.
const INST_CLEAR: [u8; 4] = [0, 0, 0, 255];

/// The grid cell `(column, row)` of instance `i` (row 0 at the top).
fn cell_of(i: u32) -> (u32, u32) {
    let c = ((u64::from(i) * u64::from(PERMUTATION)) % u64::from(INSTANCES)) as u32;
    (c % GRID, c / GRID)
}

/// The color of the square in cell `(column, row)` (a gradient).
fn color_of(column: u32, row: u32) -> [u8; 4] {
    let ramp = |v: u32| (v * 255 / (GRID - 1)) as u8;
    [ramp(column), ramp(row), 160, 255]
}

/// Checks the instancing image: every 8×8 cell holds a 6×6 square of exactly its color with a
/// one-pixel clear margin, so all 10 000 instances are visible, distinct and apart.
fn check_instancing_image((width, height, pixels): (u32, u32, Vec<u8>), what: &str) {
    assert_eq!((width, height), (INST_SIZE, INST_SIZE));
    // The instances' placement covers every cell once.
    let mut covered = vec![false; INSTANCES as usize];
    for i in 0..INSTANCES {
        let (cx, cy) = cell_of(i);
        let cell = &mut covered[(cy * GRID + cx) as usize];
        assert!(!*cell, "placement is a permutation");
        *cell = true;
    }
    let margin = (CELL - SQUARE_SIDE) / 2;
    let inside = |v: u32| (margin..margin + SQUARE_SIDE).contains(&(v % CELL));
    let mut expected = Vec::with_capacity(pixels.len());
    for y in 0..INST_SIZE {
        for x in 0..INST_SIZE {
            let color = if inside(x) && inside(y) {
                color_of(x / CELL, y / CELL)
            } else {
                INST_CLEAR
            };
            expected.extend_from_slice(&color);
        }
    }
    assert_image_eq(&pixels, &expected, width, what);
    let distinct: HashSet<&[u8]> = pixels.chunks_exact(4).collect();
    assert!(
        distinct.contains(&INST_CLEAR[..]),
        "{what}: gaps of clear color"
    );
    assert_eq!(
        distinct.len(),
        INSTANCES as usize + 1,
        "{what}: distinct colors (the squares' and the clear one)"
    );
}

fn check_instancing_counters(frames: &[HashMap<String, u64>], storage: bool, what: &str) {
    assert_eq!(frames.len(), 2, "{what}: the example renders two frames");
    // The storage path binds one group per pass; the vertex path binds none.
    let groups = u64::from(storage);
    for (i, s) in frames.iter().enumerate() {
        assert_eq!(s["draws"], 1, "{what} frame {i}: ONE draw operation");
        assert_eq!(
            s["set_bind_group calls"], groups,
            "{what} frame {i}: bind groups set"
        );
    }
    for (i, s) in frames.iter().enumerate().skip(1) {
        assert_eq!(s["bind groups created"], 0, "{what} frame {i}: bind groups");
        assert_eq!(s["buffers created"], 0, "{what} frame {i}: buffers");
        assert_eq!(s["write_buffer calls"], 0, "{what} frame {i}: writes");
        assert_eq!(s["bytes uploaded"], 0, "{what} frame {i}: bytes");
    }
}

/// Both paths (storage buffer, vertex-buffer fallback) where the device has them: the same image
/// of 10 000 distinct instances, one draw each. Vulkan devices (lavapipe included) read storage
/// buffers in vertex shaders: the example's default must take that path there. On the noop
/// device both paths run and their counters are checked.
#[test]
fn instancing_draws_ten_thousand_distinct_instances_in_one_draw() {
    let default = run_example("instancing_storage", &[]);
    let adapter = default.line("adapter: ").to_owned();
    let default_storage = match default.line("path: ") {
        "path: storage buffer" => true,
        "path: vertex buffer" => false,
        other => panic!("{other}"),
    };
    if adapter.ends_with("(Vulkan)") {
        assert!(default_storage, "Vulkan without vertex storage: {adapter}");
    }
    let mut runs = vec![(default_storage, default)];
    let other = if default_storage {
        "--vertex-buffer"
    } else {
        "--storage-buffer"
    };
    // The storage path is only forced where the default did not take it on the noop device
    // (which has no pixels to compare); elsewhere the default says the device lacks it.
    if default_storage || runs[0].1.noop() {
        runs.push((
            !default_storage,
            run_example("instancing_storage", &[other]),
        ));
    }
    for (storage, run) in runs {
        let what = format!(
            "{} path on {adapter}",
            if storage { "storage" } else { "vertex-buffer" }
        );
        eprintln!("instancing_storage checked the {what}");
        check_instancing_counters(&frame_counters(&run), storage, &what);
        if run.noop() {
            assert_no_png_on_noop(&run);
            continue;
        }
        check_instancing_image(run.png("instancing_storage.png"), &what);
    }
}

// ---------------------------------------------------------------------------------------------
// bundle_static_scene (its layout, duplicated from examples/bundle_static_scene.rs)

/// Objects per row and column.
const BUNDLE_GRID: u32 = 32;
/// Draws in the bundle.
const BUNDLE_DRAWS: u64 = (BUNDLE_GRID * BUNDLE_GRID) as u64;
/// Pixels between object centers.
const BUNDLE_CELL: u32 = 4;
/// Image width and height.
const BUNDLE_SIZE: u32 = BUNDLE_GRID * BUNDLE_CELL;
/// Side of each square in pixels.
const SQUARE: u32 = 2;
/// Camera motion per frame in pixels (right, down).
const PAN_PER_FRAME: (u32, u32) = (3, 1);
/// The clear color in 8-bit RGBA.
const BUNDLE_CLEAR: [u8; 4] = [0, 0, 0, 255];
/// Bytes of the camera block (one `mat4x4f`).
const CAMERA_BYTES: u64 = 64;

/// The color of the object at `(column, row)`.
fn bundle_color_of(column: u32, row: u32) -> [u8; 4] {
    [(column * 8) as u8, (row * 8) as u8, 200, 255]
}

/// The expected image of frame `frame` (0-based): each object a `SQUARE`-pixel square at its
/// cell, moved by the camera's pan (`PAN_PER_FRAME` per frame), clipped to the target.
fn bundle_expected(frame: u32) -> Vec<u8> {
    let size = BUNDLE_SIZE;
    let mut image: Vec<u8> = (0..size * size).flat_map(|_| BUNDLE_CLEAR).collect();
    let margin = (BUNDLE_CELL - SQUARE) / 2;
    let mut colors = HashMap::new();
    for row in 0..BUNDLE_GRID {
        for column in 0..BUNDLE_GRID {
            let color = bundle_color_of(column, row);
            assert!(
                colors.insert(color, (column, row)).is_none(),
                "colors differ"
            );
            let x0 = column * BUNDLE_CELL + margin + frame * PAN_PER_FRAME.0;
            let y0 = row * BUNDLE_CELL + margin + frame * PAN_PER_FRAME.1;
            for y in y0..(y0 + SQUARE).min(size) {
                for x in x0..(x0 + SQUARE).min(size) {
                    let i = ((y * size + x) * 4) as usize;
                    image[i..i + 4].copy_from_slice(&color);
                }
            }
        }
    }
    image
}

/// The bundle holds the 1 024 draws; the first frame's PNG shows the camera of frame 0 (the one
/// the bundle was recorded with) and the last frame's PNG the camera of the last frame (live
/// values, not the recorded ones); the counters of the recording and of every frame hold (on the
/// noop device too).
#[test]
fn bundle_replays_a_static_scene_with_a_live_camera() {
    let run = run_example("bundle_static_scene", &[]);
    assert_eq!(
        run.line("bundle: "),
        format!("bundle: {BUNDLE_DRAWS} draws")
    );
    const { assert!(BUNDLE_DRAWS >= 1000) };
    let record = parse_counters(run.line("recorded once: "));
    let frames = frame_counters(&run);
    check_bundle_counters(&record, &frames);
    // It explains its steady frame's CPU times: what submit covers, and why a bundle leaves it.
    run.line("steady frame CPU: encode ");
    let submit = run.line("  submit = ");
    assert!(
        submit.contains("64-byte camera, 1 write_buffer call") && submit.contains("Queue::submit"),
        "{submit}"
    );
    assert!(run.line("  encode = ").contains("execute_bundles"));
    if run.noop() {
        assert_no_png_on_noop(&run);
        return;
    }
    let adapter = run.line("adapter: ");
    let last = frames.len() as u32 - 1;
    let (w, h, first_pixels) = run.png("bundle_static_scene_first.png");
    assert_eq!((w, h), (BUNDLE_SIZE, BUNDLE_SIZE));
    assert_image_eq(
        &first_pixels,
        &bundle_expected(0),
        BUNDLE_SIZE,
        &format!("frame 0 on {adapter}"),
    );
    assert_ne!(bundle_expected(0), bundle_expected(last));
    let (w, h, last_pixels) = run.png("bundle_static_scene.png");
    assert_eq!((w, h), (BUNDLE_SIZE, BUNDLE_SIZE));
    assert_image_eq(
        &last_pixels,
        &bundle_expected(last),
        BUNDLE_SIZE,
        &format!("frame {last} on {adapter}"),
    );
}

fn check_bundle_counters(record: &HashMap<String, u64>, frames: &[HashMap<String, u64>]) {
    assert_eq!(record["draws"], BUNDLE_DRAWS, "recorded once");
    assert!(frames.len() >= 2, "{} frames", frames.len());
    for (i, s) in frames.iter().enumerate() {
        assert_eq!(s["draws"], BUNDLE_DRAWS, "frame {i}: the bundle's draws");
        assert_eq!(
            s["set_bind_group calls"], 0,
            "frame {i}: all inside the bundle"
        );
        assert_eq!(
            s["set_pipeline calls"], 0,
            "frame {i}: all inside the bundle"
        );
        assert_eq!(s["bind groups created"], 0, "frame {i}: bind groups");
        assert_eq!(s["pipelines created"], 0, "frame {i}: pipelines");
    }
    for (i, s) in frames.iter().enumerate().skip(1) {
        assert_eq!(s["buffers created"], 0, "frame {i}: buffers");
        assert_eq!(
            s["write_buffer calls"], 1,
            "frame {i}: one write (the camera)"
        );
        assert_eq!(
            s["bytes uploaded"], CAMERA_BYTES,
            "frame {i}: the camera only"
        );
        assert_eq!(s["slots captured"], 0, "frame {i}: live values, no capture");
    }
}

// ---------------------------------------------------------------------------------------------
// The `scene` binary: its command line and what it says on the noop device.

/// Runs the built `scene` example with `args` and `VGPU_BACKEND=noop`: (exit code, stdout,
/// stderr).
fn run_scene(args: &[&str]) -> (Option<i32>, String, String) {
    let output = vgpu_tests::child_command(vgpu_tests::example_binary("scene"))
        .args(args)
        .env("VGPU_BACKEND", "noop")
        .output()
        .expect("start the scene example");
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn scene_help_exits_zero_and_a_bad_argument_does_not() {
    let (code, stdout, stderr) = run_scene(&["--help"]);
    assert_eq!(code, Some(0), "--help: {stdout}\n{stderr}");
    assert!(stdout.starts_with("usage: scene"), "{stdout}");
    assert!(stdout.contains("--frames N"), "{stdout}");
    let (code, _, stderr) = run_scene(&["--frams", "3"]);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("unknown argument \"--frams\""), "{stderr}");
}

#[test]
fn scene_on_the_noop_device_says_nothing_was_rendered_and_writes_no_png() {
    let out = vgpu_tests::temp_path("scene-noop.png");
    let _ = std::fs::remove_file(&out);
    let out_arg = out.to_str().expect("a UTF-8 temp path");
    let (code, stdout, stderr) = run_scene(&["--small", "--frames", "3", "--out", out_arg]);
    assert_eq!(code, Some(0), "{stdout}\n{stderr}");
    assert!(stdout.contains("nothing was rendered"), "{stdout}");
    assert!(
        stdout.contains(&format!("{out_arg} was not written")),
        "{stdout}"
    );
    assert!(!stdout.contains("wrote "), "{stdout}");
    assert!(!out.exists(), "no blank PNG at {}", out.display());
    // The counters are still printed.
    assert!(stdout.contains("bind groups"), "{stdout}");
}
