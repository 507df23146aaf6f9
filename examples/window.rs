//! The shadow-mapped scene of the `scene` example in a resizable window (winit 0.30), with an
//! orbiting camera. The title shows frames per second and whether frames are CPU- or GPU-bound
//! (the `scene` example's verdict: CPU recording time against GPU pass time, p50), once a
//! second. Esc or closing the window quits.
//!
//! ```text
//! cargo run --release --example window -- [--frames N] [--screenshot out.png] [--small]
//!                                          [--still] [--resize-at K]
//! ```
//!
//! - `--frames N`: exit after N frames.
//! - `--screenshot out.png`: save the last frame (of `--frames N`). Read back from the window's
//!   texture where the window allows it (Vulkan here); else (GL here) the main pass renders into
//!   an offscreen target of the window's format and size, a fullscreen effect copies it to the
//!   window, and the screenshot is read from that target.
//! - `--small`: the small scene (200×150, 8×8 pillars), for tests.
//! - `--still`: the animation stays at time 0 (steady frames then upload nothing).
//! - Hot reload: the main pass's shader is `examples/shaders/scene/lit.wgsl`, watched while the
//!   window is open (`Gpu::watch_shader`, the `hot-reload` feature): save a change and the next
//!   frame renders with it, every draw keeping its values; a mistake prints the file, line and
//!   column, and the previous shader keeps rendering until the file is fixed.
//! - `--resize-at K`: at frame K, ask the window for 3/4 of its size, and shrink the surface to
//!   0×0 for that frame (a minimized window; winit cannot make a zero-sized window on X11): the
//!   frame is skipped.
//!
//! On exit it prints one JSON line: the adapter, frames rendered and skipped, the final size, and
//! the counters (bind groups created, bytes uploaded, write calls) summed over the steady frames
//! since the last resize (all but the first frame after it). Errors print a reason and exit 1.

use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use vgpu::WatchedShader;
use vgpu::{
    BackendChoice, Effect, FrameReport, Gpu, GpuOptions, PassDesc, Surface, SurfaceDesc,
    SurfaceSkip, Target, TargetDesc,
};
use vgpu_examples::scene::{LIT_SHADER_FOLDER, Scene, SceneConfig};
use vgpu_examples::{quantile, verdict};
use winit::application::ApplicationHandler;
use winit::dpi::PhysicalSize;
use winit::event::{ElementState, KeyEvent, WindowEvent};
use winit::event_loop::{ActiveEventLoop, EventLoop};
use winit::keyboard::{Key, NamedKey};
use winit::window::{Window, WindowId};

type Error = Box<dyn std::error::Error>;

/// Animation step per frame (seconds).
const STEP: f32 = 1.0 / 60.0;

/// The scene's main pass needs this depth attachment.
const DEPTH: wgpu::TextureFormat = wgpu::TextureFormat::Depth32Float;

/// Copies the offscreen frame to the window: same size and format, one texel per pixel.
const COPY_TO_WINDOW: &str = "
@group(0) @binding(0) var frame: texture_2d<f32>;

@fragment
fn fs_main(@builtin(position) position: vec4f) -> @location(0) vec4f {
    return textureLoad(frame, vec2i(position.xy), 0);
}
";

const USAGE: &str =
    "usage: window [--frames N] [--screenshot out.png] [--small] [--still] [--resize-at K]";

#[derive(Debug, Default)]
struct Args {
    frames: Option<u64>,
    screenshot: Option<String>,
    small: bool,
    still: bool,
    resize_at: Option<u64>,
}

fn args() -> Result<Args, String> {
    let mut a = Args::default();
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or(format!("{flag} needs a value ({USAGE})"));
        let mut count = |name: &str| -> Result<u64, String> {
            let n: u64 = value()?
                .parse()
                .map_err(|e| format!("{name}: {e} ({USAGE})"))?;
            if n == 0 {
                return Err(format!("{name} counts frames from 1"));
            }
            Ok(n)
        };
        match flag.as_str() {
            "--frames" => a.frames = Some(count("--frames")?),
            "--resize-at" => a.resize_at = Some(count("--resize-at")?),
            "--screenshot" => a.screenshot = Some(value()?),
            "--small" => a.small = true,
            "--still" => a.still = true,
            "--help" | "-h" => return Err(USAGE.to_owned()),
            other => return Err(format!("unknown argument {other:?} ({USAGE})")),
        }
    }
    if a.screenshot.is_some() && a.frames.is_none() {
        return Err("--screenshot saves the last frame: give --frames N too".to_owned());
    }
    Ok(a)
}

/// Where the main pass renders when the window's texture cannot be read back and a screenshot
/// is asked for: a target of the window's format and size, copied to the window by an effect.
struct Offscreen {
    target: Target,
    copy: Effect,
}

impl Offscreen {
    fn new(gpu: &Gpu, surface: &Surface) -> vgpu::Result<Offscreen> {
        let (width, height) = surface.size();
        let target = offscreen_target(gpu, surface, width, height)?;
        let copy = gpu.effect("copy to window", COPY_TO_WINDOW)?;
        copy.set("frame", &target)?;
        Ok(Offscreen { target, copy })
    }

    fn resize(&mut self, gpu: &Gpu, surface: &Surface) -> vgpu::Result<()> {
        let (width, height) = surface.size();
        if width == 0 || height == 0 || self.target.size() == (width, height) {
            return Ok(());
        }
        self.target = offscreen_target(gpu, surface, width, height)?;
        self.copy.set("frame", &self.target)
    }
}

fn offscreen_target(gpu: &Gpu, surface: &Surface, width: u32, height: u32) -> vgpu::Result<Target> {
    gpu.target_with(
        &TargetDesc::new(width, height)
            .format(surface.format())
            .depth(DEPTH)
            .label("offscreen frame"),
    )
}

/// What the window renders with.
struct Running {
    window: Arc<Window>,
    gpu: Gpu,
    surface: Surface,
    scene: Scene,
    offscreen: Option<Offscreen>,
    /// The main pass's shader, `examples/shaders/scene/lit.wgsl`, watched (hot reload).
    lit: Option<WatchedShader>,
}

impl Running {
    /// Follows a new size: the surface (0×0 skips frames), and the offscreen target if any.
    fn resize(&mut self, size: PhysicalSize<u32>) -> vgpu::Result<()> {
        self.surface.resize(size.width, size.height)?;
        match &mut self.offscreen {
            Some(o) => o.resize(&self.gpu, &self.surface),
            None => Ok(()),
        }
    }

    /// Renders one frame at `time` (a change to the watched shader's file is applied first, by
    /// the frame; what it did is printed).
    fn render(&self, time: f32) -> vgpu::Result<FrameReport> {
        let report = self.render_scene(time);
        if let Some(lit) = &self.lit {
            for event in lit.take_events() {
                eprintln!("window: {LIT_SHADER_FOLDER}/lit.wgsl {event}");
            }
        }
        report
    }

    fn render_scene(&self, time: f32) -> vgpu::Result<FrameReport> {
        match &self.offscreen {
            None => self.scene.render_into(time, &self.surface),
            Some(o) => self.gpu.frame(|f| {
                self.scene.record(f, time, &o.target)?;
                f.pass(PassDesc::new(&self.surface).label("to window"), |p| {
                    p.draw(&o.copy)
                })
            }),
        }
    }
}

/// Counters summed over the frames since the last resize, but the first.
#[derive(Default)]
struct Steady {
    frames: u64,
    bind_groups: u64,
    bytes: u64,
    writes: u64,
}

/// The last second's frames, for the title.
struct Second {
    start: Instant,
    encode_ms: Vec<f64>,
    gpu_ms: Vec<f64>,
}

impl Second {
    fn new() -> Second {
        Second {
            start: Instant::now(),
            encode_ms: Vec::new(),
            gpu_ms: Vec::new(),
        }
    }
}

struct App {
    args: Args,
    running: Option<Running>,
    /// Frames rendered or skipped so far.
    frame: u64,
    skipped: u64,
    /// The size asked for at `--resize-at`.
    requested: Option<PhysicalSize<u32>>,
    /// The surface is 0×0 for this frame (`--resize-at`): restore it at the next one.
    minimized: bool,
    steady: Steady,
    second: Second,
    /// The JSON line printed at exit.
    summary: Option<String>,
    error: Option<String>,
}

impl App {
    fn fail(&mut self, event_loop: &ActiveEventLoop, e: impl std::fmt::Display) {
        if self.error.is_none() {
            self.error = Some(e.to_string());
        }
        event_loop.exit();
    }

    fn start(&mut self, event_loop: &ActiveEventLoop) -> Result<(), Error> {
        let config = if self.args.small {
            SceneConfig::small()
        } else {
            SceneConfig::default()
        };
        let attributes = Window::default_attributes()
            .with_title("vgpu window")
            .with_inner_size(PhysicalSize::new(config.width, config.height));
        let window = Arc::new(event_loop.create_window(attributes)?);
        let size = window.inner_size();
        let options = GpuOptions::from_env()?.with_display(event_loop.owned_display_handle());
        if options.backend == BackendChoice::Noop {
            let why = "VGPU_BACKEND=noop presents nothing: a window needs auto, vulkan or gl";
            return Err(why.into());
        }
        let desc = SurfaceDesc::new(size.width, size.height).depth(DEPTH);
        let (gpu, surface) = Gpu::new_for_window(&options, window.clone(), &desc)?;
        // Hot reload: the main pass's WGSL is watched where the sources are (a build run from
        // elsewhere renders the same shader, unwatched).
        let modules = vgpu::ShaderModules::folder(LIT_SHADER_FOLDER);
        let lit = match gpu.watch_shader("scene lit", &modules, "lit") {
            Ok(lit) => Some(lit),
            Err(e) => {
                eprintln!("window: hot reload off: {e}");
                None
            }
        };
        let scene = match &lit {
            Some(lit) => Scene::with_lit_shader(&gpu, config, &lit.shader())?,
            None => Scene::new(&gpu, config)?,
        };
        let offscreen = if self.args.screenshot.is_some() && !surface.supports_read_back() {
            Some(Offscreen::new(&gpu, &surface)?)
        } else {
            None
        };
        eprintln!(
            "window: {} ({:?}), surface {:?} {}x{}, {} objects{}",
            gpu.adapter_info().name,
            gpu.adapter_info().backend,
            surface.format(),
            size.width,
            size.height,
            scene.objects(),
            match (&self.args.screenshot, &offscreen) {
                (None, _) => "",
                (Some(_), None) => ", screenshot read back from the window's texture",
                (Some(_), Some(_)) => {
                    ", screenshot from an offscreen target (the window's texture cannot be read back)"
                }
            }
        );
        window.request_redraw();
        self.running = Some(Running {
            window,
            gpu,
            surface,
            scene,
            offscreen,
            lit,
        });
        Ok(())
    }

    fn redraw(&mut self, event_loop: &ActiveEventLoop) -> Result<(), Error> {
        let Some(mut r) = self.running.take() else {
            return Ok(());
        };
        let result = self.redraw_with(&mut r, event_loop);
        self.running = Some(r);
        result
    }

    fn redraw_with(&mut self, r: &mut Running, event_loop: &ActiveEventLoop) -> Result<(), Error> {
        self.frame += 1;
        let frame = self.frame;
        if self.args.resize_at == Some(frame) {
            let size = r.window.inner_size();
            let wanted =
                PhysicalSize::new((size.width * 3 / 4).max(1), (size.height * 3 / 4).max(1));
            self.requested = Some(wanted);
            // `Some`: applied at once; `None`: a `Resized` event follows (X11). Either way the
            // next frame reads the window's size.
            let _ = r.window.request_inner_size(wanted);
            r.resize(PhysicalSize::new(0, 0))?;
            self.minimized = true;
        } else if self.minimized {
            self.minimized = false;
            r.resize(r.window.inner_size())?;
            self.steady = Steady::default();
        }

        let last = self.args.frames == Some(frame);
        let screenshot = if last {
            self.args.screenshot.clone()
        } else {
            None
        };
        let from_window = screenshot.is_some() && r.offscreen.is_none();
        if from_window {
            r.surface.capture_next_frame()?;
        }
        let time = if self.args.still {
            0.0
        } else {
            frame as f32 * STEP
        };
        let report = r.render(time)?;
        match report.skipped {
            Some(_) => self.skipped += 1,
            None => self.count(&report),
        }
        self.title(r, &report);

        if let Some(path) = screenshot {
            if let Some(why) = report.skipped {
                return Err(format!("the last frame was skipped ({why:?}): no screenshot").into());
            }
            let image = match &r.offscreen {
                Some(o) => o.target.read_rgba8()?,
                None => r
                    .surface
                    .take_capture()
                    .ok_or("the window's texture was not read back")?,
            };
            image
                .save_png(&path)
                .map_err(|e| format!("writing the screenshot {path}: {e}"))?;
        }
        if last {
            event_loop.exit();
        } else if report.skipped != Some(SurfaceSkip::ZeroSize) || self.minimized {
            r.window.request_redraw();
        }
        // Else the window was minimized: the next `Resized` asks for a frame.
        Ok(())
    }

    /// Adds a rendered frame's counters, except the first frame after a resize (it recreates
    /// what depends on the size and uploads the camera's new aspect).
    fn count(&mut self, report: &FrameReport) {
        self.steady.frames += 1;
        if self.steady.frames > 1 {
            self.steady.bind_groups += report.stats.bind_groups_created;
            self.steady.bytes += report.stats.bytes_uploaded;
            self.steady.writes += report.stats.write_calls;
        }
    }

    /// Once a second: frames per second, the CPU/GPU verdict and the advisor's first advice
    /// (`Gpu::advisor`) in the title.
    fn title(&mut self, r: &Running, report: &FrameReport) {
        let second = &mut self.second;
        if report.skipped.is_none() {
            second.encode_ms.push(report.encode.as_secs_f64() * 1e3);
        }
        if let Some(gpu) = report.gpu_total() {
            second.gpu_ms.push(gpu.as_secs_f64() * 1e3);
        }
        let elapsed = second.start.elapsed();
        if elapsed < Duration::from_secs(1) {
            return;
        }
        let fps = second.encode_ms.len() as f64 / elapsed.as_secs_f64();
        let encode = quantile(&second.encode_ms, 0.5);
        let bound = if second.gpu_ms.is_empty() {
            format!("CPU recording {encode:.2} ms, GPU time not measurable here")
        } else {
            let gpu = quantile(&second.gpu_ms, 0.5);
            let v = verdict(encode, gpu);
            format!(
                "{}: CPU recording {encode:.2} ms vs GPU {gpu:.2} ms ({:.1}x)",
                v.bound, v.ratio
            )
        };
        // The library's advisor over the last frames: its verdict and first advice.
        let advisor = r.gpu.advisor();
        let title = match advisor.advice.first() {
            Some(advice) => format!("vgpu window: {fps:.0} fps, {bound}; {}", advice.headline()),
            None => format!("vgpu window: {fps:.0} fps, {bound}"),
        };
        r.window.set_title(&title);
        eprintln!("{title}");
        *second = Second::new();
    }

    /// The JSON line printed at exit.
    fn summary(&self, r: &Running) -> String {
        let info = r.gpu.adapter_info();
        let (width, height) = r.surface.size();
        let requested = match self.requested {
            Some(s) => format!("[{},{}]", s.width, s.height),
            None => "null".to_owned(),
        };
        format!(
            "{{\"adapter\":{},\"backend\":{},\"frames\":{},\"skipped\":{},\"size\":[{width},{height}],\
             \"requested_size\":{requested},\"steady_frames\":{},\"steady_bind_groups\":{},\
             \"steady_bytes_uploaded\":{},\"steady_write_calls\":{}}}",
            json_string(&info.name),
            json_string(&format!("{:?}", info.backend)),
            self.frame,
            self.skipped,
            self.steady.frames.saturating_sub(1),
            self.steady.bind_groups,
            self.steady.bytes,
            self.steady.writes,
        )
    }
}

/// `s` as a JSON string.
fn json_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if u32::from(c) < 0x20 => out.push_str(&format!("\\u{:04x}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

impl ApplicationHandler for App {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.running.is_some() {
            return;
        }
        if let Err(e) = self.start(event_loop) {
            self.fail(event_loop, e);
        }
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _: WindowId, event: WindowEvent) {
        match event {
            WindowEvent::CloseRequested
            | WindowEvent::KeyboardInput {
                event:
                    KeyEvent {
                        logical_key: Key::Named(NamedKey::Escape),
                        state: ElementState::Pressed,
                        ..
                    },
                ..
            } => event_loop.exit(),
            // While the surface is 0×0 for `--resize-at`, the next frame reads the new size.
            WindowEvent::Resized(size) if !self.minimized => {
                let Some(r) = &mut self.running else {
                    return;
                };
                if r.surface.size() == (size.width, size.height) {
                    return;
                }
                r.window.request_redraw();
                let resized = r.resize(size);
                self.steady = Steady::default();
                if let Err(e) = resized {
                    self.fail(event_loop, e);
                }
            }
            WindowEvent::RedrawRequested => {
                if let Err(e) = self.redraw(event_loop) {
                    self.fail(event_loop, e);
                }
            }
            _ => {}
        }
    }

    /// The summary, then the GPU objects go before the event loop does.
    fn exiting(&mut self, _: &ActiveEventLoop) {
        let Some(r) = self.running.take() else {
            return;
        };
        let errors = r.gpu.take_uncaptured_errors();
        if let Some(first) = errors.first()
            && self.error.is_none()
        {
            self.error = Some(format!(
                "wgpu reported {} error(s); the first: {first:?}",
                errors.len()
            ));
        }
        self.summary = Some(self.summary(&r));
    }
}

fn run() -> Result<(), Error> {
    let args = args()?;
    let event_loop =
        EventLoop::new().map_err(|e| format!("no display to open a window on: {e}"))?;
    let mut app = App {
        args,
        running: None,
        frame: 0,
        skipped: 0,
        requested: None,
        minimized: false,
        steady: Steady::default(),
        second: Second::new(),
        summary: None,
        error: None,
    };
    event_loop.run_app(&mut app)?;
    if let Some(e) = app.error {
        return Err(e.into());
    }
    if let Some(summary) = app.summary {
        println!("{summary}");
    }
    Ok(())
}

fn main() -> ExitCode {
    vgpu_examples::report(run())
}
