//! Render and compute pipelines, cached per (program, render state, target signature) and shared
//! by every operation with the same shader and state; and the target signatures their memos are
//! keyed by, interned.
//!
//! The full path's pipeline step ([`RenderPipelines::memoize_for`]) runs when an operation's
//! pipeline memo lacks the pass's signature; the full path then continues with the memo holding
//! it (`record/full.rs`).

use std::sync::Arc;

use ahash::AHashMap;
use vgpu_core::GpuContext;

use super::State;
use super::operation::{Operation, OperationKind, RenderStateKey};
use super::render_pipeline::create_render_pipeline;
use crate::descriptors::TargetSignature;
use crate::error::Result;

/// Key of the render pipeline cache.
pub(crate) type PipelineKey = (u64, Arc<RenderStateKey>, TargetSignature);

/// The render pipelines of a device (never removed: few): their ids by what they are made of,
/// and the pipelines by id. An id is a table position plus one (0: none).
#[derive(Default)]
pub(crate) struct RenderPipelines {
    ids: AHashMap<PipelineKey, u32>,
    /// The pipelines, by id − 1.
    table: Vec<wgpu::RenderPipeline>,
    /// The labels of the draws and computes whose pipelines were created (compute ones by
    /// `compute_pipeline.rs`), each with the device's pipeline
    /// counter just after, until a frame's submit takes them (`State::take_pipelines_created_by`).
    pub(crate) created_by: Vec<(vgpu_core::Label, u64)>,
}

impl RenderPipelines {
    /// The render pipeline with id `id` (ids start at 1).
    #[inline]
    pub(crate) fn by_id(&self, id: u64) -> Option<&wgpu::RenderPipeline> {
        self.table.get(usize::try_from(id).ok()?.checked_sub(1)?)
    }

    /// The pipeline step of the full path, for an operation whose pipeline memo lacks target
    /// signature `sig` (interned as `sig_id`): the pipeline is taken from the cache, or created,
    /// and memoized in `op` as its latest. Nothing for a compute.
    #[cold]
    pub(crate) fn memoize_for(
        &mut self,
        ctx: &GpuContext,
        op: &mut Operation,
        sig: TargetSignature,
        sig_id: u32,
    ) -> Result<()> {
        let Operation {
            kind: OperationKind::Render(render),
            program,
            label,
            ..
        } = op
        else {
            return Ok(());
        };
        ctx.stats().pipeline_cache_lookups.bump();
        let cache_key: PipelineKey = (program.id, render.state_key.clone(), sig);
        if let Some(&id) = self.ids.get(&cache_key) {
            render.pipelines.insert(sig_id, id);
            return Ok(());
        }
        let pipeline = create_render_pipeline(ctx, program, &render.state_key, sig, label)?;
        // Ids are table positions plus one: at most `u32::MAX` distinct pipelines.
        let Ok(id) = u32::try_from(self.table.len() + 1) else {
            return Err(vgpu_core::DeviceError::OutOfMemory {
                operation: "create_render_pipeline",
                label: label.to_string(),
                description: "more than u32::MAX render pipelines".to_owned(),
            }
            .into());
        };
        self.table.push(pipeline);
        self.created_by
            .push((label.clone(), ctx.stats().pipelines_created.get()));
        self.ids.insert(cache_key, id);
        render.pipelines.insert(sig_id, id);
        Ok(())
    }
}

impl State {
    /// The shared copy of `key` (created on first use).
    pub(crate) fn intern_render_state(&mut self, key: RenderStateKey) -> Arc<RenderStateKey> {
        if let Some(shared) = self.render_states.get(&key) {
            return shared.clone();
        }
        let shared = Arc::new(key);
        self.render_states.insert(shared.clone());
        shared
    }

    /// The id of a target signature, interned (a handful per device; looked up once per pass).
    pub(crate) fn signature_id(&mut self, sig: TargetSignature) -> u32 {
        match self.signatures.iter().position(|s| *s == sig) {
            Some(i) => i as u32 + 1,
            None => {
                self.signatures.push(sig);
                self.signatures.len() as u32
            }
        }
    }
}
