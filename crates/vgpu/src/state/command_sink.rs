//! Where recorded commands go ([`CommandSink`]): a render pass, a compute pass, a bundle's
//! command list (replayed into a bundle encoder by [`encode_bundle`]), or the binding
//! inspector's wrapper (`inspect.rs`); and the bounds of what a pass tracks as bound.
//!
//! Named a sink, not a recorder: the record path (`record/`) records *into* one.

use smallvec::SmallVec;

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
    fn draw_indexed(&mut self, indices: std::ops::Range<u32>, instances: std::ops::Range<u32>);
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
    fn draw_indexed(&mut self, indices: std::ops::Range<u32>, instances: std::ops::Range<u32>) {
        wgpu::RenderPass::draw_indexed(self, indices, 0, instances);
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
    fn draw_indexed(&mut self, _: std::ops::Range<u32>, _: std::ops::Range<u32>) {}
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
