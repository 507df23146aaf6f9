//! [`Sampler`]: samplers, cached by descriptor ([`SamplerDesc`]): equal descriptors share one
//! wgpu sampler.

use std::sync::Arc;

use crate::descriptors::SamplerDesc;
use crate::error::Result;
use crate::gpu::Gpu;
use crate::state::SamplerRecord;

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
    pub fn sampler(&self, desc: &SamplerDesc) -> Result<Sampler> {
        self.ctx.check_device("Gpu::sampler")?;
        if let Some(inner) = self.with_state(|st| st.cached_sampler(desc)) {
            return Ok(Sampler { inner });
        }
        let sampler = self.ctx.create_sampler(&wgpu::SamplerDescriptor {
            label: Some("vgpu sampler"),
            address_mode_u: desc.address_mode,
            address_mode_v: desc.address_mode,
            address_mode_w: desc.address_mode,
            mag_filter: desc.mag_filter,
            min_filter: desc.min_filter,
            mipmap_filter: desc.mipmap_filter,
            compare: desc.compare,
            ..Default::default()
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
