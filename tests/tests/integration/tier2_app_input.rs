//! The app runner's input, Esc and close through real X events (tier 2, X11): the test talks
//! the X protocol to the display the window is on (a Unix socket, no X library), moves the
//! pointer, drags, turns the wheel and presses Esc with the XTEST extension (events the server
//! delivers as a user's, so winit sees them as any input), and closes the window as a window
//! manager does (a `WM_DELETE_WINDOW` client message). Checked: the runner's `Input` reports the
//! cursor, the button going down and up and the wheel; `OrbitControls::update` driven by it turns
//! by `−dx · rotate_speed` for a drag of `dx` pixels and zooms by the wheel's lines; Esc and
//! the close request each end `run` with `Ok`.
//!
//! Each app runs in a child process (one event loop per process), on the display the window
//! tests get (`window_setup`), with a watchdog.

#![cfg(any(
    target_os = "linux",
    target_os = "freebsd",
    target_os = "openbsd",
    target_os = "netbsd",
    target_os = "dragonfly"
))]
#![allow(clippy::unwrap_used, reason = "an unwrap in a test is an assertion")]

use std::io::{Read, Write};
use std::os::unix::net::UnixStream;
use std::time::Duration;

use glam::{Vec2, Vec3};
use vgpu::app::winit::event::MouseButton;
use vgpu::app::winit::raw_window_handle::{HasWindowHandle, RawWindowHandle};
use vgpu::app::{AppSettings, FrameContext, run};
use vgpu::camera::{OrbitControls, PerspectiveCamera};

use super::tier2_window::window_setup;

/// `n` rounded up to a multiple of 4 (X requests are padded to 4 bytes).
fn pad(n: usize) -> usize {
    n.div_ceil(4) * 4
}

/// The MIT-MAGIC-COOKIE-1 of display `number` in `$XAUTHORITY`, if there is one (servers started
/// without `-auth`, as the tests' and CI's are, need none).
fn cookie(number: &str) -> Option<Vec<u8>> {
    let path = std::env::var_os("XAUTHORITY").or_else(|| {
        std::env::var_os("HOME").map(|h| std::path::Path::new(&h).join(".Xauthority").into())
    })?;
    let data = std::fs::read(path).ok()?;
    let mut at = 0;
    let field = |at: &mut usize| -> Option<Vec<u8>> {
        let len = usize::from(u16::from_be_bytes(data.get(*at..*at + 2)?.try_into().ok()?));
        let bytes = data.get(*at + 2..*at + 2 + len)?.to_vec();
        *at += 2 + len;
        Some(bytes)
    };
    while at + 2 <= data.len() {
        at += 2; // family
        let (_address, display, name, cookie) = (
            field(&mut at)?,
            field(&mut at)?,
            field(&mut at)?,
            field(&mut at)?,
        );
        if display == number.as_bytes() && name == b"MIT-MAGIC-COOKIE-1" {
            return Some(cookie);
        }
    }
    None
}

/// A connection to the X server of `$DISPLAY` (a local display `:N`).
struct X11 {
    stream: UnixStream,
    root: u32,
    min_keycode: u8,
    max_keycode: u8,
    xtest: u8,
}

impl X11 {
    fn connect() -> X11 {
        let display = std::env::var("DISPLAY").expect("$DISPLAY");
        let number = display
            .rsplit_once(':')
            .map(|(_, n)| n.split('.').next().unwrap_or(n))
            .expect("a display :N");
        let mut stream = UnixStream::connect(format!("/tmp/.X11-unix/X{number}"))
            .unwrap_or_else(|e| panic!("connecting to display {display}: {e}"));
        stream
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        let (name, data) = match cookie(number) {
            Some(c) => (b"MIT-MAGIC-COOKIE-1".to_vec(), c),
            None => (Vec::new(), Vec::new()),
        };
        let mut setup = vec![b'l', 0, 11, 0, 0, 0];
        setup.extend((name.len() as u16).to_le_bytes());
        setup.extend((data.len() as u16).to_le_bytes());
        setup.extend([0, 0]);
        for part in [&name, &data] {
            setup.extend(part.iter());
            setup.resize(pad(setup.len()), 0);
        }
        stream.write_all(&setup).unwrap();
        let mut reply = vec![0u8; 8];
        stream.read_exact(&mut reply).unwrap();
        let extra = usize::from(u16::from_le_bytes([reply[6], reply[7]])) * 4;
        reply.resize(8 + extra, 0);
        stream.read_exact(&mut reply[8..]).unwrap();
        assert_eq!(
            reply[0],
            1,
            "the X server refused the connection: {:?}",
            String::from_utf8_lossy(&reply[8..])
        );
        let vendor = usize::from(u16::from_le_bytes([reply[24], reply[25]]));
        let formats = usize::from(reply[29]);
        let screen = 40 + pad(vendor) + 8 * formats;
        let root = u32::from_le_bytes(reply[screen..screen + 4].try_into().unwrap());
        let mut x = X11 {
            stream,
            root,
            min_keycode: reply[34],
            max_keycode: reply[35],
            xtest: 0,
        };
        x.xtest = x
            .query_extension("XTEST")
            .expect("the XTEST extension (Xvfb has it)");
        x
    }

    /// Sends a request (its length field filled in).
    fn send(&mut self, mut request: Vec<u8>) {
        request.resize(pad(request.len()), 0);
        let words = (request.len() / 4) as u16;
        request[2..4].copy_from_slice(&words.to_le_bytes());
        self.stream.write_all(&request).unwrap();
    }

    /// The next reply (events are skipped; an error panics).
    fn reply(&mut self) -> Vec<u8> {
        loop {
            let mut packet = vec![0u8; 32];
            self.stream.read_exact(&mut packet).unwrap();
            match packet[0] {
                0 => panic!(
                    "X error {} (request {}, minor {})",
                    packet[1], packet[10], packet[8]
                ),
                1 => {
                    let extra = u32::from_le_bytes(packet[4..8].try_into().unwrap()) as usize * 4;
                    packet.resize(32 + extra, 0);
                    self.stream.read_exact(&mut packet[32..]).unwrap();
                    return packet;
                }
                _ => {}
            }
        }
    }

    /// A request with its name: opcode, a byte, the name's length, the name.
    fn named(opcode: u8, byte: u8, name: &str) -> Vec<u8> {
        let mut request = vec![opcode, byte, 0, 0];
        request.extend((name.len() as u16).to_le_bytes());
        request.extend([0, 0]);
        request.extend(name.as_bytes());
        request
    }

    fn query_extension(&mut self, name: &str) -> Option<u8> {
        self.send(X11::named(98, 0, name));
        let reply = self.reply();
        (reply[8] == 1).then_some(reply[9])
    }

    fn intern_atom(&mut self, name: &str) -> u32 {
        self.send(X11::named(16, 0, name));
        u32::from_le_bytes(self.reply()[8..12].try_into().unwrap())
    }

    /// The keycode of `keysym` in the server's keyboard mapping.
    fn keycode(&mut self, keysym: u32) -> u8 {
        let count = self.max_keycode - self.min_keycode + 1;
        self.send(vec![101, 0, 0, 0, self.min_keycode, count, 0, 0]);
        let reply = self.reply();
        let per = usize::from(reply[1]);
        let syms: Vec<u32> = reply[32..]
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
            .collect();
        let index = syms
            .iter()
            .position(|&s| s == keysym)
            .expect("the keysym is mapped");
        self.min_keycode + (index / per) as u8
    }

    /// Waits until the server has handled every request sent so far (GetInputFocus's reply).
    fn sync(&mut self) {
        self.send(vec![43, 0, 0, 0]);
        self.reply();
    }

    /// An XTEST input event: `kind` 2/3 key press/release (detail: keycode), 4/5 button
    /// press/release (detail: button), 6 motion to `(x, y)` of the root window.
    fn fake(&mut self, kind: u8, detail: u8, (x, y): (i16, i16)) {
        let mut request = vec![self.xtest, 2, 0, 0, kind, detail, 0, 0];
        request.extend(0u32.to_le_bytes()); // time: now
        request.extend(self.root.to_le_bytes());
        request.extend([0; 8]);
        request.extend(x.to_le_bytes());
        request.extend(y.to_le_bytes());
        request.extend([0; 8]);
        self.send(request);
        self.sync();
    }

    /// Gives `window` the keyboard focus.
    fn focus(&mut self, window: u32) {
        let mut request = vec![42, 1, 0, 0];
        request.extend(window.to_le_bytes());
        request.extend(0u32.to_le_bytes());
        self.send(request);
        self.sync();
    }

    /// Asks `window` to close, as a window manager does: a `WM_PROTOCOLS` client message with
    /// `WM_DELETE_WINDOW`, sent to the client that made the window.
    fn close(&mut self, window: u32) {
        let protocols = self.intern_atom("WM_PROTOCOLS");
        let delete = self.intern_atom("WM_DELETE_WINDOW");
        let mut request = vec![25, 0, 0, 0];
        request.extend(window.to_le_bytes());
        request.extend(0u32.to_le_bytes()); // no event mask: to the window's client
        let mut event = vec![33, 32, 0, 0];
        event.extend(window.to_le_bytes());
        event.extend(protocols.to_le_bytes());
        event.extend(delete.to_le_bytes());
        event.resize(32, 0);
        request.extend(event);
        self.send(request);
        self.sync();
    }
}

/// The X window id of the app's window.
fn x_window(ctx: &FrameContext<'_>) -> u32 {
    match ctx.window.window_handle().unwrap().as_raw() {
        RawWindowHandle::Xlib(h) => h.window as u32,
        RawWindowHandle::Xcb(h) => h.window.get(),
        other => panic!("not an X11 window: {other:?}"),
    }
}

/// Runs the child test `name` on the display a window test gets (X11), or skips.
fn on_x11(name: &str, what: &str) {
    let Some(setup) = window_setup(what) else {
        return;
    };
    let display = setup
        .display
        .clone()
        .or_else(|| std::env::var("DISPLAY").ok().filter(|d| !d.is_empty()));
    let Some(display) = display else {
        // A Wayland session without X: these tests speak X11.
        vgpu_tests::skip("window", &format!("{what}: no X11 display"));
        return;
    };
    let env = [
        ("VGPU_BACKEND", setup.backend.as_str()),
        ("DISPLAY", display.as_str()),
        ("WAYLAND_DISPLAY", ""),
    ];
    vgpu_tests::run_child_test(module_path!(), name, &env);
}

fn watchdog(seconds: u64) {
    std::thread::spawn(move || {
        std::thread::sleep(Duration::from_secs(seconds));
        eprintln!("watchdog: the app still runs after {seconds} s: it hangs");
        std::process::exit(3);
    });
}

fn settings() -> AppSettings {
    AppSettings {
        size: (200, 150),
        // A guard: the apps end by Esc or close long before.
        frames: Some(3000),
        fixed_delta: Some(Duration::ZERO),
        any_thread: true,
        ..AppSettings::new("vgpu input test")
    }
}

/// The input test's app: a script of X events, each sent once the runner's input shows the
/// last one arrived, and what the input and the orbit controls showed.
struct Script {
    x: Option<X11>,
    window: u32,
    origin: (i16, i16),
    step: usize,
    orbit: OrbitControls,
    camera: PerspectiveCamera,
    wheel: f32,
    saw_pressed: bool,
    saw_released: bool,
    frames: u64,
}

impl Script {
    fn frame(&mut self, ctx: &mut FrameContext<'_>) -> vgpu::Result<()> {
        self.frames += 1;
        self.orbit.update(ctx.input, &mut self.camera);
        self.wheel += ctx.input.wheel().y;
        self.saw_pressed |= ctx.input.button_pressed(MouseButton::Left);
        self.saw_released |= ctx.input.button_released(MouseButton::Left);
        ctx.gpu.frame(|f| f.pass(ctx.pass(), |_p| Ok(())))?;
        let at = |x: i16, y: i16, s: &Script| (s.origin.0 + x, s.origin.1 + y);
        let cursor = ctx.input.cursor();
        // Each step: the condition that the last step's events arrived, then the next events.
        match self.step {
            0 if ctx.clock.frame() >= 2 => {
                self.window = x_window(ctx);
                let position = ctx.window.inner_position().unwrap();
                self.origin = (position.x as i16, position.y as i16);
                let mut x = X11::connect();
                x.focus(self.window);
                x.fake(6, 0, at(50, 50, self));
                self.x = Some(x);
            }
            1 if cursor == Some(Vec2::new(50.0, 50.0)) => self.send(4, 1, (0, 0)),
            2 if ctx.input.button_down(MouseButton::Left) => {
                let to = at(150, 50, self);
                self.send(6, 0, to);
            }
            3 if cursor == Some(Vec2::new(150.0, 50.0)) => self.send(5, 1, (0, 0)),
            4 if !ctx.input.button_down(MouseButton::Left) => {
                // Two notches of the wheel turned away from the user (button 4).
                for kind in [4, 5, 4, 5] {
                    self.send(kind, 4, (0, 0));
                }
            }
            5 if self.wheel >= 2.0 => {
                let x = self.x.as_mut().unwrap();
                let escape = x.keycode(0xff1b);
                x.fake(2, escape, (0, 0));
                x.fake(3, escape, (0, 0));
            }
            _ => return Ok(()),
        }
        self.step += 1;
        Ok(())
    }

    fn send(&mut self, kind: u8, detail: u8, at: (i16, i16)) {
        self.x.as_mut().unwrap().fake(kind, detail, at);
    }
}

#[test]
fn input_drives_the_orbit_controls_and_esc_ends_run() {
    on_x11(
        "input_child",
        "input_drives_the_orbit_controls_and_esc_ends_run",
    );
}

#[test]
#[ignore = "child of input_drives_the_orbit_controls_and_esc_ends_run"]
fn input_child() {
    if !vgpu_tests::in_child_test("input_child") {
        return;
    }
    watchdog(120);
    let script = run(
        settings(),
        |_| {
            Ok(Script {
                x: None,
                window: 0,
                origin: (0, 0),
                step: 0,
                orbit: OrbitControls::new(Vec3::ZERO, 5.0),
                camera: PerspectiveCamera::default(),
                wheel: 0.0,
                saw_pressed: false,
                saw_released: false,
                frames: 0,
            })
        },
        |script, ctx| script.frame(ctx),
    )
    .expect("Esc ends run with Ok");
    eprintln!(
        "{} frames, step {}, yaw {}, pitch {}, distance {}, wheel {}",
        script.frames,
        script.step,
        script.orbit.yaw,
        script.orbit.pitch,
        script.orbit.distance,
        script.wheel
    );
    assert_eq!(script.step, 6, "the script ran to Esc");
    assert!(
        script.frames < 3000,
        "Esc ended the app, not the frame limit"
    );
    assert!(
        script.saw_pressed && script.saw_released,
        "the button went down and up"
    );
    // A 100-pixel drag to the right with the left button: yaw −100 · rotate_speed; no pitch.
    let speed = script.orbit.rotate_speed;
    assert!(
        (script.orbit.yaw + 100.0 * speed).abs() < 1e-5,
        "yaw {}",
        script.orbit.yaw
    );
    assert_eq!(script.orbit.pitch, 0.0);
    // Two notches away from the user: wheel lines towards the target, the distance divided by
    // the zoom factor per line. winit reports each XTEST notch on Xvfb twice (4 lines for the 2
    // notches, seen here; likely the button and the server's scroll valuator both), so the
    // check takes the lines the input reported.
    assert!(
        script.wheel == 2.0 || script.wheel == 4.0,
        "wheel {}",
        script.wheel
    );
    let zoomed = 5.0 / script.orbit.zoom_factor.powf(script.wheel);
    assert!(
        (script.orbit.distance - zoomed).abs() < 1e-4,
        "distance {}",
        script.orbit.distance
    );
    assert!((script.camera.eye - script.orbit.eye()).length() < 1e-6);
}

#[test]
fn closing_the_window_ends_run() {
    on_x11("close_child", "closing_the_window_ends_run");
}

#[test]
#[ignore = "child of closing_the_window_ends_run"]
fn close_child() {
    if !vgpu_tests::in_child_test("close_child") {
        return;
    }
    watchdog(120);
    let frames = run(
        settings(),
        |_| Ok(0u64),
        |frames, ctx| {
            *frames += 1;
            ctx.gpu.frame(|f| f.pass(ctx.pass(), |_p| Ok(())))?;
            if ctx.clock.frame() == 2 {
                X11::connect().close(x_window(ctx));
            }
            Ok(())
        },
    )
    .expect("closing the window ends run with Ok");
    assert!(
        (3..3000).contains(&frames),
        "the close request ended the app after {frames} frames"
    );
}
