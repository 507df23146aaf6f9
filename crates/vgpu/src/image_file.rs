//! Image files into textures (the `image` feature): [`Gpu::texture_from_image`],
//! [`Gpu::cube_from_images`], [`Gpu::array_from_images`], with [`ImageSource`] and
//! [`ImageOptions`].
//!
//! Files are decoded by the `image` crate (PNG, JPEG, Radiance HDR), with limits: the size a
//! header claims is checked against the device's `max_texture_dimension_2d` and against
//! [`ImageOptions::max_bytes`] before any buffer sized by it is allocated, and every refusal is
//! an [`ImageError`] (no panic).

use std::io::Cursor;
use std::path::{Path, PathBuf};

use image::{ColorType, DynamicImage, ImageDecoder, ImageFormat, ImageReader, Limits};

use crate::error::Result;
use crate::gpu::Gpu;
use crate::image_error::ImageError;
use crate::texture::{Texture, TextureDesc};
use vgpu_core::f32_to_f16_bits;

/// Where an image comes from: its bytes (the whole file) or a path to read.
///
/// `From` `&[u8]`, `&Vec<u8>`, `&[u8; N]` (bytes) and `&Path`, `&PathBuf` (a file).
#[derive(Clone, Copy, Debug)]
pub enum ImageSource<'a> {
    /// The bytes of a PNG, JPEG or HDR file.
    Bytes(&'a [u8]),
    /// A file to read (its format is found from its bytes, not its extension).
    Path(&'a Path),
}

impl<'a> From<&'a [u8]> for ImageSource<'a> {
    fn from(bytes: &'a [u8]) -> Self {
        ImageSource::Bytes(bytes)
    }
}

impl<'a> From<&'a Vec<u8>> for ImageSource<'a> {
    fn from(bytes: &'a Vec<u8>) -> Self {
        ImageSource::Bytes(bytes)
    }
}

impl<'a, const N: usize> From<&'a [u8; N]> for ImageSource<'a> {
    fn from(bytes: &'a [u8; N]) -> Self {
        ImageSource::Bytes(bytes)
    }
}

impl<'a> From<&'a Path> for ImageSource<'a> {
    fn from(path: &'a Path) -> Self {
        ImageSource::Path(path)
    }
}

impl<'a> From<&'a PathBuf> for ImageSource<'a> {
    fn from(path: &'a PathBuf) -> Self {
        ImageSource::Path(path)
    }
}

/// The texture format of HDR (Radiance `.hdr`) images.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum HdrFormat {
    /// `Rgba16Float`: half the memory, filterable everywhere; values rounded to the nearest
    /// half float (about 3 decimal digits; above 65504 becomes infinity).
    #[default]
    Rgba16Float,
    /// `Rgba32Float`: the decoded values exactly (filtering needs the `FLOAT32_FILTERABLE`
    /// feature).
    Rgba32Float,
}

/// How [`Gpu::texture_from_image`] (and cubes, arrays) make a texture of an image.
///
/// | image | texture format |
/// |---|---|
/// | 8-bit (gray, gray+alpha, RGB, RGBA; PNG, JPEG) | `Rgba8UnormSrgb` (`srgb`) or `Rgba8Unorm` |
/// | 16-bit PNG, `srgb: false` | `Rgba16Unorm` where the device has `TEXTURE_FORMAT_16BIT_NORM`, else `Rgba16Float` (value / 65535) |
/// | 16-bit PNG, `srgb: true` | `Rgba16Float`, color decoded from sRGB to linear on the CPU |
/// | HDR (Radiance) | `Rgba16Float` or `Rgba32Float` ([`hdr_format`](Self::hdr_format)), alpha 1 |
///
/// Gray images get `r = g = b`, images without alpha get alpha 1.
#[derive(Clone, Debug)]
pub struct ImageOptions {
    /// The texture's label (errors, wgpu messages); `None`: the path, or `"image"` for bytes.
    pub label: Option<String>,
    /// 8-bit and 16-bit images hold sRGB-encoded color (true of almost every photo and
    /// painted texture): sampling gives linear values. `false` for data (normal maps, masks,
    /// height maps): the stored values as they are. Default `true`. HDR images are linear
    /// whatever this says.
    pub srgb: bool,
    /// Make the full mip chain and fill it (`Texture::generate_mips`). Default `false`.
    pub mips: bool,
    /// The format of HDR images. Default [`HdrFormat::Rgba16Float`].
    pub hdr_format: HdrFormat,
    /// Extra usages beyond `TEXTURE_BINDING | COPY_DST | COPY_SRC`.
    pub usage: wgpu::TextureUsages,
    /// The most memory decoding one image may take (the decoded image and its texture data),
    /// checked from the header before decoding (`VGPU-IMAGE-MEMORY-LIMIT`). Default 512 MiB:
    /// an 8-bit RGBA image of 8192×8192 texels, or an HDR one of about 3800×3800.
    pub max_bytes: u64,
}

impl Default for ImageOptions {
    fn default() -> Self {
        ImageOptions {
            label: None,
            srgb: true,
            mips: false,
            hdr_format: HdrFormat::Rgba16Float,
            usage: wgpu::TextureUsages::empty(),
            max_bytes: 512 << 20,
        }
    }
}

/// One decoded image: its texels in the texture's format, tightly packed rows.
struct Decoded {
    width: u32,
    height: u32,
    format: wgpu::TextureFormat,
    bytes: Vec<u8>,
}

impl Decoded {
    fn describe(&self) -> String {
        format!("{}x{} {:?}", self.width, self.height, self.format)
    }
}

/// How the texture's layers are viewed.
#[derive(Clone, Copy)]
enum Layout {
    Single,
    Cube,
    Array,
}

const FACES: [&str; 6] = ["+X", "-X", "+Y", "-Y", "+Z", "-Z"];

impl Gpu {
    /// A 2D texture holding an image file (PNG, JPEG or Radiance HDR), from its bytes or a path;
    /// the format per [`ImageOptions`] (8-bit images: `Rgba8UnormSrgb` by default).
    ///
    /// Fails with `VGPU-IMAGE-IO` (a path that cannot be read), `VGPU-IMAGE-FORMAT` (not PNG,
    /// JPEG or HDR), `VGPU-IMAGE-TOO-LARGE` (a side over the device's
    /// `max_texture_dimension_2d`, found from the header before decoding),
    /// `VGPU-IMAGE-MEMORY-LIMIT` (over [`ImageOptions::max_bytes`]) and `VGPU-IMAGE-DECODE`
    /// (truncated or corrupt).
    ///
    /// ```
    /// # fn main() -> vgpu::Result<()> {
    /// let gpu = vgpu::Gpu::noop();
    /// // A 1x1 Radiance HDR file: one texel of (1, 1, 1), flat RGBE.
    /// let mut hdr = b"#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 1 +X 1\n".to_vec();
    /// hdr.extend_from_slice(&[128, 128, 128, 129]);
    /// let texture = gpu.texture_from_image(&hdr, &vgpu::ImageOptions::default())?;
    /// assert_eq!(texture.size(), (1, 1));
    /// assert_eq!(texture.format(), vgpu::wgpu::TextureFormat::Rgba16Float);
    ///
    /// let err = gpu.texture_from_image(&b"not an image"[..], &Default::default()).unwrap_err();
    /// assert_eq!(vgpu::ErrorCode::code(&err), "VGPU-IMAGE-FORMAT");
    /// # Ok(()) }
    /// ```
    pub fn texture_from_image<'a>(
        &self,
        source: impl Into<ImageSource<'a>>,
        options: &ImageOptions,
    ) -> Result<Texture> {
        self.ctx.check_device("Gpu::texture_from_image")?;
        let source = source.into();
        let label = image_label(source, options);
        let image = self.decode_image(source, &label, options)?;
        let texture = self.image_texture(&label, &image, 1, Layout::Single, options)?;
        self.write_image_layer(&texture, 0, &image)?;
        self.fill_mips(&texture, options)?;
        Ok(texture)
    }

    /// A cube texture (6 layers, viewed as `texture_cube`) of six images, the faces in wgpu's
    /// order +X, −X, +Y, −Y, +Z, −Z; each square, all of one size and decoded format
    /// (`VGPU-IMAGE-LAYERS` otherwise). Images are decoded one at a time.
    ///
    /// ```
    /// # fn main() -> vgpu::Result<()> {
    /// let gpu = vgpu::Gpu::noop();
    /// let mut hdr = b"#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 1 +X 1\n".to_vec();
    /// hdr.extend_from_slice(&[128, 128, 128, 129]);
    /// let faces: [&[u8]; 6] = [&hdr; 6];
    /// let cube = gpu.cube_from_images(faces, &vgpu::ImageOptions::default())?;
    /// assert_eq!(cube.raw().depth_or_array_layers(), 6);
    /// # Ok(()) }
    /// ```
    pub fn cube_from_images<'a, S: Into<ImageSource<'a>>>(
        &self,
        faces: [S; 6],
        options: &ImageOptions,
    ) -> Result<Texture> {
        self.layered_from_images(faces.into_iter().map(Into::into), Layout::Cube, options)
    }

    /// A 2D array texture (viewed as `texture_2d_array`) of images, one layer each in order,
    /// all of one size and decoded format (`VGPU-IMAGE-LAYERS` otherwise, and for no image).
    /// Images are decoded one at a time.
    pub fn array_from_images<'a, S: Into<ImageSource<'a>>>(
        &self,
        layers: impl IntoIterator<Item = S>,
        options: &ImageOptions,
    ) -> Result<Texture> {
        let sources: Vec<ImageSource<'a>> = layers.into_iter().map(Into::into).collect();
        self.layered_from_images(sources.into_iter(), Layout::Array, options)
    }

    fn layered_from_images<'a>(
        &self,
        sources: impl ExactSizeIterator<Item = ImageSource<'a>>,
        layout: Layout,
        options: &ImageOptions,
    ) -> Result<Texture> {
        let what = if matches!(layout, Layout::Cube) {
            "Gpu::cube_from_images"
        } else {
            "Gpu::array_from_images"
        };
        self.ctx.check_device(what)?;
        let count = sources.len();
        let label = options.label.clone().unwrap_or_else(|| {
            if matches!(layout, Layout::Cube) {
                "cube"
            } else {
                "image array"
            }
            .to_owned()
        });
        let layers = u32::try_from(count).unwrap_or(u32::MAX);
        let mut texture: Option<(Texture, String)> = None;
        for (index, source) in sources.enumerate() {
            let layer = match layout {
                Layout::Cube => format!("face {} (index {index})", FACES[index % 6]),
                _ => format!("layer {index}"),
            };
            let image_label = match source {
                ImageSource::Path(path) => format!("{label} {layer} ({})", path.display()),
                ImageSource::Bytes(_) => format!("{label} {layer}"),
            };
            let image = self.decode_image(source, &image_label, options)?;
            if matches!(layout, Layout::Cube) && image.width != image.height {
                return Err(layers_error(
                    &label,
                    layer,
                    "a square image",
                    image.describe(),
                ));
            }
            let (made, first) = match texture.take() {
                Some(made) => made,
                None => (
                    self.image_texture(&label, &image, layers, layout, options)?,
                    image.describe(),
                ),
            };
            if first != image.describe() {
                return Err(layers_error(&label, layer, first, image.describe()));
            }
            self.write_image_layer(&made, index as u32, &image)?;
            texture = Some((made, first));
        }
        let Some((texture, _)) = texture else {
            let expected = if matches!(layout, Layout::Cube) {
                "6 images"
            } else {
                "at least one image"
            };
            return Err(layers_error(
                &label,
                "layers".to_owned(),
                expected,
                "none".to_owned(),
            ));
        };
        self.fill_mips(&texture, options)?;
        Ok(texture)
    }

    /// Decodes one image with limits: its size from the header checked first.
    fn decode_image(
        &self,
        source: ImageSource<'_>,
        label: &str,
        options: &ImageOptions,
    ) -> std::result::Result<Decoded, ImageError> {
        let read;
        let bytes: &[u8] = match source {
            ImageSource::Bytes(bytes) => bytes,
            ImageSource::Path(path) => {
                read = std::fs::read(path).map_err(|e| ImageError::Io {
                    path: path.to_owned(),
                    reason: e.to_string(),
                })?;
                &read
            }
        };
        let mut reader = ImageReader::new(Cursor::new(bytes))
            .with_guessed_format()
            .map_err(|e| decode_error(label, &e))?;
        match reader.format() {
            Some(ImageFormat::Png | ImageFormat::Jpeg | ImageFormat::Hdr) => {}
            Some(other) => {
                return Err(ImageError::Format {
                    label: label.to_owned(),
                    reason: format!("a {other:?} image"),
                });
            }
            None => {
                return Err(ImageError::Format {
                    label: label.to_owned(),
                    reason: "no PNG, JPEG or HDR signature in its first bytes".to_owned(),
                });
            }
        }
        let mut limits = Limits::default();
        limits.max_alloc = Some(options.max_bytes);
        reader.limits(limits.clone());
        let mut decoder = reader
            .into_decoder()
            .map_err(|e| image_crate_error(label, e))?;
        let (width, height) = decoder.dimensions();
        let max = self.ctx.limits().max_texture_dimension_2d;
        if width == 0 || height == 0 || width > max || height > max {
            return Err(ImageError::TooLarge {
                label: label.to_owned(),
                size: (width, height),
                max,
            });
        }
        // The decoded image, then its texels widened to RGBA and in the texture's format.
        let texels = u64::from(width) * u64::from(height);
        let needed = decoder
            .total_bytes()
            .saturating_add(texels * conversion_bytes(decoder.color_type(), options));
        if needed > options.max_bytes {
            return Err(ImageError::MemoryLimit {
                label: label.to_owned(),
                size: (width, height),
                needed,
                limit: options.max_bytes,
            });
        }
        limits.max_image_width = Some(max);
        limits.max_image_height = Some(max);
        decoder
            .set_limits(limits)
            .map_err(|e| image_crate_error(label, e))?;
        let image = DynamicImage::from_decoder(decoder).map_err(|e| image_crate_error(label, e))?;
        let unorm16 = self
            .ctx
            .features()
            .contains(wgpu::Features::TEXTURE_FORMAT_16BIT_NORM);
        Ok(texels_of(image, options, unorm16))
    }

    /// The texture an image (or the first of several) goes into.
    fn image_texture(
        &self,
        label: &str,
        image: &Decoded,
        layers: u32,
        layout: Layout,
        options: &ImageOptions,
    ) -> Result<Texture> {
        let mip_level_count = if options.mips {
            32 - image.width.max(image.height).leading_zeros()
        } else {
            1
        };
        self.texture(&TextureDesc {
            label: label.to_owned(),
            width: image.width,
            height: image.height,
            format: image.format,
            usage: options.usage,
            depth_or_array_layers: layers,
            mip_level_count,
            view_dimension: match layout {
                Layout::Single => None,
                Layout::Cube => Some(wgpu::TextureViewDimension::Cube),
                Layout::Array => Some(wgpu::TextureViewDimension::D2Array),
            },
            ..Default::default()
        })
    }

    /// Writes mip 0 of one layer.
    fn write_image_layer(&self, texture: &Texture, layer: u32, image: &Decoded) -> Result<()> {
        texture.write_layer(self, layer, 0, &image.bytes)
    }

    /// Fills the mip chain from mip 0 when `options.mips`.
    fn fill_mips(&self, texture: &Texture, options: &ImageOptions) -> Result<()> {
        if options.mips && texture.raw().mip_level_count() > 1 {
            texture.generate_mips(self)?;
        }
        Ok(())
    }
}

fn image_label(source: ImageSource<'_>, options: &ImageOptions) -> String {
    match (&options.label, source) {
        (Some(label), _) => label.clone(),
        (None, ImageSource::Path(path)) => path.display().to_string(),
        (None, ImageSource::Bytes(_)) => "image".to_owned(),
    }
}

#[cold]
fn layers_error(
    label: &str,
    layer: String,
    expected: impl Into<String>,
    actual: String,
) -> crate::error::Error {
    ImageError::Layers {
        label: label.to_owned(),
        layer,
        expected: expected.into(),
        actual,
    }
    .into()
}

#[cold]
fn decode_error(label: &str, reason: &dyn std::fmt::Display) -> ImageError {
    ImageError::Decode {
        label: label.to_owned(),
        reason: reason.to_string(),
    }
}

#[cold]
fn image_crate_error(label: &str, e: image::ImageError) -> ImageError {
    match e {
        image::ImageError::Unsupported(e) => ImageError::Format {
            label: label.to_owned(),
            reason: e.to_string(),
        },
        image::ImageError::Limits(e) => decode_error(
            label,
            &format_args!("over the decoder's limits (ImageOptions::max_bytes): {e}"),
        ),
        other => decode_error(label, &other),
    }
}

/// Bytes per texel that [`texels_of`] allocates for an image of `color` (its RGBA widening and
/// the texture's bytes).
fn conversion_bytes(color: ColorType, options: &ImageOptions) -> u64 {
    match color {
        ColorType::Rgb32F | ColorType::Rgba32F => match options.hdr_format {
            HdrFormat::Rgba16Float => 16 + 8,
            HdrFormat::Rgba32Float => 16 + 16,
        },
        ColorType::L16 | ColorType::La16 | ColorType::Rgb16 | ColorType::Rgba16 => 8 + 8,
        _ => 4,
    }
}

/// The texels of a decoded image in the texture's format (see [`ImageOptions`]).
fn texels_of(image: DynamicImage, options: &ImageOptions, unorm16: bool) -> Decoded {
    let (width, height) = (image.width(), image.height());
    let (format, bytes) = match image.color() {
        ColorType::Rgb32F | ColorType::Rgba32F => {
            let texels = image.into_rgba32f().into_raw();
            match options.hdr_format {
                HdrFormat::Rgba32Float => (
                    wgpu::TextureFormat::Rgba32Float,
                    texels.iter().flat_map(|v| v.to_le_bytes()).collect(),
                ),
                HdrFormat::Rgba16Float => (
                    wgpu::TextureFormat::Rgba16Float,
                    texels
                        .iter()
                        .flat_map(|&v| f32_to_f16_bits(v).to_le_bytes())
                        .collect(),
                ),
            }
        }
        ColorType::L16 | ColorType::La16 | ColorType::Rgb16 | ColorType::Rgba16 => {
            let texels = image.into_rgba16().into_raw();
            if unorm16 && !options.srgb {
                let bytes = texels.iter().flat_map(|v| v.to_le_bytes()).collect();
                (wgpu::TextureFormat::Rgba16Unorm, bytes)
            } else {
                let bytes = texels
                    .iter()
                    .enumerate()
                    .flat_map(|(i, &v)| {
                        let v = f32::from(v) / 65535.0;
                        let color = i % 4 != 3;
                        let v = if options.srgb && color {
                            srgb_to_linear(v)
                        } else {
                            v
                        };
                        f32_to_f16_bits(v).to_le_bytes()
                    })
                    .collect();
                (wgpu::TextureFormat::Rgba16Float, bytes)
            }
        }
        _ => {
            let format = if options.srgb {
                wgpu::TextureFormat::Rgba8UnormSrgb
            } else {
                wgpu::TextureFormat::Rgba8Unorm
            };
            (format, image.into_rgba8().into_raw())
        }
    };
    Decoded {
        width,
        height,
        format,
        bytes,
    }
}

/// The sRGB transfer function's inverse (IEC 61966-2-1), `c` in 0..=1.
fn srgb_to_linear(c: f32) -> f32 {
    if c <= 0.040_45 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}
