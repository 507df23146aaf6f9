//! [`ClaimedGroup`]: one bind group an operation handed to the caller (kept in the group's memo,
//! `memo.rs`; claimed and changed by `claim.rs`), and what recording sets there.

use smallvec::SmallVec;

use super::command_sink::MAX_DYNAMIC;
use crate::error::Result;
use crate::pipeline_error::PipelineError;

/// One group an operation claimed.
#[derive(Debug)]
pub(crate) struct ClaimedGroup {
    pub(crate) group: u32,
    pub(crate) dynamic: bool,
    /// The layout handed out.
    pub(crate) layout: wgpu::BindGroupLayout,
    /// The alignment of each dynamic offset, in binding order (empty without dynamic offsets).
    pub(crate) alignments: SmallVec<[u32; 2]>,
    /// The caller's bind group, with its id in what a pass has bound.
    pub(crate) bind_group: Option<(u64, wgpu::BindGroup)>,
    /// The dynamic offsets the next record binds (the first `alignments.len()`).
    pub(crate) offsets: [u32; MAX_DYNAMIC],
}

impl ClaimedGroup {
    /// What recording sets at this group: the caller's bind group (its id and the group), its
    /// dynamic offsets and how many; `VGPU-GROUP-UNSET` while the caller attached none.
    #[inline]
    pub(crate) fn bound(
        &self,
        label: &str,
    ) -> Result<(u64, &wgpu::BindGroup, &[u32; MAX_DYNAMIC], usize)> {
        match &self.bind_group {
            Some((id, group)) => Ok((*id, group, &self.offsets, self.alignments.len())),
            None => Err(PipelineError::GroupUnset {
                label: label.to_owned(),
                group: self.group,
            }
            .into()),
        }
    }
}
