//! [`Texture`]: sampled (or storage) 2D textures, created zeroed or with data, and written whole.

use std::sync::Arc;

use crate::error::{BufferError, Result};
use crate::gpu::Gpu;
use crate::state::TextureRecord;

/// Describes a 2D [`Texture`]. `Default`: 1×1 `Rgba8Unorm`, one mip level.
#[derive(Clone, Debug)]
pub struct TextureDesc {
    /// Label used in errors and wgpu messages.
    pub label: String,
    /// Width in texels.
    pub width: u32,
    /// Height in texels.
    pub height: u32,
    /// Texel format.
    pub format: wgpu::TextureFormat,
    /// Extra usages beyond `TEXTURE_BINDING | COPY_DST | COPY_SRC` (e.g. `STORAGE_BINDING`).
    pub usage: wgpu::TextureUsages,
    /// 1D, 2D or 3D. Default 2D.
    pub dimension: wgpu::TextureDimension,
    /// Array layers (2D: 6 for a cube, 6·n for a cube array) or depth (3D). Default 1.
    pub depth_or_array_layers: u32,
    /// Mip levels (1 = none; at most `floor(log2(max side)) + 1`). Default 1.
    pub mip_level_count: u32,
    /// Samples per texel (1 or 4). Default 1.
    pub sample_count: u32,
    /// The dimension of the default view (what a binding of the texture binds): `None` picks it
    /// from the texture (`D2Array` for a 2D texture of several layers). `Some(Cube)` makes a
    /// 6-layer texture bind as `texture_cube`.
    pub view_dimension: Option<wgpu::TextureViewDimension>,
    /// Other formats views of the texture may have (sRGB ↔ linear of one format).
    pub view_formats: Vec<wgpu::TextureFormat>,
}

impl Default for TextureDesc {
    fn default() -> Self {
        TextureDesc {
            label: "texture".to_owned(),
            width: 1,
            height: 1,
            format: wgpu::TextureFormat::Rgba8Unorm,
            usage: wgpu::TextureUsages::empty(),
            dimension: wgpu::TextureDimension::D2,
            depth_or_array_layers: 1,
            mip_level_count: 1,
            sample_count: 1,
            view_dimension: None,
            view_formats: Vec::new(),
        }
    }
}

/// A sampled (or storage) 2D texture. Cheap to clone (an `Arc`).
#[derive(Clone, Debug)]
pub struct Texture {
    pub(crate) inner: Arc<TextureRecord>,
}

impl Gpu {
    /// A 2D texture, zero-initialized.
    pub fn texture(&self, desc: &TextureDesc) -> Result<Texture> {
        self.ctx.check_device("Gpu::texture")?;
        self.check_texture_size(&desc.label, desc.width, desc.height)?;
        let texture = self.ctx.create_texture(&wgpu::TextureDescriptor {
            label: Some(&desc.label),
            size: wgpu::Extent3d {
                width: desc.width,
                height: desc.height,
                depth_or_array_layers: desc.depth_or_array_layers,
            },
            mip_level_count: desc.mip_level_count,
            sample_count: desc.sample_count,
            dimension: desc.dimension,
            format: desc.format,
            usage: wgpu::TextureUsages::TEXTURE_BINDING
                | wgpu::TextureUsages::COPY_DST
                | wgpu::TextureUsages::COPY_SRC
                | desc.usage,
            view_formats: &desc.view_formats,
        })?;
        let view = texture.create_view(&wgpu::TextureViewDescriptor {
            dimension: desc.view_dimension,
            ..Default::default()
        });
        Ok(Texture {
            inner: Arc::new(TextureRecord {
                texture,
                view,
                label: desc.label.clone(),
                gpu: self.id(),
            }),
        })
    }

    /// A 2D texture holding `data` (tightly packed rows of `width` texels).
    pub fn texture_with_data(&self, desc: &TextureDesc, data: &[u8]) -> Result<Texture> {
        let texture = self.texture(desc)?;
        texture.write(self, data)?;
        Ok(texture)
    }
}

impl Texture {
    /// The label.
    pub fn label(&self) -> &str {
        &self.inner.label
    }
    /// `(width, height)`.
    pub fn size(&self) -> (u32, u32) {
        (self.inner.texture.width(), self.inner.texture.height())
    }
    /// The texel format.
    pub fn format(&self) -> wgpu::TextureFormat {
        self.inner.texture.format()
    }
    /// The raw texture.
    pub fn raw(&self) -> &wgpu::Texture {
        &self.inner.texture
    }
    /// The default view (what binding the texture binds).
    pub fn view(&self) -> &wgpu::TextureView {
        &self.inner.view
    }

    /// Replaces the whole texture's contents with `data` (tightly packed rows; for
    /// block-compressed formats, rows of blocks).
    /// Fails with `VGPU-FOREIGN-GPU` if `gpu` did not create the texture, `VGPU-BUFFER-RANGE`
    /// if `data` is not exactly the texture's size, and `VGPU-DEVICE-VALIDATION` (with wgpu's
    /// description) if wgpu refuses the write, e.g. for a format that cannot be a copy
    /// destination such as `Depth32Float`.
    pub fn write(&self, gpu: &Gpu, data: &[u8]) -> Result<()> {
        gpu.ctx.check_lost("Texture::write")?;
        if self.inner.gpu != gpu.id() {
            return Err(crate::error::foreign_gpu(
                "texture",
                &self.inner.label,
                "writing it",
            ));
        }
        let (w, h) = self.size();
        let format = self.format();
        let block = format.block_copy_size(None).unwrap_or(0);
        // Block-compressed formats are copied in blocks of several texels (4×4 for BC).
        let (bw, bh) = format.block_dimensions();
        let (columns, rows) = (w.div_ceil(bw), h.div_ceil(bh));
        let expected = u64::from(columns) * u64::from(rows) * u64::from(block);
        if block == 0 || data.len() as u64 != expected {
            let unit = if (bw, bh) == (1, 1) {
                format!("{w}x{h} texels of {block} bytes")
            } else {
                format!("{columns}x{rows} blocks of {bw}x{bh} texels, {block} bytes each")
            };
            return Err(BufferError::Range {
                label: self.inner.label.clone(),
                what: "texture data length",
                expected: format!("{expected} bytes ({unit})"),
                actual: format!("{} bytes", data.len()),
            }
            .into());
        }
        gpu.ctx.write_texture(
            Some(&self.inner.label),
            self.inner.texture.as_image_copy(),
            data,
            wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(columns * block),
                rows_per_image: Some(rows),
            },
            wgpu::Extent3d {
                width: w,
                height: h,
                depth_or_array_layers: 1,
            },
        )?;
        Ok(())
    }
}
