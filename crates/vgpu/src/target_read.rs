//! [`Target`] read-back: color attachments as RGBA8 ([`RgbaImage`]) or floats, depth as
//! floats, PNG output.

use crate::error::{Result, TargetError};
use crate::readback;
use crate::rgba_image::RgbaImage;
use crate::target::Target;

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

impl Target {
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
        let (floats, (w, h)) = self.read_decoded(index).await?;
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
        Ok(match self.read_decoded(index).await?.0 {
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
        let Some(tex) = self.depth_texture() else {
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
            &tex,
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

    /// Color attachment `index` read back and decoded, with its size (that of the textures
    /// read, whatever a resize meanwhile does).
    async fn read_decoded(&self, index: usize) -> Result<(Decoded, (u32, u32))> {
        let count = self.color_count();
        if index > 0 && index >= count {
            return Err(TargetError::Attachments {
                label: self.inner.label.clone(),
                what: "color attachment index",
                expected: format!("below {count}"),
                actual: index.to_string(),
            }
            .into());
        }
        let Some(color) = self.color_texture_at(index) else {
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
            &color,
            wgpu::TextureAspect::All,
            texel,
            &self.inner.label,
        )
        .await?;
        let decoded = match decode {
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
        };
        Ok((decoded, (color.width(), color.height())))
    }
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
