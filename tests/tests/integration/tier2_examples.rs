//! Tier 2 (real device): the `per_pass_camera`, `instancing_storage` and `bundle_static_scene`
//! examples, run through their library functions. Every image is compared pixel for pixel with
//! an image computed here on the CPU from the example's scene description (all edges land on
//! pixel boundaries, so there is no rasterization tolerance), and the frames' counters are
//! checked against what the capture contract promises. A last test runs the three examples on
//! the noop device and checks the counters alone (they do not depend on the backend).

use std::collections::{HashMap, HashSet};

use vgpu::{Gpu, RgbaImage, StatsSnapshot};
use vgpu_examples::{bundle_static_scene as bundle, instancing_storage as inst, per_pass_camera};

fn backend(gpu: &Gpu) -> wgpu::Backend {
    gpu.adapter_info().backend
}

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

fn clear_rgba8(clear: [f64; 4]) -> [u8; 4] {
    clear.map(|c| (c * 255.0).round() as u8)
}

// ---------------------------------------------------------------------------------------------
// per_pass_camera

/// The expected image of camera `c`: a pixel is an object's color if its center lies inside the
/// object's square as that camera places it (scale, then offset), else the clear color.
fn per_pass_expected(c: &per_pass_camera::Camera) -> Vec<u8> {
    let size = per_pass_camera::SIZE;
    let clear = clear_rgba8(per_pass_camera::CLEAR);
    let mut image = Vec::with_capacity((size * size * 4) as usize);
    for y in 0..size {
        for x in 0..size {
            let nx = (x as f32 + 0.5) / size as f32 * 2.0 - 1.0;
            let ny = 1.0 - (y as f32 + 0.5) / size as f32 * 2.0;
            let hit = per_pass_camera::OBJECTS.iter().find(|o| {
                let cx = o.center[0] * c.scale + c.offset[0];
                let cy = o.center[1] * c.scale + c.offset[1];
                let h = o.half_size * c.scale;
                (nx - cx).abs() < h && (ny - cy).abs() < h
            });
            image.extend_from_slice(&hit.map_or(clear, |o| o.color));
        }
    }
    image
}

#[test]
fn per_pass_camera_each_png_shows_its_own_camera() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    let out = per_pass_camera::render(&gpu, 3).expect("render");
    let dir = vgpu_tests::temp_path("per_pass_camera");
    std::fs::create_dir_all(&dir).expect("dir");
    let paths = per_pass_camera::save_pngs(&out, &dir).expect("pngs");
    assert_eq!(paths.len(), per_pass_camera::CAMERAS.len());
    let mut seen = HashSet::new();
    for (c, path) in per_pass_camera::CAMERAS.iter().zip(&paths) {
        let (w, h, pixels) = vgpu_tests::load_png(path);
        assert_eq!((w, h), (per_pass_camera::SIZE, per_pass_camera::SIZE));
        let expected = per_pass_expected(c);
        // Every object is visible under every camera (its color is in the image).
        for o in &per_pass_camera::OBJECTS {
            assert!(
                expected.chunks_exact(4).any(|p| p == o.color),
                "scene sanity: {} visible under {}",
                o.name,
                c.name
            );
        }
        assert_image_eq(
            &pixels,
            &expected,
            w,
            &format!("camera {} on {:?}", c.name, backend(&gpu)),
        );
        // The three placements differ, so an image can only match its own camera.
        assert!(seen.insert(expected), "cameras {} must differ", c.name);
    }
    assert!(gpu.take_uncaptured_errors().is_empty());
}

#[test]
fn per_pass_camera_steady_frames_upload_nothing() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    let out = per_pass_camera::render(&gpu, 4).expect("render");
    check_per_pass_counters(&out.reports.iter().map(|r| r.stats).collect::<Vec<_>>());
}

fn check_per_pass_counters(frames: &[StatsSnapshot]) {
    let draws = (per_pass_camera::OBJECTS.len() * per_pass_camera::CAMERAS.len()) as u64;
    let first = &frames[0];
    assert_eq!(first.operations_recorded, draws);
    // First frame: three camera values (64 bytes each) and three objects (80 bytes each).
    assert!(
        first.bytes_uploaded >= 3 * 64 + 3 * 80,
        "first frame uploads {}",
        first.bytes_uploaded
    );
    for (i, s) in frames.iter().enumerate().skip(1) {
        assert_eq!(s.operations_recorded, draws, "frame {i}");
        assert_eq!(s.bind_groups_created, 0, "frame {i}: bind groups");
        assert_eq!(s.buffers_created, 0, "frame {i}: buffers");
        assert_eq!(s.write_calls, 0, "frame {i}: write_buffer calls");
        assert_eq!(
            s.bytes_uploaded, 0,
            "frame {i}: bytes (camera values are resident)"
        );
        assert_eq!(s.slots_captured, 0, "frame {i}: slots captured");
        assert_eq!(s.pipelines_created, 0, "frame {i}: pipelines");
    }
}

// ---------------------------------------------------------------------------------------------
// instancing_storage

/// Checks the instancing image: every 2×2 cell holds exactly the color of the one instance the
/// permutation places there, so all 10 000 instances are visible and distinct.
fn check_instancing_image(image: &RgbaImage, what: &str) {
    assert_eq!((image.width, image.height), (inst::SIZE, inst::SIZE));
    let mut owner_of_cell = vec![None; inst::INSTANCES as usize];
    for i in 0..inst::INSTANCES {
        let (cx, cy) = inst::cell_of(i);
        let slot = &mut owner_of_cell[(cy * inst::GRID + cx) as usize];
        assert_eq!(*slot, None, "placement is a permutation");
        *slot = Some(i);
    }
    let mut expected = Vec::with_capacity(image.data.len());
    for y in 0..inst::SIZE {
        for x in 0..inst::SIZE {
            let cell = (y / inst::CELL) * inst::GRID + x / inst::CELL;
            let i = owner_of_cell[cell as usize].expect("every cell has an instance");
            expected.extend_from_slice(&inst::color_of(i));
        }
    }
    assert_image_eq(&image.data, &expected, image.width, what);
    let distinct: HashSet<&[u8]> = image.data.chunks_exact(4).collect();
    assert_eq!(
        distinct.len(),
        inst::INSTANCES as usize,
        "{what}: distinct colors"
    );
    assert!(
        !distinct.contains(&clear_rgba8(inst::CLEAR)[..]),
        "{what}: no clear pixel"
    );
}

fn check_instancing_counters(frames: &[StatsSnapshot], path: inst::InstancePath, what: &str) {
    // The storage path binds one group per pass; the vertex path binds none.
    let groups = u64::from(path == inst::InstancePath::StorageBuffer);
    for (i, s) in frames.iter().enumerate() {
        assert_eq!(
            s.operations_recorded, 1,
            "{what} frame {i}: ONE draw operation"
        );
        assert_eq!(
            s.set_bind_group_calls, groups,
            "{what} frame {i}: bind groups set"
        );
    }
    for (i, s) in frames.iter().enumerate().skip(1) {
        assert_eq!(s.bind_groups_created, 0, "{what} frame {i}: bind groups");
        assert_eq!(s.buffers_created, 0, "{what} frame {i}: buffers");
        assert_eq!(s.write_calls, 0, "{what} frame {i}: writes");
        assert_eq!(s.bytes_uploaded, 0, "{what} frame {i}: bytes");
    }
}

#[test]
fn instancing_draws_ten_thousand_distinct_instances_in_one_draw() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    // Vulkan devices (lavapipe included) read storage buffers in vertex shaders: the example
    // must take that path there.
    let storage = inst::vertex_storage_supported(&gpu);
    if backend(&gpu) == wgpu::Backend::Vulkan {
        assert!(storage, "Vulkan without vertex storage");
        let out = inst::render(&gpu, 2).expect("render");
        assert_eq!(out.path, inst::InstancePath::StorageBuffer);
    }
    // Both paths where the device has them: the same image, one draw each.
    let mut paths = vec![inst::InstancePath::VertexBuffer];
    if storage {
        paths.push(inst::InstancePath::StorageBuffer);
    }
    for path in paths {
        let out = inst::render_with(&gpu, path, 2).expect("render");
        assert_eq!(out.path, path);
        let what = format!("{path:?} path on {:?}", backend(&gpu));
        eprintln!("instancing_storage checked the {what}");
        let image = out.target.read_rgba8().expect("read back");
        check_instancing_image(&image, &what);
        check_instancing_counters(
            &out.reports.iter().map(|r| r.stats).collect::<Vec<_>>(),
            path,
            &what,
        );
        let png = vgpu_tests::temp_path("instancing_storage.png");
        out.target.save_png(&png).expect("png");
        let (_, _, pixels) = vgpu_tests::load_png(&png);
        assert_eq!(pixels, image.data, "PNG holds the read-back pixels");
    }
    assert!(gpu.take_uncaptured_errors().is_empty());
}

// ---------------------------------------------------------------------------------------------
// bundle_static_scene

/// The expected image of frame `frame`: each object a `SQUARE`-pixel square at its cell,
/// moved by the camera's pan (`PAN_PER_FRAME` per frame), clipped to the target.
fn bundle_expected(frame: u32) -> Vec<u8> {
    let size = bundle::SIZE;
    let clear = clear_rgba8(bundle::CLEAR);
    let mut image: Vec<u8> = (0..size * size).flat_map(|_| clear).collect();
    let margin = (bundle::CELL - bundle::SQUARE) / 2;
    let mut colors = HashMap::new();
    for row in 0..bundle::GRID {
        for column in 0..bundle::GRID {
            let color = bundle::color_of(column, row);
            assert!(
                colors.insert(color, (column, row)).is_none(),
                "colors differ"
            );
            let x0 = column * bundle::CELL + margin + frame * bundle::PAN_PER_FRAME.0;
            let y0 = row * bundle::CELL + margin + frame * bundle::PAN_PER_FRAME.1;
            for y in y0..(y0 + bundle::SQUARE).min(size) {
                for x in x0..(x0 + bundle::SQUARE).min(size) {
                    let i = ((y * size + x) * 4) as usize;
                    image[i..i + 4].copy_from_slice(&color);
                }
            }
        }
    }
    image
}

const BUNDLE_FRAMES: u32 = 4;

#[test]
fn bundle_replays_a_static_scene_with_a_live_camera() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    let out = bundle::render(&gpu, BUNDLE_FRAMES).expect("render");
    let on = backend(&gpu);
    assert_eq!(out.bundle_draws, bundle::DRAWS as usize);
    const { assert!(bundle::DRAWS >= 1000) };
    assert_image_eq(
        &out.first.data,
        &bundle_expected(0),
        bundle::SIZE,
        &format!("frame 0 on {on:?}"),
    );
    // The bundle was recorded with the camera of frame 0; the last replay shows the camera of
    // the last frame (live values), not the recorded one.
    assert_ne!(bundle_expected(0), bundle_expected(BUNDLE_FRAMES - 1));
    assert_image_eq(
        &out.last.data,
        &bundle_expected(BUNDLE_FRAMES - 1),
        bundle::SIZE,
        &format!("frame {} on {on:?}", BUNDLE_FRAMES - 1),
    );
    let path = vgpu_tests::temp_path("bundle_static_scene.png");
    out.target.save_png(&path).expect("png");
    let (_, _, pixels) = vgpu_tests::load_png(&path);
    assert_eq!(pixels, out.last.data, "PNG holds the last frame");
    check_bundle_counters(&out);
    assert!(gpu.take_uncaptured_errors().is_empty());
}

fn check_bundle_counters(out: &bundle::Output) {
    assert_eq!(out.record.operations_recorded, u64::from(bundle::DRAWS));
    assert_eq!(out.reports.len(), BUNDLE_FRAMES as usize);
    for (i, r) in out.reports.iter().enumerate() {
        assert_eq!(
            r.stats.operations_recorded,
            u64::from(bundle::DRAWS),
            "frame {i}: the bundle's draws"
        );
        assert_eq!(
            r.stats.set_bind_group_calls, 0,
            "frame {i}: all inside the bundle"
        );
        assert_eq!(
            r.stats.set_pipeline_calls, 0,
            "frame {i}: all inside the bundle"
        );
        assert_eq!(r.stats.bind_groups_created, 0, "frame {i}: bind groups");
        assert_eq!(r.stats.pipelines_created, 0, "frame {i}: pipelines");
    }
    for (i, r) in out.reports.iter().enumerate().skip(1) {
        let s = &r.stats;
        assert_eq!(s.buffers_created, 0, "frame {i}: buffers");
        assert_eq!(s.write_calls, 1, "frame {i}: one write (the camera)");
        assert_eq!(
            s.bytes_uploaded,
            bundle::CAMERA_BYTES,
            "frame {i}: the camera only"
        );
        assert_eq!(s.slots_captured, 0, "frame {i}: live values, no capture");
    }
}

// ---------------------------------------------------------------------------------------------
// Counters on the noop device (tier 1): same promises, no pixels.

#[test]
fn example_counters_hold_on_the_noop_device() {
    let gpu = Gpu::noop();
    let out = per_pass_camera::render(&gpu, 3).expect("per_pass_camera");
    check_per_pass_counters(&out.reports.iter().map(|r| r.stats).collect::<Vec<_>>());
    for path in [
        inst::InstancePath::StorageBuffer,
        inst::InstancePath::VertexBuffer,
    ] {
        let out = inst::render_with(&gpu, path, 2).expect("instancing");
        check_instancing_counters(
            &out.reports.iter().map(|r| r.stats).collect::<Vec<_>>(),
            path,
            &format!("{path:?} on noop"),
        );
    }
    let out = bundle::render(&gpu, BUNDLE_FRAMES).expect("bundle");
    check_bundle_counters(&out);
}

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
