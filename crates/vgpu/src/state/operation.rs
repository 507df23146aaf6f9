//! The per-operation record: what each binding of a draw, effect or compute holds, its groups'
//! values, and render-only parts (counts, geometry, pipeline state). Its memo lives in `memo.rs`.

use std::sync::Arc;

use smallvec::SmallVec;
use vgpu_bind::ResourceKey;
use vgpu_uniforms::{OwnerKey, UniformEngine};

use super::State;
use super::memo::{CachedGroup, FAST_GROUPS, FastGroup, FastRecord, PageGroup, PipelineMemo};
use super::program::Program;
use super::resources::{BlockRecord, BufferRecord, HeldResource};
use crate::descriptors::DepthState;

slotmap::new_key_type! {
    /// A draw, effect or compute in the `Gpu` state.
    pub(crate) struct OpKey;
}

/// What a pipeline depends on besides the program and the target (hashable, shared by draws).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct RenderStateKey {
    pub(crate) topology: wgpu::PrimitiveTopology,
    pub(crate) strip_index_format: Option<wgpu::IndexFormat>,
    pub(crate) cull_mode: Option<wgpu::Face>,
    pub(crate) front_face: wgpu::FrontFace,
    pub(crate) blend: Option<wgpu::BlendState>,
    pub(crate) write_mask: wgpu::ColorWrites,
    pub(crate) depth: DepthState,
    pub(crate) alpha_to_coverage: bool,
    pub(crate) vertex_layouts: Vec<(u64, wgpu::VertexStepMode, Vec<wgpu::VertexAttribute>)>,
}

/// A vertex buffer bound at one slot of a draw.
#[derive(Debug)]
pub(crate) struct VertexBinding {
    pub(crate) buffer: Arc<BufferRecord>,
    pub(crate) offset: u64,
}

/// A draw's index buffer.
#[derive(Debug)]
pub(crate) struct IndexBinding {
    pub(crate) buffer: Arc<BufferRecord>,
    pub(crate) offset: u64,
    pub(crate) format: wgpu::IndexFormat,
    pub(crate) count: u32,
}

/// What a binding currently holds.
#[derive(Debug)]
pub(crate) enum BindingContent {
    Unset,
    /// A library-owned value (uniform: captured per operation; storage: live).
    Value {
        owner: OwnerKey,
        /// The Rust type last checked against this binding's WGSL type (typed values): a set of
        /// the same type writes without checking again.
        typed: Option<std::any::TypeId>,
    },
    /// A shared uniforms block (held so it lives while bound).
    Block {
        owner: OwnerKey,
        #[allow(
            dead_code,
            reason = "held, never read: keeps the block alive while bound"
        )]
        block: Arc<BlockRecord>,
    },
    /// A user-owned resource bound by identity.
    Resource {
        res: ResourceKey,
        held: HeldResource,
    },
}

impl BindingContent {
    /// Who owns the binding's bytes, once something is bound.
    pub(crate) fn ownership(&self) -> Option<&'static str> {
        match self {
            BindingContent::Unset => None,
            BindingContent::Value { .. } | BindingContent::Block { .. } => {
                Some("library-owned (a value or uniforms block)")
            }
            BindingContent::Resource { .. } => Some("user-owned (a buffer bound by identity)"),
        }
    }

    /// The value owner, for a value or a block.
    pub(crate) fn owner(&self) -> Option<OwnerKey> {
        match self {
            BindingContent::Value { owner, .. } | BindingContent::Block { owner, .. } => {
                Some(*owner)
            }
            _ => None,
        }
    }
}

/// `BoundValue::dynamic_index` of a binding without a dynamic offset.
pub(crate) const NO_DYNAMIC_OFFSET: u8 = u8::MAX;

/// A library-owned value bound in a group, precomputed from the contents when they change.
#[derive(Clone, Copy, Debug)]
pub(crate) struct BoundValue {
    pub(crate) owner: OwnerKey,
    /// Position of this binding's offset among the group's dynamic offsets, or
    /// [`NO_DYNAMIC_OFFSET`].
    pub(crate) dynamic_index: u8,
}

/// Per-group recording state of an operation (`repr(C)`: what every record reads comes first).
#[derive(Debug, Default)]
#[repr(C)]
pub(crate) struct GroupState {
    /// Exactly one value, which takes the group's only dynamic offset (fast path): its owner.
    pub(crate) single_value: Option<OwnerKey>,
    /// Number of dynamic offsets the group takes.
    pub(crate) dynamic_offsets: u8,
    pub(crate) cached: Option<CachedGroup>,
    /// The single-value path's previous page and group, valid with `cached`'s epoch and binding
    /// revision: a value alternating between two pages swaps instead of looking up again.
    pub(crate) other_page: Option<PageGroup>,
    pub(crate) values: SmallVec<[BoundValue; 2]>,
}

/// Render-only parts of an operation (`repr(C)`: what every record reads comes first).
#[derive(Debug)]
#[repr(C)]
pub(crate) struct RenderInfo {
    pub(crate) pipelines: PipelineMemo,
    pub(crate) vertex_count: u32,
    pub(crate) instance_count: u32,
    pub(crate) vertex_buffers: Vec<VertexBinding>,
    pub(crate) index: Option<IndexBinding>,
    pub(crate) state_key: Arc<RenderStateKey>,
}

/// Per-operation state kept in the `Gpu` state. `repr(C)`: the fast record comes first, so a
/// steady-state record touches one contiguous block per draw. Not aligned to cache lines: the
/// records of 100 000 draws pack densely (800 bytes each instead of 1 024), and the
/// instructions per steady frame are the same either way (callgrind, noop, 1000x2).
#[derive(Debug)]
#[repr(C)]
pub(crate) struct Operation {
    pub(crate) fast: FastRecord,
    /// Grows whenever a binding's content changes: memos and bundles recorded under an older
    /// revision no longer hold.
    pub(crate) bindings_rev: u64,
    pub(crate) groups: SmallVec<[GroupState; 2]>,
    pub(crate) render: Option<RenderInfo>,
    pub(crate) label: Arc<str>,
    pub(crate) program: Arc<Program>,
    pub(crate) contents: Vec<BindingContent>,
    pub(crate) compute_pipeline: Option<(u64, wgpu::ComputePipeline)>,
}

impl Operation {
    /// Recomputes each group's value list after a binding's content changed.
    pub(crate) fn rebuild_group_values(&mut self) {
        for (gi, group) in self.program.groups.iter().enumerate() {
            let Some(state) = self.groups.get_mut(gi) else {
                continue;
            };
            state.values.clear();
            let mut dynamic = 0u8;
            for bi in group.first..group.first + group.len {
                let pb = &self.program.bindings[bi];
                let dynamic_index = if pb.dynamic {
                    dynamic += 1;
                    dynamic - 1
                } else {
                    NO_DYNAMIC_OFFSET
                };
                if let Some(owner) = self.contents[bi].owner() {
                    state.values.push(BoundValue {
                        owner,
                        dynamic_index,
                    });
                }
            }
            state.dynamic_offsets = dynamic;
            state.single_value = match state.values.as_slice() {
                [v] if dynamic == 1 && v.dynamic_index == 0 => Some(v.owner),
                _ => None,
            };
        }
        let simple = self
            .render
            .as_ref()
            .is_some_and(|r| r.vertex_buffers.is_empty() && r.index.is_none());
        self.fast.invalidate();
        self.fast.groups_len = self.groups.len().min(FAST_GROUPS) as u8;
        self.fast.eligible = simple
            && self.groups.len() <= FAST_GROUPS
            && self.groups.iter().all(|g| g.single_value.is_some());
    }

    /// Number of bindings never set.
    pub(crate) fn count_unset(&self) -> u32 {
        self.contents
            .iter()
            .filter(|c| matches!(c, BindingContent::Unset))
            .count() as u32
    }
}

impl Operation {
    /// Copies the current pipeline and the single-value groups' cached groups into the fast
    /// record after a full record, if they are all current.
    pub(crate) fn refresh_fast_record(
        &mut self,
        epoch: u64,
        signature_id: u32,
        engine: &UniformEngine,
    ) {
        self.fast.invalidate();
        if !self.fast.eligible || signature_id == 0 {
            return;
        }
        let Some(render) = &self.render else { return };
        let Some((pipeline_id, pipeline)) = render.pipelines.current() else {
            return;
        };
        for (gi, g) in self.groups.iter().enumerate().take(FAST_GROUPS) {
            let (Some(owner), Some(m)) = (g.single_value, &g.cached) else {
                return;
            };
            if m.epoch != epoch || m.bindings_rev != self.bindings_rev {
                return;
            }
            let Some(stamp_slot) = engine.stamp_slot(owner) else {
                return;
            };
            let (other_page, other_group_id, other_group) = match &g.other_page {
                Some(o) => (o.page, o.id.get(), Some(o.group.clone())),
                None => (None, 0, None),
            };
            self.fast.groups[gi] = FastGroup {
                // Stamps start at 1: the first record resolves the owner.
                stamp: 0,
                stamp_slot,
                offset: 0,
                group_id: m.id.get(),
                group: Some(m.group.clone()),
                owner,
                page: m.pages[0],
                other_page,
                other_group_id,
                other_group,
            };
        }
        self.fast.pipeline_id = pipeline_id;
        self.fast.pipeline = Some(pipeline.clone());
        self.fast.vertex_count = render.vertex_count;
        self.fast.instance_count = render.instance_count;
        self.fast.signature_id = signature_id;
        self.fast.valid_epoch = epoch;
    }
}

/// What the state releases while borrowed and drops once the borrow ended (their `Drop` may
/// lock the state: see `lock.rs`).
#[derive(Debug)]
pub(crate) enum Released {
    #[allow(dead_code, reason = "held until dropped outside the borrow")]
    Content(BindingContent),
    #[allow(dead_code, reason = "held until dropped outside the borrow")]
    Operation(Box<Operation>),
}

impl State {
    /// Inserts an operation for `program`.
    pub(crate) fn insert_op(
        &mut self,
        label: Arc<str>,
        program: Arc<Program>,
        render: Option<RenderInfo>,
    ) -> OpKey {
        let n = program.bindings.len();
        let key = self.ops.insert(Operation {
            label,
            program: program.clone(),
            contents: (0..n).map(|_| BindingContent::Unset).collect(),
            fast: FastRecord {
                unset: n as u32,
                ..FastRecord::default()
            },
            bindings_rev: 1,
            groups: (0..program.groups.len())
                .map(|_| GroupState::default())
                .collect(),
            render,
            compute_pipeline: None,
        });
        if let Some(op) = self.ops.get_mut(key) {
            op.rebuild_group_values();
        }
        key
    }

    /// Removes an operation and releases what its bindings held.
    pub(crate) fn remove_op(&mut self, key: OpKey) {
        if let Some(mut op) = self.ops.remove(key) {
            for content in std::mem::take(&mut op.contents) {
                self.release_content(content);
            }
            // Its vertex and index buffers are dropped outside the borrow.
            self.deferred.push(Released::Operation(Box::new(op)));
        }
    }

    /// Releases what a binding held. Records it kept alive are dropped once the state is
    /// unlocked.
    pub(crate) fn release_content(&mut self, content: BindingContent) {
        match &content {
            BindingContent::Unset => return,
            BindingContent::Block { .. } => {}
            BindingContent::Value { owner, .. } => {
                let _ = self.engine.remove_owner(*owner);
                return;
            }
            BindingContent::Resource { res, .. } => self.release_resource(*res),
        }
        self.deferred.push(Released::Content(content));
    }
}

impl State {
    /// Changes a draw's vertex and instance counts.
    pub(crate) fn set_counts(&mut self, key: OpKey, vertex_count: u32, instance_count: u32) {
        if let Some(op) = self.ops.get_mut(key) {
            if let Some(r) = op.render.as_mut() {
                r.vertex_count = vertex_count;
                r.instance_count = instance_count;
            }
            op.fast.vertex_count = vertex_count;
            op.fast.instance_count = instance_count;
        }
    }

    /// A draw's vertex (or index) and instance counts, as recording uses them; `(0, 0)` for a
    /// removed operation or a compute.
    pub(crate) fn counts(&self, key: OpKey) -> (u32, u32) {
        self.ops
            .get(key)
            .and_then(|op| op.render.as_ref())
            .map_or((0, 0), |r| match &r.index {
                Some(i) => (i.count, r.instance_count),
                None => (r.vertex_count, r.instance_count),
            })
    }

    /// The operation's binding revision (0 once removed).
    pub(crate) fn bindings_rev(&self, key: OpKey) -> u64 {
        self.ops.get(key).map_or(0, |o| o.bindings_rev)
    }

    /// Why an operation recorded into a bundle at binding revision `rev` can no longer replay:
    /// `(draw label, reason)`, or `None` while it can.
    pub(crate) fn bundle_staleness(&self, key: OpKey, rev: u64) -> Option<(String, String)> {
        let op = self.ops.get(key)?;
        let stale = |reason: String| Some((op.label.to_string(), reason));
        for (content, b) in op.contents.iter().zip(&op.program.bindings) {
            if let BindingContent::Resource {
                held: HeldResource::Buffer(buf),
                ..
            } = content
            {
                if buf.is_destroyed() {
                    return stale(format!(
                        "binding `{}` uses buffer {:?}, which was destroyed",
                        b.name, buf.label
                    ));
                }
            }
        }
        // Vertex and index buffers are recorded into the bundle too.
        if let Some(render) = &op.render {
            let geometry = render
                .vertex_buffers
                .iter()
                .map(|v| (&v.buffer, "vertex"))
                .chain(render.index.iter().map(|i| (&i.buffer, "index")));
            for (buf, what) in geometry {
                if buf.is_destroyed() {
                    return stale(format!("its {what} buffer {:?} was destroyed", buf.label));
                }
            }
        }
        if op.bindings_rev != rev {
            return stale("was rebound since the bundle was recorded".to_owned());
        }
        None
    }
}
