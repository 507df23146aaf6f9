//! [`Sampler`]: samplers, cached by descriptor ([`SamplerDesc`]): equal descriptors share one
//! wgpu sampler.

use std::sync::Arc;

use crate::descriptors::SamplerDesc;
use crate::error::Result;
use crate::gpu::Gpu;
use crate::pipeline_error::PipelineError;
use crate::state::SamplerRecord;
use crate::texture_error::TextureError;

/// A sampler. Cheap to clone (an `Arc`).
#[derive(Clone, Debug)]
pub struct Sampler {
    pub(crate) inner: Arc<SamplerRecord>,
}

impl Sampler {
    /// The raw sampler.
    pub fn raw(&self) -> &wgpu::Sampler {
        &self.inner.sampler
    }
    /// The descriptor it was created from.
    pub fn desc(&self) -> SamplerDesc {
        self.inner.desc
    }
}

impl Gpu {
    /// A sampler. Equal descriptors return the same cached sampler (no new wgpu object).
    ///
    /// Errors: `VGPU-SAMPLER-DESC` for a description out of range (see [`SamplerDesc`]),
    /// `VGPU-FEATURE-MISSING` for `ClampToBorder` (or the `Zero` border) on a device without
    /// `ADDRESS_MODE_CLAMP_TO_BORDER` (`ADDRESS_MODE_CLAMP_TO_ZERO`).
    ///
    /// ```
    /// let gpu = vgpu::Gpu::noop();
    /// let a = gpu.sampler(&vgpu::SamplerDesc::repeat())?;
    /// let b = gpu.sampler(&vgpu::SamplerDesc::repeat())?;
    /// assert_eq!(a.raw(), b.raw());
    /// let err = gpu.sampler(&vgpu::SamplerDesc::default().with_lod_clamp(2.0, 1.0)).unwrap_err();
    /// assert_eq!(err.code(), "VGPU-SAMPLER-DESC");
    /// # Ok::<(), vgpu::Error>(())
    /// ```
    pub fn sampler(&self, desc: &SamplerDesc) -> Result<Sampler> {
        self.ctx.check_device("Gpu::sampler")?;
        if let Some(inner) = self.with_state(|st| st.cached_sampler(desc)) {
            return Ok(Sampler { inner });
        }
        check_desc(desc)?;
        check_features(self.ctx.features(), desc)?;
        let sampler = self.ctx.create_sampler(&wgpu::SamplerDescriptor {
            label: Some("vgpu sampler"),
            address_mode_u: desc.address_mode_u,
            address_mode_v: desc.address_mode_v,
            address_mode_w: desc.address_mode_w,
            mag_filter: desc.mag_filter,
            min_filter: desc.min_filter,
            mipmap_filter: desc.mipmap_filter,
            lod_min_clamp: desc.lod_min_clamp,
            lod_max_clamp: desc.lod_max_clamp,
            compare: desc.compare,
            anisotropy_clamp: desc.anisotropy_clamp,
            border_color: desc.border_color,
        })?;
        let inner = Arc::new(SamplerRecord {
            sampler,
            desc: *desc,
            gpu: self.id(),
        });
        // Another thread may have created one meanwhile: the first cached wins.
        let inner = self.with_state(|st| match st.cached_sampler(desc) {
            Some(existing) => existing,
            None => {
                st.cache_sampler(*desc, inner.clone());
                inner
            }
        });
        Ok(Sampler { inner })
    }
}

/// `VGPU-SAMPLER-DESC` for values wgpu would refuse (or, for NaN, misread).
fn check_desc(desc: &SamplerDesc) -> Result<()> {
    let refuse = |problem: String, expected: &'static str| {
        Err(TextureError::Sampler { problem, expected }.into())
    };
    let (min, max) = (desc.lod_min_clamp, desc.lod_max_clamp);
    if !min.is_finite() || !max.is_finite() || min < 0.0 || max < min {
        return refuse(
            format!("lod_min_clamp {min} and lod_max_clamp {max}"),
            "finite clamps with 0 <= lod_min_clamp <= lod_max_clamp",
        );
    }
    if !(1..=16).contains(&desc.anisotropy_clamp) {
        return refuse(
            format!("anisotropy_clamp {}", desc.anisotropy_clamp),
            "anisotropy_clamp in 1..=16 (1: no anisotropy)",
        );
    }
    let linear = desc.mag_filter == wgpu::FilterMode::Linear
        && desc.min_filter == wgpu::FilterMode::Linear
        && desc.mipmap_filter == wgpu::MipmapFilterMode::Linear;
    if desc.anisotropy_clamp > 1 && !linear {
        return refuse(
            format!(
                "anisotropy_clamp {} with filters mag {:?}, min {:?}, mipmap {:?}",
                desc.anisotropy_clamp, desc.mag_filter, desc.min_filter, desc.mipmap_filter
            ),
            "every filter Linear with anisotropy above 1 (SamplerDesc::with_anisotropy sets them)",
        );
    }
    if border_axes(desc) && desc.border_color.is_none() {
        return refuse(
            "AddressMode::ClampToBorder without border_color".to_owned(),
            "a border_color with ClampToBorder (SamplerDesc::with_border)",
        );
    }
    Ok(())
}

/// Whether any axis clamps to the border.
fn border_axes(desc: &SamplerDesc) -> bool {
    [
        desc.address_mode_u,
        desc.address_mode_v,
        desc.address_mode_w,
    ]
    .contains(&wgpu::AddressMode::ClampToBorder)
}

/// `VGPU-FEATURE-MISSING` for a border the device lacks the feature of.
fn check_features(features: wgpu::Features, desc: &SamplerDesc) -> Result<()> {
    let needs = |what, feature| -> Result<()> {
        if features.contains(feature) {
            Ok(())
        } else {
            Err(PipelineError::FeatureMissing {
                label: "sampler".to_owned(),
                what,
                feature,
            }
            .into())
        }
    };
    if border_axes(desc) {
        needs(
            "AddressMode::ClampToBorder (SamplerDesc)",
            wgpu::Features::ADDRESS_MODE_CLAMP_TO_BORDER,
        )?;
    }
    if desc.border_color == Some(wgpu::SamplerBorderColor::Zero) {
        needs(
            "SamplerBorderColor::Zero (SamplerDesc::border_color)",
            wgpu::Features::ADDRESS_MODE_CLAMP_TO_ZERO,
        )?;
    }
    Ok(())
}
