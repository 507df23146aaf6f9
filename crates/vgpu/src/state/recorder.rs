//! What draws are recorded into ([`Recorder`]: a render pass, a bundle's command list, a
//! compute pass, the binding inspector's wrapper) and the bounds of what a pass tracks as bound.

use smallvec::SmallVec;

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
