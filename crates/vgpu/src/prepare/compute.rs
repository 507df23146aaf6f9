//! [`Compute::prepare`]: a compute's pipeline, created now.

use crate::compute::Compute;
use crate::error::Result;

impl Compute {
    /// Creates the compute's pipeline now, so the first dispatch creates none. Preparing again,
    /// or a pipeline another compute with the same shader, entry point and constants already
    /// has, creates nothing. Errors are those of the first dispatch's pipeline creation.
    ///
    /// ```
    /// let gpu = vgpu::Gpu::noop();
    /// let shader = gpu.shader("k", "@compute @workgroup_size(1) fn cs_main() {}")?;
    /// let k = gpu.compute(&shader, Default::default())?;
    /// k.prepare()?;
    /// let report = gpu.frame(|f| f.compute_pass(|c| c.dispatch(&k, 1, 1, 1)))?;
    /// assert_eq!(report.stats.pipelines_created, 0);
    /// # Ok::<(), vgpu::Error>(())
    /// ```
    pub fn prepare(&self) -> Result<()> {
        let key = self.inner.key;
        self.inner
            .with_state(|st| st.compute_pipeline(key).map(|_| ()))
    }
}
