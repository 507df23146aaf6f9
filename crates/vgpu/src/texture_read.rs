//! Reading a [`Texture`] back: any copyable format, any mip, layer or region, blocking or
//! async, into [`TextureData`] (the format's own components). Rows are copied at wgpu's
//! 256-byte row pitch and packed tightly again here.

use vgpu_core::{DeviceError, GpuContext};

use crate::error::Result;
use crate::gpu::Gpu;
use crate::texture::Texture;
use crate::texture_data::{TextureData, TextureRegion};
use crate::texture_error::TextureError;
use crate::texture_write::{CopyPlan, Direction};

/// Copies `plan`'s region of `texture` into a staging buffer (rows padded to
/// `COPY_BYTES_PER_ROW_ALIGNMENT`), maps it and returns the rows tightly packed.
async fn copy_out(
    ctx: &GpuContext,
    texture: &wgpu::Texture,
    plan: &CopyPlan,
    label: &str,
) -> std::result::Result<Vec<u8>, DeviceError> {
    let align = wgpu::COPY_BYTES_PER_ROW_ALIGNMENT;
    let padded = plan.row_bytes.div_ceil(align) * align;
    let layers = plan.extent.depth_or_array_layers;
    let staging = ctx.create_buffer(&wgpu::BufferDescriptor {
        label: Some("vgpu texture read-back staging"),
        size: u64::from(padded) * u64::from(plan.rows) * u64::from(layers),
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    })?;
    let mut encoder = ctx
        .device()
        .create_command_encoder(&wgpu::CommandEncoderDescriptor {
            label: Some("vgpu texture read-back"),
        });
    encoder.copy_texture_to_buffer(
        wgpu::TexelCopyTextureInfo {
            texture,
            mip_level: plan.mip,
            origin: plan.origin,
            aspect: plan.aspect,
        },
        wgpu::TexelCopyBufferInfo {
            buffer: &staging,
            layout: wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(padded),
                rows_per_image: Some(plan.rows),
            },
        },
        plan.extent,
    );
    let cmd = ctx.scoped("Texture::read", Some(label), |_| encoder.finish())?;
    ctx.submit_read_back([cmd])?;
    let data = ctx.map_read(&staging, label).await?;
    let row = plan.row_bytes as usize;
    let mut out = Vec::with_capacity(plan.total_bytes() as usize);
    for padded_row in data
        .chunks_exact(padded as usize)
        .take(plan.rows as usize * layers as usize)
    {
        out.extend_from_slice(&padded_row[..row]);
    }
    Ok(out)
}

/// Why wgpu's GL backend cannot copy `texture` into a buffer (it reads through `glReadPixels`
/// of a framebuffer), or `None`: cube-compatible textures (square, 6·n layers: wgpu's GL backend
/// makes them cube maps whatever the view dimension asked, `TextureDesc::array` too, and its
/// copy out of a cube map writes nothing, so the bytes would be zeros), block-compressed
/// formats, and formats that are not color-renderable there (snorm, `Rgb9e5Ufloat`), which
/// would come back as zeros or clamped.
fn gl_gap(texture: &wgpu::Texture) -> Option<&'static str> {
    let format = texture.format();
    let cube = texture.dimension() == wgpu::TextureDimension::D2
        && texture.depth_or_array_layers().is_multiple_of(6)
        && texture.width() == texture.height()
        && texture.sample_count() == 1;
    if cube {
        return Some(
            "GL makes a square texture of 6·n layers a cube map (even one made as an array), which it cannot copy to a buffer: sample its faces into a Target and read that, or give the array a non-square size",
        );
    }
    if format.is_compressed() {
        return Some("GL cannot copy block-compressed texels to a buffer");
    }
    use wgpu::TextureFormat as F;
    let not_renderable = matches!(
        format,
        F::R8Snorm
            | F::Rg8Snorm
            | F::Rgba8Snorm
            | F::R16Snorm
            | F::Rg16Snorm
            | F::Rgba16Snorm
            | F::Rgb9e5Ufloat
    );
    if not_renderable {
        return Some(
            "GL reads texels through a framebuffer, and this format is not color-renderable there: sample it into a Target of a renderable format and read that",
        );
    }
    None
}

/// Waits for a texture read-back (native targets; `VGPU-DEVICE-WOULD-BLOCK` on the web unless
/// already done).
fn wait<T>(read: impl Future<Output = Result<T>>) -> Result<T> {
    vgpu_core::block_on("Texture read-back", "Texture::read_*_async", read)?
}

impl Texture {
    /// Reads mip level 0 back, every layer (or 3D slice), blocking: the format's own components
    /// (see [`TextureData`]). Every format wgpu can copy from: color formats, `Depth32Float`
    /// and `Depth16Unorm` depth (the depth aspect of `Depth32FloatStencil8` too), stencil
    /// through [`read_stencil`](Self::read_stencil). Native targets; on the web use
    /// [`read_async`](Self::read_async).
    ///
    /// Refusals: `VGPU-TEXTURE-FORMAT` (`Depth24Plus` depth, which has no defined bytes: use
    /// `Depth32Float`; multisampled textures), `VGPU-FOREIGN-GPU`. On GL also
    /// `VGPU-TEXTURE-FORMAT` for what wgpu's GL backend cannot copy out, rather than zeros:
    /// square textures of 6·n layers (GL makes them cube maps, arrays of that shape included),
    /// block-compressed formats, snorm formats and `Rgb9e5Ufloat`. Arrays of any other shape
    /// read every layer on every backend.
    pub fn read(&self, gpu: &Gpu) -> Result<TextureData> {
        wait(self.read_async(gpu))
    }

    /// [`read`](Self::read) without blocking: the future completes once the GPU is done (see
    /// [`GpuContext::map_read`](vgpu_core::GpuContext::map_read)).
    pub async fn read_async(&self, gpu: &Gpu) -> Result<TextureData> {
        self.read_region_async(gpu, &TextureRegion::mip(0)).await
    }

    /// Reads mip level `mip` back, every layer, blocking (`VGPU-TEXTURE-REGION` past the last
    /// mip).
    pub fn read_mip(&self, gpu: &Gpu, mip: u32) -> Result<TextureData> {
        wait(self.read_mip_async(gpu, mip))
    }

    /// [`read_mip`](Self::read_mip) without blocking.
    pub async fn read_mip_async(&self, gpu: &Gpu, mip: u32) -> Result<TextureData> {
        self.read_region_async(gpu, &TextureRegion::mip(mip)).await
    }

    /// Reads one layer (or 3D slice) of mip level `mip` back, blocking (`VGPU-TEXTURE-REGION`
    /// past the last layer or mip).
    pub fn read_layer(&self, gpu: &Gpu, layer: u32, mip: u32) -> Result<TextureData> {
        wait(self.read_layer_async(gpu, layer, mip))
    }

    /// [`read_layer`](Self::read_layer) without blocking.
    pub async fn read_layer_async(&self, gpu: &Gpu, layer: u32, mip: u32) -> Result<TextureData> {
        let region = self.layer_region(layer, mip);
        self.read_region_async(gpu, &region).await
    }

    /// Reads `region` back, blocking (`VGPU-TEXTURE-REGION` for a region past the texture,
    /// empty, or off block boundaries).
    pub fn read_region(&self, gpu: &Gpu, region: &TextureRegion) -> Result<TextureData> {
        wait(self.read_region_async(gpu, region))
    }

    /// [`read_region`](Self::read_region) without blocking.
    pub async fn read_region_async(
        &self,
        gpu: &Gpu,
        region: &TextureRegion,
    ) -> Result<TextureData> {
        self.read_aspect_async(gpu, region, false).await
    }

    /// Reads the stencil aspect of `region` back as one `u8` per texel ([`TextureData::u32s`]
    /// widens them), blocking; `VGPU-TEXTURE-FORMAT` for formats without stencil.
    pub fn read_stencil(&self, gpu: &Gpu, region: &TextureRegion) -> Result<TextureData> {
        wait(self.read_aspect_async(gpu, region, true))
    }

    /// [`read_stencil`](Self::read_stencil) without blocking.
    pub async fn read_stencil_async(
        &self,
        gpu: &Gpu,
        region: &TextureRegion,
    ) -> Result<TextureData> {
        self.read_aspect_async(gpu, region, true).await
    }

    async fn read_aspect_async(
        &self,
        gpu: &Gpu,
        region: &TextureRegion,
        stencil: bool,
    ) -> Result<TextureData> {
        self.check_copy_owner(gpu, "Texture::read")?;
        let plan = self.copy_plan(gpu, region, Direction::Read, stencil)?;
        let label = &self.inner.label;
        let gl = gpu.ctx.adapter_info().backend == wgpu::Backend::Gl;
        if let Some(hint) = gl.then(|| gl_gap(&self.inner.texture)).flatten() {
            return Err(TextureError::Format {
                label: label.clone(),
                format: self.format(),
                usage: "read back on GL",
                hint: hint.to_owned(),
            }
            .into());
        }
        // GL copies the slices of a 3D texture from slice 0 only: copy from there, drop the rest.
        let skip = if gl && self.inner.texture.dimension() == wgpu::TextureDimension::D3 {
            plan.origin.z
        } else {
            0
        };
        let copy = CopyPlan {
            origin: wgpu::Origin3d {
                z: plan.origin.z - skip,
                ..plan.origin
            },
            extent: wgpu::Extent3d {
                depth_or_array_layers: plan.extent.depth_or_array_layers + skip,
                ..plan.extent
            },
            ..plan
        };
        let mut bytes = copy_out(&gpu.ctx, &self.inner.texture, &copy, label).await?;
        let slice = u64::from(plan.row_bytes) * u64::from(plan.rows);
        bytes.drain(..(u64::from(skip) * slice) as usize);
        Ok(TextureData::new(
            label,
            self.format(),
            plan.aspect,
            plan.extent,
            bytes,
        ))
    }
}
