//! [`Shader`]: WGSL parsed, validated and reflected once, shared by every draw that uses it.

use std::sync::Arc;

use crate::error::Result;
use crate::gpu::Gpu;
use crate::state::ShaderRecord;

/// WGSL source parsed and validated by naga, with its reflection (bindings, entry points,
/// layouts, write plans). Cheap to clone (an `Arc`); draws that share a `Shader` and pipeline
/// state share pipelines and bind-group layouts. Belongs to the `Gpu` that created it (its wgpu
/// module lives on that device).
#[derive(Clone)]
pub struct Shader {
    pub(crate) inner: Arc<ShaderRecord>,
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
        self.ctx.check_device("Gpu::shader")?;
        let core = vgpu_core::Shader::for_context(&self.ctx, label, source)?;
        Ok(Shader {
            inner: Arc::new(ShaderRecord::new(core, self.id())),
        })
    }

    /// The shader composed from `modules` (WESL `import` and `@if`; see [`ShaderModules`]) whose
    /// root module is `root` (`"main"`, `"lit/main"`), then parsed, validated and reflected as
    /// [`shader`](Self::shader) does. vgpu's standard library ([`crate::wgsl`]) is the package
    /// `vgpu` (`import vgpu::noise::fbm2;`) unless `modules` brings a package of that name.
    /// Errors name the module, line and column (`VGPU-SHADER-MODULE`), never the composed text.
    ///
    /// ```
    /// # let gpu = vgpu::Gpu::noop();
    /// let modules = vgpu::ShaderModules::memory([
    ///     ("main", "import package::tint::shade;
    ///               @fragment fn fs_main() -> @location(0) vec4f { return shade(0.5); }"),
    ///     ("tint", "fn shade(x: f32) -> vec4f { return vec4f(x, x, x, 1.0); }"),
    /// ]);
    /// let shader = gpu.shader_from("tinted", &modules, "main")?;
    /// # let _ = shader;
    /// # Ok::<(), vgpu::Error>(())
    /// ```
    ///
    /// [`ShaderModules`]: crate::ShaderModules
    pub fn shader_from(
        &self,
        label: &str,
        modules: &vgpu_core::ShaderModules,
        root: &str,
    ) -> Result<Shader> {
        self.ctx.check_device("Gpu::shader_from")?;
        let modules = vgpu_modules::build::with_std(modules.clone());
        let core = vgpu_core::Shader::from_modules_for_context(&self.ctx, label, &modules, root)?;
        Ok(Shader {
            inner: Arc::new(ShaderRecord::new(core, self.id())),
        })
    }

    /// `VGPU-FOREIGN-GPU` unless `shader` was created by this `Gpu`.
    pub(crate) fn check_shader(&self, shader: &Shader, used_by: &str) -> Result<()> {
        if shader.inner.gpu != self.id() {
            return Err(crate::error::foreign_gpu(
                "shader",
                shader.label(),
                used_by.to_owned(),
            ));
        }
        Ok(())
    }
}

impl Shader {
    /// The label given at creation.
    pub fn label(&self) -> &str {
        self.inner.label()
    }
    /// The reflection: bindings, entry points, layouts.
    pub fn reflection(&self) -> &vgpu_core::Shader {
        &self.inner.core
    }
}
