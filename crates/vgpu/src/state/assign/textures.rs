//! Texture views and samplers: format, sample type, multisampling and usage checked against the
//! binding at `set`; samplers checked for comparison and filtering.

use vgpu_core::reflect::BindingKind;

use super::{Assigned, SamplerInput, ViewInput, ViewOwner, resource_content};
use crate::error::{BindingError, Result};
use crate::state::State;
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
        let res = self.bind.register_texture_view(input.view, "texture view");
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
                return Err(t.kind_error(&format!(
                    "a sampler with compare {:?} and filters {:?}/{:?}",
                    d.compare, d.mag_filter, d.min_filter
                )));
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
                        format!("{format:?}, which cannot be sampled"),
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
                    return Err(err(
                        kind.describe(),
                        format!("a {format:?} texture (sample type {actual:?})"),
                    ));
                }
            }
            BindingKind::StorageTexture { format: want, .. } => {
                if want != format {
                    return Err(err(kind.describe(), format!("a {format:?} texture")));
                }
            }
            _ => return Err(err(kind.describe(), "a texture".to_owned())),
        }
        Ok(())
    }
}
