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
}

impl Default for TextureDesc {
    fn default() -> Self {
        TextureDesc {
            label: "texture".to_owned(),
            width: 1,
            height: 1,
            format: wgpu::TextureFormat::Rgba8Unorm,
            usage: wgpu::TextureUsages::empty(),
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
                depth_or_array_layers: 1,
            },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: desc.format,
            usage: wgpu::TextureUsages::TEXTURE_BINDING
                | wgpu::TextureUsages::COPY_DST
                | wgpu::TextureUsages::COPY_SRC
                | desc.usage,
            view_formats: &[],
        })?;
        let view = texture.create_view(&Default::default());
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
