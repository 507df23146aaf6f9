//! Where recorded commands go ([`CommandSink`]): a render pass, a compute pass, a bundle's
//! command list (replayed into a bundle encoder by [`encode_bundle`]), or the binding
//! inspector's wrapper (`inspect.rs`); and the bounds of what a pass tracks as bound.
//!
//! Named a sink, not a recorder: the record path (`record/`) records *into* one.

use smallvec::SmallVec;

use crate::descriptors::DrawRange;

/// Most bind groups an operation may use (wgpu's `max_bind_groups` is at most 8).
pub(crate) const MAX_GROUPS: usize = 8;
/// Vertex buffer slots tracked for redundant-set elimination.
pub(crate) const MAX_VERTEX_SLOTS: usize = 8;
/// Most dynamic offsets per group tracked for redundant-set elimination.
pub(crate) const MAX_DYNAMIC: usize = 8;

/// Something draws can be recorded into: a render pass, a compute pass (which takes only bind
/// groups) or a bundle's command list.
pub(crate) trait CommandSink {
    fn set_pipeline(&mut self, pipeline: &wgpu::RenderPipeline);
    fn set_bind_group(&mut self, index: u32, group: &wgpu::BindGroup, offsets: &[u32]);
    fn set_vertex_buffer(&mut self, slot: u32, buffer: &wgpu::Buffer, offset: u64);
    fn set_index_buffer(&mut self, buffer: &wgpu::Buffer, offset: u64, format: wgpu::IndexFormat);
    fn draw(&mut self, vertices: std::ops::Range<u32>, instances: std::ops::Range<u32>);
    fn draw_indexed(
        &mut self,
        indices: std::ops::Range<u32>,
        base_vertex: i32,
        instances: std::ops::Range<u32>,
    );
    /// One or several draws whose arguments `args` reads from a buffer (`indexed`: 20-byte
    /// `DrawIndexedIndirectArgs`, else 16-byte `DrawIndirectArgs`).
    fn draw_indirect(&mut self, args: IndirectArgs<'_>, indexed: bool);
}

/// Where an indirect draw reads its arguments: `count` tightly packed argument structs in
/// `buffer` from `offset`; with `count_buffer`, as many as the `u32` there says, at most
/// `count`. Checked before it gets here (`pass_indirect.rs`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct IndirectArgs<'a> {
    pub(crate) buffer: &'a wgpu::Buffer,
    pub(crate) offset: u64,
    pub(crate) count: u32,
    pub(crate) count_buffer: Option<(&'a wgpu::Buffer, u64)>,
}

/// The draw call the full path ends a draw with.
#[derive(Clone, Copy, Debug)]
pub(crate) enum DrawCall<'a> {
    /// The draw's own vertex (or index) and instance counts.
    Counts,
    /// Explicit ranges.
    Range(&'a DrawRange),
    /// Indirect: one draw, several (multi-draw) or a count read from a buffer.
    Indirect(IndirectArgs<'a>),
}

impl<'a> From<Option<&'a DrawRange>> for DrawCall<'a> {
    #[inline]
    fn from(range: Option<&'a DrawRange>) -> Self {
        match range {
            Some(r) => DrawCall::Range(r),
            None => DrawCall::Counts,
        }
    }
}

impl CommandSink for wgpu::RenderPass<'_> {
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
    fn draw_indexed(
        &mut self,
        indices: std::ops::Range<u32>,
        base_vertex: i32,
        instances: std::ops::Range<u32>,
    ) {
        wgpu::RenderPass::draw_indexed(self, indices, base_vertex, instances);
    }
    fn draw_indirect(&mut self, a: IndirectArgs<'_>, indexed: bool) {
        let (buffer, offset, count) = (a.buffer, a.offset, a.count);
        match (a.count_buffer, indexed) {
            (None, false) if count == 1 => self.draw_indirect(buffer, offset),
            (None, true) if count == 1 => self.draw_indexed_indirect(buffer, offset),
            (None, false) => self.multi_draw_indirect(buffer, offset, count),
            (None, true) => self.multi_draw_indexed_indirect(buffer, offset, count),
            (Some((cb, co)), false) => {
                self.multi_draw_indirect_count(buffer, offset, cb, co, count)
            }
            (Some((cb, co)), true) => {
                self.multi_draw_indexed_indirect_count(buffer, offset, cb, co, count)
            }
        }
    }
}

impl CommandSink for wgpu::ComputePass<'_> {
    fn set_pipeline(&mut self, _: &wgpu::RenderPipeline) {}
    #[inline]
    fn set_bind_group(&mut self, index: u32, group: &wgpu::BindGroup, offsets: &[u32]) {
        wgpu::ComputePass::set_bind_group(self, index, group, offsets);
    }
    fn set_vertex_buffer(&mut self, _: u32, _: &wgpu::Buffer, _: u64) {}
    fn set_index_buffer(&mut self, _: &wgpu::Buffer, _: u64, _: wgpu::IndexFormat) {}
    fn draw(&mut self, _: std::ops::Range<u32>, _: std::ops::Range<u32>) {}
    fn draw_indexed(&mut self, _: std::ops::Range<u32>, _: i32, _: std::ops::Range<u32>) {}
    fn draw_indirect(&mut self, _: IndirectArgs<'_>, _: bool) {}
}

/// A sink that drops what it is given (the binding inspector notes a replayed draw's groups
/// through it: the bundle issues them).
#[derive(Debug, Default)]
pub(crate) struct NullSink;

impl CommandSink for NullSink {
    fn set_pipeline(&mut self, _: &wgpu::RenderPipeline) {}
    fn set_bind_group(&mut self, _: u32, _: &wgpu::BindGroup, _: &[u32]) {}
    fn set_vertex_buffer(&mut self, _: u32, _: &wgpu::Buffer, _: u64) {}
    fn set_index_buffer(&mut self, _: &wgpu::Buffer, _: u64, _: wgpu::IndexFormat) {}
    fn draw(&mut self, _: std::ops::Range<u32>, _: std::ops::Range<u32>) {}
    fn draw_indexed(&mut self, _: std::ops::Range<u32>, _: i32, _: std::ops::Range<u32>) {}
    fn draw_indirect(&mut self, _: IndirectArgs<'_>, _: bool) {}
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
    DrawIndexed(std::ops::Range<u32>, i32, std::ops::Range<u32>),
    /// An indirect draw: buffer, offset, indexed.
    DrawIndirect(wgpu::Buffer, u64, bool),
}

impl CommandSink for Vec<BundleCmd> {
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
    fn draw_indexed(
        &mut self,
        indices: std::ops::Range<u32>,
        base_vertex: i32,
        instances: std::ops::Range<u32>,
    ) {
        self.push(BundleCmd::DrawIndexed(indices, base_vertex, instances));
    }
    /// A bundle encoder has no multi-draw: `count` draws become `count` indirect draws, one
    /// argument struct apart. A bundle never records a count buffer (`BundleRecorder` has no
    /// such call): it would be ignored.
    fn draw_indirect(&mut self, a: IndirectArgs<'_>, indexed: bool) {
        let stride = if indexed { 20 } else { 16 };
        for i in 0..u64::from(a.count) {
            let offset = a.offset + i * stride;
            self.push(BundleCmd::DrawIndirect(a.buffer.clone(), offset, indexed));
        }
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
            BundleCmd::DrawIndexed(v, base, i) => encoder.draw_indexed(v.clone(), *base, i.clone()),
            BundleCmd::DrawIndirect(b, offset, false) => encoder.draw_indirect(b, *offset),
            BundleCmd::DrawIndirect(b, offset, true) => encoder.draw_indexed_indirect(b, *offset),
        }
    }
}

/// Issues recorded commands into any sink (an auto-bundle's prefix issued into a pass).
pub(crate) fn replay_commands<S: CommandSink>(sink: &mut S, cmds: &[BundleCmd]) {
    for cmd in cmds {
        match cmd {
            BundleCmd::Pipeline(p) => sink.set_pipeline(p),
            BundleCmd::Group(i, g, o) => sink.set_bind_group(*i, g, o),
            BundleCmd::Vertex(slot, b, offset) => sink.set_vertex_buffer(*slot, b, *offset),
            BundleCmd::Index(b, offset, format) => sink.set_index_buffer(b, *offset, *format),
            BundleCmd::Draw(v, i) => sink.draw(v.clone(), i.clone()),
            BundleCmd::DrawIndexed(v, base, i) => sink.draw_indexed(v.clone(), *base, i.clone()),
            BundleCmd::DrawIndirect(b, offset, indexed) => {
                let args = IndirectArgs {
                    buffer: b,
                    offset: *offset,
                    count: 1,
                    count_buffer: None,
                };
                sink.draw_indirect(args, *indexed);
            }
        }
    }
}

/// Encodes `cmds` into a render bundle for passes with signature `sig` (in an error scope:
/// wgpu's validation error is returned).
pub(crate) fn encode_render_bundle(
    ctx: &vgpu_core::GpuContext,
    label: &str,
    sig: crate::descriptors::TargetSignature,
    cmds: &[BundleCmd],
) -> crate::error::Result<wgpu::RenderBundle> {
    let color_formats: SmallVec<[Option<wgpu::TextureFormat>; 1]> =
        sig.colors.as_slice().iter().copied().map(Some).collect();
    let bundle = ctx.scoped("RenderBundleEncoder::finish", Some(label), |d| {
        let mut encoder = d.create_render_bundle_encoder(&wgpu::RenderBundleEncoderDescriptor {
            label: Some(label),
            color_formats: &color_formats,
            depth_stencil: sig.depth.map(|format| wgpu::RenderBundleDepthStencil {
                format,
                depth_read_only: sig.depth_read_only,
                stencil_read_only: sig.stencil_read_only || !format.has_stencil_aspect(),
            }),
            sample_count: sig.samples,
            multiview: None,
        });
        encode_bundle(&mut encoder, cmds);
        encoder.finish(&wgpu::RenderBundleDescriptor { label: Some(label) })
    })?;
    Ok(bundle)
}
