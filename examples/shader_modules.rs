//! A shader composed from modules (`Gpu::shader_from`): `shaders/landscape/main.wesl` imports a
//! sky from `sky/`, the ground from `surface/`, and four functions of vgpu's WGSL standard
//! library (`fullscreen`, `color`, `noise`); the ground's values are set by the binding name its
//! module wrote. Writes `shader_modules.png` (sky above the horizon, grass below), then shows
//! what a broken import reports: the module, line and column.
//!
//! ```text
//! cargo run --release --example shader_modules
//! ```

use vgpu::{DrawDesc, Gpu, PassDesc, ShaderModules, value};

/// Width and height of the image in pixels.
const SIZE: u32 = 64;
/// The horizon, in uv (0 at the top).
const HORIZON: f32 = 0.5;

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
    let folder = concat!(env!("CARGO_MANIFEST_DIR"), "/shaders/landscape");
    let modules = ShaderModules::folder(folder);
    let shader = gpu.shader_from("landscape", &modules, "main")?;
    let bindings: Vec<&str> = shader
        .reflection()
        .bindings()
        .iter()
        .map(|b| b.name.as_str())
        .collect();
    println!("composed from {folder}: bindings {bindings:?}");

    let draw = gpu.draw(
        &shader,
        DrawDesc {
            label: "landscape".into(),
            ..Default::default()
        },
    )?;
    draw.set(
        "ground",
        value! { grass: [0.1, 0.5, 0.05], horizon: HORIZON },
    )?;
    let target = gpu.target(SIZE, SIZE)?;
    gpu.frame(|f| f.pass(PassDesc::new(&target), |p| p.draw(&draw)))?;
    vgpu_examples::fail_on_uncaptured_errors(&gpu)?;

    // A broken import is an error in the module's terms.
    let broken = ShaderModules::memory([
        (
            "main",
            "import package::sky::gradient::sky_colour;\n\
             @fragment fn fs() -> @location(0) vec4f { return vec4f(sky_colour(0.5), 1.0); }",
        ),
        (
            "sky/gradient",
            include_str!("shaders/landscape/sky/gradient.wesl"),
        ),
    ]);
    if let Err(e) = gpu.shader_from("broken", &broken, "main") {
        println!("a broken import reports: {e}");
    }

    if gpu.is_noop() {
        println!(
            "nothing was rendered (the noop device executes no GPU work): shader_modules.png was not written"
        );
        return Ok(());
    }
    target.save_png("shader_modules.png")?;
    println!("wrote shader_modules.png");
    Ok(())
}
