//! The shadow-mapped scene of the `scene` example in a resizable window, on vgpu's app runner
//! (`vgpu::app::run`, feature `app`: the window, its surface and depth at the window's size,
//! the clock, Esc and close), with an orbiting camera. The title shows frames per second and
//! whether frames are CPU- or GPU-bound (the `scene` example's verdict: CPU recording time
//! against GPU pass time, p50), once a second. Esc or closing the window quits.
//!
//! ```text
//! cargo run --release --example window -- [--frames N] [--screenshot out.png] [--small]
//!                                          [--still] [--resize-at K]
//! ```
//!
//! - `--frames N`: exit after N frames.
//! - `--screenshot out.png`: save the last frame (of `--frames N`), captured by the runner
//!   (`FrameContext::capture`): read back from the window's texture where the window allows it
//!   (Vulkan here); else (GL here) the main pass renders into an offscreen target of the
//!   window's format and size, which the runner copies to the window, and the screenshot is read
//!   from that target.
//! - `--small`: the small scene (200×150, 8×8 pillars), for tests.
//! - `--still`: the animation stays at time 0 (steady frames then upload nothing).
//! - Hot reload: the main pass's shader is `examples/shaders/scene/lit.wgsl`, watched while the
//!   window is open (`Gpu::watch_shader`, the `hot-reload` feature): save a change and the next
//!   frame renders with it, every draw keeping its values; a mistake prints the file, line and
//!   column, and the previous shader keeps rendering until the file is fixed.
//! - `--resize-at K`: at frame K, ask the window for 3/4 of its size, and shrink the surface to
//!   0×0 for that frame (a minimized window; winit cannot make a zero-sized window on X11): the
//!   frame is skipped, and the runner gives the surface the window's size again at the next.
//!
//! On exit it prints one JSON line: the adapter, frames rendered and skipped, the final size, and
//! the counters (bind groups created, bytes uploaded, write calls) summed over the steady frames
//! since the last resize (all but the first frame after it). Errors print a reason and exit 1.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use vgpu::app::winit::dpi::PhysicalSize;
use vgpu::app::{AppContext, AppSettings, FrameContext};
use vgpu::{FrameReport, Gpu, Surface, WatchedShader};
use vgpu_examples::scene::{LIT_SHADER_FOLDER, Scene, SceneConfig};
use vgpu_examples::{quantile, verdict};

type Error = Box<dyn std::error::Error>;

/// Animation step per frame (seconds).
const STEP: f32 = 1.0 / 60.0;

/// The scene's main pass needs this depth attachment.
const DEPTH: wgpu::TextureFormat = wgpu::TextureFormat::Depth32Float;

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

/// The app's state: the scene and what the frames counted.
struct App {
    gpu: Gpu,
    surface: Surface,
    scene: Scene,
    /// The main pass's shader, `examples/shaders/scene/lit.wgsl`, watched (hot reload).
    lit: Option<WatchedShader>,
    /// Frames rendered or skipped so far.
    frame: u64,
    skipped: u64,
    /// The size asked for at `--resize-at`.
    requested: Option<PhysicalSize<u32>>,
    steady: Steady,
    second: Second,
    /// Why the app ended early (a screenshot that could not be taken).
    failure: Option<String>,
}

impl App {
    fn new(ctx: &mut AppContext<'_>, config: SceneConfig, args: &Args) -> vgpu::Result<App> {
        let gpu = ctx.gpu.clone();
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
        let (width, height) = ctx.size();
        eprintln!(
            "window: {} ({:?}), surface {:?} {width}x{height}, {} objects{}",
            gpu.adapter_info().name,
            gpu.adapter_info().backend,
            ctx.surface.format(),
            scene.objects(),
            match (&args.screenshot, ctx.surface.supports_read_back()) {
                (None, _) => "",
                (Some(_), true) => ", screenshot read back from the window's texture",
                (Some(_), false) => {
                    ", screenshot from an offscreen target (the window's texture cannot be read back)"
                }
            }
        );
        Ok(App {
            gpu,
            surface: ctx.surface.clone(),
            scene,
            lit,
            frame: 0,
            skipped: 0,
            requested: None,
            steady: Steady::default(),
            second: Second::new(),
            failure: None,
        })
    }

    /// One frame: `--resize-at`, the scene at the clock's time (into the capture's target on
    /// the last frame of `--screenshot`), the counters and the title.
    fn frame(&mut self, ctx: &mut FrameContext<'_>, args: &Args) -> vgpu::Result<()> {
        self.frame += 1;
        if ctx.resized() {
            self.steady = Steady::default();
        }
        if args.resize_at == Some(self.frame) {
            let size = ctx.window.inner_size();
            let wanted =
                PhysicalSize::new((size.width * 3 / 4).max(1), (size.height * 3 / 4).max(1));
            self.requested = Some(wanted);
            // `Some`: applied at once; `None`: a `Resized` event follows (X11). Either way the
            // runner gives the surface the window's size before the next frame.
            let _ = ctx.window.request_inner_size(wanted);
            ctx.surface.resize(0, 0)?;
        }
        let screenshot = args
            .screenshot
            .as_ref()
            .filter(|_| args.frames == Some(self.frame));
        if screenshot.is_some() {
            ctx.capture()?;
        }
        let report = self.scene.render_into(ctx.clock.time(), ctx.target());
        if let Some(lit) = &self.lit {
            for event in lit.take_events() {
                eprintln!("window: {LIT_SHADER_FOLDER}/lit.wgsl {event}");
            }
        }
        let report = report?;
        match report.skipped {
            Some(_) => self.skipped += 1,
            None => self.count(&report),
        }
        self.title(ctx, &report);
        if let Some(path) = screenshot {
            match ctx.captured()? {
                Some(image) => image.save_png(path)?,
                None => {
                    let why = format!(
                        "the last frame was skipped ({:?}): no screenshot",
                        report.skipped
                    );
                    self.failure = Some(why);
                    ctx.exit();
                }
            }
        }
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
    fn title(&mut self, ctx: &FrameContext<'_>, report: &FrameReport) {
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
        let advisor = self.gpu.advisor();
        let title = match advisor.advice.first() {
            Some(advice) => format!("vgpu window: {fps:.0} fps, {bound}; {}", advice.headline()),
            None => format!("vgpu window: {fps:.0} fps, {bound}"),
        };
        ctx.window.set_title(&title);
        eprintln!("{title}");
        *second = Second::new();
    }

    /// The JSON line printed at exit.
    fn summary(&self) -> String {
        let info = self.gpu.adapter_info();
        let (width, height) = self.surface.size();
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

fn run() -> Result<(), Error> {
    let args = args()?;
    let config = if args.small {
        SceneConfig::small()
    } else {
        SceneConfig::default()
    };
    let settings = AppSettings {
        size: (config.width, config.height),
        depth: Some(DEPTH),
        frames: args.frames,
        // The animation advances a step a frame (none with `--still`), whatever the frame rate.
        fixed_delta: Some(Duration::from_secs_f32(if args.still { 0.0 } else { STEP })),
        ..AppSettings::new("vgpu window")
    };
    let app = vgpu::app::run(
        settings,
        |ctx| App::new(ctx, config, &args),
        |app, ctx| app.frame(ctx, &args),
    )?;
    if let Some(why) = &app.failure {
        return Err(why.clone().into());
    }
    let errors = app.gpu.take_uncaptured_errors();
    if let Some(first) = errors.first() {
        let n = errors.len();
        return Err(format!("wgpu reported {n} error(s); the first: {first:?}").into());
    }
    println!("{}", app.summary());
    Ok(())
}

fn main() -> ExitCode {
    vgpu_examples::report(run())
}
