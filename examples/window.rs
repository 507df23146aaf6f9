//! The shadow-mapped scene of the `scene` example in a resizable window (winit 0.30), with an
//! orbiting camera. The title shows frames per second and whether frames are CPU- or GPU-bound
//! (CPU recording time against the GPU pass time), once a second. Esc or closing quits.
//!
//! ```text
//! cargo run --release --example window -- [--frames N] [--screenshot out.png] [--small]
//!                                          [--still] [--resize-at K]
//! ```
//!
//! `--frames N` exits after N frames and prints one JSON line with the counters of the frames
//! after the last resize; `--screenshot` saves the last frame (read back from the window's
//! texture where the window allows it — Vulkan here — else the last frame rendered into the
//! scene's offscreen target: GL here); `--still` stops the camera and the movers (steady frames
//! then upload nothing); `--resize-at K` asks the window for another size at frame K and shrinks
//! the surface to 0×0 for one frame (a minimized window: the frame is skipped).

use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use vgpu::{FrameReport, Gpu, GpuOptions, Surface, SurfaceDesc};
use vgpu_examples::scene::{Scene, SceneConfig};
use winit::application::ApplicationHandler;
use winit::dpi::PhysicalSize;
use winit::event::{ElementState, KeyEvent, WindowEvent};
use winit::event_loop::{ActiveEventLoop, EventLoop};
use winit::keyboard::{Key, NamedKey};
use winit::window::{Window, WindowId};

/// Animation step per frame (seconds).
const STEP: f32 = 1.0 / 60.0;

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
        let mut value = || it.next().ok_or(format!("{flag} needs a value"));
        match flag.as_str() {
            "--frames" => a.frames = Some(value()?.parse().map_err(|e| format!("--frames: {e}"))?),
            "--screenshot" => a.screenshot = Some(value()?),
            "--small" => a.small = true,
            "--still" => a.still = true,
            "--resize-at" => {
                a.resize_at = Some(value()?.parse().map_err(|e| format!("--resize-at: {e}"))?)
            }
            "--help" | "-h" => {
                println!(
                    "window [--frames N] [--screenshot out.png] [--small] [--still] [--resize-at K]"
                );
                std::process::exit(0);
            }
            other => return Err(format!("unknown flag {other:?} (try --help)")),
        }
    }
    Ok(a)
}

/// What the window renders with.
struct Running {
    window: Arc<Window>,
    gpu: Gpu,
    surface: Surface,
    scene: Scene,
}

/// Counters of the frames since the last resize.
#[derive(Default)]
struct Steady {
    frames: u64,
    bind_groups: u64,
    bytes: u64,
    writes: u64,
}

struct App {
    args: Args,
    running: Option<Running>,
    frame: u64,
    skipped: u64,
    /// The frame after which the 0×0 surface is restored.
    restore_at: Option<u64>,
    steady: Steady,
    second: (Instant, u64, Duration, Duration),
    error: Option<String>,
}

impl App {
    fn fail(&mut self, event_loop: &ActiveEventLoop, e: impl std::fmt::Display) {
        self.error = Some(e.to_string());
        event_loop.exit();
    }

    fn start(&mut self, event_loop: &ActiveEventLoop) -> Result<(), Box<dyn std::error::Error>> {
        let config = if self.args.small {
            SceneConfig::small()
        } else {
            SceneConfig::default()
        };
        let config = SceneConfig {
            orbit: !self.args.still,
            movers: if self.args.still { 0 } else { config.movers },
            ..config
        };
        let attributes = Window::default_attributes()
            .with_title("vgpu window")
            .with_inner_size(PhysicalSize::new(config.width, config.height));
        let window = Arc::new(event_loop.create_window(attributes)?);
        let size = window.inner_size();
        let options = GpuOptions::from_env()?.with_display(event_loop.owned_display_handle());
        let desc =
            SurfaceDesc::new(size.width, size.height).depth(wgpu::TextureFormat::Depth32Float);
        let (gpu, surface) = Gpu::new_for_window(&options, window.clone(), &desc)?;
        let scene = Scene::new(&gpu, config)?;
        eprintln!(
            "window: {} ({:?}), surface {:?}, read-back {}",
            gpu.adapter_info().name,
            gpu.adapter_info().backend,
            surface.format(),
            if surface.supports_read_back() {
                "from the window"
            } else {
                "from the offscreen target"
            }
        );
        window.request_redraw();
        self.running = Some(Running {
            window,
            gpu,
            surface,
            scene,
        });
        Ok(())
    }

    fn redraw(&mut self, event_loop: &ActiveEventLoop) -> Result<(), Box<dyn std::error::Error>> {
        let Some(r) = self.running.take() else {
            return Ok(());
        };
        let result = self.redraw_with(&r, event_loop);
        self.running = Some(r);
        result
    }

    fn redraw_with(
        &mut self,
        r: &Running,
        event_loop: &ActiveEventLoop,
    ) -> Result<(), Box<dyn std::error::Error>> {
        self.frame += 1;
        let frame = self.frame;
        let last = self.args.frames == Some(frame);
        if self.args.resize_at == Some(frame) {
            let size = r.window.inner_size();
            let _ = r
                .window
                .request_inner_size(PhysicalSize::new(size.width * 3 / 4, size.height * 3 / 4));
            // A minimized window: winit cannot make one on X11, so the surface is shrunk.
            r.surface.resize(0, 0)?;
            self.restore_at = Some(frame);
        } else if self.restore_at.take().is_some() {
            let size = r.window.inner_size();
            r.surface.resize(size.width, size.height)?;
            self.steady = Steady::default();
        }
        let time = if self.args.still {
            0.0
        } else {
            frame as f32 * STEP
        };
        let screenshot = last && self.args.screenshot.is_some();
        if screenshot && r.surface.supports_read_back() {
            r.surface.capture_next_frame()?;
        }
        let report = r.scene.render_into(time, &r.surface)?;
        if report.skipped.is_some() {
            self.skipped += 1;
        } else if self.restore_at.is_none() {
            self.count(&report);
        }
        self.title(r, &report);
        if let (true, Some(path)) = (screenshot, &self.args.screenshot) {
            let image = match r.surface.take_capture() {
                Some(image) => image,
                // The offscreen copy: the same frame rendered into the scene's own target.
                None => {
                    r.scene.render(time)?;
                    r.scene.target().read_rgba8()?
                }
            };
            image.save_png(path)?;
        }
        if last {
            println!(
                "{{\"adapter\":{:?},\"frames\":{frame},\"skipped\":{},\"steady_frames\":{},\"steady_bind_groups\":{},\"steady_bytes_uploaded\":{},\"steady_write_calls\":{},\"size\":[{},{}]}}",
                r.gpu.adapter_info().name,
                self.skipped,
                self.steady.frames,
                self.steady.bind_groups,
                self.steady.bytes,
                self.steady.writes,
                r.surface.size().0,
                r.surface.size().1,
            );
            event_loop.exit();
        } else {
            r.window.request_redraw();
        }
        Ok(())
    }

    /// Counts a rendered frame after the warm-up frames that follow a (re)configuration.
    fn count(&mut self, report: &FrameReport) {
        self.steady.frames += 1;
        if self.steady.frames > 2 {
            self.steady.bind_groups += report.stats.bind_groups_created;
            self.steady.bytes += report.stats.bytes_uploaded;
            self.steady.writes += report.stats.write_calls;
        }
    }

    /// Once a second: frames per second and the CPU/GPU verdict in the title.
    fn title(&mut self, r: &Running, report: &FrameReport) {
        let (since, frames, cpu, gpu) = &mut self.second;
        *frames += 1;
        *cpu += report.encode + report.submit;
        *gpu += report.gpu_total().unwrap_or_default();
        if since.elapsed() < Duration::from_secs(1) {
            return;
        }
        let fps = *frames as f64 / since.elapsed().as_secs_f64();
        let verdict = if gpu.is_zero() {
            "GPU time unknown".to_owned()
        } else if cpu > gpu {
            format!("CPU-bound ({:.2}x)", cpu.as_secs_f64() / gpu.as_secs_f64())
        } else {
            format!("GPU-bound ({:.2}x)", gpu.as_secs_f64() / cpu.as_secs_f64())
        };
        r.window
            .set_title(&format!("vgpu window — {fps:.0} fps — {verdict}"));
        self.second = (Instant::now(), 0, Duration::ZERO, Duration::ZERO);
    }
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
            WindowEvent::Resized(size) => {
                if let Some(r) = &self.running {
                    if self.restore_at.is_none() {
                        if let Err(e) = r.surface.resize(size.width, size.height) {
                            self.fail(event_loop, e);
                        }
                        self.steady = Steady::default();
                    }
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
}

fn main() -> ExitCode {
    let result = (|| -> Result<(), Box<dyn std::error::Error>> {
        let args = args()?;
        let event_loop = EventLoop::new()?;
        let mut app = App {
            args,
            running: None,
            frame: 0,
            skipped: 0,
            restore_at: None,
            steady: Steady::default(),
            second: (Instant::now(), 0, Duration::ZERO, Duration::ZERO),
            error: None,
        };
        event_loop.run_app(&mut app)?;
        match app.error {
            Some(e) => Err(e.into()),
            None => Ok(()),
        }
    })();
    vgpu_examples::report(result)
}
