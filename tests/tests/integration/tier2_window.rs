//! The `window` example in a real window (tier 2): under an X server (`$DISPLAY`, or an `Xvfb`
//! this test starts), on Vulkan and on GL, 60 frames of the still scene, resized once mid-run
//! (and shrunk to 0×0 for one frame: a minimized window, skipped without error). Its screenshot
//! shows the scene — sky at the top, lit ground at the bottom, shadows on the ground — and the
//! steady frames after the resize create no bind group and upload nothing.
//!
//! The example is run as a process (`cargo test` builds it into `target/<profile>/examples/`).
//! Skipped with a printed reason on `VGPU_BACKEND=noop`, and when no display can be opened (no
//! `$DISPLAY` and no `Xvfb` to start).

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use vgpu_tests::{load_png, temp_path};

/// The `window` example built next to this test binary (`target/<profile>/examples/window`).
fn example_binary() -> PathBuf {
    let exe = std::env::current_exe().expect("current_exe");
    let profile_dir = exe
        .parent()
        .and_then(|deps| deps.parent())
        .expect("target/<profile>/deps/<test binary>");
    let path = profile_dir.join("examples").join("window");
    assert!(
        path.exists(),
        "{} is missing: `cargo test` builds the examples; or run `cargo build --example window`",
        path.display()
    );
    path
}

/// An X server the test started, killed when dropped.
struct Xvfb(Child);

impl Drop for Xvfb {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `$DISPLAY`, or a display of an `Xvfb` started here; `None` (with the reason printed) when
/// neither can be had.
fn display() -> Option<(String, Option<Xvfb>)> {
    if let Ok(d) = std::env::var("DISPLAY") {
        if !d.is_empty() {
            return Some((d, None));
        }
    }
    for n in 90..120 {
        if std::path::Path::new(&format!("/tmp/.X11-unix/X{n}")).exists() {
            continue;
        }
        let child = Command::new("Xvfb")
            .args([
                format!(":{n}").as_str(),
                "-screen",
                "0",
                "1024x768x24",
                "-nolisten",
                "tcp",
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn();
        let Ok(child) = child else {
            eprintln!(
                "tier2_window: skipped: no $DISPLAY and no Xvfb to start (apt-get install xvfb)"
            );
            return None;
        };
        let mut server = Xvfb(child);
        let socket = format!("/tmp/.X11-unix/X{n}");
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(5) {
            if std::path::Path::new(&socket).exists() {
                return Some((format!(":{n}"), Some(server)));
            }
            if let Ok(Some(_)) = server.0.try_wait() {
                break;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
    eprintln!("tier2_window: skipped: no $DISPLAY and Xvfb did not start");
    None
}

/// The value of `"key":` in the example's JSON line.
fn field(json: &str, key: &str) -> String {
    let at = json
        .find(&format!("\"{key}\":"))
        .unwrap_or_else(|| panic!("{key} in {json}"));
    json[at + key.len() + 3..]
        .split([',', '}'])
        .next()
        .unwrap_or_default()
        .to_owned()
}

/// Runs the example on `backend` and checks its counters and screenshot.
fn run_window(backend: &str, display: &str) {
    let shot = temp_path(&format!("window-{backend}.png"));
    let runtime_dir = temp_path(&format!("xdg-{backend}"));
    std::fs::create_dir_all(&runtime_dir).expect("runtime dir");
    let mut child = Command::new(example_binary())
        .args([
            "--small",
            "--still",
            "--frames",
            "60",
            "--resize-at",
            "30",
            "--screenshot",
        ])
        .arg(&shot)
        .env("DISPLAY", display)
        .env("VGPU_BACKEND", backend)
        .env("XDG_RUNTIME_DIR", &runtime_dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start the window example");
    let start = Instant::now();
    while child.try_wait().expect("wait").is_none() {
        if start.elapsed() > Duration::from_secs(240) {
            let _ = child.kill();
            panic!("{backend}: the window example did not finish in 240 s");
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let out = child.wait_with_output().expect("output");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "{backend}: the window example failed: {}\n{stdout}\n{stderr}",
        out.status
    );
    let json = stdout.lines().last().unwrap_or_default();
    eprintln!("{backend}: {json}");
    assert_eq!(field(json, "frames"), "60", "{json}");
    assert_eq!(
        field(json, "skipped"),
        "1",
        "the 0x0 frame is skipped: {json}"
    );
    assert!(
        field(json, "steady_frames").parse::<u32>().unwrap_or(0) >= 20,
        "{json}"
    );
    for counter in [
        "steady_bind_groups",
        "steady_bytes_uploaded",
        "steady_write_calls",
    ] {
        assert_eq!(field(json, counter), "0", "{backend}: {counter}: {json}");
    }
    assert!(
        json.contains("\"size\":[150,112]"),
        "resized to 3/4: {json}"
    );

    let (w, h, data) = load_png(&shot);
    let px = |(x, y): (u32, u32)| {
        let i = ((y * w + x) * 4) as usize;
        [data[i], data[i + 1], data[i + 2]].map(f64::from)
    };
    let luminance = |p: [f64; 3]| 0.2126 * p[0] + 0.7152 * p[1] + 0.0722 * p[2];
    let region = |rows: std::ops::Range<u32>| {
        rows.flat_map(move |y| (0..w).map(move |x| (x, y)))
            .map(px)
            .collect::<Vec<_>>()
    };
    let fraction = |pixels: &[[f64; 3]], f: &dyn Fn(&[f64; 3]) -> bool| {
        pixels.iter().filter(|p| f(p)).count() as f64 / pixels.len() as f64
    };
    // Sky: the top rows are bluish (the clear color, sRGB-encoded or not).
    let top = region(0..h / 20 + 1);
    let sky = fraction(&top, &|p| p[2] > p[0] + 10.0 && p[2] > 100.0);
    // Ground: warm grey (red at least blue, red close to green).
    let is_ground = |p: &[f64; 3]| p[0] >= p[2] && (p[0] - p[1]).abs() < 40.0;
    let bottom = region(h - h / 10..h);
    let ground = fraction(&bottom, &is_ground);
    // Shadows: ground pixels clearly darker than the median ground pixel.
    let lower = region(h / 2..h);
    let mut ground_lum: Vec<f64> = lower
        .iter()
        .filter(|p| is_ground(p))
        .map(|p| luminance(*p))
        .collect();
    ground_lum.sort_by(f64::total_cmp);
    let median = ground_lum.get(ground_lum.len() / 2).copied().unwrap_or(0.0);
    let shadowed = fraction(&lower, &|p| is_ground(p) && luminance(*p) < 0.85 * median);
    eprintln!(
        "{backend}: screenshot {w}x{h}: sky {sky:.3} of the top rows, ground {ground:.3} of the bottom rows, shadowed ground {shadowed:.3} of the lower half (median ground luminance {median:.1})"
    );
    assert!(sky > 0.9, "{backend}: sky at the top: {sky:.3}");
    assert!(
        ground > 0.5,
        "{backend}: lit ground at the bottom: {ground:.3}"
    );
    assert!(median > 150.0, "{backend}: the ground is lit: {median:.1}");
    assert!(
        shadowed > 0.02,
        "{backend}: shadows on the ground: {shadowed:.3}"
    );
}

#[test]
fn the_window_example_renders_the_scene_survives_resizes_and_steady_frames_cost_nothing() {
    let backends: &[&str] = match std::env::var("VGPU_BACKEND").as_deref() {
        Ok("noop") => {
            eprintln!("VGPU_BACKEND=noop: skipping the window test (nothing is presented)");
            return;
        }
        Ok("vulkan") => &["vulkan"],
        Ok("gl") => &["gl"],
        _ => &["vulkan", "gl"],
    };
    let Some((display, _server)) = display() else {
        return;
    };
    for backend in backends {
        run_window(backend, &display);
    }
}
