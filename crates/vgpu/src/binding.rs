//! [`Binding`]: one binding of a draw or compute, resolved by name once; [`TypedBinding`]: one
//! resolved and checked for one Rust type; [`SetBatch`]: many sets under one lock.

use std::marker::PhantomData;
use std::sync::atomic::{AtomicU64, Ordering};

use slotmap::{Key as _, KeyData};
use vgpu_uniforms::OwnerKey;

use crate::bind::Bind;
use crate::compute::Compute;
use crate::draw::{Draw, OpHandle};
use crate::error::Result;
use crate::gpu::Gpu;
use crate::state::{BindingInput, HeldState, SharedState, State};
use crate::typed::Uniform;

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
    op: OpHandle,
    index: usize,
}

impl std::fmt::Debug for Binding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Binding")
            .field("label", &self.op.label())
            .field("name", &self.name())
            .finish()
    }
}

impl Binding {
    /// Resolves `name` among the bindings of `op` (`VGPU-SET-BINDING-UNKNOWN` otherwise, with a
    /// suggestion for a misspelling).
    fn resolve(op: &OpHandle, name: &str) -> Result<Binding> {
        match op.program.binding_index(name) {
            Some(index) => Ok(Binding {
                op: op.clone(),
                index,
            }),
            None => Err(op.program.unknown_binding(&op.label(), name).into()),
        }
    }

    /// The WGSL name of the binding.
    pub fn name(&self) -> &str {
        &self.op.program.bindings[self.index].name
    }

    /// Sets the binding; the same as [`Draw::set`] with its name, without the lookup.
    pub fn set<'a>(&self, value: impl Into<Bind<'a>>) -> Result<()> {
        self.set_via(Locking(&self.op.shared), value.into())
    }

    /// `set` through `state`: a typed value in one visit of the state (in place when its type was
    /// checked on this binding already, else the full path); other values lowered first.
    fn set_via(&self, state: impl StateAccess, value: Bind<'_>) -> Result<()> {
        let (key, index) = (self.op.key, self.index);
        if let Bind::Typed(typed) = value {
            return state.with(|st| match st.set_typed_in_place(key, index, typed) {
                Some(done) => done,
                None => st.assign_at(key, index, BindingInput::Typed(typed)),
            });
        }
        match value.into_value() {
            Ok(input) => state.with(|st| st.set_binding_at(key, index, input.as_input().into())),
            Err(other) => {
                let input = other.lower(self.op.gpu_id(), &|| self.op.label(), self.name())?;
                state.with(|st| st.set_binding_at(key, index, input))
            }
        }
    }

    /// `VGPU-FOREIGN-GPU` unless this binding's draw belongs to `gpu`'s batch (the same shared
    /// state: compared by address, one load on a batch's loop).
    #[inline]
    fn check_batch_gpu(&self, gpu: &Gpu) -> Result<()> {
        if std::sync::Arc::ptr_eq(&self.op.shared, &gpu.shared) {
            Ok(())
        } else {
            Err(self.foreign_to_batch())
        }
    }

    #[cold]
    #[inline(never)]
    fn foreign_to_batch(&self) -> crate::error::Error {
        crate::error::foreign_gpu(
            "binding",
            &self.op.label(),
            "given to the SetBatch of another Gpu",
        )
    }
}

/// How a set reaches a `Gpu`'s state: by locking it for the call ([`Locking`]), or through the
/// hold of a [`SetBatch`] ([`Held`]).
trait StateAccess {
    fn with<R>(&self, f: impl FnOnce(&mut State) -> R) -> R;
    /// `with` for an `f` that releases nothing (see `SharedState::with_held_releasing_nothing`).
    fn with_releasing_nothing<R>(&self, f: impl FnOnce(&mut State) -> R) -> R;
}

/// Locks the `Gpu`'s state for one call.
struct Locking<'g>(&'g SharedState);

impl StateAccess for Locking<'_> {
    #[inline]
    fn with<R>(&self, f: impl FnOnce(&mut State) -> R) -> R {
        self.0.with(f)
    }
    #[inline]
    fn with_releasing_nothing<R>(&self, f: impl FnOnce(&mut State) -> R) -> R {
        self.0.with(f)
    }
}

/// The state a [`SetBatch`] holds.
struct Held<'h, 'g>(&'h HeldState<'g>);

impl StateAccess for Held<'_, '_> {
    #[inline]
    fn with<R>(&self, f: impl FnOnce(&mut State) -> R) -> R {
        SharedState::with_held(self.0, f)
    }
    #[inline(always)]
    fn with_releasing_nothing<R>(&self, f: impl FnOnce(&mut State) -> R) -> R {
        SharedState::with_held_releasing_nothing(self.0, f)
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

    /// The binding named `name`, resolved once and checked for values of type `T` (see
    /// [`TypedBinding`]).
    pub fn typed_binding<T: Uniform>(&self, name: &str) -> Result<TypedBinding<T>> {
        TypedBinding::resolve(&self.inner, name)
    }
}

impl Draw {
    /// The binding named `name`, resolved once and checked for values of type `T` (see
    /// [`TypedBinding`]).
    pub fn typed_binding<T: Uniform>(&self, name: &str) -> Result<TypedBinding<T>> {
        TypedBinding::resolve(&self.inner, name)
    }
}

/// One uniform or storage binding of a draw or compute, resolved by WGSL name and checked
/// against one Rust type `T` (a `#[derive(vgpu::Uniform)]` struct, a glam matrix, …) when it is
/// made: a wrong layout is refused then (`VGPU-SET-TYPED-LAYOUT`, naming the field, the WGSL
/// type and the Rust type), before any value is set. Its `set` writes `T`'s bytes straight over
/// the binding's value: no name lookup, no type check, no look at the draw's record, no
/// allocation. Cheap to clone; keeps its draw alive.
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
/// let object = draw.typed_binding::<Object>("object")?;
/// object.set(&Object { world: [[1.0, 0.0, 0.0, 0.0]; 4] })?;
///
/// #[derive(vgpu::Uniform)]
/// struct Wrong { world: [[f32; 3]; 3] }
/// let e = draw.typed_binding::<Wrong>("object").unwrap_err();
/// assert_eq!(e.code(), "VGPU-SET-TYPED-LAYOUT");
/// # Ok::<(), vgpu::Error>(())
/// ```
pub struct TypedBinding<T: Uniform> {
    binding: Binding,
    /// The value owner the binding held at its last set through this handle (`KeyData::as_ffi`;
    /// the null key before the first): an owner belongs to one binding for its whole life and
    /// its key is never reused, so while it lives it is this binding's value.
    owner: AtomicU64,
    _type: PhantomData<fn(&T)>,
}

impl<T: Uniform> Clone for TypedBinding<T> {
    fn clone(&self) -> Self {
        TypedBinding {
            binding: self.binding.clone(),
            owner: AtomicU64::new(self.owner.load(Ordering::Relaxed)),
            _type: PhantomData,
        }
    }
}

impl<T: Uniform> std::fmt::Debug for TypedBinding<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TypedBinding")
            .field("label", &self.binding.op.label())
            .field("name", &self.binding.name())
            .field("type", &std::any::type_name::<T>())
            .finish()
    }
}

impl<T: Uniform> TypedBinding<T> {
    fn resolve(op: &OpHandle, name: &str) -> Result<TypedBinding<T>> {
        let binding = Binding::resolve(op, name)?;
        op.program.check_typed(
            &op.label(),
            binding.index,
            T::SHAPE,
            std::any::type_name::<T>(),
            T::SIZE,
        )?;
        Ok(TypedBinding {
            binding,
            owner: AtomicU64::new(OwnerKey::null().data().as_ffi()),
            _type: PhantomData,
        })
    }

    /// The WGSL name of the binding.
    pub fn name(&self) -> &str {
        self.binding.name()
    }

    /// The untyped handle of the same binding (to set other kinds of values).
    pub fn binding(&self) -> &Binding {
        &self.binding
    }

    /// Sets the binding to `value`: the same as [`Draw::set`] with its name, which it checks
    /// (and captures, uploads and counts) alike.
    pub fn set(&self, value: &T) -> Result<()> {
        self.set_via(Locking(&self.binding.op.shared), value)
    }

    /// `set` in one visit of the state: a plain value is compared with the kept owner's bytes
    /// and committed if it differs (small: it inlines into the caller's loop); anything else
    /// ([`set_written`](Self::set_written)) is written over them, or takes the full path.
    #[inline(always)]
    fn set_via(&self, state: impl StateAccess, value: &T) -> Result<()> {
        if let Some(bytes) = crate::typed::plain_bytes(value) {
            let owner = self.owner();
            if state
                .with_releasing_nothing(
                    #[inline(always)]
                    |st| st.write_plain_owner(owner, bytes),
                )
                .is_some()
            {
                return Ok(());
            }
        }
        self.set_written(state, value)
    }

    /// `set` of a value that is not plain, or whose owner is not set yet: over the kept owner's
    /// bytes, or else the full path.
    #[inline(never)]
    fn set_written(&self, state: impl StateAccess, value: &T) -> Result<()> {
        let owner = self.owner();
        state.with(|st| {
            // A plain value reaches here only when `set_via` found no owner to write over.
            let written = crate::typed::plain_bytes(value).is_none()
                && st
                    .write_typed_owner(owner, |bytes| value.write_wgsl(bytes))
                    .is_some();
            if written {
                Ok(())
            } else {
                self.set_first(st, value)
            }
        })
    }

    fn owner(&self) -> OwnerKey {
        OwnerKey::from(KeyData::from_ffi(self.owner.load(Ordering::Relaxed)))
    }

    /// The first set through this handle, or one after the binding held something else: the
    /// full path (it creates the binding's value), then the value's owner is kept.
    #[cold]
    #[inline(never)]
    fn set_first(&self, st: &mut State, value: &T) -> Result<()> {
        let (key, index) = (self.binding.op.key, self.binding.index);
        let typed = crate::typed::TypedRef::new(value);
        st.set_binding_at(key, index, BindingInput::Typed(typed))?;
        let owner = st.value_owner(key, index).unwrap_or_default();
        self.owner.store(owner.data().as_ffi(), Ordering::Relaxed);
        Ok(())
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
    /// Sets `binding` to `value` as [`TypedBinding::set`] does, without taking the lock again.
    /// A binding of another `Gpu` is refused (`VGPU-FOREIGN-GPU`).
    #[inline(always)]
    pub fn set_typed<T: Uniform>(&mut self, binding: &TypedBinding<T>, value: &T) -> Result<()> {
        binding.binding.check_batch_gpu(self.gpu)?;
        binding.set_via(Held(&self.held), value)
    }

    /// Sets `binding` to `value` as [`Binding::set`] does, without taking the lock again.
    /// A binding of another `Gpu` is refused (`VGPU-FOREIGN-GPU`).
    pub fn set<'a>(&mut self, binding: &Binding, value: impl Into<Bind<'a>>) -> Result<()> {
        binding.check_batch_gpu(self.gpu)?;
        binding.set_via(Held(&self.held), value.into())
    }
}
