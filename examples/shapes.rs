//! Every primitive of `vgpu::geometry` (cuboid, plane, sphere, icosphere, torus, cylinder, cone,
//! capsule), lit, in a window run by `vgpu::app`: drag with the left button to orbit, the wheel
//! to zoom, the right button to pan. The title shows the frames per second and the advisor's
//! headline once a second. Esc or closing the window quits.
//!
//! ```text
//! cargo run --release --example shapes -- [--frames N] [--screenshot out.png]
//! ```
//!
//! - `--frames N`: exit after N frames, each 1/60 s apart (a fixed clock: the picture does not
//!   depend on the machine's speed).
//! - `--screenshot out.png`: save the last frame (of `--frames N`), and print the clock's time
//!   and the picture's size it was taken at (`screenshot: time T size W H`), from which a test
//!   computes where each primitive must be (`vgpu_examples::shapes::screen_box`).
//!
//! On exit it prints one JSON line: the adapter, frames rendered, the final size.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use vgpu::app::{AppSettings, run};
use vgpu::camera::{OrbitControls, PerspectiveCamera};
use vgpu_examples::shapes::{Shapes, camera};

const USAGE: &str = "usage: shapes [--frames N] [--screenshot out.png]";

#[derive(Debug, Default)]
struct Args {
    frames: Option<u64>,
    screenshot: Option<String>,
}

fn args() -> Result<Args, String> {
    let mut a = Args::default();
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or(format!("{flag} needs a value ({USAGE})"));
        match flag.as_str() {
            "--frames" => {
                let n = value()?;
                a.frames = Some(
                    n.parse()
                        .map_err(|_| format!("--frames {n}: not a count"))?,
                );
            }
            "--screenshot" => a.screenshot = Some(value()?),
            other => return Err(format!("unknown argument {other} ({USAGE})")),
        }
    }
    if a.screenshot.is_some() && a.frames.is_none() {
        return Err(format!("--screenshot needs --frames ({USAGE})"));
    }
    Ok(a)
}

/// The app's state.
struct State {
    shapes: Shapes,
    camera: PerspectiveCamera,
    controls: OrbitControls,
    /// When the title was last set, and the frames since.
    title_at: Instant,
    frames_since: u32,
}

fn main() -> ExitCode {
    let args = match args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    let mut settings = AppSettings::new("vgpu shapes")
        .size(640, 360)
        .depth(Some(wgpu::TextureFormat::Depth32Float));
    if let Some(n) = args.frames {
        settings = settings
            .frames(n)
            .fixed_delta(Duration::from_secs_f64(1.0 / 60.0));
    }
    let mut summary = String::new();
    let result = run(
        settings,
        |ctx| {
            let camera = camera();
            Ok(State {
                shapes: Shapes::new(ctx.gpu)?,
                controls: OrbitControls::looking_from(camera.eye, camera.target),
                camera,
                title_at: Instant::now(),
                frames_since: 0,
            })
        },
        |s, ctx| {
            s.controls.update(ctx.input, &mut s.camera);
            // A linear surface format (GL may give one): the shader gamma-encodes.
            let encode = !ctx.surface.format().is_srgb();
            let time = ctx.clock.time();
            s.shapes
                .update(s.camera.view_projection(ctx.aspect()), time, encode)?;
            let last = args.frames == Some(ctx.clock.frame() + 1);
            let shot = args.screenshot.as_deref().filter(|_| last);
            if shot.is_some() {
                ctx.capture()?;
            }
            ctx.gpu.frame(|f| {
                f.pass(ctx.pass().clear([0.05, 0.05, 0.08, 1.0]), |p| {
                    s.shapes.draw(p)
                })
            })?;
            if let Some(path) = shot {
                // `None`: the frame's pass into the window was skipped; the next frame retries.
                let Some(image) = ctx.captured()? else {
                    return Ok(());
                };
                image.save_png(path)?;
                println!(
                    "screenshot: time {time} size {} {}",
                    image.width, image.height
                );
                println!("wrote {path}");
            }
            s.frames_since += 1;
            if s.title_at.elapsed() >= Duration::from_secs(1) {
                let fps = f64::from(s.frames_since) / s.title_at.elapsed().as_secs_f64();
                let advisor = ctx.gpu.advisor();
                let headline = advisor
                    .advice
                    .first()
                    .map_or_else(|| "no advice".to_owned(), |a| a.headline());
                ctx.window
                    .set_title(&format!("vgpu shapes: {fps:.0} fps; {headline}"));
                (s.title_at, s.frames_since) = (Instant::now(), 0);
            }
            if last {
                let info = ctx.gpu.adapter_info();
                let (width, height) = ctx.size();
                summary = format!(
                    "{{\"adapter\":{:?},\"backend\":\"{:?}\",\"frames\":{},\"size\":[{width},{height}]}}",
                    info.name,
                    info.backend,
                    ctx.clock.frame() + 1
                );
            }
            Ok(())
        },
    );
    match result {
        Ok(_) => {
            if !summary.is_empty() {
                println!("{summary}");
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
