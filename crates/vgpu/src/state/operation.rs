//! The per-operation record: what each binding of a draw, effect or compute holds, its groups'
//! values, and render-only parts (counts, geometry, pipeline state). Its memos live in `memo.rs`.

use std::sync::Arc;

use vgpu_bind::ResourceKey;
use vgpu_core::Label;
use vgpu_uniforms::{OwnerKey, UniformEngine};

use super::State;
use super::command_sink::MAX_GROUPS;
use super::memo::{FAST_GROUPS, FastRecord, GroupMemo, Groups, PipelineMemo};
use super::program::Program;
use super::resources::{BlockRecord, BufferRecord, HeldResource};
use crate::descriptors::{ColorTarget, DepthState};
use crate::typed_ref::CheckedType;

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
    /// Blend and write mask of attachments the draw does not list in `colors`.
    pub(crate) blend: Option<wgpu::BlendState>,
    pub(crate) write_mask: wgpu::ColorWrites,
    /// Per attachment, from attachment 0 (may be shorter than a target's list).
    pub(crate) colors: Vec<ColorTarget>,
    pub(crate) depth: DepthState,
    pub(crate) stencil: wgpu::StencilState,
    pub(crate) unclipped_depth: bool,
    pub(crate) multisample_mask: u64,
    pub(crate) alpha_to_coverage: bool,
    /// Override constants, as checked and normalized for wgpu (the compute cache's key type).
    pub(crate) constants: super::compute_info::ConstantSet,
    pub(crate) vertex_layouts: Vec<(u64, wgpu::VertexStepMode, Vec<wgpu::VertexAttribute>)>,
}

impl RenderStateKey {
    /// Whether its pipeline reads the pass's stencil reference or blend constant. wgpu 30 sets
    /// those on the device again only when a pass sets a pipeline that reads them, not when a
    /// render bundle does (`RenderBundle::execute` binds the pipeline alone), so a replayed draw
    /// would test and blend against whatever they were: such draws are not auto-bundled.
    pub(crate) fn reads_pass_constants(&self) -> bool {
        let uses_constant =
            |b: &wgpu::BlendState| b.color.uses_constant() || b.alpha.uses_constant();
        self.stencil.needs_ref_value()
            || self.blend.as_ref().is_some_and(uses_constant)
            || self
                .colors
                .iter()
                .any(|c| c.blend.as_ref().is_some_and(uses_constant))
    }
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
    /// Added to each index (WebGPU's `baseVertex`).
    pub(crate) base_vertex: i32,
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
        typed: CheckedType,
    },
    /// A shared uniforms block (held so it lives while bound).
    Block {
        owner: OwnerKey,
        #[expect(
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

/// The owners group `gi` of an operation binds, each with its binding index and the position of
/// its offset among the group's dynamic offsets (`None`: bound without one), in binding order.
pub(crate) fn group_values<'a>(
    program: &'a Program,
    contents: &'a [BindingContent],
    gi: usize,
) -> impl Iterator<Item = (usize, OwnerKey, Option<usize>)> + 'a {
    let range = program
        .groups
        .get(gi)
        .map_or(0..0, |g| g.first..g.first + g.len);
    let mut dynamic = 0usize;
    let first = range.start;
    program.bindings[range.clone()]
        .iter()
        .zip(&contents[range])
        .enumerate()
        .filter_map(move |(i, (pb, content))| {
            let index = pb.dynamic.then(|| {
                dynamic += 1;
                dynamic - 1
            });
            content.owner().map(|owner| (first + i, owner, index))
        })
}

impl GroupMemo {
    /// The owner of the group's only value when it takes the group's only dynamic offset (the
    /// fast path's groups), from the operation's `contents`.
    #[inline]
    pub(crate) fn single_value(&self, contents: &[BindingContent]) -> Option<OwnerKey> {
        self.single_content(contents)?.owner()
    }

    /// The content of the group's only value (see [`single_value`](Self::single_value)).
    #[inline]
    fn single_content<'c>(&self, contents: &'c [BindingContent]) -> Option<&'c BindingContent> {
        contents.get(usize::from(self.single).checked_sub(1)?)
    }
}

/// Render-only parts of an operation (its counts are in the fast record).
#[derive(Debug)]
pub(crate) struct RenderInfo {
    pub(crate) pipelines: PipelineMemo,
    /// Vertex and index buffers, boxed: draws without geometry (most, and all that the fast
    /// record serves) keep `None`.
    geometry: Option<Box<Geometry>>,
    pub(crate) state_key: Arc<RenderStateKey>,
}

/// A draw's vertex and index buffers.
#[derive(Debug)]
struct Geometry {
    vertex_buffers: Box<[VertexBinding]>,
    index: Option<IndexBinding>,
}

impl RenderInfo {
    /// Render parts with no pipeline made yet.
    pub(crate) fn new(
        state_key: Arc<RenderStateKey>,
        vertex_buffers: Box<[VertexBinding]>,
        index: Option<IndexBinding>,
    ) -> Self {
        let geometry = (!vertex_buffers.is_empty() || index.is_some()).then(|| {
            Box::new(Geometry {
                vertex_buffers,
                index,
            })
        });
        RenderInfo {
            pipelines: PipelineMemo::default(),
            geometry,
            state_key,
        }
    }

    /// The vertex buffers, by slot.
    #[inline]
    pub(crate) fn vertex_buffers(&self) -> &[VertexBinding] {
        self.geometry.as_deref().map_or(&[], |g| &g.vertex_buffers)
    }

    /// The index buffer, if the draw is indexed.
    #[inline]
    pub(crate) fn index(&self) -> Option<&IndexBinding> {
        self.geometry.as_deref().and_then(|g| g.index.as_ref())
    }

    /// Whether the draw has neither vertex nor index buffers.
    #[inline]
    pub(crate) fn without_geometry(&self) -> bool {
        self.geometry.is_none()
    }
}

/// What kind of operation a record is, with the parts only that kind has.
#[derive(Debug)]
pub(crate) enum OperationKind {
    Render(RenderInfo),
    /// A compute dispatch: its constant set, and its pipeline once made (boxed: the record of
    /// a draw stays compact).
    Compute(Box<super::compute_info::ComputeInfo>),
}

/// Per-operation state kept in the `Gpu` state. `repr(C)`: the fast record comes first and the
/// groups' memos (inline for up to two groups) follow, so a steady-state record reads one
/// contiguous block per draw. Not aligned to cache lines: the records of 100 000 draws pack
/// densely.
#[derive(Debug)]
#[repr(C)]
pub(crate) struct Operation {
    pub(crate) fast: FastRecord,
    pub(crate) groups: Groups,
    /// Grows whenever a binding's content changes (`bindings_changed`, which also forgets the
    /// group memos): a bundle recorded under an older `bindings_rev` no longer replays
    /// (`bundle_staleness`).
    pub(crate) bindings_rev: u64,
    pub(crate) kind: OperationKind,
    pub(crate) label: Label,
    pub(crate) program: Arc<Program>,
    /// What each binding holds, by binding index: inline for up to two bindings (a draw with a
    /// camera and its own value keeps no separate heap block).
    pub(crate) contents: Contents,
}

/// An operation's binding contents, in binding order.
pub(crate) type Contents = smallvec::SmallVec<[BindingContent; INLINE_CONTENTS]>;

/// Bindings whose contents an operation keeps inline.
const INLINE_CONTENTS: usize = 2;

impl Operation {
    /// The render-only parts (`None` for a compute).
    #[inline]
    pub(crate) fn render(&self) -> Option<&RenderInfo> {
        match &self.kind {
            OperationKind::Render(r) => Some(r),
            OperationKind::Compute(_) => None,
        }
    }

    /// The render-only parts, mutably (`None` for a compute).
    #[inline]
    pub(crate) fn render_mut(&mut self) -> Option<&mut RenderInfo> {
        match &mut self.kind {
            OperationKind::Render(r) => Some(r),
            OperationKind::Compute(_) => None,
        }
    }

    /// Recomputes each group's dynamic offsets and single value after a binding's content
    /// changed.
    pub(crate) fn rebuild_group_values(&mut self) {
        let len = self.fast.groups_len;
        let Operation {
            program,
            contents,
            groups,
            ..
        } = self;
        for (gi, memo) in groups.iter_mut(len).enumerate() {
            let dynamic = program.groups.get(gi).map_or(0, |g| {
                program.bindings[g.first..g.first + g.len]
                    .iter()
                    .filter(|b| b.dynamic)
                    .count()
            });
            let mut values = group_values(program, contents, gi);
            let (first, second) = (values.next(), values.next());
            drop(values);
            // The single value's binding index plus one, if it fits the memo's `u8` (else the
            // group takes the general path).
            let single = match (first, second) {
                (Some((binding, _, Some(0))), None) if dynamic == 1 => {
                    u8::try_from(binding + 1).ok()
                }
                _ => None,
            };
            memo.dynamic_offsets = dynamic.min(usize::from(u8::MAX)) as u8;
            memo.single = single.unwrap_or(0);
            memo.fast = dynamic == 1 && (single.is_some() || first.is_none());
        }
        let simple = self.render().is_some_and(RenderInfo::without_geometry);
        self.fast.invalidate();
        // A claimed group (`claim.rs`) is set from the caller's bind group on the full path only.
        self.fast.eligible = simple
            && usize::from(len) <= FAST_GROUPS
            && self
                .groups
                .iter_mut(len)
                .all(|g| g.fast && g.claimed().is_none());
    }

    /// A binding's content changed: memos, and bundles recorded under the previous
    /// `bindings_rev`, no longer hold.
    pub(crate) fn bindings_changed(&mut self) {
        self.bindings_rev += 1;
        for g in self.groups.iter_mut(self.fast.groups_len) {
            g.forget();
        }
        self.fast.invalidate();
    }

    /// Number of bindings never set (those of claimed groups, which vgpu does not set, aside).
    pub(crate) fn count_unset(&self) -> u32 {
        self.contents
            .iter()
            .enumerate()
            .filter(|(i, c)| matches!(c, BindingContent::Unset) && !self.binding_claimed(*i))
            .count() as u32
    }
}

impl Operation {
    /// Makes the fast record valid after a full record, if the current pipeline and every
    /// group's memo are current: each group's offset is resolved again at the next record.
    pub(crate) fn refresh_fast_record(
        &mut self,
        invalidation_epoch: u64,
        signature_id: u32,
        engine: &UniformEngine,
    ) {
        self.fast.invalidate();
        if !self.fast.eligible || signature_id == 0 {
            return;
        }
        let OperationKind::Render(render) = &self.kind else {
            return;
        };
        let Some(pipeline_id) = render.pipelines.latest() else {
            return;
        };
        let contents = &self.contents;
        let holds_block = |g: &GroupMemo| {
            matches!(
                g.single_content(contents),
                Some(BindingContent::Block { .. })
            )
        };
        self.fast.shared_groups = self
            .groups
            .head
            .iter()
            .take(usize::from(self.fast.groups_len))
            .enumerate()
            .fold(0, |bits, (gi, g)| bits | (u8::from(holds_block(g)) << gi));
        for g in self.groups.iter_mut(self.fast.groups_len) {
            if !g.fast || !g.current(invalidation_epoch) {
                return;
            }
            match g.single_value(&self.contents) {
                Some(owner) => {
                    let Some(stamp_slot) = engine.stamp_slot(owner) else {
                        return;
                    };
                    // Stamps start at 1: the first record resolves the owner.
                    g.stamp = 0;
                    g.stamp_slot = stamp_slot;
                }
                // No value: bound at offset 0 while the memo holds (the fixed stamp never moves).
                None => {
                    (g.stamp_slot, g.stamp) = engine.fixed_stamp();
                    g.offset = 0;
                }
            }
        }
        self.fast.pipeline_id = pipeline_id;
        self.fast.signature_id = signature_id;
    }
}

/// What the state releases while borrowed and drops once the borrow ended (their `Drop` may
/// lock the state: see `lock.rs`).
#[derive(Debug)]
pub(crate) enum Released {
    #[expect(dead_code, reason = "held until dropped outside the borrow")]
    Content(BindingContent),
    #[expect(dead_code, reason = "held until dropped outside the borrow")]
    Operation(Box<Operation>),
}

impl State {
    /// Inserts an operation for `program`.
    pub(crate) fn insert_op(
        &mut self,
        label: Label,
        program: Arc<Program>,
        kind: OperationKind,
        (vertex_count, instance_count): (u32, u32),
    ) -> OpKey {
        let n = program.bindings.len();
        let key = self.ops.insert(Operation {
            label,
            program: program.clone(),
            contents: (0..n).map(|_| BindingContent::Unset).collect(),
            fast: FastRecord {
                unset: n as u32,
                vertex_count,
                instance_count,
                // A program has at most `MAX_GROUPS` groups (the device limit, at most 8).
                groups_len: program.groups.len().min(MAX_GROUPS) as u8,
                handles: 1,
                ..FastRecord::default()
            },
            bindings_rev: 1,
            groups: Groups::new(program.groups.len()),
            kind,
        });
        if let Some(op) = self.ops.get_mut(key) {
            op.rebuild_group_values();
        }
        key
    }

    /// One more handle of operation `key`.
    pub(crate) fn retain_op(&mut self, key: OpKey) {
        if let Some(op) = self.ops.get_mut(key) {
            op.fast.handles = op.fast.handles.saturating_add(1);
        }
    }

    /// One handle of operation `key` fewer: the last one removes it.
    pub(crate) fn release_op(&mut self, key: OpKey) {
        let Some(op) = self.ops.get_mut(key) else {
            return;
        };
        op.fast.handles = op.fast.handles.saturating_sub(1);
        if op.fast.handles == 0 {
            self.remove_op(key);
        }
    }

    /// The program of operation `key` (`None` once it is gone).
    pub(crate) fn op_program(&self, key: OpKey) -> Option<Arc<Program>> {
        self.ops.get(key).map(|op| op.program.clone())
    }

    /// Binding `index` of operation `key` as resolved by name against shader `shader`; when the
    /// operation moved onto another shader since (`Gpu::replace_shader`), the binding named
    /// `name` there (`VGPU-SET-BINDING-UNKNOWN` when it has none).
    #[inline]
    pub(crate) fn current_index(
        &self,
        key: OpKey,
        index: usize,
        shader: u64,
        name: &str,
    ) -> crate::error::Result<usize> {
        let Some(op) = self.ops.get(key) else {
            return Ok(index);
        };
        if op.program.shader.id == shader {
            return Ok(index);
        }
        op.program
            .binding_index(name)
            .ok_or_else(|| op.program.unknown_binding(&op.label, name).into())
    }

    /// The label of operation `key` (empty once it is gone).
    pub(crate) fn op_label(&self, key: OpKey) -> Label {
        self.ops
            .get(key)
            .map(|op| op.label.clone())
            .unwrap_or_default()
    }

    /// Removes an operation and releases what its bindings held.
    pub(crate) fn remove_op(&mut self, key: OpKey) {
        if let Some(mut op) = self.ops.remove(key) {
            for content in std::mem::take(&mut op.contents) {
                self.release_content(content);
            }
            self.release_parked(key);
            // Its vertex and index buffers are dropped outside the borrow.
            self.deferred.push(Released::Operation(Box::new(op)));
            // A bundle holding it no longer replays (its key is never drawn again).
            self.note_op_changed(key);
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
        if let Some(op) = self.ops.get_mut(key)
            && (op.fast.vertex_count, op.fast.instance_count) != (vertex_count, instance_count)
        {
            op.fast.vertex_count = vertex_count;
            op.fast.instance_count = instance_count;
            self.note_op_changed(key);
        }
    }

    /// A draw's vertex (or index) and instance counts, as recording uses them; `(0, 0)` for a
    /// removed operation or a compute.
    pub(crate) fn counts(&self, key: OpKey) -> (u32, u32) {
        self.ops.get(key).map_or((0, 0), |op| match op.render() {
            Some(r) => match r.index() {
                Some(i) => (i.count, op.fast.instance_count),
                None => (op.fast.vertex_count, op.fast.instance_count),
            },
            None => (0, 0),
        })
    }

    /// The operation's `bindings_rev` (0 once removed).
    pub(crate) fn bindings_rev(&self, key: OpKey) -> u64 {
        self.ops.get(key).map_or(0, |o| o.bindings_rev)
    }

    /// Why an operation recorded into a bundle at `bindings_rev` `rev` can no longer replay:
    /// `(draw label, reason)`, or `None` while it can.
    pub(crate) fn bundle_staleness(&self, key: OpKey, rev: u64) -> Option<(String, String)> {
        let op = self.ops.get(key)?;
        let stale = |reason: String| Some((op.label.to_string(), reason));
        for (content, b) in op.contents.iter().zip(&op.program.bindings) {
            if let BindingContent::Resource {
                held: HeldResource::Buffer(buf),
                ..
            } = content
                && buf.is_destroyed()
            {
                return stale(format!(
                    "binding `{}` uses buffer {:?}, which was destroyed",
                    b.name, buf.label
                ));
            }
        }
        // Vertex and index buffers are recorded into the bundle too.
        if let Some(render) = op.render() {
            let geometry = render
                .vertex_buffers()
                .iter()
                .map(|v| (&v.buffer, "vertex"))
                .chain(render.index().map(|i| (&i.buffer, "index")));
            for (buf, what) in geometry {
                if buf.is_destroyed() {
                    return stale(format!("its {what} buffer {:?} was destroyed", buf.label));
                }
            }
        }
        if op.bindings_rev != rev {
            if let Some(reason) = self.repointed_since(key, rev) {
                return stale(reason.to_owned());
            }
            return stale("was rebound since the bundle was recorded".to_owned());
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use std::mem::size_of;

    use super::{BindingContent, FastRecord, GroupMemo, Operation, RenderInfo};

    /// A static draw's record (two groups inline) stays compact (the records of 100 000 draws
    /// pack densely): the fast record 48, a group's memo 64, render parts 32 (geometry
    /// boxed, pipelines in the state's table), up to two bindings' contents inline (24 each),
    /// 312 in all. A field added to the record must fit or move out of line.
    #[test]
    fn operation_record_sizes() {
        assert_eq!(size_of::<FastRecord>(), 48);
        assert_eq!(size_of::<GroupMemo>(), 64);
        assert_eq!(size_of::<RenderInfo>(), 32);
        assert_eq!(size_of::<BindingContent>(), 24);
        assert!(
            size_of::<Operation>() <= 312,
            "Operation is {} bytes",
            size_of::<Operation>()
        );
    }
}
