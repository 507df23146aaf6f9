//! The fast path: a simple draw recorded into a pass from its fast record alone, while that
//! record is current (the ladder is in the module doc of `record/`). Every function here either
//! records the draw's groups and returns `true`, or returns `false` having recorded no draw, and
//! the caller runs the full path (`full.rs`).

use vgpu_uniforms::UniformEngine;

use super::bound::{
    PassBindings, ResolvedValue, bind_fast_group, note_block_bound, set_memo, set_single,
};
use crate::state::State;
use crate::state::command_sink::CommandSink;
use crate::state::memo::{FAST_GROUPS, FastRecord, GroupMemo};
use crate::state::operation::{BindingContent, OpKey, Operation};
use crate::state::prefetch;

impl State {
    /// The steady-state record of a simple draw into a pass (not a bundle): from the
    /// operation's fast record alone, while it is current. Returns `false`, having possibly set
    /// bind groups but recorded no draw, when [`record_draw`](Self::record_draw) must run.
    ///
    /// Per draw: one slotmap lookup, a prefetch of the record a few slots on (`prefetch.rs`), two
    /// compares for the fast record (its `checked_at` against the stamp clock, and the pass's
    /// signature id) and per group a compare with what is bound. When the stamp clock moved since
    /// the record last checked its stamps (a value was set, a resource destroyed), its
    /// `value_checked_at` is compared with the value clock (only shared blocks moved), else
    /// `record_checked` compares each group's stamp; a group whose owner's stamp moved (its value
    /// was set, or bound to a snapshot slot in the last submission) resolves again
    /// (`resolve_moved_values`). The pass has declared [`UniformEngine::memos_in_use`].
    #[inline(always)]
    pub(crate) fn record_fast<S: CommandSink>(
        &mut self,
        key: OpKey,
        sink: &mut S,
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
        // at every destroy): a `checked_at` that holds says the memos' groups do.
        let clock = engine.stamp_clock();
        // Large tables outgrow the cache: the next draws' records are asked for now.
        prefetch::records_ahead(op);
        let fast = &op.fast;
        let [g0, g1] = &op.groups.head;
        if fast.checked_at == clock && fast.signature_id == signature_id {
            // Nothing moved since this record's stamps were last found current (a static
            // frame's draws): its one or two groups bind their memoized offsets.
            if !set_memo(sink, bound, 0, g0)
                || (fast.groups_len == 2 && !set_memo(sink, bound, 1, g1))
            {
                return false;
            }
        } else if fast.value_checked_at == engine.value_clock()
            && fast.signature_id == signature_id
            && bind_fast_group(sink, bound, 0, g0, fast.shared_group(0), clock)
            && (fast.groups_len != 2
                || bind_fast_group(sink, bound, 1, g1, fast.shared_group(1), clock))
        {
            // Only shared blocks moved since (a camera set before the pass): their groups are
            // bound already, the others bind their memos.
        } else if !record_checked(
            op,
            engine,
            sink,
            bound,
            (bind.invalidation_epoch(), clock),
            signature_id,
        ) {
            return false;
        }
        let fast = &op.fast;
        if bound.pipeline != fast.pipeline_id {
            let Some(p) = render_pipelines.by_id(fast.pipeline_id) else {
                return false;
            };
            sink.set_pipeline(p);
            bound.pipeline = fast.pipeline_id;
            bound.set_pipeline_calls += 1;
        }
        sink.draw(0..fast.vertex_count, 0..fast.instance_count);
        bound.operations += 1;
        true
    }
}

/// The groups of a fast record whose stamps were not checked at the current stamp clock. Each
/// group's memoized slot holds while its owner's stamp does; a group whose owner another draw of
/// this pass resolved at the current stamp (a shared camera after a set) binds that slot, on its
/// page or its other page, without writing it back into the record. When every group's stamp
/// held, the record notes the stamp clock in `checked_at`. Anything else catches up out of line
/// (`catch_up_groups`). A valid fast record has at most two groups. `false`: the full path must
/// run (nothing was drawn; bind groups may have been set).
#[inline(always)]
fn record_checked<S: CommandSink>(
    op: &mut Operation,
    engine: &mut UniformEngine,
    sink: &mut S,
    bound: &mut PassBindings,
    (invalidation_epoch, clock): (u64, u64),
    signature_id: u32,
) -> bool {
    let fast = &op.fast;
    let n = fast.groups_len;
    let [g0, g1] = &op.groups.head;
    // The record is valid: made for this pass's target, its groups built under the bind-group
    // cache's current invalidation epoch.
    if fast.signature_id != signature_id
        || !g0.current(invalidation_epoch)
        || (n == 2 && !g1.current(invalidation_epoch))
    {
        return false;
    }
    let stamps = engine.stamps();
    let r0 = &bound.resolved[0];
    // A shared block set before this pass (a per-pass camera) in the first group, which an
    // earlier draw of this pass resolved with nothing moved since, and a second group whose
    // stamp held: the block's slot, on the memo's current page or its other page.
    if n == 2
        && r0.resolved_at == clock
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
            set_single(sink, bound, 0, id0, group0, &offset0);
            set_single(sink, bound, 1, g1.group_id(), group1, &g1.offset);
            if op.fast.shared_group(0) {
                // The second group's stamp held; the first holds a shared block, bound at its
                // current slot: `value_checked_at` covers the record from now on.
                note_block_bound(bound, 0, clock, slot0);
                op.fast.value_checked_at = engine.value_clock();
            }
            return true;
        }
    }
    record_picked(op, engine, sink, bound, clock)
}

/// [`record_checked`] past its shared-block case: each group's memoized slot or the slot
/// another draw of this pass resolved (`pick_slot`), else a catch-up (`catch_up_and_set`).
#[inline(never)]
fn record_picked<S: CommandSink>(
    op: &mut Operation,
    engine: &mut UniformEngine,
    sink: &mut S,
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
        // The memos change below: 0, which neither clock ever reads, makes the next record
        // check them again.
        op.fast.checked_at = 0;
        op.fast.value_checked_at = 0;
        let Some(groups) = op.groups.head.get_mut(..usize::from(n)) else {
            return false;
        };
        return catch_up_and_set(groups, &op.contents, &op.fast, engine, sink, bound);
    };
    let Some((group, id)) = g0.chosen(p0.other) else {
        return false;
    };
    set_single(sink, bound, 0, id, group, &p0.offset);
    // A picked slot is current at this clock: a shared block's is noted for the pass.
    let (shared0, shared1) = (op.fast.shared_group(0), op.fast.shared_group(1));
    if shared0 {
        note_block_bound(bound, 0, clock, g0.stamp_slot);
    }
    if n == 2 {
        let Some((group, id)) = g1.chosen(p1.other) else {
            return false;
        };
        set_single(sink, bound, 1, id, group, &p1.offset);
        if shared1 {
            note_block_bound(bound, 1, clock, g1.stamp_slot);
        }
    }
    if p0.fresh && p1.fresh {
        op.fast.checked_at = clock;
    }
    // `value_checked_at` covers the groups without a shared block: each must have been fresh.
    if (p0.fresh || shared0) && (p1.fresh || shared1) {
        op.fast.value_checked_at = engine.value_clock();
    }
    true
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
fn catch_up_and_set<S: CommandSink>(
    groups: &mut [GroupMemo],
    contents: &[BindingContent],
    fast: &FastRecord,
    engine: &mut UniformEngine,
    sink: &mut S,
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
        set_single(sink, bound, gi, g.group_id(), group, &g.offset);
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
            resolved_at: engine.stamp_clock(),
        };
    }
    true
}
