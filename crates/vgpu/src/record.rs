//! Recording operations into passes and bundles: pipeline lookup, per-submission slot
//! resolution, bind-group lookup (memoized per operation), and skipping redundant
//! `set_pipeline` / `set_bind_group` calls.
//!
//! The steady-state path of a simple draw in a pass (`State::record_hot`): one slotmap lookup,
//! two compares for the draw's hot record, per group one stamp compare (the value's slot has not
//! moved since it was memoized, see `UniformEngine::stamps`) and one compare with what is bound,
//! a pipeline compare, then `draw`. Other operations take the full path: per group a resolve
//! per value, a memo compare of the group's buffers, a compare with what is bound. Neither
//! allocates, hashes or builds strings.

use ahash::AHashMap;
use smallvec::SmallVec;
use vgpu_bind::{BindEntry, BindGroupId, BindingStore, ResourceKey};
use vgpu_uniforms::{BufferKey, OwnerKey, SlotRef, UniformEngine};

use crate::draw::{
    GroupMemo, HOT_GROUPS, MEMO_VALUES, OpHot, OpKey, OpState, RenderInfo, STATIC, Slot,
};
use crate::error::{BindingError, Result};
use crate::gpu::State;
use crate::program::Program;
use crate::target::TargetSignature;

/// Most bind groups an operation may use (wgpu's `max_bind_groups` is at most 8).
pub(crate) const MAX_GROUPS: usize = 8;
/// Vertex buffer slots tracked for redundant-set elimination.
pub(crate) const MAX_VERTEX_SLOTS: usize = 8;
/// Most dynamic offsets per group tracked for redundant-set elimination.
pub(crate) const MAX_DYNAMIC: usize = 8;

/// Something draws can be recorded into: a render pass or a render bundle encoder.
pub(crate) trait Recorder {
    fn set_pipeline(&mut self, pipeline: &wgpu::RenderPipeline);
    fn set_bind_group(&mut self, index: u32, group: &wgpu::BindGroup, offsets: &[u32]);
    fn set_vertex_buffer(&mut self, slot: u32, buffer: &wgpu::Buffer, offset: u64);
    fn set_index_buffer(&mut self, buffer: &wgpu::Buffer, offset: u64, format: wgpu::IndexFormat);
    fn draw(&mut self, vertices: std::ops::Range<u32>, instances: std::ops::Range<u32>);
    fn draw_indexed(&mut self, indices: std::ops::Range<u32>, instances: std::ops::Range<u32>);
}

impl Recorder for wgpu::RenderPass<'_> {
    #[inline]
    fn set_pipeline(&mut self, pipeline: &wgpu::RenderPipeline) {
        wgpu::RenderPass::set_pipeline(self, pipeline);
    }
    #[inline]
    fn set_bind_group(&mut self, index: u32, group: &wgpu::BindGroup, offsets: &[u32]) {
        wgpu::RenderPass::set_bind_group(self, index, group, offsets);
    }
    fn set_vertex_buffer(&mut self, slot: u32, buffer: &wgpu::Buffer, offset: u64) {
        wgpu::RenderPass::set_vertex_buffer(self, slot, buffer.slice(offset..));
    }
    fn set_index_buffer(&mut self, buffer: &wgpu::Buffer, offset: u64, format: wgpu::IndexFormat) {
        wgpu::RenderPass::set_index_buffer(self, buffer.slice(offset..), format);
    }
    #[inline]
    fn draw(&mut self, vertices: std::ops::Range<u32>, instances: std::ops::Range<u32>) {
        wgpu::RenderPass::draw(self, vertices, instances);
    }
    fn draw_indexed(&mut self, indices: std::ops::Range<u32>, instances: std::ops::Range<u32>) {
        wgpu::RenderPass::draw_indexed(self, indices, 0, instances);
    }
}

/// Bundle commands, recorded with owned handles and replayed into a
/// `wgpu::RenderBundleEncoder` (whose methods need references that outlive the encoder).
#[derive(Debug)]
pub(crate) enum BundleCmd {
    Pipeline(wgpu::RenderPipeline),
    Group(u32, wgpu::BindGroup, SmallVec<[u32; 4]>),
    Vertex(u32, wgpu::Buffer, u64),
    Index(wgpu::Buffer, u64, wgpu::IndexFormat),
    Draw(std::ops::Range<u32>, std::ops::Range<u32>),
    DrawIndexed(std::ops::Range<u32>, std::ops::Range<u32>),
}

impl Recorder for Vec<BundleCmd> {
    fn set_pipeline(&mut self, pipeline: &wgpu::RenderPipeline) {
        self.push(BundleCmd::Pipeline(pipeline.clone()));
    }
    fn set_bind_group(&mut self, index: u32, group: &wgpu::BindGroup, offsets: &[u32]) {
        self.push(BundleCmd::Group(
            index,
            group.clone(),
            SmallVec::from_slice(offsets),
        ));
    }
    fn set_vertex_buffer(&mut self, slot: u32, buffer: &wgpu::Buffer, offset: u64) {
        self.push(BundleCmd::Vertex(slot, buffer.clone(), offset));
    }
    fn set_index_buffer(&mut self, buffer: &wgpu::Buffer, offset: u64, format: wgpu::IndexFormat) {
        self.push(BundleCmd::Index(buffer.clone(), offset, format));
    }
    fn draw(&mut self, vertices: std::ops::Range<u32>, instances: std::ops::Range<u32>) {
        self.push(BundleCmd::Draw(vertices, instances));
    }
    fn draw_indexed(&mut self, indices: std::ops::Range<u32>, instances: std::ops::Range<u32>) {
        self.push(BundleCmd::DrawIndexed(indices, instances));
    }
}

/// Replays recorded commands into a bundle encoder.
pub(crate) fn encode_bundle<'a>(
    encoder: &mut wgpu::RenderBundleEncoder<'a>,
    cmds: &'a [BundleCmd],
) {
    for cmd in cmds {
        match cmd {
            BundleCmd::Pipeline(p) => encoder.set_pipeline(p),
            BundleCmd::Group(i, g, o) => encoder.set_bind_group(*i, g, o),
            BundleCmd::Vertex(slot, b, offset) => {
                encoder.set_vertex_buffer(*slot, b.slice(*offset..))
            }
            BundleCmd::Index(b, offset, format) => {
                encoder.set_index_buffer(b.slice(*offset..), *format)
            }
            BundleCmd::Draw(v, i) => encoder.draw(v.clone(), i.clone()),
            BundleCmd::DrawIndexed(v, i) => encoder.draw_indexed(v.clone(), 0, i.clone()),
        }
    }
}

impl Recorder for wgpu::ComputePass<'_> {
    fn set_pipeline(&mut self, _: &wgpu::RenderPipeline) {}
    #[inline]
    fn set_bind_group(&mut self, index: u32, group: &wgpu::BindGroup, offsets: &[u32]) {
        wgpu::ComputePass::set_bind_group(self, index, group, offsets);
    }
    fn set_vertex_buffer(&mut self, _: u32, _: &wgpu::Buffer, _: u64) {}
    fn set_index_buffer(&mut self, _: &wgpu::Buffer, _: u64, _: wgpu::IndexFormat) {}
    fn draw(&mut self, _: std::ops::Range<u32>, _: std::ops::Range<u32>) {}
    fn draw_indexed(&mut self, _: std::ops::Range<u32>, _: std::ops::Range<u32>) {}
}

/// The slot an owner resolved to in this pass, at a stamp, for one bind group: lets the draws
/// sharing a value that was set (a camera set before the pass) take the new offset without
/// resolving each.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct SharedSlot {
    stamp: u64,
    idx: u32,
    offset: u32,
    id: u64,
}

#[derive(Clone, Copy, Debug, Default)]
struct BoundGroup {
    id: u64,
    offsets: [u32; MAX_DYNAMIC],
}

/// What a pass (or bundle) has bound, to skip identical sets, plus local counters flushed to
/// the `Gpu` stats when the pass ends (no atomic per draw).
#[derive(Debug, Default)]
pub(crate) struct Bound {
    pipeline: u64,
    groups: [BoundGroup; MAX_GROUPS],
    /// Vertex buffers bound per slot: (buffer identity, offset).
    vertex: [(u64, u64); MAX_VERTEX_SLOTS],
    /// Index buffer bound: (buffer identity, offset, 32-bit).
    index: (u64, u64, bool),
    /// Draws and dispatches recorded.
    pub(crate) operations: u64,
    pub(crate) set_bind_group_calls: u64,
    pub(crate) set_bind_group_skipped: u64,
    pub(crate) set_pipeline_calls: u64,
    /// Owners pinned while recording a bundle (unpinned when the bundle is dropped).
    pub(crate) pinned: Option<Vec<OwnerKey>>,
    /// Per hot-group index, the last owner slot resolved in this pass.
    pub(crate) shared: [SharedSlot; HOT_GROUPS],
}

impl Bound {
    /// Adds the local counters to the stats and zeroes them.
    pub(crate) fn flush(&mut self, stats: &vgpu_core::Stats) {
        stats
            .operations_recorded
            .add(std::mem::take(&mut self.operations));
        stats
            .set_bind_group_calls
            .add(std::mem::take(&mut self.set_bind_group_calls));
        stats
            .set_bind_group_skipped
            .add(std::mem::take(&mut self.set_bind_group_skipped));
        stats
            .set_pipeline_calls
            .add(std::mem::take(&mut self.set_pipeline_calls));
    }

    /// A fresh state for recording a bundle (owners get pinned).
    pub(crate) fn for_bundle() -> Self {
        Bound {
            pinned: Some(Vec::new()),
            ..Default::default()
        }
    }

    /// Forgets what is bound (e.g. after executing bundles, which reset pass state).
    pub(crate) fn reset(&mut self) {
        self.pipeline = 0;
        self.groups = [BoundGroup::default(); MAX_GROUPS];
        self.vertex = [(0, 0); MAX_VERTEX_SLOTS];
        self.index = (0, 0, false);
    }
}

/// A draw's vertex/instance ranges.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DrawRange {
    /// Vertices (or indices, for indexed draws).
    pub vertices: std::ops::Range<u32>,
    /// Instances.
    pub instances: std::ops::Range<u32>,
}

impl State {
    /// The steady-state record of a simple draw into a pass (not a bundle): from the
    /// operation's hot record alone, while it is current. Returns `false`, having possibly set
    /// bind groups but recorded no draw, when [`record_draw`](Self::record_draw) must run.
    ///
    /// Per draw: one slotmap lookup, two compares for the hot record, per group a stamp compare
    /// and a compare with what is bound. A group whose owner's stamp moved (its value was set,
    /// or bound to a snapshot slot in the last submission) resolves again (`revalidate`). The
    /// pass has declared [`UniformEngine::memos_in_use`].
    #[inline(always)]
    pub(crate) fn record_hot<R: Recorder>(
        &mut self,
        key: OpKey,
        rec: &mut R,
        bound: &mut Bound,
        sig_id: u32,
    ) -> bool {
        let epoch = self.bind.invalidation_epoch();
        let State { ops, engine, .. } = self;
        let Some(op) = ops.get_mut(key) else {
            return false;
        };
        let hot = &mut op.hot;
        if hot.valid_epoch != epoch || hot.sig_id != sig_id {
            return false;
        }
        // A stale group takes the slot another draw of this pass resolved its owner to, at the
        // same stamp and for the same bind group (a shared camera after a set); else resolves.
        let stamps = engine.stamps();
        let n = hot.n;
        let mut current = true;
        for gi in 0..HOT_GROUPS {
            if gi < usize::from(n) {
                let g = &mut hot.groups[gi];
                let stamp = stamps.get(g.idx as usize).copied();
                if stamp != Some(g.stamp) {
                    let c = &bound.shared[gi];
                    if stamp == Some(c.stamp) && c.idx == g.idx {
                        if c.id != g.id && c.id == g.alt_id && g.alt_group.is_some() {
                            g.swap_alt();
                        }
                        if c.id == g.id {
                            g.offset = c.offset;
                            g.stamp = c.stamp;
                        } else {
                            current = false;
                        }
                    } else {
                        current = false;
                    }
                }
            }
        }
        if !current && !revalidate(hot, engine, &mut bound.shared) {
            return false;
        }
        // Unrolled for the (at most two) groups of a hot record.
        let [g0, g1] = &hot.groups;
        if n > 0 {
            let Some(group) = &g0.group else { return false };
            set_single(rec, bound, 0, g0.id, group, g0.offset);
            if n > 1 {
                let Some(group) = &g1.group else { return false };
                set_single(rec, bound, 1, g1.id, group, g1.offset);
            }
        }
        if bound.pipeline != hot.pipeline_id {
            let Some(p) = &hot.pipeline else { return false };
            rec.set_pipeline(p);
            bound.pipeline = hot.pipeline_id;
            bound.set_pipeline_calls += 1;
        }
        rec.draw(0..hot.vertex_count, 0..hot.instance_count);
        bound.operations += 1;
        true
    }

    /// Records one draw of operation `key` into `rec` (the full path: pipeline lookup, group
    /// resolution and lookup, vertex and index buffers); refreshes the operation's hot record
    /// afterwards, unless recording a bundle.
    #[inline(never)]
    pub(crate) fn record_draw<R: Recorder>(
        &mut self,
        key: OpKey,
        rec: &mut R,
        bound: &mut Bound,
        sig: TargetSignature,
        sig_id: u32,
        range: Option<&DrawRange>,
    ) -> Result<()> {
        let pinning = bound.pinned.is_some();
        let ops = &mut self.ops;
        let Some(op) = ops.get_mut(key) else {
            return Ok(());
        };
        let ready = matches!(&op.render, Some(RenderInfo { pipeline_memo: Some((s, _, _)), .. }) if *s == sig);
        let op = if ready {
            op
        } else {
            self.render_pipeline(key, sig)?;
            let State { ops, .. } = self;
            match ops.get_mut(key) {
                Some(op) => op,
                None => return Ok(()),
            }
        };
        let State {
            engine,
            bind,
            page_res,
            ..
        } = self;
        record_groups(op, engine, bind, page_res, rec, bound)?;
        let Some(render) = op.render.as_ref() else {
            return Ok(());
        };
        if let Some((_, pid, pipeline)) = &render.pipeline_memo {
            if bound.pipeline != *pid {
                rec.set_pipeline(pipeline);
                bound.pipeline = *pid;
                bound.set_pipeline_calls += 1;
            }
        }
        for (slot, vb) in render.vertex_buffers.iter().enumerate() {
            let id = (vb.buffer.identity(), vb.offset);
            match bound.vertex.get_mut(slot) {
                Some(b) if *b == id => {}
                Some(b) => {
                    rec.set_vertex_buffer(slot as u32, vb.buffer.raw(), vb.offset);
                    *b = id;
                }
                None => rec.set_vertex_buffer(slot as u32, vb.buffer.raw(), vb.offset),
            }
        }
        match (&render.index, range) {
            (Some(ib), r) => {
                let id = (
                    ib.buffer.identity(),
                    ib.offset,
                    ib.format == wgpu::IndexFormat::Uint32,
                );
                if bound.index != id {
                    rec.set_index_buffer(ib.buffer.raw(), ib.offset, ib.format);
                    bound.index = id;
                }
                let (v, i) = match r {
                    Some(r) => (r.vertices.clone(), r.instances.clone()),
                    None => (0..ib.count, 0..render.instance_count),
                };
                rec.draw_indexed(v, i);
            }
            (None, Some(r)) => rec.draw(r.vertices.clone(), r.instances.clone()),
            (None, None) => rec.draw(0..render.vertex_count, 0..render.instance_count),
        }
        bound.operations += 1;
        if !pinning {
            op.refresh_hot(bind.invalidation_epoch(), sig_id, engine);
        }
        Ok(())
    }

    /// The id of a target signature, interned (a handful per device; looked up once per pass).
    pub(crate) fn sig_id(&mut self, sig: TargetSignature) -> u32 {
        match self.signatures.iter().position(|s| *s == sig) {
            Some(i) => i as u32 + 1,
            None => {
                self.signatures.push(sig);
                self.signatures.len() as u32
            }
        }
    }

    /// Resolves every bind group of operation `key` and sets those that differ from `bound`.
    pub(crate) fn record_groups<R: Recorder>(
        &mut self,
        key: OpKey,
        rec: &mut R,
        bound: &mut Bound,
    ) -> Result<()> {
        let State {
            ops,
            engine,
            bind,
            page_res,
            ..
        } = self;
        let Some(op) = ops.get_mut(key) else {
            return Ok(());
        };
        record_groups(op, engine, bind, page_res, rec, bound)
    }
}

/// Resolves again each group's owner of a hot record whose stamp moved, and memoizes the offset
/// under the new stamp. Returns `false` when an owner resolves to a page none of the group's
/// memoized bind groups was built on (or fails to resolve: the full path reports it).
#[inline(never)]
fn revalidate(
    hot: &mut OpHot,
    engine: &mut UniformEngine,
    shared: &mut [SharedSlot; HOT_GROUPS],
) -> bool {
    let n = usize::from(hot.n).min(HOT_GROUPS);
    for (g, c) in hot.groups[..n].iter_mut().zip(shared) {
        if engine.stamps().get(g.idx as usize) == Some(&g.stamp) {
            continue;
        }
        // A value that changed resolves through the full path (capture), usually to the same
        // page: the memoized group still applies.
        let Ok(slot) = engine.resolve(g.owner) else {
            return false;
        };
        if Some(slot.buffer) != g.buffer {
            if g.alt_group.is_none() || Some(slot.buffer) != g.alt_buffer {
                return false;
            }
            g.swap_alt();
        }
        g.offset = slot.offset;
        let Some(&stamp) = engine.stamps().get(g.idx as usize) else {
            return false;
        };
        g.stamp = stamp;
        *c = SharedSlot {
            stamp,
            idx: g.idx,
            offset: g.offset,
            id: g.id,
        };
    }
    true
}

/// The error for an operation recorded with a binding never set.
#[cold]
fn unset_error(op: &OpState) -> crate::Error {
    let i = op
        .slots
        .iter()
        .position(|s| matches!(s, Slot::Unset))
        .unwrap_or(0);
    let b = &op.program.bindings[i];
    BindingError::Unset {
        label: op.label.to_string(),
        binding: b.name.to_string(),
        group: b.group,
        index: b.binding,
    }
    .into()
}

/// Resolves the owners an operation binds and sets its bind groups.
///
/// Hot path (steady state): per group, one `resolve` per value (integer compares), a compare of
/// the resolved buffers with the group's memo, a compare with what is bound.
#[inline]
fn record_groups<R: Recorder>(
    op: &mut OpState,
    engine: &mut UniformEngine,
    bind: &mut BindingStore,
    page_res: &mut AHashMap<BufferKey, ResourceKey>,
    rec: &mut R,
    bound: &mut Bound,
) -> Result<()> {
    if op.hot.unset > 0 {
        return Err(unset_error(op));
    }
    let epoch = bind.invalidation_epoch();
    let pinning = bound.pinned.is_some();
    let OpState {
        label,
        program,
        slots,
        bindings_rev,
        groups,
        ..
    } = op;
    let rev = *bindings_rev;
    let build = |gi,
                 resolved: &[SlotRef],
                 engine: &mut UniformEngine,
                 bind: &mut BindingStore,
                 page_res: &mut _| {
        build_group(
            label, program, slots, gi, resolved, rev, epoch, engine, bind, page_res,
        )
    };
    for (gi, g) in groups.iter_mut().enumerate().take(MAX_GROUPS) {
        // Fast path: the group's only dynamic offset belongs to its only value (the common
        // per-object or per-view struct). Same semantics as the general path below.
        if let (Some(owner), false) = (g.single, pinning) {
            let s = engine.resolve(owner)?;
            let current =
                matches!(&g.memo, Some(m) if m.epoch == epoch && m.bindings_rev == *bindings_rev);
            let valid = current && matches!(&g.memo, Some(m) if m.buffers[0] == Some(s.buffer));
            if !valid {
                // A value alternating between two pages (a camera set per pass whose second
                // value sits in another page) swaps with the previous memo instead of looking
                // the group up again.
                let swapped = current
                    && match (&mut g.memo, &mut g.alt) {
                        (Some(m), Some(alt)) if alt.0 == Some(s.buffer) => {
                            std::mem::swap(&mut m.buffers[0], &mut alt.0);
                            std::mem::swap(&mut m.id, &mut alt.1);
                            std::mem::swap(&mut m.group, &mut alt.2);
                            true
                        }
                        _ => false,
                    };
                if !swapped {
                    let built = build(gi, std::slice::from_ref(&s), engine, bind, page_res)?;
                    g.alt = match g.memo.take() {
                        Some(m) if current => Some((m.buffers[0], m.id, m.group)),
                        _ => None,
                    };
                    g.memo = Some(built);
                }
            }
            let Some(memo) = &g.memo else { continue };
            set_single(rec, bound, gi, memo.id.get(), &memo.group, s.offset);
            continue;
        }
        let mut offsets = [0u32; MAX_DYNAMIC];
        let mut resolved: SmallVec<[SlotRef; 8]> = SmallVec::new();
        let mut same = matches!(&g.memo, Some(m) if m.epoch == epoch && m.bindings_rev == *bindings_rev)
            && g.values.len() <= MEMO_VALUES;
        for (j, v) in g.values.iter().enumerate() {
            let s = if pinning {
                // Recorded only once pinned: the bundle's drop unpins exactly what it pinned.
                let s = engine.pin(v.owner)?;
                if let Some(pinned) = bound.pinned.as_mut() {
                    pinned.push(v.owner);
                }
                s
            } else {
                engine.resolve(v.owner)?
            };
            resolved.push(s);
            if v.dyn_index != STATIC {
                if let Some(o) = offsets.get_mut(usize::from(v.dyn_index)) {
                    *o = s.offset;
                }
            }
            if same {
                if let Some(m) = &g.memo {
                    same = m.buffers[j] == Some(s.buffer)
                        && (v.dyn_index != STATIC || m.statics[j] == s.offset);
                }
            }
        }
        if !same {
            g.alt = None;
            g.memo = Some(build(gi, &resolved, engine, bind, page_res)?);
        }
        let Some(memo) = &g.memo else { continue };
        let n = usize::from(g.dynamic).min(MAX_DYNAMIC);
        set_group(rec, bound, gi, memo.id, &memo.group, &offsets, n);
    }
    Ok(())
}

/// Slow path: looks the group up in the bind-group cache (creating it on a miss) and memoizes it.
#[cold]
#[allow(clippy::too_many_arguments)]
fn build_group(
    label: &str,
    program: &Program,
    slots: &[Slot],
    gi: usize,
    resolved: &[SlotRef],
    bindings_rev: u64,
    epoch: u64,
    engine: &mut UniformEngine,
    bind: &mut BindingStore,
    page_res: &mut AHashMap<BufferKey, ResourceKey>,
) -> Result<GroupMemo> {
    let group = &program.groups[gi];
    let mut entries: SmallVec<[BindEntry; 8]> = SmallVec::new();
    let mut buffers = [None; MEMO_VALUES];
    let mut statics = [0u32; MEMO_VALUES];
    let mut values = resolved.iter();
    let mut j = 0;
    let range = group.first..group.first + group.len;
    // A destroyed vgpu buffer is named with the draw and its WGSL binding (the registry only
    // knows the resource).
    for (pb, slot) in program.bindings[range.clone()]
        .iter()
        .zip(&slots[range.clone()])
    {
        if let Slot::Resource {
            keep: crate::draw::Keep::Buffer(b),
            ..
        } = slot
        {
            if b.is_destroyed() {
                return Err(BindingError::Destroyed {
                    label: label.to_string(),
                    binding: pb.name.to_string(),
                    resource: format!("buffer {:?}", b.label()),
                }
                .into());
            }
        }
    }
    for (pb, slot) in program.bindings[range.clone()].iter().zip(&slots[range]) {
        match slot {
            Slot::Value { owner } | Slot::Shared { owner, .. } => {
                // The slot the caller resolved (or pinned) this value to, in value order.
                let Some(&s) = values.next() else {
                    continue;
                };
                let res = match page_res.get(&s.buffer) {
                    Some(r) => *r,
                    None => {
                        let Some(raw) = engine.buffer(s.buffer) else {
                            continue;
                        };
                        let r = bind.register_buffer(raw, "vgpu uniform page");
                        page_res.insert(s.buffer, r);
                        r
                    }
                };
                let size = engine.binding_size(*owner)?;
                let static_offset = if pb.dynamic { 0 } else { s.offset };
                if j < MEMO_VALUES {
                    buffers[j] = Some(s.buffer);
                    statics[j] = static_offset;
                }
                j += 1;
                entries.push(BindEntry::buffer(
                    pb.binding,
                    res,
                    u64::from(static_offset),
                    Some(size),
                ));
            }
            Slot::Resource { res, .. } => {
                if pb.kind.is_buffer() {
                    entries.push(BindEntry::buffer(pb.binding, *res, 0, None));
                } else {
                    entries.push(BindEntry::new(pb.binding, *res));
                }
            }
            Slot::Unset => {}
        }
    }
    let (id, g) = bind.get_or_create(group.layout_key, &entries)?;
    Ok(GroupMemo {
        buffers,
        statics,
        bindings_rev,
        epoch,
        id,
        group: g.clone(),
    })
}

/// Sets a group with one dynamic offset unless the same group and offset are already bound.
/// Keeps `set_group`'s invariant: offsets past the first are zero.
#[inline]
fn set_single<R: Recorder>(
    rec: &mut R,
    bound: &mut Bound,
    gi: usize,
    id: u64,
    group: &wgpu::BindGroup,
    offset: u32,
) {
    let Some(b) = bound.groups.get_mut(gi) else {
        return;
    };
    if b.id == id && b.offsets[0] == offset {
        bound.set_bind_group_skipped += 1;
        return;
    }
    rec.set_bind_group(gi as u32, group, std::slice::from_ref(&offset));
    b.id = id;
    b.offsets = [0; MAX_DYNAMIC];
    b.offsets[0] = offset;
    bound.set_bind_group_calls += 1;
}

#[inline]
fn set_group<R: Recorder>(
    rec: &mut R,
    bound: &mut Bound,
    gi: usize,
    id: BindGroupId,
    group: &wgpu::BindGroup,
    offsets: &[u32; MAX_DYNAMIC],
    n: usize,
) {
    let Some(b) = bound.groups.get_mut(gi) else {
        return;
    };
    // Offsets past `n` are always zero on both sides, so whole arrays compare.
    if b.id == id.get() && b.offsets == *offsets {
        bound.set_bind_group_skipped += 1;
        return;
    }
    rec.set_bind_group(gi as u32, group, &offsets[..n]);
    b.id = id.get();
    b.offsets = *offsets;
    bound.set_bind_group_calls += 1;
}
