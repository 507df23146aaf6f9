//! The state floor: everything vgpu keeps per `Gpu`, behind one lock (`lock.rs`), reached only
//! through the handles of the floor above. It never names a public handle type: it holds
//! records (`resources.rs`) and takes bindings lowered to [`BindingInput`]s.
//!
//! - `operation.rs`: the per-operation record; `memo.rs`: what recording remembers (the table
//!   of memo layers); `record/`: recording, path by path (fast, full, what a pass has bound),
//!   into a `command_sink.rs` (a pass, a compute pass or a bundle's command list);
//!   `prefetch.rs`: the records the next draws will read.
//! - `binding_input.rs`: what a binding is given; `assign/`: binding assignment, by kind of
//!   input; `blocks.rs`: shared uniforms blocks; `resource_uses.rs`: binding counts and idle
//!   user resources.
//! - `program.rs`, `pipeline.rs`: layouts and pipelines; `timing.rs`: GPU pass timings;
//!   `inspect.rs`: the binding inspector (a testing aid, off by default).

mod assign;
pub(crate) mod auto_bundle;
mod binding_input;
mod blocks;
mod claim;
mod claimed_group;
mod command_sink;
mod compute_info;
mod compute_pipeline;
mod followers;
mod group_order;
pub(crate) mod inspect;
mod lock;
mod memo;
mod mip_pipelines;
mod operation;
mod pipeline;
mod prefetch;
mod prepare;
mod program;
mod record;
mod reload;
mod render_pipeline;
mod resource_uses;
mod resources;
mod storage_access;
mod timing;

use std::sync::Arc;

use ahash::AHashMap;
use slotmap::{SecondaryMap, SlotMap};
use vgpu_bind::{BindingStore, ResourceKey};
use vgpu_core::GpuContext;
use vgpu_uniforms::{BufferKey, EngineConfig, OwnerKey, UniformEngine};

pub(crate) use binding_input::{BindingInput, BufferInput, SamplerInput, ViewInput, ViewOwner};
pub(crate) use command_sink::{
    BundleCmd, DrawCall, IndirectArgs, NullSink, encode_render_bundle, replay_commands,
};
pub(crate) use compute_info::{ComputeInfo, ComputePipelineKey, ConstantSet};
pub(crate) use followers::TargetPart;
pub(crate) use inspect::{InspectRecorder, PassInspect};
pub(crate) use lock::{HeldState, NOT_REPLAYING, SharedState};
pub(crate) use mip_pipelines::{MipPath, MipPipeline, MipPipelineKind, MipPipelines, MipSource};
pub(crate) use operation::{
    IndexBinding, OpKey, OperationKind, RenderInfo, RenderStateKey, VertexBinding,
};
pub(crate) use program::{Program, Stages};
pub(crate) use record::PassBindings;
pub(crate) use resources::{
    BlockRecord, BufferRecord, SamplerRecord, ShaderRecord, TargetColor, TargetRecord,
    TargetTextures, TextureKind, TextureRecord, ViewShape,
};
pub(crate) use timing::{MAX_TIMED_PASSES, TimedPasses};

use blocks::BlockState;
use operation::{Operation, Released};
use pipeline::RenderPipelines;
use program::ProgramKey;
use resource_uses::ResourceUses;
use timing::GpuTimer;

use crate::descriptors::{GpuId, SamplerDesc, TargetSignature};

/// Everything vgpu caches per device.
pub(crate) struct State {
    pub(crate) ctx: Arc<GpuContext>,
    pub(crate) engine: UniformEngine,
    pub(crate) bind: BindingStore,
    samplers: AHashMap<SamplerDesc, Arc<SamplerRecord>>,
    /// Operations created one after another sit next to each other; a lookup is one bounds
    /// check and one version compare.
    ops: SlotMap<OpKey, Operation>,
    programs: AHashMap<ProgramKey, Arc<Program>>,
    /// The render pipelines, by id and by what they are made of.
    render_pipelines: RenderPipelines,
    /// Distinct render states, shared by the draws that have them (never removed: few).
    render_states: ahash::AHashSet<Arc<RenderStateKey>>,
    compute_pipelines: AHashMap<ComputePipelineKey, (u64, wgpu::ComputePipeline)>,
    blocks: SecondaryMap<OwnerKey, BlockState>,
    /// Registry keys of the capture engine's page and storage buffers.
    page_resources: AHashMap<BufferKey, ResourceKey>,
    resource_uses: ResourceUses,
    frame_index: u64,
    gpu_timing: bool,
    timer: Option<GpuTimer>,
    gpu_times: Option<(u64, Vec<(String, std::time::Duration)>)>,
    /// Interned target signatures (id = index + 1).
    signatures: Vec<TargetSignature>,
    /// Records released while the state is borrowed, dropped after (see `lock.rs`).
    deferred: Vec<Released>,
    /// While a `set_all` runs: the contents it replaced, by binding index, in order.
    set_all_replaced: Option<Vec<(usize, operation::BindingContent)>>,
    next_id: u64,
    /// The binding inspector, while switched on (a testing aid, see `crate::inspect`).
    inspect: Option<Box<inspect::Inspector>>,
    /// The last frames' reports, for `Gpu::advisor`.
    pub(crate) advisor: crate::advisor::Advisor,
    /// The pipelines of `Texture::generate_mips`, by format and path.
    pub(crate) mips: MipPipelines,
    /// Bindings that follow a target's resize (`followers.rs`).
    followers: followers::Followers,
    /// Auto-bundles: per pass its history and bundle, and the journal of structural changes.
    pub(crate) auto: auto_bundle::AutoBundles,
    /// Per operation moved onto another shader, the contents its new bindings did not take
    /// (`reload.rs`), kept until a later shader takes them back or the operation goes.
    parked: AHashMap<OpKey, Vec<reload::Parked>>,
}

impl State {
    /// The state of a new `Gpu` on `ctx`, shared with its handles.
    pub(crate) fn new_shared(ctx: Arc<GpuContext>) -> Arc<SharedState> {
        let state = State {
            ctx: ctx.clone(),
            engine: UniformEngine::new(ctx.clone(), EngineConfig::default()),
            bind: BindingStore::new(ctx),
            samplers: AHashMap::default(),
            ops: SlotMap::with_key(),
            programs: AHashMap::default(),
            render_pipelines: RenderPipelines::default(),
            render_states: ahash::AHashSet::default(),
            compute_pipelines: AHashMap::default(),
            blocks: SecondaryMap::new(),
            page_resources: AHashMap::default(),
            resource_uses: ResourceUses::default(),
            frame_index: 0,
            gpu_timing: true,
            timer: None,
            gpu_times: None,
            signatures: Vec::new(),
            deferred: Vec::new(),
            set_all_replaced: None,
            next_id: 0,
            inspect: None,
            advisor: crate::advisor::Advisor::default(),
            mips: MipPipelines::default(),
            followers: followers::Followers::default(),
            auto: auto_bundle::AutoBundles::default(),
            parked: AHashMap::default(),
        };
        Arc::new(SharedState::new(GpuId::next(), state))
    }

    /// A fresh id for programs and pipelines (never 0, never reused).
    fn next_id(&mut self) -> u64 {
        self.next_id += 1;
        self.next_id
    }

    /// Turns per-pass GPU timing on or off.
    pub(crate) fn set_gpu_timing(&mut self, enabled: bool) {
        self.gpu_timing = enabled;
    }

    /// The frame counter (1 for the first frame).
    pub(crate) fn frame_index(&self) -> u64 {
        self.frame_index
    }

    /// Counts a frame begun.
    pub(crate) fn begin_frame_index(&mut self) {
        self.frame_index += 1;
    }

    /// The most recent GPU pass times read back, with their frame.
    pub(crate) fn gpu_times(&self) -> Option<(u64, Vec<(String, std::time::Duration)>)> {
        self.gpu_times.clone()
    }

    /// The cached sampler for `desc`, if one was created.
    pub(crate) fn cached_sampler(&self, desc: &SamplerDesc) -> Option<Arc<SamplerRecord>> {
        self.samplers.get(desc).cloned()
    }

    /// Caches a sampler for `desc`.
    pub(crate) fn cache_sampler(&mut self, desc: SamplerDesc, sampler: Arc<SamplerRecord>) {
        self.samplers.insert(desc, sampler);
    }

    /// End-of-submission housekeeping: drop bind groups evicted during the frame, and unregister
    /// engine buffers released by it (evicting exactly the bind groups that used them).
    pub(crate) fn after_submission(&mut self) {
        let State {
            engine,
            bind,
            page_resources,
            ..
        } = self;
        let mut destroyed = false;
        for released in engine.drain_released() {
            if let Some(res) = page_resources.remove(&released) {
                bind.destroy(res);
                destroyed = true;
            }
        }
        if destroyed {
            // As `destroy_bound_resource` does.
            engine.invalidate_memos();
        }
        bind.release_retired();
        if destroyed {
            self.note_resources_changed();
        }
    }

    /// Unregisters a resource from the binding store, which evicts the bind groups using it and
    /// moves the store's invalidation epoch, and moves the engine's clocks with it: a fast
    /// record's `checked_at` and `value_checked_at` compare those clocks alone (`memo.rs`), so
    /// every resource a memoized group may hold is destroyed through here (or with
    /// `UniformEngine::invalidate_memos` after it).
    pub(crate) fn destroy_bound_resource(&mut self, res: ResourceKey) {
        self.bind.destroy(res);
        self.engine.invalidate_memos();
        self.note_resources_changed();
    }
}
