//! Compute pipelines, cached per (program, constant set): computes of one shader and entry
//! point with equal override values share one pipeline, and another set of values makes
//! another pipeline of the same shader module.

use super::State;
use super::compute_info::ComputePipelineKey;
use super::operation::{OpKey, OperationKind};
use super::program::Stages;
use crate::error::Result;

impl State {
    /// The compute pipeline of operation `key` (memoized per operation, cached per program and
    /// constant set).
    pub(crate) fn compute_pipeline(
        &mut self,
        key: OpKey,
    ) -> Result<Option<(u64, wgpu::ComputePipeline)>> {
        let Some(op) = self.ops.get(key) else {
            return Ok(None);
        };
        let OperationKind::Compute(info) = &op.kind else {
            return Ok(None);
        };
        if let Some(m) = &info.pipeline {
            return Ok(Some(m.clone()));
        }
        let program = op.program.clone();
        let op_label = op.label.clone();
        let Stages::Compute { cs } = &program.stages else {
            return Ok(None);
        };
        let cache_key: ComputePipelineKey = (program.id, info.constants.clone());
        let entry = match self.compute_pipelines.get(&cache_key) {
            Some(e) => e.clone(),
            None => {
                let module = program.module(&self.ctx)?;
                let constants = cache_key.1.for_wgpu();
                let p = self
                    .ctx
                    .create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                        label: Some(program.shader.label()),
                        layout: Some(&program.pipeline_layout),
                        module,
                        entry_point: Some(cs),
                        compilation_options: wgpu::PipelineCompilationOptions {
                            constants: &constants,
                            ..Default::default()
                        },
                        cache: None,
                    })?;
                let e = (self.next_id(), p);
                let created = self.ctx.stats().pipelines_created.get();
                self.render_pipelines
                    .created_by
                    .push((op_label.clone(), created));
                self.compute_pipelines.insert(cache_key, e.clone());
                e
            }
        };
        if let Some(op) = self.ops.get_mut(key)
            && let OperationKind::Compute(info) = &mut op.kind
        {
            info.pipeline = Some(entry.clone());
        }
        Ok(Some(entry))
    }
}
