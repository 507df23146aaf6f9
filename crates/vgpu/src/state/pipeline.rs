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
use super::operation::{OpKey, Operation, OperationKind, RenderStateKey};
use super::program::{Program, Stages};
use crate::descriptors::TargetSignature;
use crate::error::{BindingError, Result};

/// Key of the render pipeline cache.
pub(crate) type PipelineKey = (u64, Arc<RenderStateKey>, TargetSignature);

/// The render pipelines of a device (never removed: few): their ids by what they are made of,
/// and the pipelines by id. An id is a table position plus one (0: none).
#[derive(Default)]
pub(crate) struct RenderPipelines {
    ids: AHashMap<PipelineKey, u32>,
    /// The pipelines, by id − 1.
    table: Vec<wgpu::RenderPipeline>,
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

    /// The compute pipeline of operation `key` (memoized per operation, cached per program).
    pub(crate) fn compute_pipeline(
        &mut self,
        key: OpKey,
    ) -> Result<Option<(u64, wgpu::ComputePipeline)>> {
        let Some(op) = self.ops.get(key) else {
            return Ok(None);
        };
        if let OperationKind::Compute(Some(m)) = &op.kind {
            return Ok(Some(m.clone()));
        }
        let program = op.program.clone();
        let Stages::Compute { cs } = &program.stages else {
            return Ok(None);
        };
        let entry = match self.compute_pipelines.get(&program.id) {
            Some(e) => e.clone(),
            None => {
                let module = program.shader.module(&self.ctx)?;
                let p = self
                    .ctx
                    .create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                        label: Some(program.shader.label()),
                        layout: Some(&program.pipeline_layout),
                        module,
                        entry_point: Some(cs),
                        compilation_options: Default::default(),
                        cache: None,
                    })?;
                let e = (self.next_id(), p);
                self.compute_pipelines.insert(program.id, e.clone());
                e
            }
        };
        if let Some(op) = self.ops.get_mut(key) {
            if let OperationKind::Compute(m) = &mut op.kind {
                *m = Some(entry.clone());
            }
        }
        Ok(Some(entry))
    }
}

/// Creates the render pipeline of `program` with render state `state` for targets of `sig`.
fn create_render_pipeline(
    ctx: &GpuContext,
    program: &Program,
    state: &RenderStateKey,
    sig: TargetSignature,
    label: &str,
) -> Result<wgpu::RenderPipeline> {
    let Stages::Render { vs, fs } = &program.stages else {
        return Err(BindingError::VertexLayout {
            label: label.to_owned(),
            what: "entry points".to_owned(),
            expected: "a vertex stage".to_owned(),
            actual: "a compute program".to_owned(),
        }
        .into());
    };
    if fs.is_some() && sig.color.is_some() && program.fragment_outputs == 0 {
        return Err(BindingError::VertexLayout {
            label: label.to_string(),
            what: "fragment outputs".to_owned(),
            expected: "an @location(0) output for the target's color attachment".to_owned(),
            actual: "none".to_owned(),
        }
        .into());
    }
    let module = program.shader.module(ctx)?;
    let buffers: Vec<Option<wgpu::VertexBufferLayout<'_>>> = state
        .vertex_layouts
        .iter()
        .map(|(stride, step, attrs)| {
            Some(wgpu::VertexBufferLayout {
                array_stride: *stride,
                step_mode: *step,
                attributes: attrs,
            })
        })
        .collect();
    let targets = [sig.color.map(|format| wgpu::ColorTargetState {
        format,
        blend: state.blend,
        write_mask: state.write_mask,
    })];
    let depth_stencil = sig.depth.map(|format| wgpu::DepthStencilState {
        format,
        depth_write_enabled: Some(state.depth.write),
        depth_compare: Some(state.depth.compare),
        stencil: Default::default(),
        bias: wgpu::DepthBiasState {
            constant: state.depth.bias,
            slope_scale: f32::from_bits(state.depth.bias_slope_scale_bits),
            clamp: 0.0,
        },
    });
    Ok(ctx.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some(label),
        layout: Some(&program.pipeline_layout),
        vertex: wgpu::VertexState {
            module,
            entry_point: Some(vs),
            compilation_options: Default::default(),
            buffers: &buffers,
        },
        fragment: fs.as_ref().map(|fs| wgpu::FragmentState {
            module,
            entry_point: Some(fs),
            compilation_options: Default::default(),
            targets: if sig.color.is_some() { &targets } else { &[] },
        }),
        primitive: wgpu::PrimitiveState {
            topology: state.topology,
            strip_index_format: state.strip_index_format,
            front_face: state.front_face,
            cull_mode: state.cull_mode,
            ..Default::default()
        },
        depth_stencil,
        multisample: wgpu::MultisampleState {
            count: sig.samples,
            mask: !0,
            alpha_to_coverage_enabled: state.alpha_to_coverage,
        },
        multiview_mask: None,
        cache: None,
    })?)
}
