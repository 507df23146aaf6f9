//! by-example §5, fix-it errors (upstream: `examples/by-example-s05-fixits`).
//!
//! Mistakes are errors with a stable `VGPU-…` code, a message naming the draw and the binding,
//! and a fix (`vgpu::explain(code)`), returned before wgpu sees anything; a rejected call changes
//! nothing. Upstream's two canonical mistakes, and what vgpu answers:
//!
//! - drawing with a binding never set (upstream: "Unset `samp`"): `VGPU-DRAW-UNSET-BINDING`;
//! - flipping a binding from values vgpu owns to a buffer the app owns (upstream: "ownership
//!   cannot change"): `VGPU-SET-OWNERSHIP`;
//!
//! and a third that vgpu adds: a misspelt binding name (`VGPU-SET-BINDING-UNKNOWN`, with a
//! did-you-mean). Prints, for each mistake, a `fix-it <mistake>: <code>` line, the message, and
//! the code's meaning and fix; then draws the effect whose set was rejected, to show it still
//! draws with its own value (its counters line, and on a real device its `wave pixel` line: red
//! is `speed` = 2, saturated, not the refused buffer's zeros). The errors are the same on every device, the
//! noop one included.
//!
//! ```text
//! cargo run --example by_example_s05_fixits
//! ```

use vgpu::{BufferDesc, Gpu, PassDesc, value};

/// An effect with a sampler binding that is never set.
const NEEDS_SAMPLER: &str = r#"
@group(0) @binding(0) var samp: sampler;
fn use_sampler(value: sampler) {}
@fragment fn main(@location(0) uv: vec2f) -> @location(0) vec4f {
    use_sampler(samp);
    return vec4f(uv, 0.0, 1.0);
}
"#;

/// An effect whose `params` vgpu owns (set from plain values).
const SPEED: &str = r#"
struct Params { speed: f32 }
@group(0) @binding(0) var<uniform> params: Params;
@fragment fn main(@location(0) uv: vec2f) -> @location(0) vec4f {
    return vec4f(params.speed, uv, 1.0);
}
"#;

/// Makes each mistake once: (mistake, the error it got). Also returns the `wave` effect, whose
/// rejected set must have changed nothing.
fn make_mistakes(gpu: &Gpu) -> vgpu::Result<(Vec<(&'static str, vgpu::Error)>, vgpu::Effect)> {
    let target = gpu.target(4, 4)?;
    let mut mistakes = Vec::new();

    // 1. `samp` is never set: recording the draw fails, and the frame with it.
    let lighting = gpu.effect("lighting", NEEDS_SAMPLER)?;
    if let Err(e) = gpu.frame(|f| f.pass(PassDesc::new(&target), |p| p.draw(&lighting))) {
        mistakes.push(("missing binding", e));
    }

    // 2. `params` latched to values vgpu owns; a buffer for it is refused.
    let wave = gpu.effect("wave", SPEED)?;
    wave.set("params", value! { speed: 2.0 })?;
    let buffer = gpu.buffer(&BufferDesc {
        label: "speed buffer".into(),
        size: 16,
        usage: wgpu::BufferUsages::UNIFORM,
    })?;
    if let Err(e) = wave.set("params", &buffer) {
        mistakes.push(("ownership flip", e));
    }

    // 3. A misspelt member: the error lists what exists and suggests the nearest name.
    if let Err(e) = wave.set("sped", &3.0f32) {
        mistakes.push(("misspelt name", e));
    }
    Ok((mistakes, wave))
}

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

    let (mistakes, wave) = make_mistakes(&gpu)?;
    for (mistake, error) in &mistakes {
        println!("fix-it {mistake}: {}", error.code());
        println!("  error: {error}");
        // Every code has an entry: what it means and the usual fix (docs/errors.md lists them).
        let info = vgpu::explain(error.code()).ok_or("a code without an entry")?;
        println!("  meaning: {}", info.meaning);
        println!("  fix: {}", info.fix);
    }

    // The rejected sets changed nothing: `wave` still draws its own value.
    let target = gpu.target(4, 4)?;
    let report = gpu.frame(|f| f.pass(PassDesc::new(&target), |p| p.draw(&wave)))?;
    println!(
        "{}",
        vgpu_examples::counter_line("frame after the mistakes", &report.stats)
    );
    vgpu_examples::fail_on_uncaptured_errors(&gpu)?;
    if gpu.is_noop() {
        println!("nothing was rendered (the noop device executes no GPU work)");
        return Ok(());
    }
    // Red is `speed` = 2 (saturated), not the zeros of the refused buffer.
    let pixel = target.read_rgba8()?.pixel(0, 0).ok_or("no pixel")?;
    println!("wave pixel: {pixel:?}");
    Ok(())
}
