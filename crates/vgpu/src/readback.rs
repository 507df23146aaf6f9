//! Copying textures and buffers back to the CPU (blocking, or async for the web), handling
//! row-pitch padding.

use vgpu_core::{DeviceError, GpuContext};

/// Maps `buffer` (which must have `MAP_READ`) and returns its bytes, blocking (on the web:
/// `VGPU-DEVICE-WOULD-BLOCK` unless already done; see [`GpuContext::map_read`]).
pub(crate) fn map_read(
    ctx: &GpuContext,
    buffer: &wgpu::Buffer,
    label: &str,
) -> Result<Vec<u8>, DeviceError> {
    vgpu_core::block_on(
        "a blocking read-back",
        "Buffer::read or Target::read_*_async",
        ctx.map_read(buffer, label),
    )?
}

/// Copies one mip-0 layer of `texture` (aspect `aspect`) and returns tightly packed rows of
/// `texel_size` bytes per texel. The future completes once the GPU is done (see
/// [`GpuContext::map_read`]; blocking callers wrap it in [`vgpu_core::block_on`]).
pub(crate) async fn read_texture_async(
    ctx: &GpuContext,
    texture: &wgpu::Texture,
    aspect: wgpu::TextureAspect,
    texel_size: u32,
    label: &str,
) -> Result<Vec<u8>, DeviceError> {
    let (w, h) = (texture.width(), texture.height());
    let unpadded = w * texel_size;
    let align = wgpu::COPY_BYTES_PER_ROW_ALIGNMENT;
    let padded = unpadded.div_ceil(align) * align;
    let staging = ctx.create_buffer(&wgpu::BufferDescriptor {
        label: Some("vgpu read-back staging"),
        size: u64::from(padded) * u64::from(h),
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    })?;
    let mut encoder = ctx
        .device()
        .create_command_encoder(&wgpu::CommandEncoderDescriptor {
            label: Some("vgpu read-back"),
        });
    encoder.copy_texture_to_buffer(
        wgpu::TexelCopyTextureInfo {
            texture,
            mip_level: 0,
            origin: wgpu::Origin3d::ZERO,
            aspect,
        },
        wgpu::TexelCopyBufferInfo {
            buffer: &staging,
            layout: wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(padded),
                rows_per_image: Some(h),
            },
        },
        wgpu::Extent3d {
            width: w,
            height: h,
            depth_or_array_layers: 1,
        },
    );
    let cmd = ctx.scoped("read_texture", Some(label), |_| encoder.finish())?;
    ctx.submit_read_back([cmd])?;
    let data = ctx.map_read(&staging, label).await?;
    let mut out = Vec::with_capacity((unpadded * h) as usize);
    for row in data.chunks_exact(padded as usize).take(h as usize) {
        out.extend_from_slice(&row[..unpadded as usize]);
    }
    Ok(out)
}

/// IEEE half to single precision.
pub(crate) fn f16_to_f32(h: u16) -> f32 {
    let sign = u32::from(h >> 15) << 31;
    let exp = u32::from((h >> 10) & 0x1f);
    let man = u32::from(h & 0x3ff);
    let bits = match (exp, man) {
        (0, 0) => sign,
        (0, m) => {
            // Subnormal: renormalize.
            let shift = m.leading_zeros() - 21;
            let m = (m << shift) & 0x3ff;
            sign | ((127 - 15 + 1 - shift) << 23) | (m << 13)
        }
        (0x1f, m) => sign | 0x7f80_0000 | (m << 13),
        (e, m) => sign | ((e + 127 - 15) << 23) | (m << 13),
    };
    f32::from_bits(bits)
}

#[cfg(test)]
mod tests {
    use super::f16_to_f32;

    #[test]
    fn half_conversion_matches_known_values() {
        assert_eq!(f16_to_f32(0x3c00), 1.0);
        assert_eq!(f16_to_f32(0xc000), -2.0);
        assert_eq!(f16_to_f32(0x3800), 0.5);
        assert_eq!(f16_to_f32(0x0001), 2f32.powi(-24));
        assert_eq!(f16_to_f32(0x7bff), 65504.0);
        assert!(f16_to_f32(0x7e00).is_nan());
        assert_eq!(f16_to_f32(0x7c00), f32::INFINITY);
    }
}
