//! [`Effect`]: a fullscreen fragment shader (post-processing, composites). When the WGSL has no
//! vertex entry point, vgpu appends a fullscreen-triangle vertex stage that passes
//! `@location(0) uv: vec2f` (0,0 at the top-left) to the fragment stage.

use std::ops::Deref;

use crate::descriptors::{ColorTarget, DepthState};
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

/// How an effect writes its target: blending, write masks, override constants. `Default`:
/// replaces every channel of every attachment, no constants.
#[derive(Clone, Debug)]
pub struct EffectOptions {
    /// Blending of every attachment not listed in `colors`; `None` replaces.
    pub blend: Option<wgpu::BlendState>,
    /// Channels written, for every attachment not listed in `colors`.
    pub write_mask: wgpu::ColorWrites,
    /// Blend and write mask per color attachment, attachment 0 first.
    pub colors: Vec<ColorTarget>,
    /// Depth testing, against a target with depth (default: `Less`, writes on, as for draws;
    /// an effect drawn at depth 0 passes a cleared depth of 1).
    pub depth: DepthState,
    /// Stencil testing and writing (e.g. light only the pixels a light volume marked).
    pub stencil: wgpu::StencilState,
    /// WGSL `override` constants by name (or `@id` as text).
    pub constants: Vec<(String, f64)>,
}

impl Default for EffectOptions {
    fn default() -> Self {
        EffectOptions {
            blend: None,
            write_mask: wgpu::ColorWrites::ALL,
            colors: Vec::new(),
            depth: DepthState::default(),
            stencil: wgpu::StencilState::default(),
            constants: Vec::new(),
        }
    }
}

impl Gpu {
    /// A fullscreen effect from WGSL holding a fragment entry point (`fs_main` or the only one)
    /// and, optionally, its own vertex stage.
    pub fn effect(&self, label: &str, wgsl: &str) -> Result<Effect> {
        self.effect_with(label, wgsl, EffectOptions::default())
    }

    /// [`effect`](Self::effect) with blending, write masks and override constants.
    ///
    /// ```
    /// let gpu = vgpu::Gpu::noop();
    /// let glow = gpu.effect_with(
    ///     "glow",
    ///     "override strength: f32 = 1.0;
    ///      @fragment fn fs_main(@location(0) uv: vec2f) -> @location(0) vec4f {
    ///          return vec4f(uv * strength, 0.0, 1.0);
    ///      }",
    ///     vgpu::EffectOptions {
    ///         blend: Some(vgpu::wgpu::BlendState::PREMULTIPLIED_ALPHA_BLENDING),
    ///         constants: vec![("strength".into(), 0.5)],
    ///         ..Default::default()
    ///     },
    /// )?;
    /// # let _ = glow;
    /// # Ok::<(), vgpu::Error>(())
    /// ```
    pub fn effect_with(&self, label: &str, wgsl: &str, options: EffectOptions) -> Result<Effect> {
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
                blend: options.blend,
                write_mask: options.write_mask,
                colors: options.colors,
                depth: options.depth,
                stencil: options.stencil,
                constants: options.constants,
                ..Default::default()
            },
        )?;
        Ok(Effect { draw })
    }
}
