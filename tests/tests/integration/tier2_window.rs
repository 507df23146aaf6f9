//! The `window` example in a real window (tier 2): under `$DISPLAY` (or an `Xvfb` this test
//! starts), on the backend `VGPU_BACKEND` names, 60 frames of the small still scene, resized once
//! mid-run (the window asked for 3/4 of its size, the surface shrunk to 0×0 for one frame: a
//! minimized window, skipped without error). Its screenshot — read back from the window's
//! texture where the window allows it (Vulkan), else from the offscreen target the example then
//! renders through (GL) — shows the scene: sky at the top, lit ground at the bottom, ground in
//! the sun's shadow; and the steady frames after the resize create no bind group and upload
//! nothing.
//!
//! The example runs as a process: `cargo test` builds it into `target/<profile>/examples/` (for
//! `cargo test -p vgpu-tests` alone, build it first: `cargo build -p vgpu-examples --example
//! window`). Skipped with a printed reason on `VGPU_BACKEND=noop` and when no display can be had
//! (no `$DISPLAY` and no `Xvfb` to start).

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use vgpu::Gpu;
use vgpu_examples::scene::{AMBIENT, GROUND, Kind, Placement, SKY, Scene, SceneConfig};
use vgpu_tests::{load_png, temp_path};

/// The frames the example renders, and the one where it resizes.
const FRAMES: u32 = 60;
const RESIZE_AT: u32 = 30;

/// The `window` example built next to this test binary.
fn example_binary() -> PathBuf {
    vgpu_tests::example_binary("window")
}

/// An X server this test started; killed when dropped, and once it serves display `:n`
/// (`Some(n)`), that display's socket and lock files, which a killed server leaves behind.
struct Xvfb(Child, Option<u32>);

impl Drop for Xvfb {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
        if let Some(n) = self.1 {
            let _ = std::fs::remove_file(format!("/tmp/.X11-unix/X{n}"));
            let _ = std::fs::remove_file(format!("/tmp/.X{n}-lock"));
        }
    }
}

/// Where the example's window goes: the environment's display (`$DISPLAY` or
/// `$WAYLAND_DISPLAY`; any display off Linux and the BSDs), else a display of an `Xvfb` started
/// here (`Some` in the pair). `Err` says why there is none.
fn display() -> Result<(Option<String>, Option<Xvfb>), String> {
    let set = |var: &str| std::env::var(var).is_ok_and(|v| !v.is_empty());
    let needs_x_or_wayland = cfg!(any(
        target_os = "linux",
        target_os = "freebsd",
        target_os = "openbsd",
        target_os = "netbsd",
        target_os = "dragonfly"
    ));
    if !needs_x_or_wayland || set("DISPLAY") || set("WAYLAND_DISPLAY") {
        return Ok((None, None));
    }
    // A display number nobody uses: no lock file, no socket.
    let free = (90..130).filter(|n| {
        !Path::new(&format!("/tmp/.X{n}-lock")).exists()
            && !Path::new(&format!("/tmp/.X11-unix/X{n}")).exists()
    });
    for n in free.take(5) {
        // `-noreset`: a server that resets when its last client leaves refuses the clients
        // that connect meanwhile (`XOpenDisplay` fails, or `XIO: fatal IO error 11`).
        let child = Command::new("Xvfb")
            .arg(format!(":{n}"))
            .args([
                "-screen",
                "0",
                "1024x768x24",
                "-nolisten",
                "tcp",
                "-noreset",
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn();
        let mut server = match child {
            Ok(child) => Xvfb(child, None),
            Err(e) => {
                return Err(format!(
                    "no $DISPLAY, and no Xvfb to start ({e}; apt-get install xvfb)"
                ));
            }
        };
        let socket = format!("/tmp/.X11-unix/X{n}");
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(10) {
            if let Ok(Some(_)) = server.0.try_wait() {
                break; // `:n` was taken meanwhile: try the next one.
            }
            if Path::new(&socket).exists() {
                server.1 = Some(n);
                return Ok((Some(format!(":{n}")), Some(server)));
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
    Err("no $DISPLAY, and Xvfb did not start on a free display".to_owned())
}

/// The value of `"key":` in the example's JSON line.
fn field<'a>(json: &'a str, key: &str) -> &'a str {
    let pattern = format!("\"{key}\":");
    let at = json
        .find(&pattern)
        .unwrap_or_else(|| panic!("no {key} in {json}"));
    let rest = &json[at + pattern.len()..];
    let end = if rest.starts_with('[') {
        rest.find(']').map_or(rest.len(), |i| i + 1)
    } else {
        rest.find([',', '}']).unwrap_or(rest.len())
    };
    &rest[..end]
}

/// Display values (0..=255) the screenshot may hold for a linear color `c`: the scene's own
/// encoding (`pow(c, 1/2.2)` in the shader), the exact sRGB curve (an sRGB window encoding it),
/// and the shader's value sRGB-encoded once more (the shader's encoding into an sRGB window).
fn encodings(c: [f64; 3]) -> Vec<[f64; 3]> {
    let gamma = |x: f64| x.clamp(0.0, 1.0).powf(1.0 / 2.2);
    let srgb = |x: f64| {
        let x = x.clamp(0.0, 1.0);
        if x <= 0.003_130_8 {
            12.92 * x
        } else {
            1.055 * x.powf(1.0 / 2.4) - 0.055
        }
    };
    vec![
        c.map(|x| 255.0 * gamma(x)),
        c.map(|x| 255.0 * srgb(x)),
        c.map(|x| 255.0 * srgb(gamma(x))),
    ]
}

/// What a pixel of the still scene shows, decided on the CPU by casting its ray.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Seen {
    /// Nothing: the main pass's clear color.
    Sky,
    /// The ground's top face, both lights reaching it.
    LitGround,
    /// The ground's top face, one light or both blocked.
    ShadowedGround,
    /// A pillar, a mover, or the ground's side.
    Other,
}

/// The still scene (time 0) at the window's final size, built on the noop device: its
/// geometry, lights and colors decide what each pixel shows and in which colors.
struct Expected {
    scene: Scene,
    placements: Vec<(Kind, Placement)>,
    /// Display values of the sky, the lit ground, and the ground in each kind of shadow.
    sky: Vec<[f64; 3]>,
    lit_ground: Vec<[f64; 3]>,
    shadowed_ground: Vec<[f64; 3]>,
}

impl Expected {
    fn new(width: u32, height: u32) -> Expected {
        let config = SceneConfig {
            width,
            height,
            ..SceneConfig::small()
        };
        let scene = Scene::new(&Gpu::noop(), config).expect("the small scene (noop)");
        let placements = scene.placements(0.0);
        // The ground's top face: normal +y, so each light's Lambert term is -direction.y.
        let terms = scene
            .lights()
            .map(|l| l.color.map(|c| c * (-l.direction[1]).max(0.0)));
        let ground = |lights: &[[f32; 3]]| -> Vec<[f64; 3]> {
            encodings(std::array::from_fn(|i| {
                let light = AMBIENT[i] + lights.iter().map(|l| l[i]).sum::<f32>();
                f64::from(GROUND[i] * light)
            }))
        };
        // The sky: the clear color as the scene's own (linear-unorm) target stores it, or that
        // value sRGB-encoded once more.
        let sky = [SKY[0], SKY[1], SKY[2]];
        Expected {
            sky: vec![sky.map(|c| 255.0 * c), encodings(sky)[1]],
            lit_ground: ground(&terms),
            shadowed_ground: [ground(&terms[1..]), ground(&terms[..1]), ground(&[])].concat(),
            scene,
            placements,
        }
    }

    /// What pixel `(x, y)` shows.
    fn seen(&self, x: u32, y: u32) -> Seen {
        let (eye, dir) = (self.scene.eye(0.0), self.scene.pixel_ray(0.0, x, y));
        let first = self
            .placements
            .iter()
            .filter_map(|(kind, p)| Some((p.ray_hit(eye, dir, 1e4)?, *kind)))
            .min_by(|a, b| a.0.total_cmp(&b.0));
        let Some((t, kind)) = first else {
            return Seen::Sky;
        };
        let p: [f32; 3] = std::array::from_fn(|i| eye[i] + t * dir[i]);
        if kind != Kind::Ground || p[1].abs() > 1e-3 {
            return Seen::Other;
        }
        let blocked = self.scene.lights().iter().any(|l| {
            let d = l.direction;
            Scene::blocked(&self.placements, p, [-d[0], -d[1], -d[2]], 100.0)
        });
        if blocked {
            Seen::ShadowedGround
        } else {
            Seen::LitGround
        }
    }
}

/// Whether `p` is within `tolerance` (per channel) of any of `expected`.
fn near(p: [f64; 3], expected: &[[f64; 3]], tolerance: f64) -> bool {
    expected
        .iter()
        .any(|e| (0..3).all(|i| (p[i] - e[i]).abs() <= tolerance))
}

/// Runs the example on `backend` and checks its counters and screenshot.
fn run_window(example: &Path, backend: &str, display: Option<&str>) {
    let shot = temp_path(&format!("window-{backend}.png"));
    let runtime_dir = temp_path(&format!("xdg-runtime-{backend}"));
    std::fs::create_dir_all(&runtime_dir).expect("runtime dir");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&runtime_dir, std::fs::Permissions::from_mode(0o700))
            .expect("chmod 700 the runtime dir");
    }
    let (out_path, err_path) = (
        temp_path(&format!("window-{backend}.stdout")),
        temp_path(&format!("window-{backend}.stderr")),
    );
    let file = |path: &Path| std::fs::File::create(path).expect("an output file");
    let mut command = Command::new(example);
    command
        .args(["--small", "--still", "--frames", &FRAMES.to_string()])
        .args(["--resize-at", &RESIZE_AT.to_string(), "--screenshot"])
        .arg(&shot)
        .env("VGPU_BACKEND", backend)
        .env("XDG_RUNTIME_DIR", &runtime_dir)
        .stdout(file(&out_path))
        .stderr(file(&err_path));
    if let Some(display) = display {
        command
            .env("DISPLAY", display)
            .env_remove("WAYLAND_DISPLAY");
    }
    let mut child = command.spawn().expect("start the window example");
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for the window example") {
            break status;
        }
        // A hang guard, not a timing check: a child still running after 300 s is stopped, and
        // the checks below fail on its status and missing output, which they print.
        if start.elapsed() > Duration::from_secs(300) {
            let _ = child.kill();
            break child.wait().expect("wait for the stopped window example");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let stdout = std::fs::read_to_string(&out_path).unwrap_or_default();
    let stderr = std::fs::read_to_string(&err_path).unwrap_or_default();
    assert!(
        status.success(),
        "{backend}: the window example failed ({status}):\n{stdout}\n{stderr}"
    );
    eprint!("{stderr}");
    let json = stdout
        .lines()
        .rev()
        .find(|l| l.starts_with('{'))
        .unwrap_or_else(|| panic!("{backend}: no JSON line in {stdout:?}"));
    eprintln!("{backend}: {json}");

    assert_eq!(field(json, "frames"), FRAMES.to_string(), "{json}");
    assert_eq!(
        field(json, "skipped"),
        "1",
        "the 0x0 frame is skipped: {json}"
    );
    assert_eq!(field(json, "requested_size"), "[150,112]", "{json}");
    assert_eq!(
        field(json, "size"),
        "[150,112]",
        "the surface follows the window's new size (a window manager on $DISPLAY may refuse \
         it): {json}"
    );
    let steady: u32 = field(json, "steady_frames").parse().unwrap_or(0);
    assert!(
        steady >= (FRAMES - RESIZE_AT) / 2,
        "{backend}: too few steady frames after the resize: {json}"
    );
    for counter in [
        "steady_bind_groups",
        "steady_bytes_uploaded",
        "steady_write_calls",
    ] {
        assert_eq!(field(json, counter), "0", "{backend}: {counter}: {json}");
    }

    let (w, h, data) = load_png(&shot);
    assert_eq!((w, h), (150, 112), "{backend}: the screenshot's size");
    let px = |x: u32, y: u32| {
        let i = ((y * w + x) * 4) as usize;
        [data[i], data[i + 1], data[i + 2]].map(f64::from)
    };
    // In each region, the share of pixels the ray caster says show `seen`, and the share the
    // screenshot shows in `colors`.
    let e = Expected::new(w, h);
    let share = |rows: std::ops::Range<u32>, seen: Seen, colors: &[[f64; 3]]| {
        let pixels: Vec<(u32, u32)> = rows.flat_map(|y| (0..w).map(move |x| (x, y))).collect();
        let n = pixels.len() as f64;
        let predicted = pixels
            .iter()
            .filter(|&&(x, y)| e.seen(x, y) == seen)
            .count();
        let shown = pixels
            .iter()
            .filter(|&&(x, y)| near(px(x, y), colors, 8.0))
            .count();
        (predicted as f64 / n, shown as f64 / n)
    };
    let sky = share(0..h / 10, Seen::Sky, &e.sky);
    let lit = share(h - h / 10..h, Seen::LitGround, &e.lit_ground);
    let shadowed = share(h / 2..h, Seen::ShadowedGround, &e.shadowed_ground);
    eprintln!(
        "{backend}: screenshot {w}x{h} (predicted by ray casting / shown in the expected colors): \
         sky {:.1}% / {:.1}% of the top tenth, lit ground {:.1}% / {:.1}% of the bottom tenth, \
         shadowed ground {:.1}% / {:.1}% of the lower half; expected sky {:?}, lit ground {:?}, \
         ground in the sun's shadow {:?} (display values)",
        100.0 * sky.0,
        100.0 * sky.1,
        100.0 * lit.0,
        100.0 * lit.1,
        100.0 * shadowed.0,
        100.0 * shadowed.1,
        e.sky[0].map(f64::round),
        e.lit_ground[0].map(f64::round),
        e.shadowed_ground[0].map(f64::round),
    );
    // The scene puts enough of each where it is looked for.
    assert!(
        sky.0 > 0.5 && lit.0 > 0.3 && shadowed.0 > 0.05,
        "the still scene changed"
    );
    // Rasterization and shadow-map filtering move edges by a pixel or so.
    assert!(sky.1 > sky.0 - 0.03, "{backend}: sky at the top: {sky:?}");
    assert!(
        lit.1 > lit.0 - 0.1,
        "{backend}: lit ground at the bottom: {lit:?}"
    );
    assert!(
        shadowed.1 > 0.7 * shadowed.0,
        "{backend}: shadows on the ground: {shadowed:?}"
    );
}

/// Where a window test runs: its backend and display, the `Xvfb` it started (if any) and the
/// lock that keeps the window tests of this binary one at a time (fields drop in this order).
pub(crate) struct WindowSetup {
    pub(crate) backend: String,
    pub(crate) display: Option<String>,
    _server: Option<Xvfb>,
    _one_at_a_time: std::sync::MutexGuard<'static, ()>,
}

/// The setup of a window test, or `None` after saying why `what` is skipped
/// ([`vgpu_tests::skip`]; a failure under `VGPU_REQUIRE=window`): the noop backend presents
/// nothing, and a window needs a display. Window tests run one at a time: two of them
/// starting their own `Xvfb` at once could pick the same free display, and the first to finish
/// would stop the other's server (`XIO: fatal IO error 11`).
pub(crate) fn window_setup(what: &str) -> Option<WindowSetup> {
    static WINDOW_TESTS: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let backend = std::env::var("VGPU_BACKEND").unwrap_or_else(|_| "auto".to_owned());
    if backend == "noop" {
        vgpu_tests::skip(
            "device",
            &format!("VGPU_BACKEND=noop: {what} (nothing is drawn or presented)"),
        );
        return None;
    }
    let guard = WINDOW_TESTS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    match display() {
        Ok((display, server)) => Some(WindowSetup {
            backend,
            display,
            _server: server,
            _one_at_a_time: guard,
        }),
        Err(why) => {
            // Fails instead under VGPU_REQUIRE=window (CI, with its Xvfb).
            vgpu_tests::skip("window", &format!("{what}: {why}"));
            None
        }
    }
}

#[test]
fn the_window_example_renders_the_scene_survives_a_resize_and_steady_frames_cost_nothing() {
    let example = example_binary();
    let Some(setup) = window_setup("the window test") else {
        return;
    };
    run_window(&example, &setup.backend, setup.display.as_deref());
}

/// A pass into a window surface inside [`Gpu::frame_in`] (the app's encoder, the app submits)
/// is refused with `VGPU-FRAME-SURFACE-APP-ENCODER`, and the surface still renders through
/// `gpu.frame` afterwards. Runs in a child process whose `$DISPLAY` is the display found here
/// (a window needs a process-wide display, and winit one event loop per process).
#[test]
fn a_surface_pass_in_the_apps_encoder_is_refused() {
    let Some(setup) = window_setup("a_surface_pass_in_the_apps_encoder_is_refused") else {
        return;
    };
    let (backend, display) = (&setup.backend, &setup.display);
    let mut env = vec![("VGPU_BACKEND", backend.as_str())];
    if let Some(display) = display.as_deref() {
        env.push(("DISPLAY", display));
    }
    vgpu_tests::run_child_test(
        module_path!(),
        "surface_pass_in_the_apps_encoder_child",
        &env,
    );
}

#[test]
#[ignore = "child of a_surface_pass_in_the_apps_encoder_is_refused"]
fn surface_pass_in_the_apps_encoder_child() {
    if !vgpu_tests::in_child_test("surface_pass_in_the_apps_encoder_child") {
        return;
    }
    let (event_loop, window) = test_window("vgpu test", None);
    let options = vgpu::GpuOptions::from_env()
        .expect("VGPU_BACKEND")
        .with_display(event_loop.owned_display_handle());
    let (gpu, surface) = Gpu::new_for_window(
        &options,
        std::sync::Arc::clone(&window),
        &vgpu::SurfaceDesc::new(64, 64),
    )
    .expect("a Gpu presenting to the window");

    // `VGPU-SURFACE` from a real window: a format the window does not offer, and an adopted
    // device given without its instance.
    let unoffered = vgpu::SurfaceDesc {
        format: Some(wgpu::TextureFormat::Rgba32Float),
        ..vgpu::SurfaceDesc::new(64, 64)
    };
    let err = gpu
        .surface(std::sync::Arc::clone(&window), &unoffered)
        .expect_err("a format the window does not offer");
    assert_eq!(err.code(), "VGPU-SURFACE", "{err}");
    assert!(err.to_string().contains("Rgba32Float"), "{err}");
    let adopted = Gpu::from_wgpu(
        None,
        gpu.context().adapter().clone(),
        gpu.device().clone(),
        gpu.queue().clone(),
    );
    let err = adopted
        .surface(
            std::sync::Arc::clone(&window),
            &vgpu::SurfaceDesc::new(64, 64),
        )
        .expect_err("no instance");
    assert_eq!(err.code(), "VGPU-SURFACE", "{err}");
    assert!(err.to_string().contains("Instance"), "{err}");
    drop(adopted);

    let mut encoder = gpu.device().create_command_encoder(&Default::default());
    let err = gpu
        .frame_in(&mut encoder, |f| f.pass(&surface, |_p| Ok(())))
        .expect_err("a surface pass in the app's encoder");
    assert_eq!(err.code(), "VGPU-FRAME-SURFACE-APP-ENCODER", "{err}");
    assert!(err.to_string().contains("gpu.frame"), "{err}");
    drop(encoder);
    // The refusal cancelled that frame: the surface renders through vgpu's own frame.
    gpu.frame(|f| {
        f.pass(
            vgpu::PassDesc::new(&surface).clear([0.0, 0.0, 1.0, 1.0]),
            |_p| Ok(()),
        )
    })
    .expect("a frame into the surface after the refusal");
    assert!(gpu.take_uncaptured_errors().is_empty());
}

/// A window titled `title` on `$DISPLAY` (made on any thread; the event loop is never run) and
/// its event loop, which must outlive it; `size` fixes its inner size (and makes it fixed-size).
pub(crate) fn test_window(
    title: &str,
    size: Option<(u32, u32)>,
) -> (
    winit::event_loop::EventLoop<()>,
    std::sync::Arc<winit::window::Window>,
) {
    let mut builder = winit::event_loop::EventLoop::builder();
    #[cfg(any(
        target_os = "linux",
        target_os = "freebsd",
        target_os = "openbsd",
        target_os = "netbsd",
        target_os = "dragonfly"
    ))]
    {
        use winit::platform::x11::EventLoopBuilderExtX11;
        builder.with_any_thread(true);
    }
    let event_loop = builder.build().expect("an event loop on $DISPLAY");
    let mut attributes = winit::window::Window::default_attributes().with_title(title);
    if let Some((width, height)) = size {
        attributes = attributes
            .with_inner_size(winit::dpi::PhysicalSize::new(width, height))
            .with_resizable(false);
    }
    #[expect(
        deprecated,
        reason = "a window without running the event loop is enough here"
    )]
    let window = event_loop.create_window(attributes).expect("a window");
    (event_loop, std::sync::Arc::new(window))
}
