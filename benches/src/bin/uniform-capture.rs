//! `uniform-capture`: the contract benchmark of `benches/README.md`.
//!
//! ```text
//! cargo run --release -p vgpu-benches --bin uniform-capture -- \
//!   --mode struct|typed|buffer|raw|raw-bundle \
//!   --scenario static|per-pass-camera|one-changes|all-change|reset-all|reshuffle \
//!   --draws N --passes P --frames F --warmup W --backend auto|vulkan|gl|metal|dx12|webgpu|noop --json
//! ```
//!
//! Exit codes: 0 success, 1 the run failed (no device, wgpu error), 2 bad command line.
//!
//! On glibc it fixes the mmap threshold at 32 MiB and the trim threshold at 64 MiB first
//! (`vgpu_benches::malloc_regime`; set `UNIFORM_CAPTURE_DEFAULT_MALLOC=1` to keep glibc's default).

use std::process::ExitCode;

use vgpu_benches::capture::{self, BenchError, Command, Config, FrameLoop, Mode, Report};
use vgpu_benches::capture_raw::RawCapture;
use vgpu_benches::capture_vgpu;

fn run(config: &Config) -> Result<Report, BenchError> {
    let mut looper: Box<dyn FrameLoop> = match config.mode {
        Mode::Raw | Mode::RawBundle => {
            let ctx = pollster::block_on(vgpu_core::request_context(&vgpu_core::ContextOptions {
                backend: config.backend,
                ..Default::default()
            }))?;
            let new = match config.mode {
                Mode::RawBundle => RawCapture::with_bundles,
                _ => RawCapture::new,
            };
            Box::new(new(
                ctx,
                config.scenario,
                config.draws,
                config.passes,
                None,
            )?)
        }
        Mode::Struct => Box::new(capture_vgpu::StructCapture::new(
            capture_vgpu::gpu_for(config.backend)?,
            config.scenario,
            config.draws,
            config.passes,
        )?),
        Mode::Typed => Box::new(capture_vgpu::TypedCapture::new(
            capture_vgpu::gpu_for(config.backend)?,
            config.scenario,
            config.draws,
            config.passes,
        )?),
        Mode::Buffer => Box::new(capture_vgpu::BufferCapture::new(
            capture_vgpu::gpu_for(config.backend)?,
            config.scenario,
            config.draws,
            config.passes,
        )?),
    };
    capture::measure(config, looper.as_mut())
}

fn main() -> ExitCode {
    // Every mode in the same glibc regime (see `malloc_regime`), before anything allocates much.
    vgpu_benches::malloc_regime::fix_mmap_threshold();
    let config = match capture::parse_args(std::env::args().skip(1)) {
        Ok(Command::Run(config)) => config,
        Ok(Command::Help) => {
            print!("{}", capture::USAGE);
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("uniform-capture: error: {e}\n\n{}", capture::USAGE);
            return ExitCode::from(2);
        }
    };
    match run(&config) {
        Ok(report) => {
            if config.json {
                println!("{}", report.to_json());
            } else {
                print!("{}", report.to_text());
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!(
                "uniform-capture: error: mode {} / scenario {} on backend {}: {e}",
                config.mode.name(),
                config.scenario.name(),
                config.backend
            );
            ExitCode::FAILURE
        }
    }
}
