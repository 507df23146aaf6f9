//! by-example §2, a fullscreen effect (upstream: `examples/by-example-s02-fullscreen`).
//!
//! The smallest render loop: a headless `Gpu`, an explicit 8×8 target, a fragment-only effect
//! (vgpu adds the fullscreen vertex stage and its `uv`), plain numbers given with `set`, one frame.
//! Writes `by_example_s02_fullscreen.png` and prints the frame's counters.
//!
//! `time` and `speed` are uniform values the example gives, not hidden globals: the blue channel
//! is `sin(time × speed) × 0.5 + 0.5`, with `time = π/4` and `speed = 2`, so it is 1.0 (255).
//!
//! ```text
//! cargo run --example by_example_s02_fullscreen
//! ```

use vgpu::{Gpu, PassDesc, TargetDesc, value};

/// Width and height of the target in pixels.
const SIZE: u32 = 8;

/// A fragment stage only: the effect supplies the vertex stage and `uv` (0,0 at the top-left).
const WAVE: &str = r#"
struct Params { time: f32, speed: f32 }
@group(0) @binding(0) var<uniform> params: Params;
@fragment fn main(@location(0) uv: vec2f) -> @location(0) vec4f {
    return vec4f(uv, sin(params.time * params.speed) * 0.5 + 0.5, 1.0);
}
"#;

fn main() -> std::process::ExitCode {
    vgpu_examples::report(run())
}

fn run() -> Result<(), Box<dyn std::error::Error>> {
    let gpu = Gpu::from_env()?;
    println!(
        "adapter: {} ({:?})",
        gpu.adapter_info().name,
        gpu.adapter_info().backend
    );

    let target = gpu.target_with(&TargetDesc::new(SIZE, SIZE).label("wave"))?;
    let wave = gpu.effect("wave", WAVE)?;
    // The first value of a binding gives every member; later sets may name one member alone
    // (the member shorthand: `time` is the member of the one struct binding that has it).
    wave.set("params", value! { time: 0.0, speed: 2.0 })?;
    wave.set("time", &std::f32::consts::FRAC_PI_4)?;

    let report = gpu.frame(|f| f.pass(PassDesc::new(&target).label("wave"), |p| p.draw(&wave)))?;
    println!("{}", vgpu_examples::counter_line("frame 1", &report.stats));

    vgpu_examples::fail_on_uncaptured_errors(&gpu)?;
    if gpu.is_noop() {
        println!("nothing was rendered (the noop device executes no GPU work): no PNG was written");
        return Ok(());
    }
    target.save_png("by_example_s02_fullscreen.png")?;
    println!("wrote by_example_s02_fullscreen.png");
    Ok(())
}
