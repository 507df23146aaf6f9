//! [`Compute`]: a compute entry point with bindings set by WGSL name, dispatched in compute
//! passes (`f.compute_pass(|c| c.dispatch(&k, x, y, z))`).

use vgpu_core::Label;

use crate::binding::Binding;
use crate::binding_arg::BindingArg;
use crate::error::Result;
use crate::gpu::Gpu;
use crate::op_handle::OpHandle;
use crate::shader::Shader;
use crate::state::{ComputeInfo, ConstantSet, OperationKind, Stages};
use crate::typed::Uniform;
use crate::typed_binding::TypedBinding;

/// Describes a [`Compute`]. `Default`: label "compute", entry point `cs_main` or the only
/// compute entry point, no constants.
///
/// `constants` sets the shader's WGSL `override`s for this compute, keyed by name or by `@id`
/// as decimal text; [`Gpu::compute`] checks them (`VGPU-CONSTANT-…` codes) before anything is
/// created. Computes of one shader with equal constants share one pipeline.
///
/// ```
/// # fn main() -> vgpu::Result<()> {
/// # let gpu = vgpu::Gpu::noop();
/// let shader = gpu.shader(
///     "scale.wgsl",
///     "override scale: f32 = 1.0;
///      @group(0) @binding(0) var<storage, read_write> out: array<f32>;
///      @compute @workgroup_size(1) fn cs_main(@builtin(global_invocation_id) id: vec3u) {
///          out[id.x] = scale * f32(id.x);
///      }",
/// )?;
/// let doubled = gpu.compute(
///     &shader,
///     vgpu::ComputeDesc { constants: vec![("scale".into(), 2.0)], ..Default::default() },
/// )?;
/// # let _ = doubled;
/// # Ok(())
/// # }
/// ```
#[derive(Clone, Debug)]
pub struct ComputeDesc {
    /// Label used in errors.
    pub label: String,
    /// Entry point; `None` = `cs_main` or the only compute entry point.
    pub entry_point: Option<String>,
    /// Values of the shader's `override`s: `(name or @id as text, value)`; an override left out
    /// keeps its WGSL default (one without default must be given).
    pub constants: Vec<(String, f64)>,
}

impl Default for ComputeDesc {
    fn default() -> Self {
        ComputeDesc {
            label: "compute".to_owned(),
            entry_point: None,
            constants: Vec::new(),
        }
    }
}

/// A compute operation. Cheap to clone (its record counts its handles; a clone locks the state
/// once); dropping the last clone frees its values.
#[derive(Clone)]
pub struct Compute {
    pub(crate) inner: OpHandle,
    /// The workgroup size with this compute's constants.
    workgroup_size: [u32; 3],
}

impl std::fmt::Debug for Compute {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Compute")
            .field("label", &self.label())
            .finish_non_exhaustive()
    }
}

impl Gpu {
    /// A compute operation of `shader`.
    ///
    /// `desc.constants` are checked against the shader's `override`s first
    /// ([`vgpu_core::Shader::pipeline_constants_for`] its entry point: a required override only
    /// other entry points use needs no value): an error creates nothing.
    pub fn compute(&self, shader: &Shader, desc: ComputeDesc) -> Result<Compute> {
        self.ctx.check_device("Gpu::compute")?;
        self.check_shader(shader, &format!("creating compute {:?}", desc.label))?;
        let reflection = shader.reflection();
        let entry = reflection
            .entry_point(vgpu_core::Stage::Compute, desc.entry_point.as_deref())?
            .name
            .clone();
        let constants =
            reflection.pipeline_constants_for(&desc.label, &[entry.as_str()], &desc.constants)?;
        let workgroup_size = reflection.workgroup_size_with(&entry, &desc.constants);
        let program =
            self.with_state(|st| st.program(&shader.inner, Stages::Compute { cs: entry }))?;
        let workgroup_size = workgroup_size.unwrap_or(program.workgroup_size);
        let kind = OperationKind::Compute(Box::new(ComputeInfo::with_constants(ConstantSet::new(
            constants,
        ))));
        Ok(Compute {
            inner: OpHandle::insert(self, &desc.label, program, kind, (0, 0)),
            workgroup_size,
        })
    }
}

impl Compute {
    /// The label (read from the compute's record: a clone, inline when short).
    pub fn label(&self) -> Label {
        self.inner.label()
    }
    /// The workgroup size of the entry point: as declared, or where an `override` decides it,
    /// with this compute's constants (or the override's default).
    pub fn workgroup_size(&self) -> [u32; 3] {
        self.workgroup_size
    }
    /// Sets one binding by WGSL name; see [`Draw::set`](crate::Draw::set).
    pub fn set<'a>(&self, name: &str, value: impl Into<BindingArg<'a>>) -> Result<()> {
        self.inner.set(name, value.into())
    }
    /// Sets a binding from raw bytes; see [`Draw::set_bytes`](crate::Draw::set_bytes).
    pub fn set_bytes(&self, name: &str, bytes: &[u8]) -> Result<()> {
        self.set(name, BindingArg::Bytes(bytes))
    }
    /// Sets several bindings atomically.
    pub fn set_all<'a>(
        &self,
        values: impl IntoIterator<Item = (&'a str, BindingArg<'a>)>,
    ) -> Result<()> {
        self.inner.set_all(values)
    }
    /// The binding named `name`, resolved once (see [`Binding`]).
    pub fn binding(&self, name: &str) -> Result<Binding> {
        Binding::resolve(&self.inner, name)
    }
    /// The binding named `name`, resolved once and checked for values of type `T` (see
    /// [`TypedBinding`]).
    pub fn typed_binding<T: Uniform>(&self, name: &str) -> Result<TypedBinding<T>> {
        TypedBinding::resolve(&self.inner, name)
    }
}
