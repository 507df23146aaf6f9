//! The triangle example: one draw whose color is a uniform set by name, a clear color, and a
//! read-back.

use vgpu::{DrawDesc, Gpu, PassDesc, Result, Target, value};

/// Clear color of the triangle example (exactly representable in 8-bit unorm: 51, 102, 153, 255).
pub const CLEAR: [f64; 4] = [0.2, 0.4, 0.6, 1.0];
/// Triangle color (255, 51, 0, 255).
pub const COLOR: [f32; 4] = [1.0, 0.2, 0.0, 1.0];

/// WGSL of the triangle: vertices from `vertex_index`, the color from a uniform struct.
pub const SHADER: &str = r#"
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

/// Renders the triangle into a new `size`×`size` target and returns it.
pub fn render(gpu: &Gpu, size: u32) -> Result<Target> {
    let target = gpu.target(size, size)?;
    let shader = gpu.shader("triangle.wgsl", SHADER)?;
    let draw = gpu.draw(
        &shader,
        DrawDesc {
            label: "triangle".into(),
            ..Default::default()
        },
    )?;
    draw.set("style", value! { color: COLOR })?;
    gpu.frame(|f| f.pass(PassDesc::new(&target).clear(CLEAR), |p| p.draw(&draw)))?;
    Ok(target)
}
