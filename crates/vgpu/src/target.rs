//! [`Target`]: offscreen render targets: color (any renderable format), optional depth,
//! optional MSAA (described by a [`TargetDesc`]); read-back as RGBA8 ([`RgbaImage`]) or floats;
//! PNG output.

use std::sync::Arc;

use crate::descriptors::{ColorFormats, TargetSignature};
use crate::error::{Result, TargetError};
use crate::gpu::Gpu;
use crate::readback;
use crate::rgba_image::RgbaImage;
use crate::state::{TargetColor, TargetRecord};
use crate::target_desc::TargetDesc;

/// An offscreen render target. Cheap to clone (an `Arc`).
#[derive(Clone, Debug)]
pub struct Target {
    pub(crate) inner: Arc<TargetRecord>,
}

/// How texels of a readable format decode.
#[derive(Clone, Copy)]
enum Decode {
    Rgba8,
    Bgra8,
    R8,
    Rgba16F,
    Rgba32F,
    R32F,
}

fn decode_of(format: wgpu::TextureFormat) -> Option<(Decode, u32)> {
    use wgpu::TextureFormat as F;
    Some(match format {
        F::Rgba8Unorm | F::Rgba8UnormSrgb => (Decode::Rgba8, 4),
        F::Bgra8Unorm | F::Bgra8UnormSrgb => (Decode::Bgra8, 4),
        F::R8Unorm => (Decode::R8, 1),
        F::Rgba16Float => (Decode::Rgba16F, 8),
        F::Rgba32Float => (Decode::Rgba32F, 16),
        F::R32Float | F::Depth32Float => (Decode::R32F, 4),
        _ => return None,
    })
}

const READABLE: &str =
    "Rgba8Unorm(Srgb), Bgra8Unorm(Srgb), R8Unorm, Rgba16Float, Rgba32Float, R32Float";

impl Gpu {
    /// `VGPU-TARGET-SIZE` unless both sides are in `1..=max_texture_dimension_2d`.
    pub(crate) fn check_texture_size(&self, label: &str, width: u32, height: u32) -> Result<()> {
        let max = self.ctx.limits().max_texture_dimension_2d;
        if width == 0 || height == 0 || width > max || height > max {
            return Err(TargetError::Size {
                label: label.to_owned(),
                actual: (width, height),
                max,
            }
            .into());
        }
        Ok(())
    }

    /// A `width`×`height` `Rgba8Unorm` target without depth.
    pub fn target(&self, width: u32, height: u32) -> Result<Target> {
        self.target_with(&TargetDesc::new(width, height))
    }

    /// A target per `desc`: its color attachments (each a single-sample texture, read back and
    /// bound by index, plus a multisampled one under MSAA), its depth or depth-stencil.
    pub fn target_with(&self, desc: &TargetDesc) -> Result<Target> {
        self.ctx.check_device("Gpu::target")?;
        self.check_target_desc(desc)?;
        let ctx = &self.ctx;
        let size = wgpu::Extent3d {
            width: desc.width,
            height: desc.height,
            depth_or_array_layers: 1,
        };
        let texture = |label: &str, format, samples, extra: wgpu::TextureUsages| {
            let t = ctx.create_texture(&wgpu::TextureDescriptor {
                label: Some(label),
                size,
                mip_level_count: 1,
                sample_count: samples,
                dimension: wgpu::TextureDimension::D2,
                format,
                usage: wgpu::TextureUsages::RENDER_ATTACHMENT | extra,
                view_formats: &[],
            })?;
            let view = t.create_view(&Default::default());
            Ok::<_, crate::error::Error>((t, view))
        };
        let sampled = wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_SRC;
        let multisampled = desc.sample_count > 1;
        let mut colors = Vec::with_capacity(desc.colors.len());
        for (i, &format) in desc.colors.iter().enumerate() {
            let label = match i {
                0 => desc.label.clone(),
                i => format!("{} color {i}", desc.label),
            };
            let resolved = Some(texture(&label, format, 1, sampled)?);
            let msaa_view = match multisampled {
                true => {
                    let label = format!("{label} msaa");
                    let empty = wgpu::TextureUsages::empty();
                    Some(texture(&label, format, desc.sample_count, empty)?.1)
                }
                false => None,
            };
            colors.push(TargetColor {
                resolved,
                msaa_view,
            });
        }
        // A multisampled depth texture is neither sampled nor copied.
        let depth_usage = if multisampled {
            wgpu::TextureUsages::empty()
        } else {
            sampled
        };
        let depth = match desc.depth {
            Some(format) => Some(texture(
                &format!("{} depth", desc.label),
                format,
                desc.sample_count,
                depth_usage,
            )?),
            None => None,
        };
        let color_formats = ColorFormats::from_slice(&desc.colors).unwrap_or(ColorFormats::NONE);
        Ok(Target {
            inner: Arc::new(TargetRecord {
                label: desc.label.clone(),
                size: (desc.width, desc.height),
                colors,
                depth_sampled: depth.as_ref().map(|(t, v)| depth_aspect_view(t, v)),
                depth,
                signature: TargetSignature {
                    colors: color_formats,
                    ..TargetSignature::new(None, desc.depth, desc.sample_count)
                },
                ctx: ctx.clone(),
                gpu: self.id(),
            }),
        })
    }

    /// `VGPU-TARGET-SIZE`, `VGPU-TARGET-FORMAT` or `VGPU-TARGET-ATTACHMENTS` unless `desc`
    /// describes a target this device can render into.
    fn check_target_desc(&self, desc: &TargetDesc) -> Result<()> {
        self.check_texture_size(&desc.label, desc.width, desc.height)?;
        let format_error = |usage, expected, actual| -> crate::error::Error {
            TargetError::Format {
                label: desc.label.clone(),
                usage,
                expected,
                actual,
            }
            .into()
        };
        for &format in &desc.colors {
            let renderable = self
                .ctx
                .format_features(format)
                .allowed_usages
                .contains(wgpu::TextureUsages::RENDER_ATTACHMENT);
            if format.is_depth_stencil_format() || !renderable {
                return Err(format_error(
                    "a color attachment",
                    "a renderable color format",
                    format,
                ));
            }
        }
        self.check_color_budget(&desc.label, &desc.colors)?;
        self.check_target_formats(desc)?;
        if let Some(d) = desc.depth.filter(|d| !d.is_depth_stencil_format()) {
            return Err(format_error(
                "a depth attachment",
                "a depth format such as Depth32Float",
                d,
            ));
        }
        if desc.colors.is_empty() && desc.depth.is_none() {
            return Err(TargetError::Attachments {
                label: desc.label.clone(),
                what: "attachments",
                expected: "at least one color or a depth attachment".to_owned(),
                actual: "none".to_owned(),
            }
            .into());
        }
        Ok(())
    }

    /// `VGPU-TARGET-FORMAT` unless every format of `desc` is one the device was created for
    /// (its required features) and supports `desc.sample_count` samples.
    fn check_target_formats(&self, desc: &TargetDesc) -> Result<()> {
        let features = self.ctx.features();
        for &format in desc.colors.iter().chain(&desc.depth) {
            let usage = if format.is_depth_stencil_format() {
                "a depth attachment"
            } else {
                "a color attachment"
            };
            if !features.contains(format.required_features()) {
                return Err(TargetError::Format {
                    label: desc.label.clone(),
                    usage,
                    expected: "a format whose required features the device was created with",
                    actual: format,
                }
                .into());
            }
            let flags = self.ctx.format_features(format).flags;
            if !flags.sample_count_supported(desc.sample_count) {
                return Err(TargetError::Format {
                    label: desc.label.clone(),
                    usage: "a multisampled attachment",
                    expected: "a format that supports the sample count (1, and 4 for most renderable formats)",
                    actual: format,
                }
                .into());
            }
        }
        Ok(())
    }

    /// `VGPU-TARGET-ATTACHMENTS` unless `formats` fit the device's `max_color_attachments` and
    /// `max_color_attachment_bytes_per_sample` (counted as WebGPU does: each format's byte cost
    /// after aligning the running total to its component alignment).
    fn check_color_budget(&self, label: &str, formats: &[wgpu::TextureFormat]) -> Result<()> {
        let limits = self.ctx.limits();
        let max = (limits.max_color_attachments as usize).min(crate::MAX_COLOR_ATTACHMENTS);
        if formats.len() > max {
            return Err(TargetError::Attachments {
                label: label.to_owned(),
                what: "color attachments",
                expected: format!("at most {max} (the device's max_color_attachments)"),
                actual: formats.len().to_string(),
            }
            .into());
        }
        let mut bytes = 0u32;
        for f in formats {
            let cost = f.target_pixel_byte_cost().unwrap_or(0);
            let align = f.target_component_alignment().unwrap_or(1).max(1);
            bytes = bytes.div_ceil(align) * align + cost;
        }
        let budget = limits.max_color_attachment_bytes_per_sample;
        if bytes > budget {
            return Err(TargetError::Attachments {
                label: label.to_owned(),
                what: "color bytes per sample",
                expected: format!(
                    "at most {budget} (the device's max_color_attachment_bytes_per_sample)"
                ),
                actual: format!("{bytes} for {formats:?}"),
            }
            .into());
        }
        Ok(())
    }

    /// A target that draws into the app's `color` view (and optional `depth` view) without
    /// owning their textures: format, size and sample count are those of the view's texture
    /// (a multisampled color view is drawn into without a resolve). The views must have
    /// `RENDER_ATTACHMENT` usage and the same size; read-back works when the color texture has
    /// `COPY_SRC`. vgpu's own views work too: `target_for_view("lit", image.color_view()?,
    /// gbuffer.depth_view())` draws into one target's color with another's depth-stencil (the
    /// `deferred` example's lighting passes).
    pub fn target_for_view(
        &self,
        label: &str,
        color: &wgpu::TextureView,
        depth: Option<&wgpu::TextureView>,
    ) -> Result<Target> {
        self.ctx.check_device("Gpu::target_for_view")?;
        let texture = color.texture();
        let format_error = |usage, expected, actual| -> crate::error::Error {
            TargetError::Format {
                label: label.to_owned(),
                usage,
                expected,
                actual,
            }
            .into()
        };
        if !texture
            .usage()
            .contains(wgpu::TextureUsages::RENDER_ATTACHMENT)
        {
            return Err(format_error(
                "an app's color view",
                "a view of a texture with RENDER_ATTACHMENT usage",
                texture.format(),
            ));
        }
        let size = (texture.width(), texture.height());
        if let Some(d) = depth {
            let dt = d.texture();
            if !dt.format().is_depth_stencil_format()
                || (dt.width(), dt.height()) != size
                || dt.sample_count() != texture.sample_count()
            {
                return Err(format_error(
                    "an app's depth view",
                    "a depth texture of the color view's size and sample count",
                    dt.format(),
                ));
            }
        }
        let samples = texture.sample_count();
        let color_pair = (texture.clone(), color.clone());
        let attachment = if samples > 1 {
            TargetColor {
                resolved: None,
                msaa_view: Some(color_pair.1),
            }
        } else {
            TargetColor {
                resolved: Some(color_pair),
                msaa_view: None,
            }
        };
        Ok(Target {
            inner: Arc::new(TargetRecord {
                label: label.to_owned(),
                size,
                colors: vec![attachment],
                depth_sampled: depth.map(|d| depth_aspect_view(d.texture(), d)),
                depth: depth.map(|d| (d.texture().clone(), d.clone())),
                signature: TargetSignature::new(
                    Some(texture.format()),
                    depth.map(|d| d.texture().format()),
                    samples,
                ),
                ctx: self.ctx.clone(),
                gpu: self.id(),
            }),
        })
    }

    /// `VGPU-FOREIGN-GPU` unless `target` was created by this `Gpu`.
    pub(crate) fn check_target(&self, target: &Target, used_by: &str) -> Result<()> {
        if target.inner.gpu != self.id() {
            return Err(crate::error::foreign_gpu(
                "target",
                target.label(),
                used_by.to_owned(),
            ));
        }
        Ok(())
    }
}

impl Target {
    /// The label.
    pub fn label(&self) -> &str {
        &self.inner.label
    }
    /// `(width, height)` in pixels.
    pub fn size(&self) -> (u32, u32) {
        self.inner.size
    }
    /// The first color attachment's format (the depth format for a depth-only target).
    pub fn format(&self) -> wgpu::TextureFormat {
        match (self.inner.signature.color(), &self.inner.depth) {
            (Some(f), _) => f,
            (None, Some((t, _))) => t.format(),
            (None, None) => wgpu::TextureFormat::Rgba8Unorm,
        }
    }
    /// Formats and sample count, as pipelines see them.
    pub fn signature(&self) -> TargetSignature {
        self.inner.signature
    }
    /// How many color attachments the target has.
    pub fn color_count(&self) -> usize {
        self.inner.colors.len()
    }
    /// `[1 / width, 1 / height]`: one texel in UV units (for effects that sample neighbours).
    pub fn texel_size(&self) -> [f32; 2] {
        let (w, h) = self.inner.size;
        [1.0 / w as f32, 1.0 / h as f32]
    }
    /// The first color attachment's single-sample texture (the resolve target under MSAA);
    /// `None` for depth-only.
    pub fn color_texture(&self) -> Option<&wgpu::Texture> {
        self.color_texture_at(0)
    }
    /// Color attachment `index`'s single-sample texture.
    pub fn color_texture_at(&self, index: usize) -> Option<&wgpu::Texture> {
        self.inner
            .colors
            .get(index)?
            .resolved
            .as_ref()
            .map(|(t, _)| t)
    }
    /// A view of the first color attachment's single-sample texture, for sampling in a later
    /// pass.
    pub fn color_view(&self) -> Option<&wgpu::TextureView> {
        self.color_view_at(0)
    }
    /// A view of color attachment `index`'s single-sample texture.
    pub fn color_view_at(&self, index: usize) -> Option<&wgpu::TextureView> {
        self.inner
            .colors
            .get(index)?
            .resolved
            .as_ref()
            .map(|(_, v)| v)
    }
    /// The view passes render into (first attachment): the MSAA texture when multisampled,
    /// else the color texture.
    pub fn attachment_view(&self) -> Option<&wgpu::TextureView> {
        let c = self.inner.colors.first()?;
        c.msaa_view.as_ref().or(c.resolved.as_ref().map(|(_, v)| v))
    }
    /// The resolve target of passes (first attachment): the color texture when multisampled,
    /// else `None`.
    pub fn resolve_view(&self) -> Option<&wgpu::TextureView> {
        let c = self.inner.colors.first()?;
        c.msaa_view
            .as_ref()
            .and(c.resolved.as_ref().map(|(_, v)| v))
    }
    /// Each color attachment's render view and resolve target, attachment 0 first.
    pub(crate) fn color_attachments(
        &self,
    ) -> impl Iterator<Item = (&wgpu::TextureView, Option<&wgpu::TextureView>)> {
        self.inner.colors.iter().filter_map(|c| {
            let resolved = c.resolved.as_ref().map(|(_, v)| v);
            match &c.msaa_view {
                Some(msaa) => Some((msaa, resolved)),
                None => Some((resolved?, None)),
            }
        })
    }
    /// The depth texture's view, if the target has depth.
    pub fn depth_view(&self) -> Option<&wgpu::TextureView> {
        self.inner.depth.as_ref().map(|(_, v)| v)
    }
    /// A view of the depth aspect alone, for sampling (`texture_depth_2d`): for a depth-stencil
    /// format, the attachment view has both aspects and cannot be bound.
    pub fn depth_sample_view(&self) -> Option<&wgpu::TextureView> {
        self.inner.depth_sampled.as_ref()
    }
    /// The depth texture, if the target has depth.
    pub fn depth_texture(&self) -> Option<&wgpu::Texture> {
        self.inner.depth.as_ref().map(|(t, _)| t)
    }

    /// Reads the color texture back as RGBA8 (blocking; waits for submitted work). Float formats
    /// are clamped to 0..=1 and rounded. Native targets; on the web, where nothing may block, use
    /// [`read_rgba8_async`](Self::read_rgba8_async).
    pub fn read_rgba8(&self) -> Result<RgbaImage> {
        blocking_read(self.read_rgba8_async())
    }

    /// [`read_rgba8`](Self::read_rgba8) of color attachment `index` (`VGPU-TARGET-ATTACHMENTS`
    /// past the last).
    pub fn read_rgba8_at(&self, index: usize) -> Result<RgbaImage> {
        blocking_read(self.read_rgba8_at_async(index))
    }

    /// [`read_rgba8`](Self::read_rgba8) without blocking: the future completes once the GPU is
    /// done (see [`GpuContext::map_read`](vgpu_core::GpuContext::map_read)).
    pub async fn read_rgba8_async(&self) -> Result<RgbaImage> {
        self.read_rgba8_at_async(0).await
    }

    /// [`read_rgba8_at`](Self::read_rgba8_at) without blocking.
    pub async fn read_rgba8_at_async(&self, index: usize) -> Result<RgbaImage> {
        let (w, h) = self.size();
        let floats = self.read_decoded(index).await?;
        let to8 = |v: f32| (v.clamp(0.0, 1.0) * 255.0).round() as u8;
        let data = match floats {
            Decoded::Bytes(b) => b,
            Decoded::Floats(f) => f.iter().flat_map(|p| p.map(to8)).collect(),
        };
        Ok(RgbaImage {
            width: w,
            height: h,
            data,
        })
    }

    /// Reads the color texture back as RGBA `f32` per pixel (unorm formats map to 0..=1; one-
    /// channel formats fill red, with green and blue 0 and alpha 1), blocking.
    pub fn read_f32(&self) -> Result<Vec<[f32; 4]>> {
        blocking_read(self.read_f32_async())
    }

    /// [`read_f32`](Self::read_f32) of color attachment `index`.
    pub fn read_f32_at(&self, index: usize) -> Result<Vec<[f32; 4]>> {
        blocking_read(self.read_f32_at_async(index))
    }

    /// [`read_f32`](Self::read_f32) without blocking.
    pub async fn read_f32_async(&self) -> Result<Vec<[f32; 4]>> {
        self.read_f32_at_async(0).await
    }

    /// [`read_f32_at`](Self::read_f32_at) without blocking.
    pub async fn read_f32_at_async(&self, index: usize) -> Result<Vec<[f32; 4]>> {
        Ok(match self.read_decoded(index).await? {
            Decoded::Bytes(b) => b
                .chunks_exact(4)
                .map(|p| [0, 1, 2, 3].map(|i| f32::from(p[i]) / 255.0))
                .collect(),
            Decoded::Floats(f) => f,
        })
    }

    /// Reads the depth attachment back as `f32` per pixel (`Depth32Float` only), blocking.
    pub fn read_depth(&self) -> Result<Vec<f32>> {
        blocking_read(self.read_depth_async())
    }

    /// [`read_depth`](Self::read_depth) without blocking.
    pub async fn read_depth_async(&self) -> Result<Vec<f32>> {
        let Some((tex, _)) = &self.inner.depth else {
            return Err(TargetError::Format {
                label: self.inner.label.clone(),
                usage: "depth read-back",
                expected: "a target with a Depth32Float attachment",
                actual: self.format(),
            }
            .into());
        };
        if tex.format() != wgpu::TextureFormat::Depth32Float || tex.sample_count() != 1 {
            return Err(TargetError::Format {
                label: self.inner.label.clone(),
                usage: "depth read-back",
                expected: "a single-sample Depth32Float attachment",
                actual: tex.format(),
            }
            .into());
        }
        let bytes = readback::read_texture_async(
            &self.inner.ctx,
            tex,
            wgpu::TextureAspect::DepthOnly,
            4,
            &self.inner.label,
        )
        .await?;
        Ok(bytemuck::pod_collect_to_vec::<u8, f32>(&bytes))
    }

    /// Reads back as RGBA8 and writes an 8-bit RGBA PNG.
    pub fn save_png(&self, path: impl AsRef<std::path::Path>) -> Result<()> {
        self.read_rgba8()?.save_png(path)
    }

    async fn read_decoded(&self, index: usize) -> Result<Decoded> {
        let count = self.inner.colors.len();
        if index > 0 && index >= count {
            return Err(TargetError::Attachments {
                label: self.inner.label.clone(),
                what: "color attachment index",
                expected: format!("below {count}"),
                actual: index.to_string(),
            }
            .into());
        }
        let Some((color, _)) = self
            .inner
            .colors
            .get(index)
            .and_then(|c| c.resolved.as_ref())
        else {
            return Err(TargetError::Format {
                label: self.inner.label.clone(),
                usage: "color read-back",
                expected: "a target with a color attachment (use read_depth for depth-only targets)",
                actual: self.format(),
            }
            .into());
        };
        let format = color.format();
        let Some((decode, texel)) = decode_of(format) else {
            return Err(TargetError::Format {
                label: self.inner.label.clone(),
                usage: "read-back",
                expected: READABLE,
                actual: format,
            }
            .into());
        };
        let raw = readback::read_texture_async(
            &self.inner.ctx,
            color,
            wgpu::TextureAspect::All,
            texel,
            &self.inner.label,
        )
        .await?;
        Ok(match decode {
            Decode::Rgba8 => Decoded::Bytes(raw),
            Decode::Bgra8 => Decoded::Bytes(
                raw.chunks_exact(4)
                    .flat_map(|p| [p[2], p[1], p[0], p[3]])
                    .collect(),
            ),
            Decode::R8 => Decoded::Bytes(raw.iter().flat_map(|&r| [r, 0, 0, 255]).collect()),
            Decode::Rgba16F => Decoded::Floats(
                raw.chunks_exact(8)
                    .map(|p| {
                        [0, 1, 2, 3].map(|i| {
                            readback::f16_to_f32(u16::from_le_bytes([p[2 * i], p[2 * i + 1]]))
                        })
                    })
                    .collect(),
            ),
            Decode::Rgba32F => Decoded::Floats(
                raw.chunks_exact(16)
                    .map(|p| {
                        [0, 1, 2, 3].map(|i| {
                            f32::from_le_bytes([p[4 * i], p[4 * i + 1], p[4 * i + 2], p[4 * i + 3]])
                        })
                    })
                    .collect(),
            ),
            Decode::R32F => Decoded::Floats(
                raw.chunks_exact(4)
                    .map(|p| [f32::from_le_bytes([p[0], p[1], p[2], p[3]]), 0.0, 0.0, 1.0])
                    .collect(),
            ),
        })
    }
}

/// A view of `texture`'s depth aspect alone when its format has both depth and stencil, else
/// `view` (a depth-only format; or `Stencil8`, which has no depth to sample).
fn depth_aspect_view(texture: &wgpu::Texture, view: &wgpu::TextureView) -> wgpu::TextureView {
    let format = texture.format();
    if !(format.has_stencil_aspect() && format.has_depth_aspect()) {
        return view.clone();
    }
    texture.create_view(&wgpu::TextureViewDescriptor {
        label: Some("depth aspect"),
        aspect: wgpu::TextureAspect::DepthOnly,
        ..Default::default()
    })
}

/// Waits for a target read-back (native targets; `VGPU-DEVICE-WOULD-BLOCK` on the web unless
/// already done).
fn blocking_read<T>(read: impl Future<Output = Result<T>>) -> Result<T> {
    vgpu_core::block_on("Target read-back", "Target::read_*_async", read)?
}

enum Decoded {
    Bytes(Vec<u8>),
    Floats(Vec<[f32; 4]>),
}
