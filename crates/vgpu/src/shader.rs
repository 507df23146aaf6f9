//! [`Shader`]: WGSL parsed, validated and reflected once, shared by every draw that uses it.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::error::Result;
use crate::gpu::Gpu;

static NEXT_SHADER_ID: AtomicU64 = AtomicU64::new(1);

pub(crate) struct ShaderInner {
    pub(crate) id: u64,
    pub(crate) core: vgpu_core::shader::Shader,
    /// The wgpu module, created once per shader on first use.
    pub(crate) module: std::sync::OnceLock<wgpu::ShaderModule>,
}

/// WGSL source parsed and validated by naga, with its reflection (bindings, entry points,
/// layouts, write plans). Cheap to clone (an `Arc`); draws that share a `Shader` and pipeline
/// state share pipelines and bind-group layouts.
#[derive(Clone)]
pub struct Shader {
    pub(crate) inner: Arc<ShaderInner>,
}

impl std::fmt::Debug for Shader {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Shader")
            .field("label", &self.label())
            .finish_non_exhaustive()
    }
}

impl Gpu {
    /// Parses and validates `source` (with the device's features, e.g. f16) and reflects it.
    /// Errors carry naga's rendered diagnostic with `label`, line and column.
    pub fn shader(&self, label: &str, source: &str) -> Result<Shader> {
        let core = vgpu_core::shader::Shader::for_context(&self.ctx, label, source)?;
        Ok(Shader::from_core(core))
    }
}

impl Shader {
    pub(crate) fn from_core(core: vgpu_core::shader::Shader) -> Shader {
        Shader {
            inner: Arc::new(ShaderInner {
                id: NEXT_SHADER_ID.fetch_add(1, Ordering::Relaxed),
                core,
                module: std::sync::OnceLock::new(),
            }),
        }
    }

    /// The label given at creation.
    pub fn label(&self) -> &str {
        self.inner.core.label()
    }
    /// The reflection: bindings, entry points, layouts.
    pub fn reflection(&self) -> &vgpu_core::shader::Shader {
        &self.inner.core
    }

    pub(crate) fn module(&self, gpu: &vgpu_core::GpuContext) -> Result<&wgpu::ShaderModule> {
        if let Some(m) = self.inner.module.get() {
            return Ok(m);
        }
        let m = gpu.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some(self.label()),
            source: wgpu::ShaderSource::Wgsl(self.inner.core.source().into()),
        })?;
        Ok(self.inner.module.get_or_init(|| m))
    }
}
