//! Pre-warm (`Draw::prepare`, `Gpu::prepare`, `crate::prepare`): a draw's render pipeline for a
//! target signature created ahead of the frames that use it, through the full path's own pipeline
//! step (`RenderPipelines::memoize_for`); and the labels of the draws whose pipelines were
//! created while a frame was recorded, for its `FrameReport`.

use vgpu_core::Label;

use super::{OpKey, State};
use crate::descriptors::TargetSignature;
use crate::error::Result;

impl State {
    /// Creates (or finds in the cache) the render pipeline of draw `key` for targets of `sig` and
    /// memoizes it in the draw, as the draw's first record into such a target would. Nothing for a
    /// compute or a draw that is gone; nothing new when the draw's memo already holds `sig`.
    pub(crate) fn prepare_render(&mut self, key: OpKey, sig: TargetSignature) -> Result<()> {
        let sig_id = self.signature_id(sig);
        let State {
            ctx,
            ops,
            render_pipelines,
            ..
        } = self;
        let Some(op) = ops.get_mut(key) else {
            return Ok(());
        };
        let memoized = op
            .render_mut()
            .is_none_or(|r| r.pipelines.get(sig_id).is_some());
        if memoized {
            return Ok(());
        }
        render_pipelines.memoize_for(ctx, op, sig, sig_id)
    }

    /// The labels of the draws whose render pipelines were created since the device's pipeline
    /// counter read `since` (a frame's start), oldest first; forgets every label noted so far.
    /// No allocation when none were created.
    pub(crate) fn take_pipelines_created_by(&mut self, since: u64) -> Vec<Label> {
        let mut created = std::mem::take(&mut self.render_pipelines.created_by);
        created.retain(|(_, count)| *count > since);
        created.into_iter().map(|(label, _)| label).collect()
    }
}
