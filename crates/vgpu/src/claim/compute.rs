//! Claimed groups of a [`Compute`]: the calls of
//! [`Draw::claim_group`](crate::Draw::claim_group) and its companions (`super`'s module doc),
//! for computes, and
//! [`ComputePass::dispatch_with_offsets`].

use crate::compute::Compute;
use crate::compute_pass::ComputePass;
use crate::error::Result;

impl Compute {
    /// [`Draw::claim_group`](crate::Draw::claim_group) for a compute: the caller provides bind
    /// group `group` from now on.
    pub fn claim_group(&self, group: u32, dynamic: bool) -> Result<wgpu::BindGroupLayout> {
        self.inner.claim_group(group, dynamic)
    }

    /// [`Draw::set_group`](crate::Draw::set_group) for a compute.
    pub fn set_group(&self, group: u32, bind_group: &wgpu::BindGroup) -> Result<()> {
        self.inner.set_group(group, bind_group)
    }

    /// [`Draw::set_group_offsets`](crate::Draw::set_group_offsets) for a compute: the offsets of
    /// the next dispatches.
    pub fn set_group_offsets(&self, group: u32, offsets: &[u32]) -> Result<()> {
        self.inner.set_group_offsets(group, offsets)
    }

    /// [`Draw::create_group`](crate::Draw::create_group) for a compute.
    pub fn create_group(
        &self,
        group: u32,
        entries: &[wgpu::BindGroupEntry<'_>],
    ) -> Result<wgpu::BindGroup> {
        self.inner.create_group(group, entries)
    }
}

impl ComputePass<'_> {
    /// Dispatches `compute` with `offsets` as the dynamic offsets of its claimed group `group`
    /// (see [`Pass::draw_with_offsets`](crate::Pass::draw_with_offsets)).
    pub fn dispatch_with_offsets(
        &mut self,
        compute: &Compute,
        group: u32,
        offsets: &[u32],
        x: u32,
        y: u32,
        z: u32,
    ) -> Result<()> {
        // A compute of another `Gpu` is refused before its offsets change.
        if compute.inner.gpu_id() != self.gpu_id() {
            return Err(crate::error::foreign_gpu(
                "compute",
                &compute.label(),
                "recording the compute pass",
            ));
        }
        compute.set_group_offsets(group, offsets)?;
        self.dispatch(compute, x, y, z)
    }
}
