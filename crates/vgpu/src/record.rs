//! Recording operations into passes and bundles: pipeline lookup, per-submission slot
//! resolution, bind-group lookup (memoized per operation), and skipping redundant
//! `set_pipeline` / `set_bind_group` calls.
//!
//! The steady-state path of one draw: one slotmap lookup, a pipeline memo compare, per group a
//! revision check per value (`UniformEngine::resolve`), a memo compare of the group's buffers,
//! a compare with what is bound, then `draw`. No allocation, no hashing, no strings.

use smallvec::SmallVec;
use vgpu_bind::{BindEntry, BindGroupId};
use vgpu_uniforms::{BufferKey, OwnerKey};

use crate::draw::{GroupMemo, OpKey, Slot};
use crate::error::{BindingError, Result};
use crate::gpu::State;
use crate::target::TargetSignature;

/// Most bind groups an operation may use (wgpu's `max_bind_groups` is at most 8).
pub(crate) const MAX_GROUPS: usize = 8;
/// Most dynamic offsets per group tracked for redundant-set elimination.
pub(crate) const MAX_DYNAMIC: usize = 16;

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

#[derive(Clone, Copy, Debug, Default)]
struct BoundGroup {
    id: u64,
    n: u8,
    offsets: [u32; MAX_DYNAMIC],
}

/// What a pass (or bundle) has bound, to skip identical sets, plus local counters flushed to
/// the `Gpu` stats when the pass ends (no atomic per draw).
#[derive(Debug, Default)]
pub(crate) struct Bound {
    pipeline: u64,
    groups: [BoundGroup; MAX_GROUPS],
    /// Draws and dispatches recorded.
    pub(crate) operations: u64,
    pub(crate) set_bind_group_calls: u64,
    pub(crate) set_bind_group_skipped: u64,
    pub(crate) set_pipeline_calls: u64,
    /// Owners pinned while recording a bundle (unpinned when the bundle is dropped).
    pub(crate) pinned: Option<Vec<OwnerKey>>,
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
    /// Records one draw of operation `key` into `rec`.
    pub(crate) fn record_draw<R: Recorder>(
        &mut self,
        key: OpKey,
        rec: &mut R,
        bound: &mut Bound,
        sig: TargetSignature,
        range: Option<&DrawRange>,
    ) -> Result<()> {
        // Pipeline (memoized per draw per target signature).
        let (pid, ready) = match self
            .ops
            .get(key)
            .and_then(|o| o.render.as_ref())
            .and_then(|r| r.pipeline_memo.as_ref())
        {
            Some((s, id, _)) if *s == sig => (*id, true),
            _ => (0, false),
        };
        let pid = if ready {
            pid
        } else {
            self.render_pipeline(key, sig)?
        };
        self.record_groups(key, rec, bound)?;
        let Some(op) = self.ops.get(key) else {
            return Ok(());
        };
        let Some(render) = op.render.as_ref() else {
            return Ok(());
        };
        if bound.pipeline != pid {
            if let Some((_, _, p)) = &render.pipeline_memo {
                rec.set_pipeline(p);
                bound.pipeline = pid;
                bound.set_pipeline_calls += 1;
            }
        }
        for (slot, vb) in render.vertex_buffers.iter().enumerate() {
            rec.set_vertex_buffer(slot as u32, vb.buffer.raw(), vb.offset);
        }
        match (&render.index, range) {
            (Some(ib), r) => {
                rec.set_index_buffer(ib.buffer.raw(), ib.offset, ib.format);
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
        Ok(())
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
        if op.unset > 0 {
            let i = op
                .slots
                .iter()
                .position(|s| matches!(s, Slot::Unset))
                .unwrap_or(0);
            let b = &op.program.bindings[i];
            return Err(BindingError::Unset {
                label: op.label.to_string(),
                binding: b.name.to_string(),
                group: b.group,
                index: b.binding,
            }
            .into());
        }
        let program = op.program.clone();
        let epoch = bind.eviction_epoch();
        for (gi, group) in program.groups.iter().enumerate().take(MAX_GROUPS) {
            let mut offsets: SmallVec<[u32; MAX_DYNAMIC]> = SmallVec::new();
            let mut buffers: SmallVec<[BufferKey; 4]> = SmallVec::new();
            let mut statics: SmallVec<[u32; 4]> = SmallVec::new();
            for bi in group.first..group.first + group.len {
                let pb = &program.bindings[bi];
                match &op.slots[bi] {
                    Slot::Value { owner } | Slot::Shared { owner, .. } => {
                        let slot = match bound.pinned.as_mut() {
                            Some(pinned) => {
                                let s = engine.pin(*owner)?;
                                pinned.push(*owner);
                                s
                            }
                            None => engine.resolve(*owner)?,
                        };
                        buffers.push(slot.buffer);
                        if pb.dynamic {
                            offsets.push(slot.offset);
                        } else {
                            statics.push(slot.offset);
                        }
                    }
                    Slot::Resource { .. } => {
                        if pb.dynamic {
                            offsets.push(0);
                        }
                    }
                    Slot::Unset => {}
                }
            }
            let hit = matches!(&op.memos[gi], Some(m) if m.epoch == epoch && m.bindings_rev == op.bindings_rev && m.buffers == buffers && m.statics == statics);
            if !hit {
                let mut entries: SmallVec<[BindEntry; 8]> = SmallVec::new();
                let mut bi_buf = 0;
                let mut si = 0;
                for bi in group.first..group.first + group.len {
                    let pb = &program.bindings[bi];
                    match &op.slots[bi] {
                        Slot::Value { owner } | Slot::Shared { owner, .. } => {
                            let buf = buffers[bi_buf];
                            bi_buf += 1;
                            let res = match page_res.get(&buf) {
                                Some(r) => *r,
                                None => {
                                    let Some(raw) = engine.buffer(buf) else {
                                        continue;
                                    };
                                    let r = bind.register_buffer(raw, "vgpu uniform page");
                                    page_res.insert(buf, r);
                                    r
                                }
                            };
                            let size = engine.binding_size(*owner)?;
                            let static_offset = if pb.dynamic {
                                0
                            } else {
                                si += 1;
                                statics.get(si - 1).copied().unwrap_or(0)
                            };
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
                op.memos[gi] = Some(GroupMemo {
                    buffers: buffers.clone(),
                    statics: statics.clone(),
                    bindings_rev: op.bindings_rev,
                    epoch,
                    id,
                    group: g.clone(),
                });
            }
            let Some(memo) = &op.memos[gi] else { continue };
            set_group(rec, bound, gi, memo.id, &memo.group, &offsets);
        }
        Ok(())
    }
}

#[inline]
fn set_group<R: Recorder>(
    rec: &mut R,
    bound: &mut Bound,
    gi: usize,
    id: BindGroupId,
    group: &wgpu::BindGroup,
    offsets: &[u32],
) {
    let b = &mut bound.groups[gi];
    let n = offsets.len().min(MAX_DYNAMIC);
    if b.id == id.get() && usize::from(b.n) == n && b.offsets[..n] == offsets[..n] {
        bound.set_bind_group_skipped += 1;
        return;
    }
    rec.set_bind_group(gi as u32, group, offsets);
    b.id = id.get();
    b.n = n as u8;
    b.offsets[..n].copy_from_slice(&offsets[..n]);
    bound.set_bind_group_calls += 1;
}
