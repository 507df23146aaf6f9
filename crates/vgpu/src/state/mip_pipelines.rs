//! The cache of `Texture::generate_mips`'s pipelines (the `mips` module creates them): per
//! format, path and source, kept for the `Gpu`'s life.

use ahash::AHashMap;

/// How a format's mips are filled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum MipPath {
    /// Fullscreen triangles into render attachments.
    Render,
    /// A compute shader writing storage textures.
    Compute,
}

/// The kind of source a mip pipeline reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum MipSource {
    /// A 2D view (of the texture, or of the copy of one layer).
    Flat,
    /// A cube view, writing face `n`.
    CubeFace(u32),
}

/// A cached mip pipeline: the layout of its group 0, the nearest sampler a cube source is read
/// with, and the pipeline.
#[derive(Clone, Debug)]
pub(crate) struct MipPipeline {
    pub(crate) layout: wgpu::BindGroupLayout,
    pub(crate) sampler: Option<wgpu::Sampler>,
    pub(crate) kind: MipPipelineKind,
}

/// A mip pipeline of either path.
#[derive(Clone, Debug)]
pub(crate) enum MipPipelineKind {
    Render(wgpu::RenderPipeline),
    Compute(wgpu::ComputePipeline),
}

/// The mip pipelines of a `Gpu`, by format, path and source (created at the first
/// `generate_mips` of a format, kept for the `Gpu`'s life: a few per app, 6 more for cubes).
#[derive(Default, Debug)]
pub(crate) struct MipPipelines {
    pub(crate) by_format: AHashMap<(wgpu::TextureFormat, MipPath, MipSource), MipPipeline>,
}
