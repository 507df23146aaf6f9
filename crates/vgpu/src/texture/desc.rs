//! [`TextureDesc`]: what a texture is (dimension, size, layers, mips, samples, view dimension,
//! view formats), with constructors for each kind and builder methods.

/// Describes a [`Texture`](crate::Texture). `Default`: 1×1 `Rgba8Unorm`, 2D, one layer, one
/// mip, one sample.
///
/// Built with a constructor and builder methods:
///
/// ```
/// use vgpu::{TextureDesc, wgpu::TextureFormat};
/// let sky = TextureDesc::cube(64, TextureFormat::Rgba8UnormSrgb).label("sky").full_mips();
/// assert_eq!((sky.depth_or_array_layers, sky.mip_level_count), (6, 7));
/// let volume = TextureDesc::d3(16, 16, 8, TextureFormat::R8Unorm);
/// assert_eq!(volume.dimension, vgpu::wgpu::TextureDimension::D3);
/// ```
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
    /// Extra usages beyond `TEXTURE_BINDING | COPY_DST | COPY_SRC` (e.g. `STORAGE_BINDING`). A
    /// multisampled texture gets `TEXTURE_BINDING | RENDER_ATTACHMENT` instead (it cannot be
    /// copied); a mip chain also gets `RENDER_ATTACHMENT` where the format is renderable (so
    /// mips can be generated).
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

impl TextureDesc {
    /// A `width`×`height` 2D texture of `format`, one layer, one mip.
    pub fn new(width: u32, height: u32, format: wgpu::TextureFormat) -> Self {
        TextureDesc {
            width,
            height,
            format,
            ..TextureDesc::default()
        }
    }
    /// A cube map of `size`×`size` faces: 6 layers (+X, −X, +Y, −Y, +Z, −Z), bound as
    /// `texture_cube`.
    pub fn cube(size: u32, format: wgpu::TextureFormat) -> Self {
        TextureDesc {
            depth_or_array_layers: 6,
            view_dimension: Some(wgpu::TextureViewDimension::Cube),
            ..TextureDesc::new(size, size, format)
        }
    }
    /// A 2D array of `layers` layers, bound as `texture_2d_array` (even with one layer).
    pub fn array(width: u32, height: u32, layers: u32, format: wgpu::TextureFormat) -> Self {
        TextureDesc {
            depth_or_array_layers: layers,
            view_dimension: Some(wgpu::TextureViewDimension::D2Array),
            ..TextureDesc::new(width, height, format)
        }
    }
    /// A 3D texture of `depth` slices, bound as `texture_3d`.
    pub fn d3(width: u32, height: u32, depth: u32, format: wgpu::TextureFormat) -> Self {
        TextureDesc {
            dimension: wgpu::TextureDimension::D3,
            depth_or_array_layers: depth,
            ..TextureDesc::new(width, height, format)
        }
    }
    /// A 1D texture of `width` texels, bound as `texture_1d` (one mip, one layer).
    pub fn d1(width: u32, format: wgpu::TextureFormat) -> Self {
        TextureDesc {
            dimension: wgpu::TextureDimension::D1,
            ..TextureDesc::new(width, 1, format)
        }
    }
    /// `n` mip levels (checked at creation: at most `floor(log2(max side)) + 1`).
    #[must_use]
    pub fn mips(mut self, n: u32) -> Self {
        self.mip_level_count = n;
        self
    }
    /// The full mip chain of the size set so far, down to 1×1.
    #[must_use]
    pub fn full_mips(mut self) -> Self {
        self.mip_level_count = self.extent().max_mips(self.dimension);
        self
    }
    /// `n` samples per texel (1 or 4; 4 makes a `texture_multisampled_2d`).
    #[must_use]
    pub fn samples(mut self, n: u32) -> Self {
        self.sample_count = n;
        self
    }
    /// Adds `usage` (e.g. `STORAGE_BINDING`) to the defaults.
    #[must_use]
    pub fn usage(mut self, usage: wgpu::TextureUsages) -> Self {
        self.usage |= usage;
        self
    }
    /// The label used in errors and wgpu messages.
    #[must_use]
    pub fn label(mut self, label: impl Into<String>) -> Self {
        self.label = label.into();
        self
    }
    /// Lets views of the texture take `format` too (the sRGB or linear twin of the format).
    #[must_use]
    pub fn view_format(mut self, format: wgpu::TextureFormat) -> Self {
        self.view_formats.push(format);
        self
    }

    pub(super) fn extent(&self) -> wgpu::Extent3d {
        wgpu::Extent3d {
            width: self.width,
            height: self.height,
            depth_or_array_layers: self.depth_or_array_layers,
        }
    }

    /// The dimension of the default view: `view_dimension`, or the texture's own.
    pub(super) fn default_view_dimension(&self) -> wgpu::TextureViewDimension {
        self.view_dimension.unwrap_or(match self.dimension {
            wgpu::TextureDimension::D1 => wgpu::TextureViewDimension::D1,
            wgpu::TextureDimension::D2 if self.depth_or_array_layers > 1 => {
                wgpu::TextureViewDimension::D2Array
            }
            wgpu::TextureDimension::D2 => wgpu::TextureViewDimension::D2,
            wgpu::TextureDimension::D3 => wgpu::TextureViewDimension::D3,
        })
    }
}
