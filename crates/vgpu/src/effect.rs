//! [`Effect`]: a fullscreen fragment shader (post-processing, composites). When the WGSL has no
//! vertex entry point, vgpu appends a fullscreen-triangle vertex stage that passes
//! `@location(0) uv: vec2f` (0,0 at the top-left) to the fragment stage.

use std::ops::Deref;

use crate::draw::{Draw, DrawDesc};
use crate::error::Result;
use crate::gpu::Gpu;

/// The vertex stage appended to effects without one.
pub const FULLSCREEN_VERTEX: &str = "
struct VgpuFullscreenOut {
    @builtin(position) position: vec4f,
    @location(0) uv: vec2f,
}

@vertex
fn vgpu_fullscreen_vs(@builtin(vertex_index) i: u32) -> VgpuFullscreenOut {
    let uv = vec2f(f32((i << 1u) & 2u), f32(i & 2u));
    var out: VgpuFullscreenOut;
    out.position = vec4f(uv.x * 2.0 - 1.0, 1.0 - uv.y * 2.0, 0.0, 1.0);
    out.uv = uv;
    return out;
}
";

/// A fullscreen draw: three vertices covering the target. Derefs to [`Draw`] for `set` and
/// `p.draw(&effect)`.
#[derive(Clone, Debug)]
pub struct Effect {
    draw: Draw,
}

impl Deref for Effect {
    type Target = Draw;
    fn deref(&self) -> &Draw {
        &self.draw
    }
}

impl AsRef<Draw> for Effect {
    fn as_ref(&self) -> &Draw {
        &self.draw
    }
}

impl Gpu {
    /// A fullscreen effect from WGSL holding a fragment entry point (`fs_main` or the only one)
    /// and, optionally, its own vertex stage.
    pub fn effect(&self, label: &str, wgsl: &str) -> Result<Effect> {
        // Its own vertex stage if it has one (one parse); else the fullscreen triangle's.
        let own = self.shader(label, wgsl).ok().filter(|s| {
            s.inner
                .core
                .entry_points()
                .iter()
                .any(|e| e.stage == vgpu_core::Stage::Vertex)
        });
        let (shader, vertex_entry) = match own {
            Some(shader) => (shader, None),
            None => {
                let source = format!("{wgsl}\n{FULLSCREEN_VERTEX}");
                (
                    self.shader(label, &source)?,
                    Some("vgpu_fullscreen_vs".to_owned()),
                )
            }
        };
        let draw = self.draw(
            &shader,
            DrawDesc {
                label: label.to_owned(),
                vertex_entry,
                vertex_count: Some(3),
                ..Default::default()
            },
        )?;
        Ok(Effect { draw })
    }
}
