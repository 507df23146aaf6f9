//! [`ComputePass`]: a compute pass being recorded: dispatches of [`Compute`]s, direct or
//! indirect.

use crate::buffer::Buffer;
use crate::compute::Compute;
use crate::error::{BufferError, FrameError, Result, foreign_gpu};
use crate::gpu::Gpu;
use crate::state::{HeldState, PassBindings};

/// A compute pass being recorded.
pub struct ComputePass<'p> {
    gpu: &'p Gpu,
    /// The state, held for the pass (borrowed once per dispatch).
    held: HeldState<'p>,
    cpass: wgpu::ComputePass<'p>,
    bound: PassBindings,
    pipeline: u64,
}

impl std::fmt::Debug for ComputePass<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ComputePass").finish_non_exhaustive()
    }
}

impl ComputePass<'_> {
    /// The id of the `Gpu` recording the pass.
    pub(crate) fn gpu_id(&self) -> crate::descriptors::GpuId {
        self.gpu.id()
    }

    /// Dispatches `x × y × z` workgroups of `compute`. Fails with `VGPU-DISPATCH-LIMIT` past the
    /// device's `max_compute_workgroups_per_dimension`.
    pub fn dispatch(&mut self, compute: &Compute, x: u32, y: u32, z: u32) -> Result<()> {
        let max = self.gpu.ctx.limits().max_compute_workgroups_per_dimension;
        if x > max || y > max || z > max {
            return Err(FrameError::DispatchLimit {
                label: compute.label().to_string(),
                expected: max,
                actual: [x, y, z],
            }
            .into());
        }
        self.prepare(compute)?;
        self.cpass.dispatch_workgroups(x, y, z);
        Ok(())
    }

    /// Dispatches with the workgroup counts read from `buffer` at `offset` (three `u32`s; the
    /// buffer needs `INDIRECT` usage).
    pub fn dispatch_indirect(
        &mut self,
        compute: &Compute,
        buffer: &Buffer,
        offset: u64,
    ) -> Result<()> {
        self.gpu
            .check_buffer(buffer, "dispatching indirect from it")?;
        buffer.check_live()?;
        if !buffer.usage().contains(wgpu::BufferUsages::INDIRECT)
            || !offset.is_multiple_of(4)
            || offset.checked_add(12).is_none_or(|end| end > buffer.size())
        {
            return Err(BufferError::Range {
                label: buffer.label().to_owned(),
                what: "indirect dispatch arguments",
                expected: format!(
                    "INDIRECT usage, offset multiple of 4, offset + 12 <= {}",
                    buffer.size()
                ),
                actual: format!("usage {:?}, offset {offset}", buffer.usage()),
            }
            .into());
        }
        self.prepare(compute)?;
        self.cpass
            .dispatch_workgroups_indirect(buffer.raw(), offset);
        Ok(())
    }

    fn prepare(&mut self, compute: &Compute) -> Result<()> {
        if compute.inner.gpu_id() != self.gpu.id() {
            return Err(foreign_gpu(
                "compute",
                &compute.label(),
                "recording the compute pass",
            ));
        }
        let mut st = self.held.borrow_mut();
        let key = compute.inner.key;
        if let Some((id, pipeline)) = st.compute_pipeline(key)?
            && self.pipeline != id
        {
            self.cpass.set_pipeline(&pipeline);
            self.pipeline = id;
            self.bound.set_pipeline_calls += 1;
        }
        st.record_groups(key, &mut self.cpass, &mut self.bound)?;
        self.bound.operations += 1;
        Ok(())
    }
}

/// Records a compute pass of `gpu` into `encoder`: holds the state for the pass, runs `record`
/// on the [`ComputePass`], then adds the pass's counts to the stats.
pub(crate) fn record_compute_pass(
    gpu: &Gpu,
    encoder: &mut wgpu::CommandEncoder,
    record: impl FnOnce(&mut ComputePass<'_>) -> Result<()>,
) -> Result<()> {
    // Unlabelled: wgpu would copy a label into two `String`s per pass.
    let cpass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
        label: None,
        timestamp_writes: None,
    });
    let mut pass = ComputePass {
        gpu,
        held: gpu.shared.hold(),
        cpass,
        bound: PassBindings::default(),
        pipeline: 0,
    };
    let result = record(&mut pass);
    pass.bound.flush(gpu.ctx.stats());
    result
}
