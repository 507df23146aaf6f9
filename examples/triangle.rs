//! Renders one triangle headless and writes `triangle.png`: one draw whose color is a uniform
//! struct set by name (`value!`), a clear color, and a read-back to a PNG.
//!
//! ```text
//! cargo run --release --example triangle
//! ```

use vgpu::{DrawDesc, Gpu, PassDesc, value};

/// Width and height of the image in pixels.
const SIZE: u32 = 64;
/// Clear color (exactly representable in 8-bit unorm: 51, 102, 153, 255).
const CLEAR: [f64; 4] = [0.2, 0.4, 0.6, 1.0];
/// Triangle color (255, 51, 0, 255).
const COLOR: [f32; 4] = [1.0, 0.2, 0.0, 1.0];

/// The triangle: vertices from `vertex_index`, the color from a uniform struct.
const SHADER: &str = r#"
struct Style { color: vec4f }
@group(0) @binding(0) var<uniform> style: Style;

@vertex
fn vs_main(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
    var p = array<vec2f, 3>(vec2f(-0.5, -0.5), vec2f(0.5, -0.5), vec2f(0.0, 0.5));
    return vec4f(p[i], 0.0, 1.0);
}

@fragment
fn fs_main() -> @location(0) vec4f {
    return style.color;
}
"#;

fn main() -> std::process::ExitCode {
    vgpu_examples::report(run())
}

fn run() -> Result<(), Box<dyn std::error::Error>> {
    // The device named by VGPU_BACKEND (auto|vulkan|gl|noop).
    let gpu = Gpu::from_env()?;
    println!(
        "adapter: {} ({:?})",
        gpu.adapter_info().name,
        gpu.adapter_info().backend
    );

    // An offscreen target, the shader (validated and reflected by naga), one draw.
    let target = gpu.target(SIZE, SIZE)?;
    let shader = gpu.shader("triangle.wgsl", SHADER)?;
    let draw = gpu.draw(
        &shader,
        DrawDesc {
            label: "triangle".into(),
            ..Default::default()
        },
    )?;
    // The WGSL binding `style` by name; the struct's layout is checked and packed by vgpu.
    draw.set("style", value! { color: COLOR })?;

    // One frame with one pass: clear, draw, submit.
    gpu.frame(|f| f.pass(PassDesc::new(&target).clear(CLEAR), |p| p.draw(&draw)))?;

    vgpu_examples::fail_on_uncaptured_errors(&gpu)?;
    if gpu.is_noop() {
        println!(
            "nothing was rendered (the noop device executes no GPU work): triangle.png was not written"
        );
        return Ok(());
    }
    // Read the pixels back and write them as an 8-bit RGBA PNG.
    target.save_png("triangle.png")?;
    println!("wrote triangle.png");
    Ok(())
}
