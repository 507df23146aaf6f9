//! Recording operations into passes and bundles: pipeline lookup, per-submission slot
//! resolution, bind-group lookup (memoized per operation), and skipping redundant
//! `set_pipeline` / `set_bind_group` calls.
//!
//! The steady-state path of a simple draw in a pass (`State::record_fast`): one slotmap lookup,
//! two compares for the draw's fast record (see `memo.rs`: no stamp and no resource moved since
//! it last checked its groups' stamps; else one stamp compare per group, see
//! `UniformEngine::stamps`), per group one compare with what is bound, a pipeline compare, then
//! `draw`. Other operations take the full path: per group a resolve
//! per value, a memo compare of the group's buffers, a compare with what is bound. Neither
//! allocates, hashes or builds strings.

use ahash::AHashMap;
use smallvec::SmallVec;
use vgpu_bind::{BindEntry, BindingStore, ResourceKey};
use vgpu_uniforms::{BufferKey, OwnerKey, SlotRef, UniformEngine};

use super::State;
use super::inspect::Inspector;
use super::memo::{BuiltGroup, FAST_GROUPS, FastRecord, GroupMemo, MEMO_VALUES, ValuePages};
use super::operation::{BindingContent, OpKey, Operation, group_values};
use super::pipeline::pipeline_by_id;
use super::prefetch;
use super::program::Program;
use super::resources::HeldResource;
use crate::descriptors::{DrawRange, TargetSignature};
use crate::error::{BindingError, Result};

pub(crate) use super::recorder::{BundleCmd, MAX_DYNAMIC, MAX_GROUPS, MAX_VERTEX_SLOTS, Recorder};

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
pub(crate) struct ResolvedValue {
    stamp: u64,
    stamp_slot: u32,
    offset: u32,
    group_id: u64,
    /// The engine's stamp clock right after the resolve (0: never resolved; the clock starts
    /// above 0): while the clock has not moved, the owner's stamp is still `stamp`.
    clock: u64,
}

#[derive(Clone, Copy, Debug)]
struct BoundGroup {
    /// The bound group's id ([`BoundGroup::NONE`]: nothing bound; never a memo's id, which is 0
    /// without a group: see [`set_memo`]).
    id: u64,
    offsets: [u32; MAX_DYNAMIC],
    /// The stamp clock at which the group was bound to the then-current slot of the shared
    /// block in stamp slot `shared_slot` (0: not known to bind a block's current slot; the clock
    /// starts above 0). While the clock has not moved, a draw whose group holds that block, in
    /// this bind group, finds it bound already (`bind_fast_group`).
    shared_clock: u64,
    shared_slot: u32,
}

impl BoundGroup {
    /// The id of no bind group.
    const NONE: u64 = u64::MAX;
}

impl Default for BoundGroup {
    fn default() -> Self {
        BoundGroup {
            id: BoundGroup::NONE,
            offsets: [0; MAX_DYNAMIC],
            shared_clock: 0,
            shared_slot: 0,
        }
    }
}

/// What a pass (or bundle) has bound, to skip identical sets, plus local counters flushed to
/// the `Gpu` stats when the pass ends (no atomic per draw).
#[derive(Debug, Default)]
pub(crate) struct PassBindings {
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
    /// Draws replayed from bundles (also in `operations`).
    pub(crate) bundle_draws: u64,
    /// Owners pinned while recording a bundle (unpinned when the bundle is dropped).
    pub(crate) pinned: Option<Vec<OwnerKey>>,
    /// Per fast-group index, the last owner slot resolved in this pass.
    pub(crate) resolved: [ResolvedValue; FAST_GROUPS],
}

impl PassBindings {
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
        stats
            .bundle_draws_replayed
            .add(std::mem::take(&mut self.bundle_draws));
    }

    /// A fresh state for recording a bundle (owners get pinned).
    pub(crate) fn for_bundle() -> Self {
        PassBindings {
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

impl State {
    /// The steady-state record of a simple draw into a pass (not a bundle): from the
    /// operation's fast record alone, while it is current. Returns `false`, having possibly set
    /// bind groups but recorded no draw, when [`record_draw`](Self::record_draw) must run.
    ///
    /// Per draw: one slotmap lookup, a prefetch of the record a few slots on (`prefetch.rs`), two
    /// compares for the fast record (its check token and the pass's signature) and per group a
    /// compare with what is bound. When the token moved since
    /// the record last checked its stamps (a value was set, a resource destroyed),
    /// `record_checked` compares each group's stamp; a group whose owner's stamp moved (its value
    /// was set, or bound to a snapshot slot in the last submission) resolves again
    /// (`resolve_moved_values`). The pass has declared [`UniformEngine::memos_in_use`].
    #[inline(always)]
    pub(crate) fn record_fast<R: Recorder>(
        &mut self,
        key: OpKey,
        rec: &mut R,
        bound: &mut PassBindings,
        signature_id: u32,
    ) -> bool {
        let State {
            ops,
            engine,
            bind,
            render_pipelines,
            ..
        } = self;
        let Some(op) = ops.get_mut(key) else {
            return false;
        };
        // The clocks move with the bind-group cache's invalidation epoch too (`State` moves them
        // at every destroy): a token that holds says the memos' groups do.
        let clock = engine.stamp_clock();
        // Large tables outgrow the cache: the next draws' records are asked for now.
        prefetch::records_ahead(op);
        let fast = &op.fast;
        let [g0, g1] = &op.groups.head;
        if fast.checked_at == clock && fast.signature_id == signature_id {
            // Nothing moved since this record's stamps were last found current (a static
            // frame's draws): its one or two groups bind their memoized offsets.
            if !set_memo(rec, bound, 0, g0)
                || (fast.groups_len == 2 && !set_memo(rec, bound, 1, g1))
            {
                return false;
            }
        } else if fast.value_checked_at == engine.value_clock()
            && fast.signature_id == signature_id
            && bind_fast_group(rec, bound, 0, g0, fast.shared_group(0), clock)
            && (fast.groups_len != 2
                || bind_fast_group(rec, bound, 1, g1, fast.shared_group(1), clock))
        {
            // Only shared blocks moved since (a camera set before the pass): their groups are
            // bound already, the others bind their memos.
        } else if !record_checked(
            op,
            engine,
            rec,
            bound,
            (bind.invalidation_epoch(), clock),
            signature_id,
        ) {
            return false;
        }
        let fast = &op.fast;
        if bound.pipeline != fast.pipeline_id {
            let Some(p) = pipeline_by_id(render_pipelines, fast.pipeline_id) else {
                return false;
            };
            rec.set_pipeline(p);
            bound.pipeline = fast.pipeline_id;
            bound.set_pipeline_calls += 1;
        }
        rec.draw(0..fast.vertex_count, 0..fast.instance_count);
        bound.operations += 1;
        true
    }

    /// Records one draw of operation `key` into `rec` (the full path: pipeline lookup, group
    /// resolution and lookup, vertex and index buffers); refreshes the operation's fast record
    /// afterwards, unless recording a bundle.
    #[inline(never)]
    pub(crate) fn record_draw<R: Recorder>(
        &mut self,
        key: OpKey,
        rec: &mut R,
        bound: &mut PassBindings,
        sig: TargetSignature,
        signature_id: u32,
        range: Option<&DrawRange>,
    ) -> Result<()> {
        let pinning = bound.pinned.is_some();
        // The pipeline memo is keyed by interned signature; a bundle records without a pass's
        // signature id (and makes no fast record): look it up (rare).
        let pipeline_sig = match signature_id {
            0 => self.signature_id(sig),
            id => id,
        };
        let State {
            ops,
            engine,
            bind,
            page_resources,
            inspect,
            render_pipelines,
            ..
        } = self;
        let Some(op) = ops.get_mut(key) else {
            return Ok(());
        };
        // The full path may change the group memos (a bundle's record makes no fast record
        // afterwards): stamps are checked again before the next fast record.
        op.fast.checked_at = 0;
        op.fast.value_checked_at = 0;
        let memoized = op
            .render_mut()
            .is_some_and(|r| r.pipelines.get(pipeline_sig).is_some());
        if !memoized && op.render().is_some() {
            // Rare: the pipeline for this target signature is made (it needs the whole state;
            // on `Ok` it is memoized), then the record is looked up again.
            self.render_pipeline(key, sig)?;
            return self.record_draw(key, rec, bound, sig, signature_id, range);
        }
        let inspect = inspect.as_deref_mut();
        record_groups(op, engine, bind, page_resources, inspect, rec, bound)?;
        let Some(render) = op.render() else {
            return Ok(());
        };
        let (vertex_count, instance_count) = (op.fast.vertex_count, op.fast.instance_count);
        let current = render.pipelines.current();
        if let Some((pid, pipeline)) =
            current.and_then(|id| Some((id, pipeline_by_id(render_pipelines, id)?)))
        {
            if bound.pipeline != pid {
                rec.set_pipeline(pipeline);
                bound.pipeline = pid;
                bound.set_pipeline_calls += 1;
            }
        }
        for (slot, vb) in render.vertex_buffers().iter().enumerate() {
            let id = (vb.buffer.id, vb.offset);
            match bound.vertex.get_mut(slot) {
                Some(b) if *b == id => {}
                Some(b) => {
                    rec.set_vertex_buffer(slot as u32, &vb.buffer.buffer, vb.offset);
                    *b = id;
                }
                None => rec.set_vertex_buffer(slot as u32, &vb.buffer.buffer, vb.offset),
            }
        }
        match (render.index(), range) {
            (Some(ib), r) => {
                let id = (
                    ib.buffer.id,
                    ib.offset,
                    ib.format == wgpu::IndexFormat::Uint32,
                );
                if bound.index != id {
                    rec.set_index_buffer(&ib.buffer.buffer, ib.offset, ib.format);
                    bound.index = id;
                }
                let (v, i) = match r {
                    Some(r) => (r.vertices.clone(), r.instances.clone()),
                    None => (0..ib.count, 0..instance_count),
                };
                rec.draw_indexed(v, i);
            }
            (None, Some(r)) => rec.draw(r.vertices.clone(), r.instances.clone()),
            (None, None) => rec.draw(0..vertex_count, 0..instance_count),
        }
        bound.operations += 1;
        if !pinning {
            op.refresh_fast_record(bind.invalidation_epoch(), signature_id, engine);
        }
        Ok(())
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

    /// Resolves every bind group of operation `key` and sets those that differ from `bound`.
    pub(crate) fn record_groups<R: Recorder>(
        &mut self,
        key: OpKey,
        rec: &mut R,
        bound: &mut PassBindings,
    ) -> Result<()> {
        let State {
            ops,
            engine,
            bind,
            page_resources,
            inspect,
            ..
        } = self;
        let Some(op) = ops.get_mut(key) else {
            return Ok(());
        };
        let inspect = inspect.as_deref_mut();
        record_groups(op, engine, bind, page_resources, inspect, rec, bound)
    }
}

/// The groups of a fast record whose stamps were not checked at the current token. Each
/// group's memoized slot holds while its owner's stamp does; a group whose owner another draw of
/// this pass resolved at the current stamp (a shared camera after a set) binds that slot, on its
/// page or its other page, without writing it back into the record. When every group's stamp
/// held, the record notes the token. Anything else catches up out of line
/// (`catch_up_groups`). A valid fast record has at most two groups. `false`: the full path must
/// run (nothing was drawn; bind groups may have been set).
#[inline(always)]
fn record_checked<R: Recorder>(
    op: &mut Operation,
    engine: &mut UniformEngine,
    rec: &mut R,
    bound: &mut PassBindings,
    (epoch, clock): (u64, u64),
    signature_id: u32,
) -> bool {
    let fast = &op.fast;
    let n = fast.groups_len;
    let [g0, g1] = &op.groups.head;
    // The record is valid: made for this pass's target, its groups built under this epoch.
    if fast.signature_id != signature_id || !g0.current(epoch) || (n == 2 && !g1.current(epoch)) {
        return false;
    }
    let stamps = engine.stamps();
    let r0 = &bound.resolved[0];
    // A shared block set before this pass (a per-pass camera) in the first group, which an
    // earlier draw of this pass resolved with nothing moved since, and a second group whose
    // stamp held: the block's slot, on the memo's current page or its other page.
    if n == 2
        && r0.clock == clock
        && r0.stamp_slot == g0.stamp_slot
        && stamps.get(g1.stamp_slot as usize) == Some(&g1.stamp)
    {
        let group0 = if r0.group_id == g0.group_id() {
            g0.group.as_ref()
        } else {
            g0.other()
                .filter(|o| o.id.get() == r0.group_id)
                .map(|o| &o.group)
        };
        if let (Some(group0), Some(group1)) = (group0, &g1.group) {
            let (id0, offset0, slot0) = (r0.group_id, r0.offset, r0.stamp_slot);
            set_single(rec, bound, 0, id0, group0, &offset0);
            set_single(rec, bound, 1, g1.group_id(), group1, &g1.offset);
            if op.fast.shared_group(0) {
                // The second group's stamp held; the first holds a shared block, bound at its
                // current slot: the value token covers the record from now on.
                note_block_bound(bound, 0, clock, slot0);
                op.fast.value_checked_at = engine.value_clock();
            }
            return true;
        }
    }
    record_picked(op, engine, rec, bound, clock)
}

/// [`record_checked`] past its shared-block case: each group's memoized slot or the slot
/// another draw of this pass resolved (`pick_slot`), else a catch-up (`catch_up_and_set`).
#[inline(never)]
fn record_picked<R: Recorder>(
    op: &mut Operation,
    engine: &mut UniformEngine,
    rec: &mut R,
    bound: &mut PassBindings,
    clock: u64,
) -> bool {
    let n = op.fast.groups_len;
    let stamps = engine.stamps();
    let [g0, g1] = &op.groups.head;
    let [r0, r1] = &bound.resolved;
    let picked = match n {
        2 => pick_slot(g0, stamps, r0).zip(pick_slot(g1, stamps, r1)),
        1 => pick_slot(g0, stamps, r0).map(|p0| (p0, Picked::FRESH)),
        0 => return true,
        _ => return false,
    };
    let Some((p0, p1)) = picked else {
        // The memos change below, under tokens that never come back.
        op.fast.checked_at = 0;
        op.fast.value_checked_at = 0;
        let Some(groups) = op.groups.head.get_mut(..usize::from(n)) else {
            return false;
        };
        return catch_up_and_set(groups, &op.contents, &op.fast, engine, rec, bound);
    };
    let Some((group, id)) = g0.chosen(p0.other) else {
        return false;
    };
    set_single(rec, bound, 0, id, group, &p0.offset);
    // A picked slot is current at this clock: a shared block's is noted for the pass.
    let (shared0, shared1) = (op.fast.shared_group(0), op.fast.shared_group(1));
    if shared0 {
        note_block_bound(bound, 0, clock, g0.stamp_slot);
    }
    if n == 2 {
        let Some((group, id)) = g1.chosen(p1.other) else {
            return false;
        };
        set_single(rec, bound, 1, id, group, &p1.offset);
        if shared1 {
            note_block_bound(bound, 1, clock, g1.stamp_slot);
        }
    }
    if p0.fresh && p1.fresh {
        op.fast.checked_at = clock;
    }
    // The value token covers the groups without a shared block: each must have been fresh.
    if (p0.fresh || shared0) && (p1.fresh || shared1) {
        op.fast.value_checked_at = engine.value_clock();
    }
    true
}

/// Binds fast group `gi` of a record whose memos of groups without a shared block hold (its
/// [`value_checked_at`](FastRecord::value_checked_at) matched): such a group its memo; a shared
/// block's group nothing, when the pass bound it to the block's slot at this clock (the first
/// draw after the block's set resolved it). `false`: not so bound (the checked path runs).
#[inline(always)]
fn bind_fast_group<R: Recorder>(
    rec: &mut R,
    bound: &mut PassBindings,
    gi: usize,
    g: &GroupMemo,
    shared: bool,
    clock: u64,
) -> bool {
    if shared {
        let Some(b) = bound.groups.get(gi) else {
            return false;
        };
        let bound_here = b.shared_clock == clock
            && b.shared_slot == g.stamp_slot
            && (b.id == g.group_id() || b.id == g.other_group_id());
        bound.set_bind_group_skipped += u64::from(bound_here);
        return bound_here;
    }
    set_memo(rec, bound, gi, g)
}

/// Binds fast group `gi`'s memoized group at its memoized offset, as [`set_single`] does, but
/// skips it without looking at the memo's group when the pass has that group bound at that
/// offset already: a memo without a group has id 0, which no bound group has
/// ([`BoundGroup::NONE`] when nothing is bound), so ids that match name a group the memo holds.
/// `false`: the memo holds no group and the pass has not bound it.
#[inline(always)]
fn set_memo<R: Recorder>(rec: &mut R, bound: &mut PassBindings, gi: usize, g: &GroupMemo) -> bool {
    if already_bound(bound, gi, g.group_id(), g.offset) {
        return true;
    }
    let Some(group) = &g.group else {
        return false;
    };
    bind_single(rec, bound, gi, g.group_id(), group, &g.offset);
    true
}

/// Notes that group `gi` binds the slot of the shared block in stamp slot `stamp_slot` that is
/// current at stamp clock `clock` (see [`BoundGroup::shared_clock`]).
#[inline(always)]
fn note_block_bound(bound: &mut PassBindings, gi: usize, clock: u64, stamp_slot: u32) {
    if let Some(b) = bound.groups.get_mut(gi) {
        b.shared_clock = clock;
        b.shared_slot = stamp_slot;
    }
}

/// Where a fast group's value is bound in this pass (see [`pick_slot`]).
#[derive(Clone, Copy)]
struct Picked {
    /// The memo's other page's group, not its current one.
    other: bool,
    offset: u32,
    /// The memoized slot, under the owner's current stamp.
    fresh: bool,
}

impl Picked {
    /// A group that needs no check (the absent second group of a one-group record).
    const FRESH: Picked = Picked {
        other: false,
        offset: 0,
        fresh: true,
    };
}

/// Where a fast group's value is in this pass without resolving: its memoized slot while the
/// owner's stamp holds; else the slot another draw of this pass resolved the same owner to at the
/// current stamp, if that slot's page is one of the group's two pages.
#[inline(always)]
fn pick_slot(g: &GroupMemo, stamps: &[u64], shared: &ResolvedValue) -> Option<Picked> {
    let stamp = *stamps.get(g.stamp_slot as usize)?;
    if stamp == g.stamp {
        return Some(Picked {
            other: false,
            offset: g.offset,
            fresh: true,
        });
    }
    if stamp != shared.stamp || shared.stamp_slot != g.stamp_slot {
        return None;
    }
    let other = if shared.group_id == g.group_id() {
        false
    } else if shared.group_id == g.other_group_id() {
        true
    } else {
        return None;
    };
    Some(Picked {
        other,
        offset: shared.offset,
        fresh: false,
    })
}

/// A fast record's groups catch up (`catch_up_groups`), then bind their memoized groups.
/// `false`: the full path must run.
#[inline(never)]
fn catch_up_and_set<R: Recorder>(
    groups: &mut [GroupMemo],
    contents: &[BindingContent],
    fast: &FastRecord,
    engine: &mut UniformEngine,
    rec: &mut R,
    bound: &mut PassBindings,
) -> bool {
    if !catch_up_groups(groups, contents, engine, &mut bound.resolved) {
        return false;
    }
    // Every memo is current now: a shared block's slot is noted for the pass.
    let clock = engine.stamp_clock();
    for (gi, g) in groups.iter().enumerate() {
        let Some(group) = &g.group else {
            return false;
        };
        set_single(rec, bound, gi, g.group_id(), group, &g.offset);
        if fast.shared_group(gi) {
            note_block_bound(bound, gi, clock, g.stamp_slot);
        }
    }
    true
}

/// The stale groups of a fast record catch up: a group whose owner another draw of this pass
/// resolved at the same stamp, for the same bind group, takes that slot (a shared camera after a
/// set; a value alternating between two pages swaps to the other page's group); the others
/// resolve (`resolve_moved_values`). `false`: the full path must run.
#[inline(never)]
fn catch_up_groups(
    groups: &mut [GroupMemo],
    contents: &[BindingContent],
    engine: &mut UniformEngine,
    resolved: &mut [ResolvedValue; FAST_GROUPS],
) -> bool {
    let stamps = engine.stamps();
    let mut current = true;
    for (m, c) in groups.iter_mut().zip(resolved.iter()) {
        let stamp = stamps.get(m.stamp_slot as usize).copied();
        if stamp == Some(m.stamp) {
            continue;
        }
        if stamp != Some(c.stamp) || c.stamp_slot != m.stamp_slot {
            current = false;
            continue;
        }
        if c.group_id != m.group_id() && c.group_id == m.other_group_id() {
            m.swap_pages();
        }
        if c.group_id == m.group_id() {
            m.offset = c.offset;
            m.stamp = c.stamp;
        } else {
            current = false;
        }
    }
    current || resolve_moved_values(groups, contents, engine, resolved)
}

/// Resolves again each group's owner of a fast record whose stamp moved, and memoizes the offset
/// under the new stamp. Returns `false` when an owner resolves to a page none of the group's
/// memoized bind groups was built on (or fails to resolve: the full path reports it).
#[inline(never)]
fn resolve_moved_values(
    groups: &mut [GroupMemo],
    contents: &[BindingContent],
    engine: &mut UniformEngine,
    shared: &mut [ResolvedValue; FAST_GROUPS],
) -> bool {
    for (m, c) in groups.iter_mut().zip(shared) {
        if engine.stamps().get(m.stamp_slot as usize) == Some(&m.stamp) {
            continue;
        }
        let Some(owner) = m.single_value(contents) else {
            return false;
        };
        // A value that changed resolves through the full path (capture), usually to the same
        // page: the memoized group still applies.
        let Ok(slot) = engine.resolve(owner) else {
            return false;
        };
        if Some(slot.buffer) != m.page {
            let on_other = m.other().is_some_and(|o| o.page == Some(slot.buffer));
            if !on_other || !m.swap_pages() {
                return false;
            }
        }
        m.offset = slot.offset;
        let Some(&stamp) = engine.stamps().get(m.stamp_slot as usize) else {
            return false;
        };
        m.stamp = stamp;
        *c = ResolvedValue {
            stamp,
            stamp_slot: m.stamp_slot,
            offset: m.offset,
            group_id: m.group_id(),
            clock: engine.stamp_clock(),
        };
    }
    true
}

/// The error for an operation recorded with a binding never set.
#[cold]
fn unset_error(op: &Operation) -> crate::error::Error {
    let i = op
        .contents
        .iter()
        .position(|c| matches!(c, BindingContent::Unset))
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

/// What building one operation's bind groups reads: its bindings, and the revision and epoch
/// the built groups are memoized under.
struct GroupSource<'o> {
    label: &'o str,
    program: &'o Program,
    contents: &'o [BindingContent],
    epoch: u64,
}

/// The engines a group resolves and builds through, and the binding inspector if it is on.
struct Binder<'s> {
    engine: &'s mut UniformEngine,
    bind: &'s mut BindingStore,
    page_resources: &'s mut AHashMap<BufferKey, ResourceKey>,
    inspect: Option<&'s mut Inspector>,
}

/// Resolves the owners an operation binds and sets its bind groups.
///
/// Hot path (steady state): per group, one `resolve` per value (integer compares), a compare of
/// the resolved buffers with the group's memo, a compare with what is bound.
#[inline]
fn record_groups<R: Recorder>(
    op: &mut Operation,
    engine: &mut UniformEngine,
    bind: &mut BindingStore,
    page_resources: &mut AHashMap<BufferKey, ResourceKey>,
    inspect: Option<&mut Inspector>,
    rec: &mut R,
    bound: &mut PassBindings,
) -> Result<()> {
    if op.fast.unset > 0 {
        return Err(unset_error(op));
    }
    let src = GroupSource {
        label: &op.label,
        program: &op.program,
        contents: &op.contents,
        epoch: bind.invalidation_epoch(),
    };
    let mut binder = Binder {
        engine,
        bind,
        page_resources,
        inspect,
    };
    let pinning = bound.pinned.is_some();
    for (gi, g) in op
        .groups
        .iter_mut(op.fast.groups_len)
        .enumerate()
        .take(MAX_GROUPS)
    {
        match (g.single_value(src.contents), pinning) {
            // The group's only dynamic offset belongs to its only value (the common per-object
            // or per-view struct). Same semantics as the general path.
            (Some(owner), false) => {
                record_single_value_group(&src, gi, g, owner, &mut binder, rec, bound)?
            }
            _ => record_group(&src, gi, g, &mut binder, rec, bound)?,
        }
    }
    Ok(())
}

/// A group whose only dynamic offset belongs to its only value: one resolve, one page compare.
#[inline]
fn record_single_value_group<R: Recorder>(
    src: &GroupSource<'_>,
    gi: usize,
    m: &mut GroupMemo,
    owner: OwnerKey,
    binder: &mut Binder<'_>,
    rec: &mut R,
    bound: &mut PassBindings,
) -> Result<()> {
    let s = binder.engine.resolve(owner)?;
    let current = m.current(src.epoch);
    if !(current && m.page == Some(s.buffer)) {
        // A value alternating between two pages (a camera set per pass whose second value sits
        // in another page) swaps with the previous memo instead of looking the group up again.
        let on_other = current && m.other().is_some_and(|o| o.page == Some(s.buffer));
        if on_other && m.swap_pages() {
            // The fast record's offset was for the other page.
            m.stamp = 0;
        } else {
            let built = build_group(src, gi, std::slice::from_ref(&s), binder)?;
            m.install(built, src.epoch, true, current);
        }
    }
    if let Some(group) = &m.group {
        set_single(rec, bound, gi, m.group_id(), group, &s.offset);
    }
    Ok(())
}

/// Any other group (several values, static offsets, or a bundle pinning its values): resolves
/// (or pins) each value, rebuilds the group if a page or static offset moved.
fn record_group<R: Recorder>(
    src: &GroupSource<'_>,
    gi: usize,
    g: &mut GroupMemo,
    binder: &mut Binder<'_>,
    rec: &mut R,
    bound: &mut PassBindings,
) -> Result<()> {
    let mut offsets = [0u32; MAX_DYNAMIC];
    let mut resolved: SmallVec<[SlotRef; 8]> = SmallVec::new();
    let mut same = g.current(src.epoch);
    for (j, (_, owner, dynamic_index)) in group_values(src.program, src.contents, gi).enumerate() {
        let s = match bound.pinned.as_mut() {
            // Recorded only once pinned: the bundle's drop unpins exactly what it pinned.
            Some(pinned) => {
                let s = binder.engine.pin(owner)?;
                pinned.push(owner);
                s
            }
            None => binder.engine.resolve(owner)?,
        };
        resolved.push(s);
        if let Some(o) = dynamic_index.and_then(|i| offsets.get_mut(i)) {
            *o = s.offset;
        }
        let static_offset = dynamic_index.is_none().then_some(s.offset);
        same = same && j < MEMO_VALUES && g.holds(j, s.buffer, static_offset);
    }
    if !same {
        // A single value taking the only dynamic offset (or none) needs no per-value memo.
        let single = g.single_value(src.contents).is_some() || resolved.is_empty();
        let built = build_group(src, gi, &resolved, binder)?;
        g.install(built, src.epoch, single, false);
    }
    if let Some(group) = &g.group {
        let n = usize::from(g.dynamic_offsets).min(MAX_DYNAMIC);
        set_group(rec, bound, gi, g.group_id(), group, &offsets, n);
    }
    Ok(())
}

/// Slow path: looks the group up in the bind-group cache (creating it on a miss). `resolved`
/// holds the slot of each of the group's values, in value order.
#[cold]
fn build_group(
    src: &GroupSource<'_>,
    gi: usize,
    resolved: &[SlotRef],
    binder: &mut Binder<'_>,
) -> Result<BuiltGroup> {
    let group = &src.program.groups[gi];
    let range = group.first..group.first + group.len;
    let bindings = &src.program.bindings[range.clone()];
    let contents = &src.contents[range];
    check_buffers_live(src.label, bindings, contents)?;
    let mut entries: SmallVec<[BindEntry; 8]> = SmallVec::new();
    let mut pages = ValuePages::default();
    let mut values = resolved.iter().enumerate();
    for (pb, content) in bindings.iter().zip(contents) {
        match content {
            BindingContent::Value { owner, .. } | BindingContent::Block { owner, .. } => {
                let Some((j, &s)) = values.next() else {
                    continue;
                };
                let Some(res) = page_resource(binder, s.buffer) else {
                    continue;
                };
                let size = binder.engine.binding_size(*owner)?;
                let static_offset = if pb.dynamic { 0 } else { s.offset };
                if j < MEMO_VALUES {
                    pages.pages[j] = Some(s.buffer);
                    pages.static_offsets[j] = static_offset;
                }
                entries.push(BindEntry::buffer(
                    pb.binding,
                    res,
                    u64::from(static_offset),
                    Some(size),
                ));
            }
            BindingContent::Resource { res, .. } if pb.kind.is_buffer() => {
                entries.push(BindEntry::buffer(pb.binding, *res, 0, None));
            }
            BindingContent::Resource { res, .. } => entries.push(BindEntry::new(pb.binding, *res)),
            BindingContent::Unset => {}
        }
    }
    let created_before = binder.engine.context().stats().bind_groups_created.get();
    let (id, g) = binder.bind.get_or_create(group.layout_key, &entries)?;
    let g = g.clone();
    if binder.engine.context().stats().bind_groups_created.get() != created_before {
        // For the advisor: which draw made a frame create bind groups.
        binder.bind.note_creator(src.label);
    }
    if let Some(inspector) = binder.inspect.as_deref_mut() {
        inspector.note_group(binder.bind, group.layout_key, &entries, bindings, &g);
    }
    Ok(BuiltGroup {
        id,
        group: g,
        pages,
    })
}

/// A destroyed vgpu buffer is named with the draw and its WGSL binding (the registry only knows
/// the resource).
fn check_buffers_live(
    label: &str,
    bindings: &[super::program::ProgramBinding],
    contents: &[BindingContent],
) -> Result<()> {
    for (pb, content) in bindings.iter().zip(contents) {
        if let BindingContent::Resource {
            held: HeldResource::Buffer(b),
            ..
        } = content
        {
            if b.is_destroyed() {
                return Err(BindingError::Destroyed {
                    label: label.to_string(),
                    binding: pb.name.to_string(),
                    resource: format!("buffer {:?}", b.label),
                }
                .into());
            }
        }
    }
    Ok(())
}

/// The registry key of a capture page (registered on first use); `None` if the engine no longer
/// has the buffer.
fn page_resource(binder: &mut Binder<'_>, page: BufferKey) -> Option<ResourceKey> {
    if let Some(r) = binder.page_resources.get(&page) {
        return Some(*r);
    }
    let raw = binder.engine.buffer(page)?;
    let r = binder.bind.register_buffer(raw, "vgpu uniform page");
    binder.page_resources.insert(page, r);
    Some(r)
}

/// Sets a group with one dynamic offset unless the same group and offset are already bound.
#[inline(always)]
fn set_single<R: Recorder>(
    rec: &mut R,
    bound: &mut PassBindings,
    gi: usize,
    id: u64,
    group: &wgpu::BindGroup,
    offset: &u32,
) {
    if !already_bound(bound, gi, id, *offset) {
        bind_single(rec, bound, gi, id, group, offset);
    }
}

/// Whether the pass has bind group `id` bound at group `gi` with `offset` as its (first) dynamic
/// offset; a set found redundant so is counted as skipped.
#[inline(always)]
fn already_bound(bound: &mut PassBindings, gi: usize, id: u64, offset: u32) -> bool {
    let bound_here = bound
        .groups
        .get(gi)
        .is_some_and(|b| b.id == id && b.offsets[0] == offset);
    if bound_here {
        bound.set_bind_group_skipped += 1;
    }
    bound_here
}

/// Binds `group` at group `gi` with one dynamic offset, and notes it bound.
#[inline(always)]
fn bind_single<R: Recorder>(
    rec: &mut R,
    bound: &mut PassBindings,
    gi: usize,
    id: u64,
    group: &wgpu::BindGroup,
    offset: &u32,
) {
    let Some(b) = bound.groups.get_mut(gi) else {
        return;
    };
    // Noted before the call, while `id` and `offset` are still in registers.
    b.id = id;
    b.shared_clock = 0;
    // Offsets past the first may keep another group's values: a group with one dynamic offset
    // compares only the first, and `set_group` compares whole arrays, so a stale entry can only
    // cost a redundant set, never skip a needed one.
    b.offsets[0] = *offset;
    bound.set_bind_group_calls += 1;
    // The offset is passed where it lies (in the record): no copy to the stack.
    rec.set_bind_group(gi as u32, group, std::slice::from_ref(offset));
}

#[inline]
fn set_group<R: Recorder>(
    rec: &mut R,
    bound: &mut PassBindings,
    gi: usize,
    id: u64,
    group: &wgpu::BindGroup,
    offsets: &[u32; MAX_DYNAMIC],
    n: usize,
) {
    let Some(b) = bound.groups.get_mut(gi) else {
        return;
    };
    // Offsets past `n` are zero here; in `b` they are zero or stale (see `set_single`), which
    // can only make the compare fail: whole arrays compare.
    if b.id == id && b.offsets == *offsets {
        bound.set_bind_group_skipped += 1;
        return;
    }
    rec.set_bind_group(gi as u32, group, &offsets[..n]);
    b.id = id;
    b.shared_clock = 0;
    b.offsets = *offsets;
    bound.set_bind_group_calls += 1;
}
