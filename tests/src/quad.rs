//! A quad draw the auto-bundle and parallel-finish tests share: a rectangle in clip space in one
//! color, both from a `quad` uniform, so a test can tell each draw's pixels apart.

use vgpu::{Draw, DrawDesc, Gpu, Uniform};

/// A quad over `quad.rect` (clip space: x0, x1, y0, y1) in `quad.color / 255`.
pub const QUAD_WGSL: &str = "
struct Quad { rect: vec4f, color: vec4f }
@group(0) @binding(0) var<uniform> quad: Quad;
@vertex fn vs_main(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
    var xs = array<f32, 6>(0.0, 1.0, 0.0, 1.0, 1.0, 0.0);
    var ys = array<f32, 6>(0.0, 0.0, 1.0, 0.0, 1.0, 1.0);
    return vec4f(mix(quad.rect.x, quad.rect.y, xs[i]), mix(quad.rect.z, quad.rect.w, ys[i]), 0.0, 1.0);
}
@fragment fn fs_main() -> @location(0) vec4f { return quad.color / 255.0; }
";

/// The `quad` binding of [`QUAD_WGSL`].
#[derive(Clone, Copy, Debug, Uniform)]
pub struct Quad {
    /// Clip-space x0, x1, y0, y1.
    pub rect: [f32; 4],
    /// RGBA in 0..=255.
    pub color: [f32; 4],
}

impl Quad {
    /// A quad over `rect` in the 8-bit color `c`.
    pub fn new(rect: [f32; 4], c: [u8; 4]) -> Quad {
        Quad {
            rect,
            color: c.map(f32::from),
        }
    }
}

/// A six-vertex draw of [`QUAD_WGSL`] labelled `label` (its shader too) over `rect` in `c`.
///
/// # Panics
/// If the shader or the draw cannot be made (a test's assertion).
pub fn quad_draw(gpu: &Gpu, label: &str, rect: [f32; 4], c: [u8; 4]) -> Draw {
    let shader = gpu.shader(label, QUAD_WGSL).expect("the quad shader");
    let draw = gpu
        .draw(
            &shader,
            DrawDesc {
                label: label.to_owned(),
                vertex_count: Some(6),
                ..Default::default()
            },
        )
        .expect("the quad draw");
    draw.set("quad", &Quad::new(rect, c))
        .expect("the quad value");
    draw
}
