//! [`TypedBinding`]: one binding resolved by name once and checked for one Rust type when it is
//! made; its `set` writes through the value owner it keeps (the typed set path measured in
//! instructions: no name lookup, no type check, no look at the draw's record).

use std::marker::PhantomData;
use std::sync::atomic::{AtomicU64, Ordering};

use slotmap::{Key as _, KeyData};
use vgpu_uniforms::OwnerKey;

use crate::binding::{Binding, Locking, StateAccess};
use crate::error::Result;
use crate::op_handle::OpHandle;
use crate::state::{BindingInput, State};
use crate::typed::{Uniform, plain_bytes};
use crate::typed_ref::TypedRef;

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
    pub(crate) binding: Binding,
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
    /// Resolves `name` among the bindings of `op` and checks `T` against its WGSL type.
    pub(crate) fn resolve(op: &OpHandle, name: &str) -> Result<TypedBinding<T>> {
        let Some(program) = op.program() else {
            return Err(crate::binding::operation_gone(op, name));
        };
        let binding = Binding::resolve_in(op, &program, name)?;
        program.check_typed(
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

    /// Sets the binding to `value`: the same as [`Draw::set`](crate::Draw::set) with its name,
    /// which it checks (and captures, uploads and counts) alike.
    pub fn set(&self, value: &T) -> Result<()> {
        self.set_via(Locking(&self.binding.op.shared), value)
    }

    /// `set` in one visit of the state: a plain value is compared with the kept owner's bytes
    /// and committed if it differs (small: it inlines into the caller's loop); anything else
    /// ([`set_written`](Self::set_written)) is written over them, or takes the full path.
    #[inline(always)]
    pub(crate) fn set_via(&self, state: impl StateAccess, value: &T) -> Result<()> {
        if let Some(bytes) = plain_bytes(value) {
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
            let written = plain_bytes(value).is_none()
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
        let key = self.binding.op.key;
        let index = self.binding.current_index(st)?;
        let typed = TypedRef::new(value);
        st.set_by_index(key, index, BindingInput::Typed(typed))?;
        let owner = st.value_owner(key, index).unwrap_or_default();
        self.owner.store(owner.data().as_ffi(), Ordering::Relaxed);
        Ok(())
    }
}
