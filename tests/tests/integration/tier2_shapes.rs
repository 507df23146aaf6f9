//! The `shapes` example (issue 35): every primitive of `vgpu::geometry`, lit, in a window run by
//! `vgpu::app`, under `$DISPLAY` or an `Xvfb` the window tests start (`tier2_window.rs`), on the
//! backend of `VGPU_BACKEND` (CI: vulkan and gl). `shapes --frames 60 --screenshot out.png`
//! writes the last frame; this test computes each primitive's screen-space box from the
//! example's camera and the clock's time it prints (`vgpu_examples::shapes::screen_box`) and
//! checks the picture against them: every primitive's box holds lit pixels of that primitive's
//! color, and nothing but the background lies outside the boxes.

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use super::tier2_window::window_setup;
use vgpu_examples::shapes::{NAMES, camera, color_of, screen_box};
use vgpu_tests::{load_png, temp_path};

const FRAMES: u64 = 60;

/// sRGB encoding of a linear value (the surface is an sRGB format, or the shader encodes).
fn encode(linear: f32) -> f32 {
    if linear <= 0.003_130_8 {
        linear * 12.92
    } else {
        1.055 * linear.powf(1.0 / 2.4) - 0.055
    }
}

/// Which shape's color `rgb` is closest to in direction (the light scales a color, it does not
/// turn it).
fn nearest_shape(rgb: [u8; 3]) -> usize {
    let p = rgb.map(f32::from);
    let norm = |v: [f32; 3]| (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt().max(1e-6);
    let cosine = |c: [f32; 3]| (p[0] * c[0] + p[1] * c[1] + p[2] * c[2]) / (norm(p) * norm(c));
    (0..NAMES.len())
        .max_by(|&a, &b| {
            let shade = |i: usize| {
                let c = color_of(i);
                [encode(c.x * 0.7), encode(c.y * 0.7), encode(c.z * 0.7)]
            };
            cosine(shade(a)).total_cmp(&cosine(shade(b)))
        })
        .unwrap_or(0)
}

fn run_shapes(backend: &str, display: Option<&str>) {
    let shot = temp_path(&format!("shapes-{backend}.png"));
    let _ = std::fs::remove_file(&shot);
    let mut command = Command::new(vgpu_tests::example_binary("shapes"));
    command
        .args(["--frames", &FRAMES.to_string(), "--screenshot"])
        .arg(&shot)
        .env("VGPU_BACKEND", backend);
    if let Some(dir) =
        vgpu_tests::runtime_dir_for_child(std::env::var_os("XDG_RUNTIME_DIR").as_deref())
    {
        command.env("XDG_RUNTIME_DIR", dir);
    }
    if let Some(display) = display {
        command
            .env("DISPLAY", display)
            .env_remove("WAYLAND_DISPLAY");
    }
    let mut child = command
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("start the shapes example");
    let start = Instant::now();
    // A hang guard, not a timing check.
    while child
        .try_wait()
        .expect("wait for the shapes example")
        .is_none()
    {
        if start.elapsed() > Duration::from_secs(300) {
            let _ = child.kill();
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let out = child.wait_with_output().expect("the example's output");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "{backend}: shapes failed ({}):\n{stdout}\n{stderr}",
        out.status
    );
    let line = stdout
        .lines()
        .find_map(|l| l.strip_prefix("screenshot: time "))
        .unwrap_or_else(|| panic!("{backend}: no screenshot line in {stdout}"));
    let words: Vec<&str> = line.split_whitespace().collect();
    let (time, width, height): (f32, u32, u32) = match words.as_slice() {
        [t, "size", w, h] => (t.parse().unwrap(), w.parse().unwrap(), h.parse().unwrap()),
        _ => panic!("{backend}: unexpected screenshot line {line:?}"),
    };
    assert!(stdout.contains(&format!("\"frames\":{FRAMES}")), "{stdout}");
    check_picture(backend, &shot, time, (width, height));
}

/// Checks the screenshot against each primitive's projected box.
fn check_picture(backend: &str, shot: &Path, time: f32, (width, height): (u32, u32)) {
    let (w, h, pixels) = load_png(shot);
    assert_eq!((w, h), (width, height), "{backend}: the picture's size");
    let px = |x: u32, y: u32| {
        let i = ((y * w + x) * 4) as usize;
        [pixels[i], pixels[i + 1], pixels[i + 2]]
    };
    // The background: the clear color, whatever encoding the surface applied to it (the
    // corner pixel; no primitive reaches the corners).
    let background = px(0, 0);
    let is_background = |p: [u8; 3]| p.iter().zip(background).all(|(&a, b)| a.abs_diff(b) <= 2);
    let view_projection = camera().view_projection(width as f32 / height as f32);
    let boxes: Vec<[f32; 4]> = (0..NAMES.len())
        .map(|i| screen_box(i, time, view_projection, (width, height)).unwrap())
        .collect();
    for (i, b) in boxes.iter().enumerate() {
        let (x0, y0) = (b[0].max(0.0) as u32, b[1].max(0.0) as u32);
        let (x1, y1) = (
            (b[2].ceil() as u32).min(width - 1),
            (b[3].ceil() as u32).min(height - 1),
        );
        assert!(
            x1 > x0 + 10 && y1 > y0 + 10,
            "{backend}: {} box {b:?}",
            NAMES[i]
        );
        let (mut area, mut mine) = (0u32, 0u32);
        for y in y0..=y1 {
            for x in x0..=x1 {
                area += 1;
                let p = px(x, y);
                if !is_background(p) && nearest_shape(p) == i {
                    mine += 1;
                }
            }
        }
        assert!(
            mine * 5 > area,
            "{backend}: the {} ({}) covers {mine} of the {area} pixels of its box {b:?}",
            NAMES[i],
            i
        );
    }
    for y in 0..h {
        for x in 0..w {
            let p = px(x, y);
            if is_background(p) {
                continue;
            }
            let (cx, cy) = (x as f32 + 0.5, y as f32 + 0.5);
            let inside = boxes
                .iter()
                .any(|b| cx > b[0] - 2.0 && cx < b[2] + 2.0 && cy > b[1] - 2.0 && cy < b[3] + 2.0);
            assert!(
                inside,
                "{backend}: pixel ({x},{y}) {p:?} is drawn outside every primitive's box"
            );
        }
    }
    eprintln!("{backend}: shapes: every primitive where its projection says");
}

#[test]
fn the_shapes_example_draws_every_primitive_where_its_projection_says() {
    let Some(setup) = window_setup("the shapes test") else {
        return;
    };
    run_shapes(&setup.backend, setup.display.as_deref());
}
