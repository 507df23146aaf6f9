//! [`Texture`]: 1D, 2D (arrays, cubes, cube arrays, multisampled) and 3D textures with mip
//! levels, created zeroed or with data; [`TextureDesc`], checked before wgpu sees it.

use std::sync::Arc;

use crate::error::Result;
use crate::gpu::Gpu;
use crate::state::TextureKind;
use crate::state::TextureRecord;
use crate::texture_error::TextureError;

mod desc;

pub use desc::TextureDesc;

/// A texture (1D, 2D, array, cube, 3D, multisampled) and its default view. Cheap to clone (an
/// `Arc`).
#[derive(Clone, Debug)]
pub struct Texture {
    pub(crate) inner: Arc<TextureRecord>,
}

impl Gpu {
    /// A texture per `desc`, zero-initialized. `desc` is checked first (`VGPU-TEXTURE-DESC`:
    /// zero or too large a size for its dimension, a cube that is not 6·n square layers, too
    /// many mips, a sample count other than 1 or 4 or one the format cannot do, a view format
    /// that is not the format's sRGB twin).
    pub fn texture(&self, desc: &TextureDesc) -> Result<Texture> {
        self.ctx.check_device("Gpu::texture")?;
        let usage = self.check_texture_desc(desc)?;
        let raw_desc = wgpu::TextureDescriptor {
            label: Some(&desc.label),
            size: desc.extent(),
            mip_level_count: desc.mip_level_count,
            sample_count: desc.sample_count,
            dimension: desc.dimension,
            format: desc.format,
            usage,
            view_formats: &desc.view_formats,
        };
        let texture = self.ctx.create_texture(&raw_desc)?;
        let gl_binds_as = (self.adapter_info().backend == wgpu::Backend::Gl)
            .then(|| TextureKind::gl_target(&raw_desc));
        let view_dimension = desc.default_view_dimension();
        let view = texture.create_view(&wgpu::TextureViewDescriptor {
            dimension: Some(view_dimension),
            ..Default::default()
        });
        Ok(Texture {
            inner: Arc::new(TextureRecord {
                texture,
                view,
                label: desc.label.clone(),
                gpu: self.id(),
                kind: TextureKind {
                    view_dimension,
                    view_formats: desc.view_formats.clone(),
                    cube_arrays: self.cube_arrays(),
                    gl_binds_as,
                },
            }),
        })
    }

    /// Whether this adapter binds cube arrays.
    fn cube_arrays(&self) -> bool {
        self.ctx
            .adapter()
            .get_downlevel_capabilities()
            .flags
            .contains(wgpu::DownlevelFlags::CUBE_ARRAY_TEXTURES)
    }

    /// Checks `desc` against its kind and the device; the usages to create it with.
    fn check_texture_desc(&self, desc: &TextureDesc) -> Result<wgpu::TextureUsages> {
        let fail = |problem: String, expected: String| -> crate::error::Error {
            TextureError::Desc {
                label: desc.label.clone(),
                problem,
                expected,
            }
            .into()
        };
        self.check_texture_extent(desc)
            .map_err(|(p, e)| fail(p, e))?;
        let features = self.ctx.format_features(desc.format);
        let usage = texture_usage(desc, features.allowed_usages);
        self.check_texture_samples(desc, usage, features.flags)
            .map_err(|(p, e)| fail(p, e))?;
        let view_formats = self.ctx.is_noop()
            || self
                .ctx
                .adapter()
                .get_downlevel_capabilities()
                .flags
                .contains(wgpu::DownlevelFlags::VIEW_FORMATS);
        check_view_kind(desc, self.cube_arrays(), view_formats).map_err(|(p, e)| fail(p, e))?;
        Ok(usage)
    }

    /// Sizes against the dimension and the device limits; the mip count.
    fn check_texture_extent(
        &self,
        desc: &TextureDesc,
    ) -> std::result::Result<(), (String, String)> {
        let limits = self.ctx.limits();
        let (w, h, d) = (desc.width, desc.height, desc.depth_or_array_layers);
        let (max, third, third_name) = match desc.dimension {
            wgpu::TextureDimension::D1 => (limits.max_texture_dimension_1d, 1, "layers"),
            wgpu::TextureDimension::D2 => (
                limits.max_texture_dimension_2d,
                limits.max_texture_array_layers,
                "layers",
            ),
            wgpu::TextureDimension::D3 => (
                limits.max_texture_dimension_3d,
                limits.max_texture_dimension_3d,
                "depth",
            ),
        };
        let dim = desc.dimension;
        if w == 0 || h == 0 || d == 0 {
            return Err((
                format!("a size of {w}x{h} with {d} {third_name}"),
                "every size at least 1".to_owned(),
            ));
        }
        if dim == wgpu::TextureDimension::D1 && (h != 1 || d != 1) {
            return Err((
                format!("a 1D texture of height {h} and {d} layers"),
                "height 1 and one layer for a 1D texture (use a 2D texture or an array)".to_owned(),
            ));
        }
        if w > max || h > max || d > third {
            return Err((
                format!("a {dim:?} size of {w}x{h} with {d} {third_name}"),
                format!("sides at most {max} and at most {third} {third_name} on this device"),
            ));
        }
        let max_mips = desc.extent().max_mips(dim);
        if desc.mip_level_count == 0 || desc.mip_level_count > max_mips {
            return Err((
                format!("{} mip levels for {w}x{h}", desc.mip_level_count),
                format!("1 to {max_mips} mip levels (floor(log2(largest side)) + 1)"),
            ));
        }
        Ok(())
    }

    /// The sample count: 1, or 4 for a one-layer, one-mip 2D texture of a format that can.
    fn check_texture_samples(
        &self,
        desc: &TextureDesc,
        usage: wgpu::TextureUsages,
        flags: wgpu::TextureFormatFeatureFlags,
    ) -> std::result::Result<(), (String, String)> {
        let n = desc.sample_count;
        if n == 1 {
            return Ok(());
        }
        if n != 4 {
            return Err((format!("{n} samples"), "1 or 4 samples".to_owned()));
        }
        let simple = desc.dimension == wgpu::TextureDimension::D2
            && desc.depth_or_array_layers == 1
            && desc.mip_level_count == 1;
        if !simple {
            return Err((
                format!(
                    "4 samples on a {:?} texture of {} layers and {} mips",
                    desc.dimension, desc.depth_or_array_layers, desc.mip_level_count
                ),
                "a multisampled texture to be 2D with one layer and one mip".to_owned(),
            ));
        }
        if usage.contains(wgpu::TextureUsages::STORAGE_BINDING) {
            return Err((
                "4 samples with STORAGE_BINDING usage".to_owned(),
                "no storage usage on a multisampled texture".to_owned(),
            ));
        }
        if self.adapter_info().backend == wgpu::Backend::Gl {
            // wgpu's GL backend stores a sampled multisampled texture as a plain TEXTURE_2D,
            // which GL refuses multisampled storage for: nothing would render into it.
            return Err((
                "a multisampled texture on the GL backend, which cannot sample one".to_owned(),
                "one sample here; render with MSAA into a target (TargetDesc's sample count) and bind its resolved color".to_owned(),
            ));
        }
        if !flags.sample_count_supported(4) {
            return Err((
                format!(
                    "4 samples of {:?}, which this adapter cannot multisample",
                    desc.format
                ),
                format!(
                    "a format this adapter multisamples (Rgba8Unorm, Bgra8Unorm, Rgba16Float, …); {:?} supports {:?}",
                    desc.format,
                    flags.supported_sample_counts()
                ),
            ));
        }
        Ok(())
    }
}

/// The usages a texture per `desc` is created with.
fn texture_usage(desc: &TextureDesc, allowed: wgpu::TextureUsages) -> wgpu::TextureUsages {
    use wgpu::TextureUsages as U;
    if desc.sample_count > 1 {
        // A multisampled texture is rendered into and loaded, never copied.
        return (U::TEXTURE_BINDING | U::RENDER_ATTACHMENT | desc.usage)
            - U::COPY_SRC
            - U::COPY_DST;
    }
    let mut usage = U::TEXTURE_BINDING | U::COPY_DST | U::COPY_SRC | desc.usage;
    if desc.mip_level_count > 1 && desc.dimension != wgpu::TextureDimension::D3 {
        // So that its mips can be generated (by rendering, or by a compute writing storage:
        // asking for STORAGE_BINDING picks the compute path, see `mips`).
        if allowed.contains(U::RENDER_ATTACHMENT) && !desc.usage.contains(U::STORAGE_BINDING) {
            usage |= U::RENDER_ATTACHMENT;
        } else if allowed.contains(U::STORAGE_BINDING) {
            usage |= U::STORAGE_BINDING;
        }
    }
    usage
}

/// The default view's dimension against the texture, and the view formats.
fn check_view_kind(
    desc: &TextureDesc,
    cube_arrays: bool,
    view_formats: bool,
) -> std::result::Result<(), (String, String)> {
    use wgpu::TextureViewDimension as V;
    let view = desc.default_view_dimension();
    let layers = desc.depth_or_array_layers;
    if view.compatible_texture_dimension() != desc.dimension {
        return Err((
            format!("a {view:?} default view of a {:?} texture", desc.dimension),
            format!("a view dimension of a {:?} texture", desc.dimension),
        ));
    }
    if desc.sample_count > 1 && view != V::D2 {
        return Err((
            format!("a {view:?} default view of a multisampled texture"),
            "a D2 view (texture_multisampled_2d)".to_owned(),
        ));
    }
    if matches!(view, V::Cube | V::CubeArray) {
        if desc.width != desc.height
            || !layers.is_multiple_of(6)
            || (view == V::Cube && layers != 6)
        {
            return Err((
                format!(
                    "a {view:?} of {}x{} faces and {layers} layers",
                    desc.width, desc.height
                ),
                "square faces and 6 layers (a cube) or a multiple of 6 (a cube array)".to_owned(),
            ));
        }
        if view == V::CubeArray && !cube_arrays {
            return Err((
                "a cube array, which this adapter cannot bind".to_owned(),
                "a cube (6 layers) or a 2D array; cube arrays need DownlevelFlags::CUBE_ARRAY_TEXTURES".to_owned(),
            ));
        }
    }
    if !desc.view_formats.is_empty() && !view_formats {
        return Err((
            format!("view formats {:?}", desc.view_formats),
            "no view formats on this adapter (it lacks DownlevelFlags::VIEW_FORMATS, e.g. GL): \
             create the texture in the format it is viewed in"
                .to_owned(),
        ));
    }
    for &f in &desc.view_formats {
        let twin = f != desc.format
            && (f == desc.format.add_srgb_suffix() || f == desc.format.remove_srgb_suffix());
        if f != desc.format && !twin {
            return Err((
                format!("view format {f:?} for a {:?} texture", desc.format),
                format!(
                    "only the format's sRGB or linear twin ({:?} / {:?})",
                    desc.format.remove_srgb_suffix(),
                    desc.format.add_srgb_suffix()
                ),
            ));
        }
    }
    Ok(())
}

impl Texture {
    /// The label.
    pub fn label(&self) -> &str {
        &self.inner.label
    }
    /// `(width, height)` of mip 0.
    pub fn size(&self) -> (u32, u32) {
        (self.inner.texture.width(), self.inner.texture.height())
    }
    /// Width, height and layers (or depth, for 3D) of mip 0.
    pub fn size_3d(&self) -> wgpu::Extent3d {
        self.inner.texture.size()
    }
    /// The size of mip `level` (layers unchanged; depth halved for 3D); `None` past the last
    /// mip.
    pub fn mip_size(&self, level: u32) -> Option<wgpu::Extent3d> {
        let t = &self.inner.texture;
        (level < t.mip_level_count()).then(|| t.size().mip_level_size(level, t.dimension()))
    }
    /// 1D, 2D or 3D.
    pub fn dimension(&self) -> wgpu::TextureDimension {
        self.inner.texture.dimension()
    }
    /// Array layers (2D; 6 for a cube), or the depth of a 3D texture.
    pub fn layers(&self) -> u32 {
        self.inner.texture.depth_or_array_layers()
    }
    /// Mip levels (1 = none).
    pub fn mip_level_count(&self) -> u32 {
        self.inner.texture.mip_level_count()
    }
    /// Samples per texel (1, or 4 when multisampled).
    pub fn sample_count(&self) -> u32 {
        self.inner.texture.sample_count()
    }
    /// The dimension of the default view (what binding the texture binds as).
    pub fn view_dimension(&self) -> wgpu::TextureViewDimension {
        self.inner.kind.view_dimension
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
}
