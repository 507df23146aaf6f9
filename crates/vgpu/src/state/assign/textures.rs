//! Texture views and samplers: format, sample type, multisampling and usage checked against the
//! binding at `set`; samplers checked for comparison and filtering.

use vgpu_core::BindingKind;

use super::{Assigned, resource_content};
use crate::descriptors::SamplerDesc;
use crate::error::{BindingError, Result};
use crate::state::State;
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
        self.check_texture(t, input.format, input.samples)?;
        // Checked here, not left to bind-group creation at record time.
        let need = match t.binding.kind {
            BindingKind::StorageTexture { .. } => wgpu::TextureUsages::STORAGE_BINDING,
            _ => wgpu::TextureUsages::TEXTURE_BINDING,
        };
        let usage = input.view.texture().usage();
        if !usage.contains(need) {
            return Err(t.kind_error(&format!(
                "a view of a texture without {need:?} usage (it has {usage:?})"
            )));
        }
        let res = self.bind.register_texture_view(&input.view, "texture view");
        let held = match input.owner {
            ViewOwner::Raw => HeldResource::None,
            ViewOwner::Texture(r) => HeldResource::Texture(r.clone()),
            ViewOwner::Target(r) => HeldResource::Target(r.clone()),
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
                        format!("a texture with {samples} samples"),
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
                if want != format {
                    return Err(err(
                        kind.describe(),
                        format!(
                            "a {format:?} texture (texel format {}); declare the binding with that format or give a {want:?} texture",
                            vgpu_core::wgsl_texel_format(format)
                        ),
                    ));
                }
            }
            _ => return Err(err(kind.describe(), "a texture".to_owned())),
        }
        Ok(())
    }
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
