//! What a pass (or a bundle being recorded) has bound, so that both record paths skip a
//! `set_bind_group` or `set_pipeline` that would change nothing, and what the fast path shares
//! between the draws of one pass: the slot each fast group's owner last resolved to
//! ([`ResolvedValue`]) and whether a group binds a shared block's current slot
//! ([`BoundGroup::block_bound_at`]). The memo layers these compares complete are tabled in
//! `memo.rs`.

use vgpu_uniforms::OwnerKey;

use crate::state::command_sink::{CommandSink, MAX_DYNAMIC, MAX_GROUPS, MAX_VERTEX_SLOTS};
use crate::state::memo::{FAST_GROUPS, GroupMemo};

/// The slot an owner resolved to in this pass, at a stamp, for one bind group: lets the draws
/// sharing a value that was set (a camera set before the pass) take the new offset without
/// resolving each.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct ResolvedValue {
    /// The owner's stamp at the resolve.
    pub(super) stamp: u64,
    pub(super) stamp_slot: u32,
    /// The dynamic offset the owner resolved to.
    pub(super) offset: u32,
    /// The bind group the slot's page is bound through.
    pub(super) group_id: u64,
    /// The stamp clock right after the resolve (0: never resolved; the clock starts above 0):
    /// while the stamp clock still reads this, the owner's stamp is still `stamp`.
    pub(super) resolved_at: u64,
}

/// What the pass has bound at one group index.
#[derive(Clone, Copy, Debug)]
struct BoundGroup {
    /// The bound group's id ([`BoundGroup::NONE`]: nothing bound; never a memo's id, which is 0
    /// without a group: see [`set_memo`]).
    id: u64,
    offsets: [u32; MAX_DYNAMIC],
    /// The stamp clock when the group was bound to the then-current slot of the shared block
    /// whose stamp slot is `block_stamp_slot` (0: not known to bind a block's current slot; the
    /// clock starts above 0). While the stamp clock still reads this, a draw whose group holds
    /// that block, in this bind group, finds it bound already ([`bind_fast_group`]).
    block_bound_at: u64,
    block_stamp_slot: u32,
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
            block_bound_at: 0,
            block_stamp_slot: 0,
        }
    }
}

/// What a pass (or bundle) has bound, to skip identical sets, plus local counters flushed to
/// the `Gpu` stats when the pass ends (no atomic per draw).
#[derive(Debug, Default)]
pub(crate) struct PassBindings {
    /// The id of the render pipeline bound (0: none).
    pub(super) pipeline: u64,
    groups: [BoundGroup; MAX_GROUPS],
    /// Vertex buffers bound per slot: (buffer identity, offset).
    pub(super) vertex: [(u64, u64); MAX_VERTEX_SLOTS],
    /// Index buffer bound: (buffer identity, offset, 32-bit).
    pub(super) index: (u64, u64, bool),
    /// Draws and dispatches recorded.
    pub(crate) operations: u64,
    pub(crate) set_bind_group_calls: u64,
    pub(crate) set_bind_group_skipped: u64,
    pub(crate) set_pipeline_calls: u64,
    /// Draws replayed from bundles (also in `operations`).
    pub(crate) bundle_draws: u64,
    /// Draws replayed from auto-bundles (also in `operations`).
    pub(crate) auto_bundle_draws: u64,
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
        stats
            .auto_bundle_draws
            .add(std::mem::take(&mut self.auto_bundle_draws));
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

/// Binds fast group `gi` of a record whose memos of groups without a shared block hold (its
/// [`value_checked_at`](crate::state::memo::FastRecord::value_checked_at) matched): such a
/// group its memo; a shared block's group nothing, when the pass bound it to the block's slot at
/// stamp clock `clock` (the first draw after the block's set resolved it). `false`: not so bound
/// (the checked path runs).
#[inline(always)]
pub(super) fn bind_fast_group<S: CommandSink>(
    sink: &mut S,
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
        let bound_here = b.block_bound_at == clock
            && b.block_stamp_slot == g.stamp_slot
            && (b.id == g.group_id() || b.id == g.other_group_id());
        bound.set_bind_group_skipped += u64::from(bound_here);
        return bound_here;
    }
    set_memo(sink, bound, gi, g)
}

/// Binds fast group `gi`'s memoized group at its memoized offset, as [`set_single`] does, but
/// skips it without looking at the memo's group when the pass has that group bound at that
/// offset already: a memo without a group has id 0, which no bound group has
/// ([`BoundGroup::NONE`] when nothing is bound), so ids that match name a group the memo holds.
/// `false`: the memo holds no group and the pass has not bound it.
#[inline(always)]
pub(super) fn set_memo<S: CommandSink>(
    sink: &mut S,
    bound: &mut PassBindings,
    gi: usize,
    g: &GroupMemo,
) -> bool {
    if already_bound(bound, gi, g.group_id(), g.offset) {
        return true;
    }
    let Some(group) = &g.group else {
        return false;
    };
    bind_single(sink, bound, gi, g.group_id(), group, &g.offset);
    true
}

/// Notes that group `gi` binds the slot of the shared block in stamp slot `stamp_slot` that is
/// current at stamp clock `clock` (see [`BoundGroup::block_bound_at`]).
#[inline(always)]
pub(super) fn note_block_bound(bound: &mut PassBindings, gi: usize, clock: u64, stamp_slot: u32) {
    if let Some(b) = bound.groups.get_mut(gi) {
        b.block_bound_at = clock;
        b.block_stamp_slot = stamp_slot;
    }
}

/// Sets a group with one dynamic offset unless the same group and offset are already bound.
#[inline(always)]
pub(super) fn set_single<S: CommandSink>(
    sink: &mut S,
    bound: &mut PassBindings,
    gi: usize,
    id: u64,
    group: &wgpu::BindGroup,
    offset: &u32,
) {
    if !already_bound(bound, gi, id, *offset) {
        bind_single(sink, bound, gi, id, group, offset);
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
fn bind_single<S: CommandSink>(
    sink: &mut S,
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
    b.block_bound_at = 0;
    // Offsets past the first may keep another group's values: a group with one dynamic offset
    // compares only the first, and `set_group` compares whole arrays, so a stale entry can only
    // cost a redundant set, never skip a needed one.
    b.offsets[0] = *offset;
    bound.set_bind_group_calls += 1;
    // The offset is passed where it lies (in the record): no copy to the stack.
    sink.set_bind_group(gi as u32, group, std::slice::from_ref(offset));
}

/// Sets a group with `n` dynamic offsets unless the same group and offsets are already bound.
#[inline]
pub(super) fn set_group<S: CommandSink>(
    sink: &mut S,
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
    sink.set_bind_group(gi as u32, group, &offsets[..n]);
    b.id = id;
    b.block_bound_at = 0;
    b.offsets = *offsets;
    bound.set_bind_group_calls += 1;
}
