//! by-example §13, headless rendering (upstream: `examples/by-example-s13-headless`).
//!
//! No window: a `Gpu` renders into a target, which is read back or saved as a PNG. With its
//! inputs fixed (here `time` and `speed` set by the example, no clock), a render is
//! deterministic: two devices created one after the other render the same bytes, which makes
//! pixel tests possible. The gradient is rendered with `render_once` (a draw in a frame of its
//! own). Writes `by_example_s13_headless.png` and prints the counters of each render and, on a
//! real device, whether the two images are identical (`identical: true`).
//!
//! ```text
//! cargo run --example by_example_s13_headless
//! ```

use vgpu::{Gpu, TargetDesc, value};

/// Width and height of the target in pixels.
const SIZE: u32 = 8;

/// A gradient shifted by `time × 0.1`, blue = `speed`.
const GRADIENT: &str = r#"
struct Params { time: f32, speed: f32 }
@group(0) @binding(0) var<uniform> params: Params;
@fragment fn main(@location(0) uv: vec2f) -> @location(0) vec4f {
    return vec4f(uv.x + params.time * 0.1, uv.y, params.speed, 1.0);
}
"#;

/// Renders the gradient with fixed inputs into a new target of a new device (printing the
/// frame's counters as `render <run>: …`); returns the device and the target, to read back or
/// save.
fn render_gradient_headless(run: usize) -> Result<(Gpu, vgpu::Target), Box<dyn std::error::Error>> {
    let gpu = Gpu::from_env()?;
    let target = gpu.target_with(&TargetDesc::new(SIZE, SIZE).label("gradient"))?;
    let gradient = gpu.effect("gradient", GRADIENT)?;
    gradient.set("params", value! { time: 1.25, speed: 1.0 })?;
    let report = gpu.render_once(&target, &gradient)?;
    let what = format!("render {run}");
    println!("{}", vgpu_examples::counter_line(&what, &report.stats));
    vgpu_examples::fail_on_uncaptured_errors(&gpu)?;
    Ok((gpu, target))
}

fn main() -> std::process::ExitCode {
    vgpu_examples::report(run())
}

fn run() -> Result<(), Box<dyn std::error::Error>> {
    let (gpu, first) = render_gradient_headless(1)?;
    println!(
        "adapter: {} ({:?})",
        gpu.adapter_info().name,
        gpu.adapter_info().backend
    );
    let (_, second) = render_gradient_headless(2)?;
    if gpu.is_noop() {
        println!("nothing was rendered (the noop device executes no GPU work): no PNG was written");
        return Ok(());
    }
    let (a, b) = (first.read_rgba8()?, second.read_rgba8()?);
    println!("identical: {}", a == b);
    first.save_png("by_example_s13_headless.png")?;
    println!("wrote by_example_s13_headless.png");
    Ok(())
}
