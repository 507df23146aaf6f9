//! [`SetBatch`]: many sets under one lock of a `Gpu`'s state.

use crate::binding::{Binding, Held};
use crate::binding_arg::BindingArg;
use crate::error::Result;
use crate::gpu::Gpu;
use crate::state::HeldState;
use crate::typed::Uniform;
use crate::typed_binding::TypedBinding;

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
    /// Sets `binding` to `value` as [`TypedBinding::set`] does, without taking the lock again.
    /// A binding of another `Gpu` is refused (`VGPU-FOREIGN-GPU`).
    #[inline(always)]
    pub fn set_typed<T: Uniform>(&mut self, binding: &TypedBinding<T>, value: &T) -> Result<()> {
        check_batch_gpu(&binding.binding, self.gpu)?;
        binding.set_via(Held(&self.held), value)
    }

    /// Sets `binding` to `value` as [`Binding::set`] does, without taking the lock again.
    /// A binding of another `Gpu` is refused (`VGPU-FOREIGN-GPU`).
    pub fn set<'a>(&mut self, binding: &Binding, value: impl Into<BindingArg<'a>>) -> Result<()> {
        check_batch_gpu(binding, self.gpu)?;
        binding.set_via(Held(&self.held), value.into())
    }
}

/// `VGPU-FOREIGN-GPU` unless `binding`'s draw belongs to `gpu`'s batch (the same shared state:
/// compared by address, one load on a batch's loop).
#[inline]
fn check_batch_gpu(binding: &Binding, gpu: &Gpu) -> Result<()> {
    if std::sync::Arc::ptr_eq(&binding.op.shared, &gpu.shared) {
        Ok(())
    } else {
        Err(foreign_to_batch(binding))
    }
}

#[cold]
#[inline(never)]
fn foreign_to_batch(binding: &Binding) -> crate::error::Error {
    crate::error::foreign_gpu(
        "binding",
        &binding.op.label(),
        "given to the SetBatch of another Gpu",
    )
}
