//! [`Draw::prepare`]: a draw's render pipeline for a target signature, created now.

use crate::descriptors::TargetSignature;
use crate::draw::Draw;
use crate::error::Result;

impl Draw {
    /// Creates the draw's render pipeline for targets of `signature` now (a
    /// [`Target::signature`](crate::Target::signature) or
    /// [`Surface::signature`](crate::Surface::signature)), so the first frame that draws it into
    /// such a target creates no pipeline. Preparing again, or a pipeline another draw with the
    /// same shader and render state already has, creates nothing. Works the same for an
    /// [`Effect`](crate::Effect) (it derefs to `Draw`).
    ///
    /// Errors are those of the draw's first record into such a target (typed, naming the draw):
    /// e.g. a fragment stage without an output for the signature's color attachment. Nothing is
    /// cached then.
    ///
    /// ```
    /// let gpu = vgpu::Gpu::noop();
    /// let target = gpu.target(8, 8)?;
    /// let fx = gpu.effect("red", "@fragment fn fs_main() -> @location(0) vec4f { return vec4f(1.0, 0.0, 0.0, 1.0); }")?;
    /// fx.prepare(target.signature())?;
    /// let report = gpu.frame(|f| f.pass(&target, |p| p.draw(&fx)))?;
    /// assert_eq!(report.stats.pipelines_created, 0);
    /// # Ok::<(), vgpu::Error>(())
    /// ```
    pub fn prepare(&self, signature: TargetSignature) -> Result<()> {
        let key = self.inner.key;
        self.inner
            .with_state(|st| st.prepare_render(key, signature))
    }
}
