//! [`TextureView`]: a view of a [`Texture`] (a dimension, a mip range, a layer range, an aspect,
//! a format), checked before wgpu sees it, that binds like a texture.

use std::sync::Arc;

use crate::error::Result;
use crate::state::{TextureRecord, ViewShape};
use crate::texture::Texture;
use crate::texture_error::TextureError;

/// Describes a [`TextureView`]. `Default`: the whole texture, in the dimension wgpu resolves
/// for it (`D2Array` for a 2D texture of several layers; use [`Texture::cube_view`] for a cube).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ViewDesc {
    /// `texture_2d`, `texture_2d_array`, `texture_cube`, …: `None` resolves it from the
    /// texture (1D, 2D of one layer, 2D array, 3D).
    pub dimension: Option<wgpu::TextureViewDimension>,
    /// The first mip level of the view.
    pub base_mip: u32,
    /// How many mip levels (`None`: to the last).
    pub mip_count: Option<u32>,
    /// The first array layer of the view.
    pub base_layer: u32,
    /// How many layers (`None`: 1 for 1D/2D/3D views, 6 for a cube, the rest for arrays).
    pub layer_count: Option<u32>,
    /// Which aspect (`DepthOnly` to sample a depth-stencil texture's depth).
    pub aspect: wgpu::TextureAspect,
    /// A format among the texture's `view_formats` (`None`: the texture's).
    pub format: Option<wgpu::TextureFormat>,
    /// Label for wgpu messages (`None`: the texture's).
    pub label: Option<String>,
}

/// A view of a [`Texture`]: binds like a texture (`draw.set("sky", &view)`), keeps the texture
/// alive, and can be a render target's color (`gpu.target_for_view("mip 1", view.raw(), None)`,
/// for a texture with `RENDER_ATTACHMENT`). Cheap to clone.
///
/// ```
/// # fn main() -> vgpu::Result<()> {
/// let gpu = vgpu::Gpu::noop();
/// let sky = gpu.texture(&vgpu::TextureDesc::cube(64, vgpu::wgpu::TextureFormat::Rgba8Unorm))?;
/// let face = sky.layer_view(2)?; // +Y as a texture_2d
/// assert_eq!(face.dimension(), vgpu::wgpu::TextureViewDimension::D2);
/// assert!(sky.layer_view(6).is_err()); // VGPU-TEXTURE-VIEW: no layer 6
/// # Ok(()) }
/// ```
#[derive(Clone, Debug)]
pub struct TextureView {
    pub(crate) record: Arc<TextureRecord>,
    pub(crate) view: wgpu::TextureView,
    pub(crate) shape: ViewShape,
    pub(crate) format: wgpu::TextureFormat,
    desc: ViewDesc,
}

impl TextureView {
    /// The raw view.
    pub fn raw(&self) -> &wgpu::TextureView {
        &self.view
    }
    /// The texture it views.
    pub fn texture(&self) -> Texture {
        Texture {
            inner: self.record.clone(),
        }
    }
    /// What it was made from.
    pub fn desc(&self) -> &ViewDesc {
        &self.desc
    }
    /// Its resolved dimension.
    pub fn dimension(&self) -> wgpu::TextureViewDimension {
        self.shape.dimension
    }
    /// Its format (the aspect's for a depth-stencil aspect view).
    pub fn format(&self) -> wgpu::TextureFormat {
        self.format
    }
    /// Its mip range.
    pub fn mips(&self) -> std::ops::Range<u32> {
        self.shape.base_mip..self.shape.base_mip + self.shape.mip_count
    }
    /// Its layer range.
    pub fn layers(&self) -> std::ops::Range<u32> {
        self.shape.base_layer..self.shape.base_layer + self.shape.layer_count
    }
    /// `(width, height)` of its first mip.
    pub fn size(&self) -> (u32, u32) {
        let t = &self.record.texture;
        let e = t.size().mip_level_size(self.shape.base_mip, t.dimension());
        (e.width, e.height)
    }
}

impl TextureView {
    /// A render target over this view: one mip of one layer of a texture with
    /// `RENDER_ATTACHMENT` usage (a mip chain has it; add it with `TextureDesc::usage`
    /// otherwise), sized as that mip. Passes into it draw into that layer and mip only
    /// (`VGPU-TEXTURE-VIEW` for a view of several mips or layers).
    pub fn target(&self, gpu: &crate::Gpu) -> Result<crate::Target> {
        let s = &self.shape;
        if s.mip_count != 1 || s.layer_count != 1 || s.dimension != wgpu::TextureViewDimension::D2 {
            return Err(TextureError::View {
                label: self.record.label.clone(),
                problem: format!(
                    "{} mip(s) and {} layer(s) ({:?}) as a render target",
                    s.mip_count, s.layer_count, s.dimension
                ),
                expected: "a 2D view of one mip and one layer: texture.view_with(&ViewDesc { dimension: Some(D2), base_mip, mip_count: Some(1), base_layer, layer_count: Some(1), .. })".to_owned(),
            }
            .into());
        }
        let label = self.desc.label.as_deref().unwrap_or(&self.record.label);
        gpu.target_over_views(label, &self.view, None, self.size())
    }
}

impl Texture {
    /// A view per `desc`. Fails with `VGPU-TEXTURE-VIEW` (changing nothing) for a mip or layer
    /// range past the texture's, a dimension the texture cannot have (a cube of a layer count
    /// that is not 6, of non-square faces, a 3D view of a 2D texture, a non-2D view of a
    /// multisampled texture, a cube array where the adapter has none), an aspect the format
    /// lacks, or a format outside the texture's `view_formats`.
    pub fn view_with(&self, desc: &ViewDesc) -> Result<TextureView> {
        let (shape, format) =
            resolve(self, desc).map_err(|(problem, expected)| TextureError::View {
                label: self.inner.label.clone(),
                problem,
                expected,
            })?;
        let view = self
            .inner
            .texture
            .create_view(&wgpu::TextureViewDescriptor {
                label: Some(desc.label.as_deref().unwrap_or(&self.inner.label)),
                format: desc.format,
                dimension: Some(shape.dimension),
                usage: None,
                aspect: desc.aspect,
                base_mip_level: shape.base_mip,
                mip_level_count: Some(shape.mip_count),
                base_array_layer: shape.base_layer,
                array_layer_count: Some(shape.layer_count),
            });
        Ok(TextureView {
            record: self.inner.clone(),
            view,
            shape,
            format,
            desc: desc.clone(),
        })
    }
    /// The 6 layers from 0 as a `texture_cube` (a 6·n-layer texture of square faces).
    pub fn cube_view(&self) -> Result<TextureView> {
        self.view_with(&ViewDesc {
            dimension: Some(wgpu::TextureViewDimension::Cube),
            ..ViewDesc::default()
        })
    }
    /// Layer `layer` (of an array or a cube) as a `texture_2d`, all mips.
    pub fn layer_view(&self, layer: u32) -> Result<TextureView> {
        self.view_with(&ViewDesc {
            dimension: Some(wgpu::TextureViewDimension::D2),
            base_layer: layer,
            layer_count: Some(1),
            ..ViewDesc::default()
        })
    }
    /// Mip `level` alone, in the default view's dimension (a cube's mip stays a cube).
    pub fn mip_view(&self, level: u32) -> Result<TextureView> {
        self.view_with(&ViewDesc {
            dimension: Some(self.inner.kind.view_dimension),
            base_mip: level,
            mip_count: Some(1),
            ..ViewDesc::default()
        })
    }
    /// Every layer as a `texture_2d_array` (a cube's faces as 6 layers, too).
    pub fn array_view(&self) -> Result<TextureView> {
        self.view_with(&ViewDesc {
            dimension: Some(wgpu::TextureViewDimension::D2Array),
            ..ViewDesc::default()
        })
    }
}

type Refusal = (String, String);

/// The shape and format of the view `desc` of `t`, or what is wrong and what would do.
fn resolve(
    t: &Texture,
    desc: &ViewDesc,
) -> std::result::Result<(ViewShape, wgpu::TextureFormat), Refusal> {
    use wgpu::TextureViewDimension as V;
    let raw = &t.inner.texture;
    let (mips, layers) = (raw.mip_level_count(), raw.depth_or_array_layers());
    let dimension = desc.dimension.unwrap_or(match raw.dimension() {
        wgpu::TextureDimension::D1 => V::D1,
        wgpu::TextureDimension::D2 if layers > 1 => V::D2Array,
        wgpu::TextureDimension::D2 => V::D2,
        wgpu::TextureDimension::D3 => V::D3,
    });
    if dimension.compatible_texture_dimension() != raw.dimension() {
        return Err((
            format!("a {dimension:?} view of a {:?} texture", raw.dimension()),
            format!("a view dimension of a {:?} texture", raw.dimension()),
        ));
    }
    if raw.sample_count() > 1 && dimension != V::D2 {
        return Err((
            format!("a {dimension:?} view of a multisampled texture"),
            "a D2 view (texture_multisampled_2d)".to_owned(),
        ));
    }
    if desc.base_mip >= mips || desc.mip_count == Some(0) {
        return Err((
            format!("mip {} (count {:?})", desc.base_mip, desc.mip_count),
            format!("mips 0..{mips} (the texture has {mips}), a count of at least 1"),
        ));
    }
    let mip_count = desc.mip_count.unwrap_or(mips - desc.base_mip);
    if desc.base_mip.saturating_add(mip_count) > mips {
        return Err((
            format!(
                "mips {}..{}",
                desc.base_mip,
                desc.base_mip.saturating_add(mip_count)
            ),
            format!("mips within 0..{mips} (the texture has {mips})"),
        ));
    }
    let view_layers = if raw.dimension() == wgpu::TextureDimension::D3 {
        1
    } else {
        layers
    };
    let layer_count = desc.layer_count.unwrap_or(match dimension {
        V::Cube => 6,
        V::D2Array | V::CubeArray => view_layers.saturating_sub(desc.base_layer),
        _ => 1,
    });
    let end = desc.base_layer.saturating_add(layer_count);
    if layer_count == 0 || end > view_layers {
        return Err((
            format!("layers {}..{end}", desc.base_layer),
            format!("layers within 0..{view_layers} (the texture has {view_layers})"),
        ));
    }
    check_layers(t, dimension, layer_count)?;
    let format = check_format(t, desc)?;
    let shape = ViewShape {
        dimension,
        base_mip: desc.base_mip,
        mip_count,
        base_layer: desc.base_layer,
        layer_count,
    };
    Ok((shape, format))
}

/// The layer count a view of `dimension` needs; square faces for cubes.
fn check_layers(
    t: &Texture,
    dimension: wgpu::TextureViewDimension,
    n: u32,
) -> std::result::Result<(), Refusal> {
    use wgpu::TextureViewDimension as V;
    let (w, h) = t.size();
    match dimension {
        V::D1 | V::D2 | V::D3 if n != 1 => Err((
            format!("a {dimension:?} view of {n} layers"),
            "one layer (a D2Array view for several)".to_owned(),
        )),
        V::Cube | V::CubeArray if w != h => Err((
            format!("a {dimension:?} view of {w}x{h} faces"),
            "square faces".to_owned(),
        )),
        V::Cube if n != 6 => Err((
            format!("a cube view of {n} layers"),
            "6 layers (+X, -X, +Y, -Y, +Z, -Z)".to_owned(),
        )),
        V::CubeArray if !n.is_multiple_of(6) => Err((
            format!("a cube array view of {n} layers"),
            "a multiple of 6 layers".to_owned(),
        )),
        V::CubeArray if !t.inner.kind.cube_arrays => Err((
            "a cube array view, which this adapter cannot bind".to_owned(),
            "cube views one at a time, or a D2Array view (DownlevelFlags::CUBE_ARRAY_TEXTURES is missing)".to_owned(),
        )),
        _ => Ok(()),
    }
}

/// The view's format: the texture's, a listed view format, or an aspect's.
fn check_format(t: &Texture, desc: &ViewDesc) -> std::result::Result<wgpu::TextureFormat, Refusal> {
    let own = t.format();
    let aspect_format = own.aspect_specific_format(desc.aspect);
    if desc.aspect != wgpu::TextureAspect::All && aspect_format.is_none() {
        return Err((
            format!("aspect {:?} of a {own:?} texture", desc.aspect),
            "an aspect the format has (DepthOnly / StencilOnly for depth-stencil formats)"
                .to_owned(),
        ));
    }
    let resolved = aspect_format.unwrap_or(own);
    match desc.format {
        None => Ok(resolved),
        Some(f) if f == resolved => Ok(f),
        Some(f)
            if desc.aspect == wgpu::TextureAspect::All
                && t.inner.kind.view_formats.contains(&f) =>
        {
            Ok(f)
        }
        Some(f) => Err((
            format!("format {f:?}"),
            format!(
                "{resolved:?} or one of the texture's view_formats {:?} (TextureDesc::view_format)",
                t.inner.kind.view_formats
            ),
        )),
    }
}
