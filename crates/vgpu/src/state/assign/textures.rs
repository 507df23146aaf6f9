//! Texture views and samplers: format, sample type, multisampling and usage checked against the
//! binding at `set`; samplers checked for comparison and filtering.

use vgpu_core::BindingKind;

use super::{Assigned, resource_content};
use crate::descriptors::SamplerDesc;
use crate::error::{BindingError, Result};
use crate::state::State;
use crate::state::ViewShape;
use crate::state::binding_input::{SamplerInput, ViewInput, ViewOwner};
use crate::state::operation::BindingContent;
use crate::state::resources::HeldResource;

impl State {
    /// A texture view for binding `t`; `None` when the binding already holds it.
    pub(super) fn assign_view(
        &mut self,
        t: &Assigned<'_>,
        input: &ViewInput<'_>,
    ) -> Result<Option<BindingContent>> {
        let shape = known_shape(&input.owner);
        let view = || describe_view(input, shape.as_ref());
        if let Some((shape, _, gl)) = &shape {
            check_shape(t, shape, &view)?;
            if let Some(gl) = gl {
                check_gl_shape(t, shape, *gl, input.view.texture(), &view)?;
            }
        }
        self.check_texture(t, input.format, input.samples, &view)?;
        // Checked here, not left to bind-group creation at record time.
        let need = match t.binding.kind {
            BindingKind::StorageTexture { .. } => wgpu::TextureUsages::STORAGE_BINDING,
            _ => wgpu::TextureUsages::TEXTURE_BINDING,
        };
        let usage = input.view.texture().usage();
        if !usage.contains(need) {
            return Err(t.kind_error(&format!(
                "{}, without {need:?} usage (it has {usage:?}); add it with TextureDesc::usage",
                view()
            )));
        }
        let res = self.bind.register_texture_view(input.view, "texture view");
        if let ViewOwner::Target(r, part) = input.owner {
            self.follow_target(t.key, t.index, r, part);
        }
        let held = match input.owner {
            ViewOwner::Raw => HeldResource::None,
            ViewOwner::Texture(r) | ViewOwner::View(r, _) => HeldResource::Texture(r.clone()),
            ViewOwner::Target(r, _) => HeldResource::Target(r.clone()),
        };
        Ok(resource_content(self, t, res, held))
    }

    /// A sampler for binding `t`; `None` when the binding already holds it.
    pub(super) fn assign_sampler(
        &mut self,
        t: &Assigned<'_>,
        input: &SamplerInput<'_>,
    ) -> Result<Option<BindingContent>> {
        let BindingKind::Sampler(ty) = t.binding.kind else {
            return Err(t.kind_error("a sampler"));
        };
        if let Some(record) = input.record {
            let d = record.desc;
            let comparison = d.compare.is_some();
            let filtering = d.mag_filter == wgpu::FilterMode::Linear
                || d.min_filter == wgpu::FilterMode::Linear;
            let ok = match ty {
                wgpu::SamplerBindingType::Comparison => comparison,
                wgpu::SamplerBindingType::Filtering => !comparison,
                wgpu::SamplerBindingType::NonFiltering => !comparison && !filtering,
            };
            if !ok {
                return Err(t.kind_error(&sampler_mismatch(ty, &d)));
            }
        }
        let res = self.bind.register_sampler(input.raw, "sampler");
        let held = match input.record {
            Some(r) => HeldResource::Sampler(r.clone()),
            None => HeldResource::None,
        };
        Ok(resource_content(self, t, res, held))
    }

    fn check_texture(
        &self,
        t: &Assigned<'_>,
        format: Option<wgpu::TextureFormat>,
        samples: u32,
        view: &dyn Fn() -> String,
    ) -> Result<()> {
        let kind = t.binding.kind;
        let err = |expected: String, actual: String| -> crate::error::Error {
            BindingError::Kind {
                label: t.label.to_owned(),
                binding: t.binding.name.to_string(),
                expected,
                actual,
            }
            .into()
        };
        let Some(format) = format else { return Ok(()) };
        match kind {
            BindingKind::Texture {
                sample_type,
                multisampled,
                ..
            } => {
                if multisampled != (samples > 1) {
                    return Err(err(
                        kind.describe(),
                        format!(
                            "{} with {samples} sample(s); {}",
                            view(),
                            if multisampled {
                                "give a texture made with TextureDesc::samples(4) (or a multisampled target's view)"
                            } else {
                                "give a single-sample texture, or declare the binding texture_multisampled_2d<f32> and read it with textureLoad"
                            }
                        ),
                    ));
                }
                let aspect = if format.is_depth_stencil_format() {
                    Some(wgpu::TextureAspect::DepthOnly)
                } else {
                    None
                };
                let Some(actual) = format.sample_type(aspect, Some(self.ctx.features())) else {
                    return Err(err(
                        kind.describe(),
                        format!("a {format:?} texture, which cannot be sampled"),
                    ));
                };
                let ok = match (sample_type, actual) {
                    (
                        wgpu::TextureSampleType::Float { filterable: true },
                        wgpu::TextureSampleType::Float { filterable },
                    ) => filterable,
                    (
                        wgpu::TextureSampleType::Float { filterable: false },
                        wgpu::TextureSampleType::Float { .. },
                    ) => true,
                    (
                        wgpu::TextureSampleType::Float { filterable: false },
                        wgpu::TextureSampleType::Depth,
                    ) => true,
                    (wgpu::TextureSampleType::Depth, wgpu::TextureSampleType::Depth) => true,
                    (a, b) => a == b,
                };
                if !ok {
                    return Err(err(kind.describe(), texture_mismatch(format, actual, kind)));
                }
            }
            BindingKind::StorageTexture { format: want, .. } => {
                // The access (read, write, read_write) against the format is checked by wgpu
                // where the layout is made, with the draw or compute.
                if want == format {
                    return Ok(());
                }
                return Err(err(
                    kind.describe(),
                    format!(
                        "a {format:?} texture (texel format {}); declare the binding with that format or give a {want:?} texture",
                        vgpu_core::wgsl_texel_format(format)
                    ),
                ));
            }
            _ => return Err(err(kind.describe(), "a texture".to_owned())),
        }
        Ok(())
    }
}

/// The shape of a view vgpu made (a texture's default view, a `TextureView`) and its texture's
/// label; `None` for raw and target views, whose dimension vgpu does not know.
fn known_shape<'a>(
    owner: &ViewOwner<'a>,
) -> Option<(ViewShape, &'a str, Option<wgpu::TextureViewDimension>)> {
    match owner {
        ViewOwner::Texture(r) => {
            let dimension = r.kind.view_dimension;
            let layers = r.texture.depth_or_array_layers();
            let layer_count = match dimension {
                wgpu::TextureViewDimension::Cube => 6,
                wgpu::TextureViewDimension::D2Array | wgpu::TextureViewDimension::CubeArray => {
                    layers
                }
                _ => 1,
            };
            let shape = ViewShape {
                dimension,
                base_mip: 0,
                mip_count: r.texture.mip_level_count(),
                base_layer: 0,
                layer_count,
            };
            Some((shape, r.label.as_str(), r.kind.gl_binds_as))
        }
        ViewOwner::View(r, shape) => Some((**shape, r.label.as_str(), r.kind.gl_binds_as)),
        ViewOwner::Raw | ViewOwner::Target(..) => None,
    }
}

/// A view's dimension (and, for a storage binding, its single mip) against binding `t`.
fn check_shape(t: &Assigned<'_>, shape: &ViewShape, view: &dyn Fn() -> String) -> Result<()> {
    let kind = t.binding.kind;
    let (want, storage) = match kind {
        BindingKind::Texture { view_dimension, .. } => (view_dimension, false),
        BindingKind::StorageTexture { view_dimension, .. } => (view_dimension, true),
        _ => return Ok(()),
    };
    if shape.dimension != want {
        let declare = match kind {
            BindingKind::Texture {
                sample_type,
                multisampled,
                ..
            } => vgpu_core::wgsl_texture_type(sample_type, shape.dimension, multisampled),
            _ => format!("texture_storage_{}", dimension_wgsl(shape.dimension)),
        };
        return Err(t.kind_error(&format!(
            "{}; {} or declare the binding {declare}",
            view(),
            view_fix(want)
        )));
    }
    if storage && shape.mip_count != 1 {
        return Err(t.kind_error(&format!(
            "{} of {} mips; a storage binding takes one mip: bind texture.mip_view(level)",
            view(),
            shape.mip_count
        )));
    }
    Ok(())
}

/// On GL, which has no texture views, a texture binds only as what it was created as (`gl`),
/// all its layers: a view of another dimension or of some layers would bind the wrong texels.
fn check_gl_shape(
    t: &Assigned<'_>,
    shape: &ViewShape,
    gl: wgpu::TextureViewDimension,
    texture: &wgpu::Texture,
    view: &dyn Fn() -> String,
) -> Result<()> {
    let all_layers = match texture.dimension() {
        wgpu::TextureDimension::D2 => texture.depth_or_array_layers(),
        _ => 1,
    };
    if shape.dimension == gl && shape.base_layer == 0 && shape.layer_count == all_layers {
        return Ok(());
    }
    Err(t.kind_error(&format!(
        "{}, which the GL backend cannot bind: GL has no texture views, a texture binds only \
         as what it was created as, all its layers (this one as a {} view; a 2D texture of 6·n \
         square layers is a cube there); bind the texture itself, or copy the layer into a \
         texture of its own",
        view(),
        dimension_wgsl(gl)
    )))
}

/// How to get a view of dimension `want`.
fn view_fix(want: wgpu::TextureViewDimension) -> &'static str {
    use wgpu::TextureViewDimension as V;
    match want {
        V::Cube => {
            "bind texture.cube_view() of a 6-layer texture of square faces (TextureDesc::cube)"
        }
        V::CubeArray => "bind a CubeArray view (ViewDesc) of a 6·n-layer texture of square faces",
        V::D2Array => "bind texture.array_view() (or make the texture with TextureDesc::array)",
        V::D2 => "bind one layer, texture.layer_view(i), of a 2D texture",
        V::D3 => "bind a 3D texture (TextureDesc::d3)",
        V::D1 => "bind a 1D texture (TextureDesc::d1)",
    }
}

/// WGSL's name of a view dimension (`2d_array`, `cube`, …).
fn dimension_wgsl(d: wgpu::TextureViewDimension) -> &'static str {
    use wgpu::TextureViewDimension as V;
    match d {
        V::D1 => "1d",
        V::D2 => "2d",
        V::D2Array => "2d_array",
        V::Cube => "cube",
        V::CubeArray => "cube_array",
        V::D3 => "3d",
    }
}

/// "a 2D view of texture \"sky\" (6 layers, 1 mip)", or what the input is where vgpu does not
/// know its shape.
#[cold]
fn describe_view(
    input: &ViewInput<'_>,
    shape: Option<&(ViewShape, &str, Option<wgpu::TextureViewDimension>)>,
) -> String {
    use wgpu::TextureViewDimension as V;
    let tex = input.view.texture();
    let Some((shape, label, _)) = shape else {
        return format!(
            "{} ({:?}, {} sample(s))",
            input.what,
            tex.format(),
            tex.sample_count()
        );
    };
    let dim = match shape.dimension {
        V::D1 => "1D",
        V::D2 => "2D",
        V::D2Array => "2D array",
        V::Cube => "cube",
        V::CubeArray => "cube array",
        V::D3 => "3D",
    };
    let layers = tex.depth_or_array_layers();
    let what = if tex.dimension() == wgpu::TextureDimension::D3 {
        "depth"
    } else {
        "layers"
    };
    let mut part = String::new();
    if shape.layer_count != layers && tex.dimension() != wgpu::TextureDimension::D3 {
        part.push_str(&format!(
            " of layers {}..{}",
            shape.base_layer,
            shape.base_layer + shape.layer_count
        ));
    }
    if shape.mip_count != tex.mip_level_count() {
        part.push_str(&format!(
            " of mips {}..{}",
            shape.base_mip,
            shape.base_mip + shape.mip_count
        ));
    }
    let samples = if tex.sample_count() > 1 {
        format!(", {} samples", tex.sample_count())
    } else {
        String::new()
    };
    let what = if layers == 1 {
        &what[..what.len() - usize::from(what.ends_with('s'))]
    } else {
        what
    };
    let mips = tex.mip_level_count();
    let mips_word = if mips == 1 { "mip" } else { "mips" };
    format!(
        "a {dim} view{part} of texture {label:?} ({layers} {what}, {mips} {mips_word}{samples}, {:?})",
        tex.format()
    )
}

/// What a texture of `format` (whose texels sample as `actual`) is in WGSL, and how to fix its
/// binding to `kind`: an unfilterable float format on a filterable `texture_*<f32>` binding
/// says which formats and feature filter.
#[cold]
fn texture_mismatch(
    format: wgpu::TextureFormat,
    actual: wgpu::TextureSampleType,
    kind: BindingKind,
) -> String {
    let BindingKind::Texture {
        sample_type,
        view_dimension,
        multisampled,
    } = kind
    else {
        return format!("a {format:?} texture");
    };
    let binds_as = vgpu_core::wgsl_texture_type(actual, view_dimension, multisampled);
    match (sample_type, actual) {
        (
            wgpu::TextureSampleType::Float { filterable: true },
            wgpu::TextureSampleType::Float { filterable: false },
        ) => format!(
            "a {format:?} texture, whose float texels are not filterable on this device; \
             vgpu binds every {binds_as} for filtering samplers (textureSample), so use a \
             filterable format (R16Float, Rg16Float, Rgba16Float, Rgba8Unorm, …) or request \
             wgpu::Features::FLOAT32_FILTERABLE in GpuOptions::required_features (where the \
             adapter has it)"
        ),
        (wgpu::TextureSampleType::Float { .. }, wgpu::TextureSampleType::Depth) => format!(
            "a {format:?} texture, which binds as {binds_as}; declare the binding {binds_as} \
             (and sample it with a sampler_comparison or textureLoad)"
        ),
        _ => format!(
            "a {format:?} texture, which binds as {binds_as}; declare the binding {binds_as} or \
             give a texture of a format that samples as {}",
            kind.describe()
        ),
    }
}

/// What sampler `d` is in WGSL, and how to fix its binding to a sampler of type `ty`.
#[cold]
fn sampler_mismatch(ty: wgpu::SamplerBindingType, d: &SamplerDesc) -> String {
    let filters = format!("filters {:?}/{:?}", d.mag_filter, d.min_filter);
    match (ty, d.compare) {
        (wgpu::SamplerBindingType::Comparison, None) => format!(
            "a sampler without compare ({filters}), which binds as sampler; create it with a \
             compare function (SamplerDesc {{ compare: Some(…), .. }}, or SamplerDesc::shadow())"
        ),
        (_, Some(compare)) => format!(
            "a comparison sampler (compare {compare:?}), which binds as sampler_comparison; \
             declare the binding sampler_comparison or give a sampler with compare: None"
        ),
        (_, None) => format!(
            "a filtering sampler ({filters}), which a non-filtering sampler binding refuses; \
             use FilterMode::Nearest"
        ),
    }
}
