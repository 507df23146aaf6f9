//! Mipmap generation: [`Texture::generate_mips`] fills mips `1..` of every layer from mip 0 by a
//! 2×2 box filter, in one submission.
//!
//! - `render.rs`: the render path, for formats the adapter can render to (one fullscreen
//!   triangle per mip per layer into a single-mip, single-layer view).
//! - `compute.rs`: the compute path, for formats it can only write as storage (one dispatch per
//!   mip per layer, `textureStore`).
//!
//! Both paths read the previous mip with four `textureLoad`s and average them: the exact box
//! filter, for filterable and unfilterable formats alike (`r32float` without
//! `FLOAT32_FILTERABLE`). The loads of an sRGB texture decode to linear and the write of an
//! sRGB view encodes, so the average is taken in linear light. Layered textures (arrays, cubes)
//! are read through a scratch 2D copy of each layer's previous mip: OpenGL cannot view one layer
//! of an array or a cube as a 2D texture.

mod compute;
mod render;
mod source;

use crate::error::Result;
use crate::gpu::Gpu;
use crate::texture::Texture;
use crate::texture_error::TextureError;

use crate::state::{MipPath, MipPipeline, MipPipelineKind as PipelineKind, MipSource as Source};

/// Whether mips of `format` can be averaged at all: float-sampled color formats (float, unorm,
/// snorm, sRGB), not integer, depth, stencil or block-compressed.
fn averageable(format: wgpu::TextureFormat) -> std::result::Result<(), &'static str> {
    if format.is_compressed() {
        return Err("a block-compressed format cannot be rendered to or stored");
    }
    if format.is_depth_stencil_format() {
        return Err("a depth or stencil format has no filtered average");
    }
    match format.sample_type(None, None) {
        Some(wgpu::TextureSampleType::Float { .. }) => Ok(()),
        Some(wgpu::TextureSampleType::Sint | wgpu::TextureSampleType::Uint) => {
            Err("an integer format has no filtered average (vgpu refuses rather than round)")
        }
        _ => Err("this format cannot be sampled as float"),
    }
}

/// Whether the adapter can render to `format` (render path) and write it as storage (compute
/// path, with a WGSL texel format).
fn capabilities(gpu: &Gpu, format: wgpu::TextureFormat) -> (bool, bool) {
    let features = gpu.ctx.format_features(format);
    let render = features
        .allowed_usages
        .contains(wgpu::TextureUsages::RENDER_ATTACHMENT);
    let storage = features
        .allowed_usages
        .contains(wgpu::TextureUsages::STORAGE_BINDING)
        && features
            .flags
            .contains(wgpu::TextureFormatFeatureFlags::STORAGE_WRITE_ONLY)
        && !format.is_srgb();
    (render, storage)
}

impl Texture {
    /// Fills mips `1..` of every layer (each array layer, each cube face) from mip 0: each texel
    /// of mip `n` is the average of the 2×2 texels of mip `n - 1` it covers (clamped at an odd
    /// edge), in one submission, counted in no frame's statistics.
    ///
    /// sRGB formats are averaged in linear light (decoded, averaged, encoded), as a sampler
    /// filtering them would. Formats the adapter renders to are filled by fullscreen draws;
    /// formats it can only write as storage (and textures created with `STORAGE_BINDING` and
    /// without `RENDER_ATTACHMENT`) by a compute shader. [`Gpu::texture`] gives a mip chain the
    /// usage this needs. The pipelines are created once per format and cached on the `Gpu`.
    ///
    /// Fails with `VGPU-TEXTURE-MIPS` for a texture of one mip level, a 1D or 3D texture, a
    /// multisampled one, an integer, depth or block-compressed format, a format the adapter can
    /// neither render to nor store, or a texture without the usage its path needs; with
    /// `VGPU-FOREIGN-GPU` if `gpu` did not create it; nothing is written then.
    ///
    /// ```
    /// let gpu = vgpu::Gpu::noop();
    /// let texture = gpu.texture(&vgpu::TextureDesc {
    ///     width: 16,
    ///     height: 16,
    ///     mip_level_count: 5,
    ///     ..Default::default()
    /// })?;
    /// texture.write(&gpu, &[128; 16 * 16 * 4])?; // mip 0
    /// texture.generate_mips(&gpu)?; // mips 1..=4: 8×8, 4×4, 2×2, 1×1
    /// # Ok::<(), vgpu::Error>(())
    /// ```
    pub fn generate_mips(&self, gpu: &Gpu) -> Result<()> {
        gpu.ctx.check_device("Texture::generate_mips")?;
        if self.inner.gpu != gpu.id() {
            return Err(crate::error::foreign_gpu(
                "texture",
                &self.inner.label,
                "generating its mips",
            ));
        }
        let path = self.mip_path(gpu)?;
        let raw = &self.inner.texture;
        let cube = source::is_cube(raw);
        let pipelines = (0..if cube { 6 } else { 1 })
            .map(|face| {
                let source = if cube {
                    Source::CubeFace(face)
                } else {
                    Source::Flat
                };
                mip_pipeline(gpu, raw.format(), path, source)
            })
            .collect::<Result<Vec<_>>>()?;
        let label = Some(self.inner.label.as_str());
        gpu.ctx.scoped("Texture::generate_mips", label, |device| {
            let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("vgpu generate_mips"),
            });
            // A layered texture that is not a cube is read through a 2D copy of each layer's
            // previous mip; the compute path stores into a 2D texture copied into the mip.
            let copies = if raw.depth_or_array_layers() > 1 && !cube {
                Some(scratch(gpu, raw, 0, wgpu::TextureUsages::TEXTURE_BINDING)?)
            } else {
                None
            };
            let mut store = None;
            for layer in 0..raw.depth_or_array_layers() {
                let pipeline = &pipelines[if cube { layer as usize } else { 0 }];
                for level in 1..raw.mip_level_count() {
                    let source = source::view(&mut encoder, raw, copies.as_ref(), layer, level);
                    match &pipeline.kind {
                        PipelineKind::Render(p) => {
                            let group = bind_group(gpu, pipeline, &source, None)?;
                            render::encode(&mut encoder, p, &group, raw, layer, level);
                        }
                        PipelineKind::Compute(p) => {
                            if store.is_none() {
                                let usage = wgpu::TextureUsages::STORAGE_BINDING;
                                store = Some(scratch(gpu, raw, 1, usage)?);
                            }
                            if let Some(store) = &store {
                                let target = compute::target_view(store, level);
                                let group = bind_group(gpu, pipeline, &source, Some(&target))?;
                                compute::encode(&mut encoder, p, &group, store, raw, layer, level);
                            }
                        }
                    }
                }
            }
            gpu.ctx.submit([encoder.finish()]);
            Ok(())
        })?
    }

    /// The path that fills this texture's mips, or why none can.
    fn mip_path(&self, gpu: &Gpu) -> Result<MipPath> {
        let raw = &self.inner.texture;
        let format = raw.format();
        let refuse = |problem: String, expected: &str| -> crate::error::Error {
            TextureError::Mips {
                label: self.inner.label.clone(),
                format,
                problem,
                expected: expected.to_owned(),
            }
            .into()
        };
        if raw.dimension() != wgpu::TextureDimension::D2 {
            return Err(refuse(
                format!("a {:?} texture", raw.dimension()),
                "a 2D texture, 2D array or cube (fill a 3D texture's mips with a compute)",
            ));
        }
        if raw.mip_level_count() < 2 {
            return Err(refuse(
                "the texture has 1 mip level".to_owned(),
                "TextureDesc::mip_level_count of 2 or more",
            ));
        }
        if raw.sample_count() != 1 {
            return Err(refuse(
                format!("the texture has {} samples", raw.sample_count()),
                "a single-sampled texture (resolve a multisampled one first)",
            ));
        }
        averageable(format)
            .map_err(|why| refuse(why.to_owned(), "a float, unorm, snorm or sRGB color format"))?;
        let (render, storage) = capabilities(gpu, format);
        let usage = raw.usage();
        let copies = wgpu::TextureUsages::COPY_SRC | wgpu::TextureUsages::COPY_DST;
        let has = |u: wgpu::TextureUsages| usage.contains(u | copies);
        if render && has(wgpu::TextureUsages::RENDER_ATTACHMENT) {
            return Ok(MipPath::Render);
        }
        if storage && has(wgpu::TextureUsages::STORAGE_BINDING) {
            return Ok(MipPath::Compute);
        }
        let (problem, expected) = match (render, storage) {
            (false, false) => (
                "this adapter can neither render to this format nor write it as storage",
                "a format with RENDER_ATTACHMENT or write-only STORAGE_BINDING support",
            ),
            (true, _) => (
                "the texture lacks RENDER_ATTACHMENT usage",
                "a texture made by Gpu::texture with mip_level_count > 1 (it adds the usage)",
            ),
            (false, true) => (
                "the texture lacks STORAGE_BINDING usage",
                "a texture made by Gpu::texture with mip_level_count > 1 (it adds the usage)",
            ),
        };
        Err(refuse(format!("{problem} (usage {usage:?})"), expected))
    }
}

/// The cached pipeline of `(format, path, source)`, created on first use.
fn mip_pipeline(
    gpu: &Gpu,
    format: wgpu::TextureFormat,
    path: MipPath,
    source: Source,
) -> Result<MipPipeline> {
    let key = (format, path, source);
    if let Some(p) = gpu.with_state(|s| s.mips.by_format.get(&key).cloned()) {
        return Ok(p);
    }
    let pipeline = match path {
        MipPath::Render => render::pipeline(gpu, format, source)?,
        MipPath::Compute => compute::pipeline(gpu, format, source)?,
    };
    gpu.with_state(|s| s.mips.by_format.insert(key, pipeline.clone()));
    Ok(pipeline)
}

/// The bind group of one mip: the source view, the storage target (compute), the sampler
/// (a cube source).
fn bind_group(
    gpu: &Gpu,
    pipeline: &MipPipeline,
    source: &wgpu::TextureView,
    target: Option<&wgpu::TextureView>,
) -> Result<wgpu::BindGroup> {
    let mut entries = vec![wgpu::BindGroupEntry {
        binding: 0,
        resource: wgpu::BindingResource::TextureView(source),
    }];
    if let Some(target) = target {
        entries.push(wgpu::BindGroupEntry {
            binding: 1,
            resource: wgpu::BindingResource::TextureView(target),
        });
    }
    if let Some(sampler) = &pipeline.sampler {
        entries.push(wgpu::BindGroupEntry {
            binding: 2,
            resource: wgpu::BindingResource::Sampler(sampler),
        });
    }
    Ok(gpu.ctx.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("vgpu generate_mips"),
        layout: &pipeline.layout,
        entries: &entries,
    })?)
}

/// A 2D texture of `raw`'s format holding mips `first..` of `raw` (at levels `0..`), with
/// `usage` and the copies.
fn scratch(
    gpu: &Gpu,
    raw: &wgpu::Texture,
    first: u32,
    usage: wgpu::TextureUsages,
) -> Result<wgpu::Texture> {
    let size = raw.size().mip_level_size(first, wgpu::TextureDimension::D2);
    Ok(gpu.ctx.create_texture(&wgpu::TextureDescriptor {
        label: Some("vgpu generate_mips scratch"),
        size: wgpu::Extent3d {
            depth_or_array_layers: 1,
            ..size
        },
        mip_level_count: raw.mip_level_count() - 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: raw.format(),
        usage: usage | wgpu::TextureUsages::COPY_DST | wgpu::TextureUsages::COPY_SRC,
        view_formats: &[],
    })?)
}
