//! The app runner (`vgpu::app::run`, tier 2): real windows under `$DISPLAY` (or an `Xvfb` these
//! tests start, as the window tests do), on the backend `VGPU_BACKEND` names. Each runner runs in
//! a child process of this test binary (winit allows one event loop per process; the child's
//! event loop runs on its test thread: `AppSettings::any_thread`), with a watchdog that fails a
//! child still running after two minutes: a hang fails, it does not stall the suite.
//!
//! - a resize through the runner: the window is resized by the test (`request_inner_size` from
//!   the frame callback), the surface follows at the next frames, a depth-tested draw renders
//!   at the new size with 0 uncaptured errors, and a square drawn with an aspect-correct
//!   projection stays square in the captured frames (its pixels counted) before and after the
//!   resize; then a minimized window (zero-sized: `FrameContext::simulate_minimized`, since X11
//!   cannot make one) skips frames and the app recovers at the window's size;
//! - a panic in the frame callback returns `VGPU-APP-PANIC` with its message and closes the app
//!   (and a second event loop in that process is `VGPU-APP-WINDOW`);
//! - an `Err` from the frame callback ends the app and is what `run` returns;
//! - `FrameContext::exit` ends `run` with `Ok` and the app's state; the fixed clock;
//! - the resize again with 4× MSAA;
//! - the noop device, and no display at all (this one runs everywhere, the noop backend too),
//!   are `VGPU-APP-WINDOW`.
//!
//! Esc and closing the window, through real X events, are in `tier2_app_input.rs`.

#![allow(clippy::unwrap_used, reason = "an unwrap in a test is an assertion")]

use std::cell::Cell;
use std::time::Duration;

use glam::Vec3;
use vgpu::app::winit::dpi::PhysicalSize;
use vgpu::app::{AppSettings, FrameContext, run};
use vgpu::camera::PerspectiveCamera;
use vgpu::{Draw, DrawDesc, Gpu, RgbaImage, value};

use super::tier2_window::window_setup;

/// A quad of half-size `half` at depth `z` (world units), in one color.
const QUAD: &str = "
struct Quad { view_projection: mat4x4f, color: vec4f, half: f32, z: f32 }
@group(0) @binding(0) var<uniform> quad: Quad;

@vertex
fn vs_main(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
    var corners = array<vec2f, 6>(
        vec2f(-1.0, -1.0), vec2f(1.0, -1.0), vec2f(1.0, 1.0),
        vec2f(-1.0, -1.0), vec2f(1.0, 1.0), vec2f(-1.0, 1.0),
    );
    let c = corners[i] * quad.half;
    return quad.view_projection * vec4f(c, quad.z, 1.0);
}

@fragment
fn fs_main() -> @location(0) vec4f {
    return quad.color;
}
";

/// Runs the child test `name` of this module on the display a window test gets, or skips
/// saying why (`what`).
fn in_a_window(name: &str, what: &str) {
    let Some(setup) = window_setup(what) else {
        return;
    };
    let mut env = vec![("VGPU_BACKEND", setup.backend.as_str())];
    if let Some(display) = setup.display.as_deref() {
        env.push(("DISPLAY", display));
        env.push(("WAYLAND_DISPLAY", ""));
    }
    vgpu_tests::run_child_test(module_path!(), name, &env);
}

/// Ends this (child) process with a failure if it still runs after `seconds`: a runner that
/// hangs fails its test instead of stalling the suite.
fn watchdog(seconds: u64) {
    std::thread::spawn(move || {
        std::thread::sleep(Duration::from_secs(seconds));
        eprintln!("watchdog: the app still runs after {seconds} s: it hangs");
        std::process::exit(3);
    });
}

/// The settings of a test app: a 200×150 window, the clock still, at most `frames` frames, the
/// event loop on the test's thread.
fn settings(frames: u64) -> AppSettings {
    AppSettings {
        size: (200, 150),
        frames: Some(frames),
        fixed_delta: Some(Duration::ZERO),
        any_thread: true,
        ..AppSettings::new("vgpu app test")
    }
}

/// What one rendered frame saw.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Seen {
    frame: u64,
    size: (u32, u32),
    resized: bool,
    skipped: u64,
}

/// The resize test's app: a red square in front of a larger blue quad (drawn after it, so only
/// the depth test keeps the square visible), the frames it saw and the pictures it captured.
struct Squares {
    gpu: Gpu,
    front: Draw,
    back: Draw,
    camera: PerspectiveCamera,
    seen: Vec<Seen>,
    /// Captured frames, with their index.
    shots: Vec<(u64, RgbaImage)>,
    /// The frame that first saw the new size, and the one after the minimized frames.
    resized_at: Option<u64>,
    restored_at: Option<u64>,
}

/// The window's size the test asks for.
const RESIZED: (u32, u32) = (260, 130);
/// Redraws of the simulated minimized window.
const MINIMIZED: u64 = 3;

impl Squares {
    fn new(gpu: &Gpu) -> vgpu::Result<Squares> {
        let shader = gpu.shader("quad", QUAD)?;
        let desc = |label: &str| DrawDesc {
            label: label.into(),
            vertex_count: Some(6),
            ..Default::default()
        };
        Ok(Squares {
            gpu: gpu.clone(),
            front: gpu.draw(&shader, desc("front"))?,
            back: gpu.draw(&shader, desc("back"))?,
            camera: PerspectiveCamera {
                eye: Vec3::new(0.0, 0.0, 3.0),
                ..Default::default()
            },
            seen: Vec::new(),
            shots: Vec::new(),
            resized_at: None,
            restored_at: None,
        })
    }

    fn frame(&mut self, ctx: &mut FrameContext<'_>) -> vgpu::Result<()> {
        let frame = ctx.clock.frame();
        self.seen.push(Seen {
            frame,
            size: ctx.size(),
            resized: ctx.resized(),
            skipped: ctx.skipped_frames(),
        });
        if frame == 3 {
            // `None`: X11 resizes later, and a `Resized` event brings the new size.
            let _ = ctx
                .window
                .request_inner_size(PhysicalSize::new(RESIZED.0, RESIZED.1));
        }
        if self.resized_at.is_none() && ctx.size() == RESIZED {
            self.resized_at = Some(frame);
        }
        if self.restored_at.is_none() && ctx.skipped_frames() == MINIMIZED {
            self.restored_at = Some(frame);
        }
        let capture = frame == 2
            || self.resized_at.is_some_and(|at| frame == at + 2)
            || self.restored_at == Some(frame);
        if capture {
            ctx.capture()?;
        }
        let view_projection = self.camera.view_projection(ctx.aspect());
        self.front.set(
            "quad",
            value! { view_projection: view_projection, color: [1.0, 0.0, 0.0, 1.0], half: 0.5, z: 0.0 },
        )?;
        self.back.set(
            "quad",
            value! { view_projection: view_projection, color: [0.0, 0.0, 1.0, 1.0], half: 1.5, z: -1.0 },
        )?;
        ctx.gpu.frame(|f| {
            f.pass(ctx.pass().clear([0.0, 0.0, 0.0, 1.0]), |p| {
                p.draw(&self.front)?;
                p.draw(&self.back)
            })
        })?;
        if capture {
            let image = ctx.captured()?.expect("the captured frame");
            self.shots.push((frame, image));
        }
        if self.resized_at.is_some_and(|at| frame == at + 2) {
            ctx.simulate_minimized(MINIMIZED);
        }
        if self.restored_at.is_some_and(|at| frame == at + 1) {
            ctx.exit();
        }
        Ok(())
    }
}

/// The red square's pixel width and height in `image` (its bounding box), and the color at the
/// image's middle.
fn square(image: &RgbaImage) -> ((u32, u32), [u8; 4]) {
    let red = |p: [u8; 4]| p[0] > 200 && p[1] < 60 && p[2] < 60;
    let (mut x0, mut y0, mut x1, mut y1) = (u32::MAX, u32::MAX, 0, 0);
    for y in 0..image.height {
        for x in 0..image.width {
            if red(image.pixel(x, y).unwrap()) {
                (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x), y1.max(y));
            }
        }
    }
    assert!(
        x0 <= x1,
        "no red square in the {}x{} frame",
        image.width,
        image.height
    );
    let middle = image.pixel(image.width / 2, image.height / 2).unwrap();
    ((x1 - x0 + 1, y1 - y0 + 1), middle)
}

#[test]
fn the_surface_and_depth_follow_a_resize_and_the_picture_keeps_its_aspect() {
    in_a_window(
        "resize_child",
        "the_surface_and_depth_follow_a_resize_and_the_picture_keeps_its_aspect",
    );
}

/// The same with 4× MSAA: the multisampled color texture follows the window too (the runner's
/// `AppSettings::samples`, the surface's MSAA attachment).
#[test]
fn with_msaa_the_surface_and_depth_follow_a_resize() {
    let Some(setup) = window_setup("with_msaa_the_surface_and_depth_follow_a_resize") else {
        return;
    };
    let mut env = vec![
        ("VGPU_BACKEND", setup.backend.as_str()),
        ("VGPU_TEST_APP_SAMPLES", "4"),
    ];
    if let Some(display) = setup.display.as_deref() {
        env.push(("DISPLAY", display));
        env.push(("WAYLAND_DISPLAY", ""));
    }
    vgpu_tests::run_child_test(module_path!(), "resize_child", &env);
}

#[test]
#[ignore = "child of the_surface_and_depth_follow_a_resize_and_the_picture_keeps_its_aspect"]
fn resize_child() {
    if !vgpu_tests::in_child_test("resize_child") {
        return;
    }
    watchdog(120);
    let samples = std::env::var("VGPU_TEST_APP_SAMPLES").map_or(1, |s| s.parse().unwrap());
    let app = run(
        AppSettings {
            samples,
            ..settings(300)
        },
        |ctx| Squares::new(ctx.gpu),
        |app, ctx| app.frame(ctx),
    )
    .expect("the app runs, resized and minimized, and exits");
    for seen in &app.seen {
        eprintln!("{seen:?}");
    }
    let errors = app.gpu.take_uncaptured_errors();
    assert!(errors.is_empty(), "uncaptured errors: {errors:?}");

    // The first frame has the window's size; the surface follows the resize, once.
    let first = app.seen[0];
    assert_eq!((first.size, first.resized), ((200, 150), true));
    let resized_at = app.resized_at.expect("the surface never took the new size");
    let at = app.seen.iter().find(|s| s.frame == resized_at).unwrap();
    assert!(at.resized, "the frame at the new size is told so: {at:?}");
    assert!(
        app.seen
            .iter()
            .all(|s| s.size == (200, 150) || s.size == RESIZED),
        "only the two sizes: {:?}",
        app.seen
    );
    // Minimized: MINIMIZED redraws skipped (no callback), then the surface back at the
    // window's size, the frame told so.
    let restored_at = app
        .restored_at
        .expect("the app did not recover from minimized");
    let restored = app.seen.iter().find(|s| s.frame == restored_at).unwrap();
    assert_eq!(
        restored.frame,
        resized_at + 3,
        "no callback while minimized"
    );
    assert!(restored.resized && restored.size == RESIZED, "{restored:?}");
    assert_eq!(
        app.seen.last().unwrap().frame,
        restored_at + 1,
        "exit ends run"
    );

    // Captured frames: the square is square (the projection takes each size's aspect) and as
    // large as the projection makes it: 0.5 / (3 · tan 22.5°) of the height, across and down;
    // at the middle the red square, drawn before the farther blue quad (the depth test at work
    // at each size: a depth attachment of another size would be a validation error).
    assert_eq!(
        app.shots.len(),
        3,
        "captures at frame 2, after the resize, after minimized"
    );
    let expected = |height: u32| 0.5 / (3.0 * 22.5f64.to_radians().tan()) * f64::from(height);
    for (frame, image) in &app.shots {
        let ((w, h), middle) = square(image);
        let size = (image.width, image.height);
        eprintln!("frame {frame}: {size:?}, square {w}x{h}, middle {middle:?}");
        assert!(
            size == (200, 150) || size == RESIZED,
            "frame {frame}: captured at {size:?}"
        );
        assert!(
            w.abs_diff(h) <= 1,
            "frame {frame}: the square is {w}x{h} at {size:?}"
        );
        let want = expected(image.height);
        assert!(
            (f64::from(h) - want).abs() <= 2.0,
            "frame {frame}: square {h} px high, expected {want:.1}"
        );
        assert!(
            middle[0] > 200 && middle[2] < 60,
            "frame {frame}: the square is not in front: {middle:?}"
        );
    }
    assert_eq!(
        (app.shots[1].1.width, app.shots[1].1.height),
        RESIZED,
        "after the resize"
    );
    assert_eq!(
        app.shots[1].1, app.shots[2].1,
        "the same picture after minimized"
    );
}

#[test]
fn a_panic_in_the_frame_callback_is_vgpu_app_panic_and_closes_the_app() {
    in_a_window(
        "panic_child",
        "a_panic_in_the_frame_callback_is_vgpu_app_panic_and_closes_the_app",
    );
}

#[test]
#[ignore = "child of a_panic_in_the_frame_callback_is_vgpu_app_panic_and_closes_the_app"]
fn panic_child() {
    if !vgpu_tests::in_child_test("panic_child") {
        return;
    }
    watchdog(120);
    let calls = Cell::new(0u64);
    let err = run(
        settings(100),
        |ctx| Ok(ctx.gpu.clone()),
        |gpu, ctx| {
            calls.set(calls.get() + 1);
            ctx.gpu.frame(|f| f.pass(ctx.pass(), |_p| Ok(())))?;
            assert!(gpu.take_uncaptured_errors().is_empty());
            if ctx.clock.frame() == 3 {
                panic!("boom at frame {}", ctx.clock.frame());
            }
            Ok(())
        },
    )
    .expect_err("a panicking frame callback");
    assert_eq!(err.code(), "VGPU-APP-PANIC", "{err}");
    let message = err.to_string();
    assert!(message.contains("boom at frame 3"), "{message}");
    assert!(message.contains("frame callback"), "{message}");
    assert!(matches!(
        err.as_app(),
        Some(vgpu::AppError::Panic { frame: 3, .. })
    ));
    assert_eq!(calls.get(), 4, "no frame after the panic");

    // winit allows one event loop per process: a second app is refused, saying why.
    let err = run(settings(1), |_| Ok(()), |(), _| Ok(())).expect_err("a second event loop");
    assert_eq!(err.code(), "VGPU-APP-WINDOW", "{err}");
}

#[test]
fn an_error_of_the_frame_callback_ends_the_app_and_is_returned() {
    in_a_window(
        "error_child",
        "an_error_of_the_frame_callback_ends_the_app_and_is_returned",
    );
}

#[test]
#[ignore = "child of an_error_of_the_frame_callback_ends_the_app_and_is_returned"]
fn error_child() {
    if !vgpu_tests::in_child_test("error_child") {
        return;
    }
    watchdog(120);
    let calls = Cell::new(0u64);
    let err = run(
        settings(100),
        |_| Ok(()),
        |(), ctx| {
            calls.set(calls.get() + 1);
            ctx.gpu.frame(|f| f.pass(ctx.pass(), |_p| Ok(())))?;
            if ctx.clock.frame() == 2 {
                ctx.gpu.target(0, 0)?;
            }
            Ok(())
        },
    )
    .expect_err("the frame's error");
    assert_eq!(
        err.code(),
        "VGPU-TARGET-SIZE",
        "the frame's own error: {err}"
    );
    assert_eq!(calls.get(), 3, "no frame after the error");
}

#[test]
fn exit_ends_run_with_the_apps_state_and_the_clock_is_fixed() {
    in_a_window(
        "exit_child",
        "exit_ends_run_with_the_apps_state_and_the_clock_is_fixed",
    );
}

#[test]
#[ignore = "child of exit_ends_run_with_the_apps_state_and_the_clock_is_fixed"]
fn exit_child() {
    if !vgpu_tests::in_child_test("exit_child") {
        return;
    }
    watchdog(120);
    let settings = AppSettings {
        fixed_delta: Some(Duration::from_millis(25)),
        ..settings(100)
    };
    let times = run(
        settings,
        |ctx| {
            assert_eq!(ctx.size(), (200, 150));
            assert!(ctx.scale_factor() > 0.0);
            Ok(Vec::new())
        },
        |times: &mut Vec<(u64, f32, Vec<u64>)>, ctx| {
            let steps = ctx.clock.fixed_steps(Duration::from_millis(10)).collect();
            times.push((ctx.clock.frame(), ctx.clock.time(), steps));
            if ctx.clock.frame() == 3 {
                ctx.exit();
            }
            ctx.gpu.frame(|f| f.pass(ctx.pass(), |_p| Ok(())))?;
            Ok(())
        },
    )
    .expect("exit ends run with Ok");
    let frames: Vec<u64> = times.iter().map(|t| t.0).collect();
    assert_eq!(
        frames,
        [0, 1, 2, 3],
        "four frames, the last one asked to exit"
    );
    for (frame, time, _) in &times {
        let want = (*frame + 1) as f32 * 0.025;
        assert!((time - want).abs() < 1e-6, "frame {frame}: time {time}");
    }
    let steps: Vec<Vec<u64>> = times.into_iter().map(|t| t.2).collect();
    assert_eq!(
        steps,
        [vec![0, 1], vec![2, 3, 4], vec![5, 6], vec![7, 8, 9]]
    );
}

/// The noop device presents nothing: `VGPU-APP-WINDOW` once the window is open, before setup.
#[test]
fn the_noop_device_is_vgpu_app_window() {
    in_a_window("noop_child", "the_noop_device_is_vgpu_app_window");
}

#[test]
#[ignore = "child of the_noop_device_is_vgpu_app_window"]
fn noop_child() {
    if !vgpu_tests::in_child_test("noop_child") {
        return;
    }
    watchdog(60);
    let noop = vgpu::GpuOptions {
        backend: vgpu::BackendChoice::Noop,
        ..Default::default()
    };
    let err = run(settings(1).gpu(noop), |_| Ok(()), |(), _| Ok(())).expect_err("noop");
    assert_eq!(err.code(), "VGPU-APP-WINDOW", "{err}");
    assert!(err.to_string().contains("noop"), "{err}");
}

/// No display: `VGPU-APP-WINDOW` from `run`, before any device is made (on every backend).
#[test]
fn no_display_is_vgpu_app_window() {
    if !cfg!(any(
        target_os = "linux",
        target_os = "freebsd",
        target_os = "openbsd",
        target_os = "netbsd",
        target_os = "dragonfly"
    )) {
        return; // Other platforms always have a display to open windows on.
    }
    // Empty variables count as unset (winit).
    let env = [
        ("DISPLAY", ""),
        ("WAYLAND_DISPLAY", ""),
        ("WAYLAND_SOCKET", ""),
    ];
    vgpu_tests::run_child_test(module_path!(), "no_display_child", &env);
}

#[test]
#[ignore = "child of no_display_is_vgpu_app_window"]
fn no_display_child() {
    if !vgpu_tests::in_child_test("no_display_child") {
        return;
    }
    watchdog(60);
    let setup_called = Cell::new(false);
    let err = run(
        settings(1),
        |_| {
            setup_called.set(true);
            Ok(())
        },
        |(), _| Ok(()),
    )
    .expect_err("no display");
    assert_eq!(err.code(), "VGPU-APP-WINDOW", "{err}");
    assert!(err.to_string().contains("DISPLAY"), "{err}");
    assert!(!setup_called.get());
}
