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

    /// Moves every draw, effect and compute made from `old` onto `new` (what hot reload does:
    /// `Gpu::watch_shader`, feature `hot-reload`): each gets `new`'s program for the same entry
    /// points, and every binding's content (value, block, buffer, texture, sampler) moves to
    /// `new`'s binding of the same name when it has the same kind and shape. A binding `new`
    /// no longer uses, or uses with another type, is reported and its content kept aside (a
    /// later shader that uses it again as it was takes it back); nothing set is lost. Pipelines
    /// are rebuilt at the next frame; [`Binding`](crate::Binding) and
    /// [`TypedBinding`](crate::TypedBinding) handles keep working (they find their binding by
    /// name again). `old` itself is unchanged: draws made from it later use it.
    ///
    /// Refused with `VGPU-SHADER-RELOAD`, changing nothing, when a draw cannot take `new`: an
    /// entry point it uses is missing, its vertex inputs, fragment outputs or override
    /// constants differ, or a group it claimed changed layout.
    ///
    /// ```
    /// # let gpu = vgpu::Gpu::noop();
    /// let v1 = gpu.shader("tint", "
    ///     @group(0) @binding(0) var<uniform> tint: vec4f;
    ///     @vertex fn vs() -> @builtin(position) vec4f { return vec4f(0.0, 0.0, 0.0, 1.0); }
    ///     @fragment fn fs() -> @location(0) vec4f { return tint; }")?;
    /// let draw = gpu.draw(&v1, vgpu::DrawDesc::default())?;
    /// draw.set("tint", &[1.0f32, 0.5, 0.0, 1.0])?;
    /// let v2 = gpu.shader("tint", "
    ///     @group(0) @binding(0) var<uniform> tint: vec4f;
    ///     @vertex fn vs() -> @builtin(position) vec4f { return vec4f(0.0, 0.0, 0.0, 1.0); }
    ///     @fragment fn fs() -> @location(0) vec4f { return tint.bgra; }")?;
    /// let report = gpu.replace_shader(&v1, &v2)?;
    /// assert_eq!((report.operations, report.kept()), (1, 1));
    /// # Ok::<(), vgpu::Error>(())
    /// ```
    pub fn replace_shader(&self, old: &Shader, new: &Shader) -> Result<crate::ShaderReload> {
        self.check_shader(old, "Gpu::replace_shader")?;
        self.check_shader(new, "Gpu::replace_shader")?;
        if Arc::ptr_eq(&old.inner, &new.inner) {
            return Ok(crate::ShaderReload::default());
        }
        self.with_state(|st| st.replace_shader(&old.inner, &new.inner))
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
