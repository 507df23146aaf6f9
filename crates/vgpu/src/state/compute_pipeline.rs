//! Compute pipelines, cached per (program, constant set): computes of one shader and entry
//! point with equal override values share one pipeline, and another set of values makes
//! another pipeline of the same shader module.

use std::sync::Arc;

use super::State;
use super::operation::{OpKey, OperationKind};
use super::program::Stages;
use crate::error::Result;

/// The values an operation gives its shader's `override`s, as checked by
/// `vgpu_core::Shader::pipeline_constants`: wgpu's keys in declaration order, each value's
/// bits (so that the set hashes). Empty (the default) when none is given; cheap to clone.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct ConstantSet(Option<Arc<[Constant]>>);

/// One constant of a [`ConstantSet`]: wgpu's key and the value's bits.
type Constant = (Box<str>, u64);

impl ConstantSet {
    /// The set of `pairs` (already checked and normalized, see the type's docs).
    pub(crate) fn new(pairs: Vec<(String, f64)>) -> Self {
        if pairs.is_empty() {
            return ConstantSet(None);
        }
        ConstantSet(Some(
            pairs
                .into_iter()
                .map(|(k, v)| (k.into_boxed_str(), v.to_bits()))
                .collect(),
        ))
    }

    /// The set as `PipelineCompilationOptions::constants` takes it.
    pub(crate) fn for_wgpu(&self) -> Vec<(&str, f64)> {
        self.0.as_deref().map_or_else(Vec::new, |pairs| {
            pairs
                .iter()
                .map(|(k, v)| (&**k, f64::from_bits(*v)))
                .collect()
        })
    }
}

/// A compute operation's own parts: its constant set and its pipeline once made
/// (`(id, pipeline)`).
#[derive(Debug, Default)]
pub(crate) struct ComputeInfo {
    pub(crate) pipeline: Option<(u64, wgpu::ComputePipeline)>,
    pub(crate) constants: ConstantSet,
}

impl ComputeInfo {
    /// A compute with `constants` and no pipeline made yet.
    pub(crate) fn with_constants(constants: ConstantSet) -> Self {
        ComputeInfo {
            pipeline: None,
            constants,
        }
    }
}

/// Key of the compute pipeline cache: the program's id and the constant set.
pub(crate) type ComputePipelineKey = (u64, ConstantSet);

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
                let module = program.shader.module(&self.ctx)?;
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
        if let Some(op) = self.ops.get_mut(key) {
            if let OperationKind::Compute(info) = &mut op.kind {
                info.pipeline = Some(entry.clone());
            }
        }
        Ok(Some(entry))
    }
}
