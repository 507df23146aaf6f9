//! The full path: a draw (or a dispatch's groups) recorded from the operation's bindings. The
//! pipeline step first (a render operation whose pipeline memo lacks the pass's target
//! signature gets it from `pipeline.rs`, which creates it if needed), then per group a resolve
//! per value, a compare with the group memo (the bind-group cache looked up only on a miss), a
//! compare with what the pass has bound; then vertex and index buffers and the draw. It
//! refreshes the operation's fast record afterwards, unless recording a bundle.

use ahash::AHashMap;
use smallvec::SmallVec;
use vgpu_bind::{BindEntry, BindingStore, ResourceKey};
use vgpu_uniforms::{BufferKey, OwnerKey, SlotRef, UniformEngine};

use super::bound::{PassBindings, set_group, set_single};
use crate::descriptors::TargetSignature;
use crate::error::{BindingError, Result};
use crate::state::State;
use crate::state::command_sink::{CommandSink, DrawCall, MAX_DYNAMIC, MAX_GROUPS};
use crate::state::inspect::Inspector;
use crate::state::memo::{BuiltGroup, GroupMemo, MEMO_VALUES, ValuePages};
use crate::state::operation::{BindingContent, OpKey, Operation, RenderInfo, group_values};
use crate::state::program::{Program, ProgramBinding};
use crate::state::resources::HeldResource;

impl State {
    /// Records one draw of operation `key` into `sink` (the full path: the pipeline step, group
    /// resolution and lookup, vertex and index buffers, then `call`: the draw's counts, explicit
    /// ranges or indirect arguments); refreshes the operation's fast record afterwards, unless
    /// recording a bundle (an indirect call leaves the record's counts as they were).
    #[inline(never)]
    pub(crate) fn record_draw<S: CommandSink>(
        &mut self,
        key: OpKey,
        sink: &mut S,
        bound: &mut PassBindings,
        sig: TargetSignature,
        signature_id: u32,
        call: DrawCall<'_>,
    ) -> Result<()> {
        let pinning = bound.pinned.is_some();
        // The pipeline memo is keyed by interned signature; a bundle records without a pass's
        // signature id (and makes no fast record): look it up (rare).
        let pipeline_sig = match signature_id {
            0 => self.signature_id(sig),
            id => id,
        };
        let State {
            ctx,
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
        // The pipeline step: the memo makes the signature's pipeline its latest; a memo without
        // it (rare) gets it from the pipeline cache, which creates it if needed.
        let memoized = op
            .render_mut()
            .is_none_or(|r| r.pipelines.get(pipeline_sig).is_some());
        if !memoized {
            render_pipelines.memoize_for(ctx, op, sig, pipeline_sig)?;
        }
        let inspect = inspect.as_deref_mut();
        record_op_groups(op, engine, bind, page_resources, inspect, sink, bound)?;
        let Some(render) = op.render() else {
            return Ok(());
        };
        let (vertex_count, instance_count) = (op.fast.vertex_count, op.fast.instance_count);
        let latest = render.pipelines.latest();
        if let Some((pid, pipeline)) = latest.and_then(|id| Some((id, render_pipelines.by_id(id)?)))
            && bound.pipeline != pid
        {
            sink.set_pipeline(pipeline);
            bound.pipeline = pid;
            bound.set_pipeline_calls += 1;
        }
        for (slot, vb) in render.vertex_buffers().iter().enumerate() {
            let id = (vb.buffer.id, vb.offset);
            match bound.vertex.get_mut(slot) {
                Some(b) if *b == id => {}
                Some(b) => {
                    sink.set_vertex_buffer(slot as u32, &vb.buffer.buffer, vb.offset);
                    *b = id;
                }
                None => sink.set_vertex_buffer(slot as u32, &vb.buffer.buffer, vb.offset),
            }
        }
        record_call(render, sink, bound, call, (vertex_count, instance_count));
        bound.operations += 1;
        if !pinning {
            op.refresh_fast_record(bind.invalidation_epoch(), signature_id, engine);
        }
        Ok(())
    }

    /// Whether operation `key` is an indexed draw (its indirect arguments are
    /// `DrawIndexedIndirectArgs`, 20 bytes).
    pub(crate) fn draw_is_indexed(&self, key: OpKey) -> bool {
        self.ops
            .get(key)
            .and_then(Operation::render)
            .is_some_and(|r| r.index().is_some())
    }

    /// Resolves every bind group of operation `key` (a compute's, before its dispatch) and sets
    /// those that differ from `bound`.
    pub(crate) fn record_groups<S: CommandSink>(
        &mut self,
        key: OpKey,
        sink: &mut S,
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
        record_op_groups(op, engine, bind, page_resources, inspect, sink, bound)
    }
}

/// The end of [`State::record_draw`]: the index buffer if the draw has one (set unless bound),
/// then `call` (an indexed draw passes its base vertex; an indirect one reads it from the
/// arguments).
#[inline]
fn record_call<S: CommandSink>(
    render: &RenderInfo,
    sink: &mut S,
    bound: &mut PassBindings,
    call: DrawCall<'_>,
    (vertex_count, instance_count): (u32, u32),
) {
    let Some(ib) = render.index() else {
        match call {
            DrawCall::Counts => sink.draw(0..vertex_count, 0..instance_count),
            DrawCall::Range(r) => sink.draw(r.vertices.clone(), r.instances.clone()),
            DrawCall::Indirect(args) => sink.draw_indirect(args, false),
        }
        return;
    };
    let id = (
        ib.buffer.id,
        ib.offset,
        ib.format == wgpu::IndexFormat::Uint32,
    );
    if bound.index != id {
        sink.set_index_buffer(&ib.buffer.buffer, ib.offset, ib.format);
        bound.index = id;
    }
    match call {
        DrawCall::Counts => sink.draw_indexed(0..ib.count, ib.base_vertex, 0..instance_count),
        DrawCall::Range(r) => {
            sink.draw_indexed(r.vertices.clone(), ib.base_vertex, r.instances.clone())
        }
        DrawCall::Indirect(args) => sink.draw_indirect(args, true),
    }
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

/// What building one operation's bind groups reads: its bindings, and the bind-group cache's
/// invalidation epoch the built groups are memoized under.
struct GroupSource<'o> {
    label: &'o str,
    program: &'o Program,
    contents: &'o [BindingContent],
    invalidation_epoch: u64,
}

/// The engines a group resolves and builds through, and the binding inspector if it is on.
struct Binder<'s> {
    engine: &'s mut UniformEngine,
    bind: &'s mut BindingStore,
    page_resources: &'s mut AHashMap<BufferKey, ResourceKey>,
    inspect: Option<&'s mut Inspector>,
}

/// Resolves the owners operation `op` binds and sets its bind groups (for
/// [`State::record_draw`] and [`State::record_groups`]).
///
/// Hot path (steady state): per group, one `resolve` per value (integer compares), a compare of
/// the resolved buffers with the group's memo, a compare with what is bound.
#[inline]
fn record_op_groups<S: CommandSink>(
    op: &mut Operation,
    engine: &mut UniformEngine,
    bind: &mut BindingStore,
    page_resources: &mut AHashMap<BufferKey, ResourceKey>,
    inspect: Option<&mut Inspector>,
    sink: &mut S,
    bound: &mut PassBindings,
) -> Result<()> {
    if op.fast.unset > 0 {
        // Bindings of claimed groups are unset and not counted (`state/claim.rs`).
        return Err(op
            .unset_unclaimed_error()
            .unwrap_or_else(|| unset_error(op)));
    }
    let src = GroupSource {
        label: &op.label,
        program: &op.program,
        contents: &op.contents,
        invalidation_epoch: bind.invalidation_epoch(),
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
        if let Some(claimed) = g.claimed() {
            // A group the caller claimed (`state/claim.rs`): its bind group, at the offsets
            // last given.
            let (id, group, offsets, n) = claimed.bound(src.label)?;
            set_group(sink, bound, gi, id, group, offsets, n);
            continue;
        }
        match (g.single_value(src.contents), pinning) {
            // The group's only dynamic offset belongs to its only value (the common per-object
            // or per-view struct). Same semantics as the general path.
            (Some(owner), false) => {
                record_single_value_group(&src, gi, g, owner, &mut binder, sink, bound)?
            }
            _ => record_group(&src, gi, g, &mut binder, sink, bound)?,
        }
    }
    Ok(())
}

/// A group whose only dynamic offset belongs to its only value: one resolve, one page compare.
#[inline]
fn record_single_value_group<S: CommandSink>(
    src: &GroupSource<'_>,
    gi: usize,
    m: &mut GroupMemo,
    owner: OwnerKey,
    binder: &mut Binder<'_>,
    sink: &mut S,
    bound: &mut PassBindings,
) -> Result<()> {
    let s = binder.engine.resolve(owner)?;
    let current = m.current(src.invalidation_epoch);
    if !(current && m.page == Some(s.buffer)) {
        // A value alternating between two pages (a camera set per pass whose second value sits
        // in another page) swaps with the previous memo instead of looking the group up again.
        let on_other = current && m.other().is_some_and(|o| o.page == Some(s.buffer));
        if on_other && m.swap_pages() {
            // The fast record's offset was for the other page.
            m.stamp = 0;
        } else {
            let built = build_group(src, gi, std::slice::from_ref(&s), binder)?;
            m.install(built, src.invalidation_epoch, true, current);
        }
    }
    if let Some(group) = &m.group {
        set_single(sink, bound, gi, m.group_id(), group, &s.offset);
    }
    Ok(())
}

/// Any other group (several values, static offsets, or a bundle pinning its values): resolves
/// (or pins) each value, rebuilds the group if a page or static offset moved.
fn record_group<S: CommandSink>(
    src: &GroupSource<'_>,
    gi: usize,
    g: &mut GroupMemo,
    binder: &mut Binder<'_>,
    sink: &mut S,
    bound: &mut PassBindings,
) -> Result<()> {
    let mut offsets = [0u32; MAX_DYNAMIC];
    let mut resolved: SmallVec<[SlotRef; 8]> = SmallVec::new();
    let mut same = g.current(src.invalidation_epoch);
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
        g.install(built, src.invalidation_epoch, single, false);
    }
    if let Some(group) = &g.group {
        let n = usize::from(g.dynamic_offsets).min(MAX_DYNAMIC);
        set_group(sink, bound, gi, g.group_id(), group, &offsets, n);
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
    bindings: &[ProgramBinding],
    contents: &[BindingContent],
) -> Result<()> {
    for (pb, content) in bindings.iter().zip(contents) {
        if let BindingContent::Resource {
            held: HeldResource::Buffer(b),
            ..
        } = content
            && b.is_destroyed()
        {
            return Err(BindingError::Destroyed {
                label: label.to_string(),
                binding: pb.name.to_string(),
                resource: format!("buffer {:?}", b.label),
            }
            .into());
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
