//! by-example §4, shared uniforms (upstream: `examples/by-example-s04-shared-uniforms`).
//!
//! One `SharedUniforms` block (`globals`: time and mouse) feeds two effects that declare the same
//! struct, under different binding names (`globals` in one, `g` in the other). vgpu owns the
//! block: a `set` on it (here a later time) is what both effects see, and its bytes are uploaded
//! once for both. Two passes into one 8×8 target: `wave` clears and fills it, then `tint` is
//! drawn over it (loading what `wave` left), so the PNG shows `tint`:
//! `(time, uv.y, mouse.y, 1)` with `time` = 0.8, the value set after the block was bound.
//! Writes `by_example_s04_shared_uniforms.png` and prints the frame's counters.
//!
//! ```text
//! cargo run --example by_example_s04_shared_uniforms
//! ```

use vgpu::{Gpu, PassDesc, TargetDesc, value};

/// Width and height of the target in pixels.
const SIZE: u32 = 8;

/// The first consumer names the block `globals`.
const WAVE: &str = r#"
struct Globals { time: f32, mouse: vec2f }
@group(0) @binding(0) var<uniform> globals: Globals;
@fragment fn main(@location(0) uv: vec2f) -> @location(0) vec4f {
    return vec4f(uv.x, globals.mouse.x, globals.time, 1.0);
}
"#;

/// The second names it `g`: the struct, not the name, must match.
const TINT: &str = r#"
struct Globals { time: f32, mouse: vec2f }
@group(0) @binding(0) var<uniform> g: Globals;
@fragment fn main(@location(0) uv: vec2f) -> @location(0) vec4f {
    return vec4f(g.time, uv.y, g.mouse.y, 1.0);
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

    let target = gpu.target_with(&TargetDesc::new(SIZE, SIZE).label("shared"))?;
    let globals = gpu.uniforms_labeled("globals", value! { time: 0.2, mouse: [0.4, 0.6] })?;
    let wave = gpu.effect("wave", WAVE)?;
    let tint = gpu.effect("tint", TINT)?;
    wave.set("globals", &globals)?;
    tint.set("g", &globals)?;
    // A partial value merges onto the block's: the mouse stays, the time changes for both.
    globals.set(value! { time: 0.8 })?;

    let report = gpu.frame(|f| {
        f.pass(
            PassDesc::new(&target)
                .clear([0.0, 0.0, 0.0, 1.0])
                .label("wave"),
            |p| p.draw(&wave),
        )?;
        f.pass(PassDesc::new(&target).load().label("tint"), |p| {
            p.draw(&tint)
        })
    })?;
    println!("{}", vgpu_examples::counter_line("frame 1", &report.stats));

    vgpu_examples::fail_on_uncaptured_errors(&gpu)?;
    if gpu.is_noop() {
        println!("nothing was rendered (the noop device executes no GPU work): no PNG was written");
        return Ok(());
    }
    target.save_png("by_example_s04_shared_uniforms.png")?;
    println!("wrote by_example_s04_shared_uniforms.png");
    Ok(())
}
