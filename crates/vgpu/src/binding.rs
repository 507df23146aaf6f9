//! [`Binding`]: one binding of a draw or compute, resolved by name once; [`SetBatch`]: many sets
//! under one lock.

use std::sync::Arc;

use crate::bind::Bind;
use crate::compute::Compute;
use crate::draw::{Draw, OpHandle};
use crate::error::Result;
use crate::gpu::Gpu;
use crate::state::{HeldState, OpKey, SharedState};

/// One binding of a draw or compute, resolved by WGSL name once: its `set` skips the name
/// lookup. Cheap to clone; keeps its draw alive.
///
/// ```
/// # let gpu = vgpu::Gpu::noop();
/// # let shader = gpu.shader("s", "
/// #     struct Object { world: mat4x4f }
/// #     @group(0) @binding(0) var<uniform> object: Object;
/// #     @vertex fn vs_main() -> @builtin(position) vec4f { return object.world[0]; }
/// # ")?;
/// # let draw = gpu.draw(&shader, vgpu::DrawDesc::default())?;
/// #[derive(vgpu::Uniform)]
/// struct Object { world: [[f32; 4]; 4] }
///
/// let object = draw.binding("object")?;
/// object.set(&Object { world: [[1.0, 0.0, 0.0, 0.0]; 4] })?;
/// # Ok::<(), vgpu::Error>(())
/// ```
#[derive(Clone)]
pub struct Binding {
    key: OpKey,
    index: usize,
    op: Arc<OpHandle>,
}

impl std::fmt::Debug for Binding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Binding")
            .field("label", &&*self.op.label)
            .field("name", &self.name())
            .finish()
    }
}

impl Binding {
    /// Resolves `name` among the bindings of `op` (`VGPU-SET-BINDING-UNKNOWN` otherwise, with a
    /// suggestion for a misspelling).
    fn resolve(op: &Arc<OpHandle>, name: &str) -> Result<Binding> {
        match op.program.binding_index(name) {
            Some(index) => Ok(Binding {
                key: op.key,
                index,
                op: op.clone(),
            }),
            None => Err(op.program.unknown_binding(&op.label, name).into()),
        }
    }

    /// The WGSL name of the binding.
    pub fn name(&self) -> &str {
        &self.op.program.bindings[self.index].name
    }

    /// Sets the binding; the same as [`Draw::set`] with its name, without the lookup.
    pub fn set<'a>(&self, value: impl Into<Bind<'a>>) -> Result<()> {
        let (key, index) = (self.key, self.index);
        let value = value.into();
        if let Bind::Typed(typed) = value {
            if let Some(done) = self
                .op
                .gpu
                .with_state(|st| st.set_typed_in_place(key, index, typed))
            {
                return done;
            }
        }
        match value.into_value() {
            Ok(input) => self
                .op
                .gpu
                .with_state(|st| st.set_binding_at(key, index, input.as_input().into())),
            Err(other) => {
                let input = other.lower(self.op.gpu.id(), &self.op.label, self.name())?;
                self.op
                    .gpu
                    .with_state(|st| st.set_binding_at(key, index, input))
            }
        }
    }
}

impl Draw {
    /// The binding named `name`, resolved once (see [`Binding`]).
    pub fn binding(&self, name: &str) -> Result<Binding> {
        Binding::resolve(&self.inner, name)
    }
}

impl Compute {
    /// The binding named `name`, resolved once (see [`Binding`]).
    pub fn binding(&self, name: &str) -> Result<Binding> {
        Binding::resolve(&self.inner, name)
    }
}

/// Many sets under one lock of the `Gpu`'s state: from [`Gpu::batch`]. Other threads using this
/// `Gpu` wait until it is dropped; vgpu calls on this thread still work inside it.
///
/// ```
/// # let gpu = vgpu::Gpu::noop();
/// # let shader = gpu.shader("s", "
/// #     struct Object { world: mat4x4f }
/// #     @group(0) @binding(0) var<uniform> object: Object;
/// #     @vertex fn vs_main() -> @builtin(position) vec4f { return object.world[0]; }
/// # ")?;
/// # #[derive(vgpu::Uniform)]
/// # struct Object { world: [[f32; 4]; 4] }
/// let draws: Vec<vgpu::Draw> = (0..4)
///     .map(|_| gpu.draw(&shader, vgpu::DrawDesc::default()))
///     .collect::<Result<_, _>>()?;
/// let objects: Vec<vgpu::Binding> =
///     draws.iter().map(|d| d.binding("object")).collect::<Result<_, _>>()?;
/// let mut batch = gpu.batch();
/// for (k, object) in objects.iter().enumerate() {
///     batch.set(object, &Object { world: [[k as f32; 4]; 4] })?;
/// }
/// # Ok::<(), vgpu::Error>(())
/// ```
pub struct SetBatch<'g> {
    gpu: &'g Gpu,
    held: HeldState<'g>,
}

impl std::fmt::Debug for SetBatch<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SetBatch").finish_non_exhaustive()
    }
}

impl Gpu {
    /// Locks this `Gpu`'s state once for many sets (see [`SetBatch`]).
    pub fn batch(&self) -> SetBatch<'_> {
        SetBatch {
            gpu: self,
            held: self.shared.hold(),
        }
    }
}

impl SetBatch<'_> {
    /// Sets `binding` to `value` as [`Binding::set`] does, without taking the lock again.
    /// A binding of another `Gpu` is refused (`VGPU-FOREIGN-GPU`).
    pub fn set<'a>(&mut self, binding: &Binding, value: impl Into<Bind<'a>>) -> Result<()> {
        if binding.op.gpu.id() != self.gpu.id() {
            return Err(crate::error::foreign_gpu(
                "binding",
                &binding.op.label,
                "given to the SetBatch of another Gpu",
            ));
        }
        let (key, index) = (binding.key, binding.index);
        let value = value.into();
        if let Bind::Typed(typed) = value {
            if let Some(done) =
                SharedState::with_held(&self.held, |st| st.set_typed_in_place(key, index, typed))
            {
                return done;
            }
        }
        match value.into_value() {
            Ok(input) => SharedState::with_held(&self.held, |st| {
                st.set_binding_at(key, index, input.as_input().into())
            }),
            Err(other) => {
                let input = other.lower(self.gpu.id(), &binding.op.label, binding.name())?;
                SharedState::with_held(&self.held, |st| st.set_binding_at(key, index, input))
            }
        }
    }
}
