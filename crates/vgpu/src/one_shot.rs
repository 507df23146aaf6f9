//! One-shot draws: a draw or an effect rendered into a target in a frame of its own
//! ([`Gpu::render_once`], [`Gpu::render_once_with`]), for a bake, a thumbnail or a
//! post-processing step outside the app's frame loop.

use crate::draw::Draw;
use crate::error::Result;
use crate::gpu::Gpu;
use crate::pass_desc::{PassDesc, PassTarget};
use crate::report::FrameReport;

impl Gpu {
    /// Renders `draw` (or an effect: it derefs to [`Draw`]) into `target` in a frame of its own,
    /// clearing color to transparent black and depth to 1 first, and submits it: the frame's
    /// report is returned. For other clears or a viewport, [`render_once_with`](Self::render_once_with).
    /// Several draws in one frame are cheaper with [`Gpu::frame`].
    ///
    /// ```
    /// let gpu = vgpu::Gpu::noop();
    /// let target = gpu.target(8, 8)?;
    /// let fx = gpu.effect("red", "@fragment fn fs_main() -> @location(0) vec4f { return vec4f(1.0, 0.0, 0.0, 1.0); }")?;
    /// let report = gpu.render_once(&target, &fx)?;
    /// assert_eq!(report.stats.operations_recorded, 1);
    /// # Ok::<(), vgpu::Error>(())
    /// ```
    pub fn render_once<'t>(
        &self,
        target: impl Into<PassTarget<'t>>,
        draw: &Draw,
    ) -> Result<FrameReport> {
        self.render_once_with(PassDesc::new(target), draw)
    }

    /// [`render_once`](Self::render_once) with the pass described by `desc` (its clears,
    /// viewport, scissor, label): e.g. `PassDesc::new(&target).load()` draws over what the
    /// target holds.
    ///
    /// ```
    /// let gpu = vgpu::Gpu::noop();
    /// let target = gpu.target(8, 8)?;
    /// let fx = gpu.effect("fx", "@fragment fn fs_main() -> @location(0) vec4f { return vec4f(0.5); }")?;
    /// gpu.render_once_with(vgpu::PassDesc::new(&target).clear([0.0, 0.0, 1.0, 1.0]), &fx)?;
    /// # Ok::<(), vgpu::Error>(())
    /// ```
    pub fn render_once_with(&self, desc: PassDesc<'_>, draw: &Draw) -> Result<FrameReport> {
        self.frame(|f| f.pass(desc, |p| p.draw(draw)))
    }
}
