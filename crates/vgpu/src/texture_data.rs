//! [`TextureData`]: texels read back from a [`Texture`](crate::Texture) in the format's own
//! components, with typed accessors; [`TextureRegion`]: the part of a texture a write or a read
//! covers.

use crate::error::Result;
use crate::rgba_image::RgbaImage;
use crate::texture_error::TextureError;
use vgpu_core::f16_bits_to_f32;

/// The part of a texture that [`Texture::write_region`](crate::Texture::write_region) and
/// [`Texture::read_region`](crate::Texture::read_region) cover: one mip level, from `origin`
/// (texels; `z` is the first array layer, or the first slice of a 3D texture) over `size` (`None`:
/// to the end of the mip level in every axis).
///
/// For block-compressed formats the origin and size are multiples of the block size (4×4 for BC);
/// a size of `None` covers the mip level's last, partly used blocks too.
///
/// ```
/// let r = vgpu::TextureRegion {
///     mip: 1,
///     origin: wgpu::Origin3d { x: 2, y: 0, z: 3 },
///     size: Some(wgpu::Extent3d { width: 4, height: 2, depth_or_array_layers: 1 }),
/// };
/// assert_eq!(vgpu::TextureRegion::mip(1).size, None);
/// # let _ = r;
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TextureRegion {
    /// The mip level (0 = full size).
    pub mip: u32,
    /// The first texel: x, y and the first layer (or 3D slice).
    pub origin: wgpu::Origin3d,
    /// Texels per axis (and layers); `None`: from `origin` to the end of the mip level.
    pub size: Option<wgpu::Extent3d>,
}

impl TextureRegion {
    /// All of mip level `mip`, every layer.
    pub fn mip(mip: u32) -> TextureRegion {
        TextureRegion {
            mip,
            ..TextureRegion::default()
        }
    }
}

/// How the bytes of one component (or one packed texel) are laid out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Scalar {
    Unorm8,
    Snorm8,
    Uint8,
    Sint8,
    Unorm16,
    Snorm16,
    Uint16,
    Sint16,
    Float16,
    Uint32,
    Sint32,
    Float32,
    /// `Rgb10a2Unorm`: one `u32`, 10 bits per color, 2 of alpha.
    Rgb10a2Unorm,
    /// `Rgb10a2Uint`: the same bits as integers.
    Rgb10a2Uint,
    /// `Rg11b10Ufloat`: one `u32`, unsigned 11-, 11- and 10-bit floats.
    Rg11b10Ufloat,
    /// `Rgb9e5Ufloat`: one `u32`, three 9-bit mantissas and a shared exponent.
    Rgb9e5Ufloat,
}

/// What a texel's components read as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Class {
    Float,
    Uint,
    Sint,
}

impl Scalar {
    fn class(self) -> Class {
        use Scalar as S;
        match self {
            S::Uint8 | S::Uint16 | S::Uint32 | S::Rgb10a2Uint => Class::Uint,
            S::Sint8 | S::Sint16 | S::Sint32 => Class::Sint,
            _ => Class::Float,
        }
    }

    /// Bytes of one component; a packed format's whole texel.
    fn width(self) -> usize {
        use Scalar as S;
        match self {
            S::Unorm8 | S::Snorm8 | S::Uint8 | S::Sint8 => 1,
            S::Unorm16 | S::Snorm16 | S::Uint16 | S::Sint16 | S::Float16 => 2,
            _ => 4,
        }
    }

    fn packed(self) -> bool {
        use Scalar as S;
        matches!(
            self,
            S::Rgb10a2Unorm | S::Rgb10a2Uint | S::Rg11b10Ufloat | S::Rgb9e5Ufloat
        )
    }
}

/// How a format's texels decode: the component type, how many, and whether they are stored
/// blue first (`Bgra8*`, decoded to red first).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Layout {
    pub(crate) scalar: Scalar,
    pub(crate) count: usize,
    pub(crate) bgra: bool,
}

/// The layout of `format`'s `aspect` as copied into a buffer, or `None` (block-compressed, or not
/// copyable).
pub(crate) fn layout_of(
    format: wgpu::TextureFormat,
    aspect: wgpu::TextureAspect,
) -> Option<Layout> {
    use Scalar as S;
    use wgpu::TextureFormat as F;
    if aspect == wgpu::TextureAspect::StencilOnly || format == F::Stencil8 {
        return Some(plain(S::Uint8, 1));
    }
    let (scalar, count) = match format {
        F::R8Unorm => (S::Unorm8, 1),
        F::R8Snorm => (S::Snorm8, 1),
        F::R8Uint => (S::Uint8, 1),
        F::R8Sint => (S::Sint8, 1),
        F::Rg8Unorm => (S::Unorm8, 2),
        F::Rg8Snorm => (S::Snorm8, 2),
        F::Rg8Uint => (S::Uint8, 2),
        F::Rg8Sint => (S::Sint8, 2),
        F::Rgba8Unorm | F::Rgba8UnormSrgb => (S::Unorm8, 4),
        F::Bgra8Unorm | F::Bgra8UnormSrgb => {
            return Some(Layout {
                bgra: true,
                ..plain(S::Unorm8, 4)
            });
        }
        F::Rgba8Snorm => (S::Snorm8, 4),
        F::Rgba8Uint => (S::Uint8, 4),
        F::Rgba8Sint => (S::Sint8, 4),
        F::R16Unorm | F::Depth16Unorm => (S::Unorm16, 1),
        F::R16Snorm => (S::Snorm16, 1),
        F::R16Uint => (S::Uint16, 1),
        F::R16Sint => (S::Sint16, 1),
        F::R16Float => (S::Float16, 1),
        F::Rg16Unorm => (S::Unorm16, 2),
        F::Rg16Snorm => (S::Snorm16, 2),
        F::Rg16Uint => (S::Uint16, 2),
        F::Rg16Sint => (S::Sint16, 2),
        F::Rg16Float => (S::Float16, 2),
        F::Rgba16Unorm => (S::Unorm16, 4),
        F::Rgba16Snorm => (S::Snorm16, 4),
        F::Rgba16Uint => (S::Uint16, 4),
        F::Rgba16Sint => (S::Sint16, 4),
        F::Rgba16Float => (S::Float16, 4),
        F::R32Uint => (S::Uint32, 1),
        F::R32Sint => (S::Sint32, 1),
        F::R32Float | F::Depth32Float | F::Depth32FloatStencil8 => (S::Float32, 1),
        F::Rg32Uint => (S::Uint32, 2),
        F::Rg32Sint => (S::Sint32, 2),
        F::Rg32Float => (S::Float32, 2),
        F::Rgba32Uint => (S::Uint32, 4),
        F::Rgba32Sint => (S::Sint32, 4),
        F::Rgba32Float => (S::Float32, 4),
        F::Rgb10a2Unorm => (S::Rgb10a2Unorm, 4),
        F::Rgb10a2Uint => (S::Rgb10a2Uint, 4),
        F::Rg11b10Ufloat => (S::Rg11b10Ufloat, 3),
        F::Rgb9e5Ufloat => (S::Rgb9e5Ufloat, 3),
        _ => return None,
    };
    Some(plain(scalar, count))
}

fn plain(scalar: Scalar, count: usize) -> Layout {
    Layout {
        scalar,
        count,
        bgra: false,
    }
}

/// One component of `scalar` from its little-endian bytes (`b` is exactly its size).
fn component(scalar: Scalar, b: &[u8]) -> f64 {
    use Scalar as S;
    let u16_of = || u16::from_le_bytes([b[0], b[1]]);
    let u32_of = || u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
    match scalar {
        S::Unorm8 => f64::from(b[0]) / 255.0,
        S::Snorm8 => (f64::from(b[0] as i8) / 127.0).max(-1.0),
        S::Uint8 => f64::from(b[0]),
        S::Sint8 => f64::from(b[0] as i8),
        S::Unorm16 => f64::from(u16_of()) / 65535.0,
        S::Snorm16 => (f64::from(u16_of() as i16) / 32767.0).max(-1.0),
        S::Uint16 => f64::from(u16_of()),
        S::Sint16 => f64::from(u16_of() as i16),
        S::Float16 => f64::from(f16_bits_to_f32(u16_of())),
        S::Uint32 => f64::from(u32_of()),
        S::Sint32 => f64::from(u32_of() as i32),
        _ => f64::from(f32::from_bits(u32_of())),
    }
}

/// An unsigned float of `mantissa_bits` mantissa bits and a 5-bit exponent (bias 15).
fn small_float(bits: u32, mantissa_bits: u32) -> f64 {
    let mantissa = f64::from(bits & ((1 << mantissa_bits) - 1));
    let exponent = bits >> mantissa_bits;
    let scale = f64::from(1u32 << mantissa_bits);
    match exponent {
        0 => mantissa / scale * 2f64.powi(-14),
        31 if mantissa == 0.0 => f64::INFINITY,
        31 => f64::NAN,
        e => (1.0 + mantissa / scale) * 2f64.powi(e as i32 - 15),
    }
}

/// The components of one packed texel.
fn packed(scalar: Scalar, b: &[u8]) -> [f64; 4] {
    let v = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
    let bits = |shift: u32, width: u32| (v >> shift) & ((1 << width) - 1);
    match scalar {
        Scalar::Rgb10a2Unorm => [
            f64::from(bits(0, 10)) / 1023.0,
            f64::from(bits(10, 10)) / 1023.0,
            f64::from(bits(20, 10)) / 1023.0,
            f64::from(bits(30, 2)) / 3.0,
        ],
        Scalar::Rgb10a2Uint => {
            [bits(0, 10), bits(10, 10), bits(20, 10), bits(30, 2)].map(f64::from)
        }
        Scalar::Rg11b10Ufloat => [
            small_float(bits(0, 11), 6),
            small_float(bits(11, 11), 6),
            small_float(bits(22, 10), 5),
            1.0,
        ],
        _ => {
            let scale = 2f64.powi(bits(27, 5) as i32 - 15 - 9);
            [
                f64::from(bits(0, 9)) * scale,
                f64::from(bits(9, 9)) * scale,
                f64::from(bits(18, 9)) * scale,
                1.0,
            ]
        }
    }
}

/// The components of the texel whose bytes are `b` (`count` of them are meaningful).
fn decode(layout: Layout, b: &[u8]) -> [f64; 4] {
    if layout.scalar.packed() {
        return packed(layout.scalar, b);
    }
    let size = layout.scalar.width();
    let mut out = [0.0; 4];
    for (i, slot) in out.iter_mut().enumerate().take(layout.count) {
        *slot = component(layout.scalar, &b[i * size..(i + 1) * size]);
    }
    if layout.bgra {
        out.swap(0, 2);
    }
    out
}

/// The components of one texel, in the format's own type and number (red first; `Bgra8*`
/// reordered to red first).
#[derive(Clone, Debug, PartialEq)]
pub enum Texel {
    /// Float, unorm, snorm (normalized), packed float and depth formats.
    Float(Vec<f32>),
    /// Unsigned-integer formats and stencil.
    Uint(Vec<u32>),
    /// Signed-integer formats.
    Sint(Vec<i32>),
}

/// Texels read back from a texture ([`Texture::read`](crate::Texture::read) and its variants):
/// tightly packed rows (for block-compressed formats, rows of blocks), layer after layer (or 3D
/// slice after slice), with accessors in the format's own components: an `R8Unorm` texel is one
/// `f32`, not a widened RGBA.
///
/// ```
/// let data = vgpu::TextureData::from_bytes(
///     wgpu::TextureFormat::R8Unorm,
///     wgpu::Extent3d { width: 2, height: 1, depth_or_array_layers: 1 },
///     vec![0, 255],
/// )?;
/// assert_eq!(data.f32s()?, [0.0, 1.0]);
/// assert_eq!(data.to_rgba8()?.pixel(1, 0), Some([255, 0, 0, 255]));
/// # Ok::<(), vgpu::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextureData {
    label: String,
    format: wgpu::TextureFormat,
    aspect: wgpu::TextureAspect,
    size: wgpu::Extent3d,
    bytes: Vec<u8>,
}

impl TextureData {
    pub(crate) fn new(
        label: &str,
        format: wgpu::TextureFormat,
        aspect: wgpu::TextureAspect,
        size: wgpu::Extent3d,
        bytes: Vec<u8>,
    ) -> TextureData {
        TextureData {
            label: label.to_owned(),
            format,
            aspect,
            size,
            bytes,
        }
    }

    /// Wraps tightly packed texels of `format` (e.g. to decode bytes kept from an earlier read):
    /// `VGPU-TEXTURE-WRITE-SIZE` unless `bytes` is exactly `size` in `format`,
    /// `VGPU-TEXTURE-FORMAT` for a format with no single copy layout (`Depth24Plus`,
    /// depth-stencil formats).
    pub fn from_bytes(
        format: wgpu::TextureFormat,
        size: wgpu::Extent3d,
        bytes: Vec<u8>,
    ) -> Result<TextureData> {
        let label = "texture data";
        let Some(block) = format.block_copy_size(None) else {
            return Err(TextureError::Format {
                label: label.to_owned(),
                format,
                usage: "held as texel bytes",
                hint: "only formats with one copy layout have texel bytes".to_owned(),
            }
            .into());
        };
        let (bw, bh) = format.block_dimensions();
        let expected = u64::from(size.width.div_ceil(bw))
            * u64::from(size.height.div_ceil(bh))
            * u64::from(size.depth_or_array_layers)
            * u64::from(block);
        if bytes.len() as u64 != expected {
            return Err(TextureError::WriteSize {
                label: label.to_owned(),
                what: format!("{size:?} of {format:?}"),
                expected,
                actual: bytes.len() as u64,
            }
            .into());
        }
        Ok(TextureData::new(
            label,
            format,
            wgpu::TextureAspect::All,
            size,
            bytes,
        ))
    }

    /// The texture's format.
    pub fn format(&self) -> wgpu::TextureFormat {
        self.format
    }
    /// The aspect read: `All`, `DepthOnly` (depth formats) or `StencilOnly`.
    pub fn aspect(&self) -> wgpu::TextureAspect {
        self.aspect
    }
    /// Texels per axis of what was read (the mip level's size for a whole-mip read), and layers.
    pub fn size(&self) -> wgpu::Extent3d {
        self.size
    }
    /// The tightly packed bytes, as the format stores them.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }
    /// The bytes, owned.
    pub fn into_bytes(self) -> Vec<u8> {
        self.bytes
    }
    /// Components per texel (`R8Unorm`: 1; `Rg11b10Ufloat`: 3); 0 for block-compressed formats.
    pub fn components(&self) -> usize {
        self.layout().map_or(0, |l| l.count)
    }

    fn layout(&self) -> Option<Layout> {
        layout_of(self.format, self.aspect)
    }

    fn texel_bytes(&self) -> usize {
        self.format.block_copy_size(Some(self.aspect)).unwrap_or(1) as usize
    }

    /// `layout` when its class is `want`, else `VGPU-TEXTURE-FORMAT` naming the accessor to use.
    fn layout_for(&self, want: &[Class], accessor: &'static str) -> Result<Layout> {
        let layout = self.layout().filter(|l| want.contains(&l.scalar.class()));
        layout.ok_or_else(|| {
            let hint = match self.layout().map(|l| l.scalar.class()) {
                None => "a block-compressed format: use bytes()".to_owned(),
                Some(Class::Float) => "a float/normalized format: use f32s()".to_owned(),
                Some(Class::Uint) => "an unsigned-integer format: use u32s()".to_owned(),
                Some(Class::Sint) => "a signed-integer format: use i32s()".to_owned(),
            };
            TextureError::Format {
                label: self.label.clone(),
                format: self.format,
                usage: accessor,
                hint,
            }
            .into()
        })
    }

    /// Every component of every texel, decoded.
    fn values(&self, layout: Layout) -> impl Iterator<Item = f64> + '_ {
        self.bytes
            .chunks_exact(self.texel_bytes())
            .flat_map(move |t| decode(layout, t).into_iter().take(layout.count))
    }

    /// Every component as `f32`: float formats as stored (`*16Float` widened exactly), unorm
    /// and snorm normalized to 0..=1 and -1..=1, packed floats (`Rg11b10Ufloat`,
    /// `Rgb9e5Ufloat`) decoded, depth as depth. `VGPU-TEXTURE-FORMAT` for integer and
    /// block-compressed formats.
    pub fn f32s(&self) -> Result<Vec<f32>> {
        let layout = self.layout_for(&[Class::Float], "read as f32s")?;
        Ok(self.values(layout).map(|v| v as f32).collect())
    }

    /// Every component of an unsigned-integer format (or stencil) widened to `u32`;
    /// `VGPU-TEXTURE-FORMAT` otherwise.
    pub fn u32s(&self) -> Result<Vec<u32>> {
        let layout = self.layout_for(&[Class::Uint], "read as u32s")?;
        Ok(self.values(layout).map(|v| v as u32).collect())
    }

    /// Every component of a signed-integer format widened to `i32`; `VGPU-TEXTURE-FORMAT`
    /// otherwise.
    pub fn i32s(&self) -> Result<Vec<i32>> {
        let layout = self.layout_for(&[Class::Sint], "read as i32s")?;
        Ok(self.values(layout).map(|v| v as i32).collect())
    }

    /// The raw half-float bits of a `*16Float` format; `VGPU-TEXTURE-FORMAT` otherwise.
    pub fn halfs(&self) -> Result<Vec<u16>> {
        let layout = self.layout_for(&[Class::Float], "read as half floats")?;
        if layout.scalar != Scalar::Float16 {
            return Err(TextureError::Format {
                label: self.label.clone(),
                format: self.format,
                usage: "read as half floats",
                hint: "only *16Float formats hold halfs: use f32s()".to_owned(),
            }
            .into());
        }
        Ok(self
            .bytes
            .chunks_exact(2)
            .map(|b| u16::from_le_bytes([b[0], b[1]]))
            .collect())
    }

    /// The components of the texel at (`x`, `y`) of layer (or 3D slice) `layer`, or `None`
    /// outside the data or for a block-compressed format.
    pub fn texel(&self, x: u32, y: u32, layer: u32) -> Option<Texel> {
        let layout = self.layout()?;
        let s = self.size;
        if x >= s.width || y >= s.height || layer >= s.depth_or_array_layers {
            return None;
        }
        let index = (u64::from(layer) * u64::from(s.height) + u64::from(y)) * u64::from(s.width)
            + u64::from(x);
        let size = self.texel_bytes();
        let start = usize::try_from(index).ok()?.checked_mul(size)?;
        let values = decode(layout, self.bytes.get(start..start + size)?);
        let values = values.into_iter().take(layout.count);
        Some(match layout.scalar.class() {
            Class::Float => Texel::Float(values.map(|v| v as f32).collect()),
            Class::Uint => Texel::Uint(values.map(|v| v as u32).collect()),
            Class::Sint => Texel::Sint(values.map(|v| v as i32).collect()),
        })
    }

    /// The texels as RGBA8, layers one under another (height × layers rows): float components
    /// clamped to 0..=1 and scaled, integer components clamped to 0..=255; missing components
    /// filled as WebGPU samples them (green and blue 0, alpha 1). `VGPU-TEXTURE-FORMAT` for
    /// block-compressed formats.
    pub fn to_rgba8(&self) -> Result<RgbaImage> {
        let layout = self.layout_for(
            &[Class::Float, Class::Uint, Class::Sint],
            "converted to RGBA8",
        )?;
        let float = layout.scalar.class() == Class::Float;
        let to8 = |v: f64| {
            if float {
                (v.clamp(0.0, 1.0) * 255.0).round() as u8
            } else {
                v.clamp(0.0, 255.0) as u8
            }
        };
        let mut data = Vec::with_capacity(self.bytes.len() / self.texel_bytes() * 4);
        for texel in self.bytes.chunks_exact(self.texel_bytes()) {
            let v = decode(layout, texel);
            let mut px = [0, 0, 0, 255];
            for (i, slot) in px.iter_mut().enumerate().take(layout.count) {
                *slot = to8(v[i]);
            }
            data.extend_from_slice(&px);
        }
        Ok(RgbaImage {
            width: self.size.width,
            height: self
                .size
                .height
                .saturating_mul(self.size.depth_or_array_layers),
            data,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::{Scalar, packed, small_float};

    #[test]
    fn packed_floats_decode_known_values() {
        // 1.0 in an 11-bit float: exponent 15, mantissa 0.
        assert_eq!(small_float(15 << 6, 6), 1.0);
        assert_eq!(small_float(14 << 5 | 16, 5), 0.75);
        let rg11b10 = (15 << 6) | ((14 << 6) << 11) | ((16 << 5) << 22);
        assert_eq!(
            packed(Scalar::Rg11b10Ufloat, &u32::to_le_bytes(rg11b10)),
            [1.0, 0.5, 2.0, 1.0]
        );
        let e5 = (1u32 << 8) | (15 + 1) << 27; // mantissa 256 · 2^(16-15-9) = 1.0
        assert_eq!(packed(Scalar::Rgb9e5Ufloat, &e5.to_le_bytes())[0], 1.0);
        let a2 = 1023 | (3 << 30);
        assert_eq!(
            packed(Scalar::Rgb10a2Unorm, &u32::to_le_bytes(a2)),
            [1.0, 0.0, 0.0, 1.0]
        );
    }
}
