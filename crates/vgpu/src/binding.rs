//! [`Binding`]: one binding of a draw or compute, resolved by name once; and how a set through
//! a resolved binding reaches the state ([`StateAccess`]: locking it, or through a `SetBatch`'s
//! hold).

use crate::binding_arg::BindingArg;
use crate::error::Result;
use crate::op_handle::OpHandle;
use crate::state::{HeldState, Program, SharedState, State};

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
    pub(crate) op: OpHandle,
    /// Its index in the program of shader `shader` (found again by `name` once the operation
    /// moved onto another shader: `State::current_index`).
    pub(crate) index: usize,
    pub(crate) shader: u64,
    name: std::sync::Arc<str>,
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
    pub(crate) fn resolve(op: &OpHandle, name: &str) -> Result<Binding> {
        let Some(program) = op.program() else {
            return Err(operation_gone(op, name));
        };
        Binding::resolve_in(op, &program, name)
    }

    /// [`resolve`](Self::resolve) in `program` (the operation's now).
    pub(crate) fn resolve_in(op: &OpHandle, program: &Program, name: &str) -> Result<Binding> {
        match program.binding_index(name) {
            Some(index) => Ok(Binding {
                op: op.clone(),
                index,
                shader: program.shader.id,
                name: program.bindings[index].name.clone(),
            }),
            None => Err(program.unknown_binding(&op.label(), name).into()),
        }
    }

    /// The WGSL name of the binding.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Its index in the operation's program now (see [`State::current_index`]).
    #[inline]
    pub(crate) fn current_index(&self, st: &State) -> Result<usize> {
        st.current_index(self.op.key, self.index, self.shader, &self.name)
    }

    /// Sets the binding; the same as [`Draw::set`](crate::Draw::set) with its name, without the
    /// lookup.
    pub fn set<'a>(&self, value: impl Into<BindingArg<'a>>) -> Result<()> {
        self.set_via(Locking(&self.op.shared), value.into())
    }

    /// `set` through `state`, in one visit of it: in place when it can be (a typed value whose
    /// type was checked on this binding already, a value of the same size), else the full path.
    pub(crate) fn set_via(&self, state: impl StateAccess, value: BindingArg<'_>) -> Result<()> {
        let key = self.op.key;
        let input = value.lower(self.op.gpu_id(), &|| self.op.label(), self.name())?;
        state.with(|st| {
            let index = self.current_index(st)?;
            st.set_by_index(key, index, input)
        })
    }
}

/// `VGPU-SET-BINDING-UNKNOWN` for a handle whose operation has no record (not reached while a
/// handle lives: the last handle removes it).
#[cold]
pub(crate) fn operation_gone(op: &OpHandle, name: &str) -> crate::error::Error {
    vgpu_core::SetError::BindingUnknown {
        label: op.label().as_str().into(),
        name: name.into(),
        available: Vec::new(),
        hint: None,
    }
    .into()
}

/// How a set reaches a `Gpu`'s state: by locking it for the call ([`Locking`]), or through the
/// hold of a `SetBatch` ([`Held`]).
pub(crate) trait StateAccess {
    fn with<R>(&self, f: impl FnOnce(&mut State) -> R) -> R;
    /// `with` for an `f` that releases nothing (see `SharedState::with_held_releasing_nothing`).
    fn with_releasing_nothing<R>(&self, f: impl FnOnce(&mut State) -> R) -> R;
}

/// Locks the `Gpu`'s state for one call.
pub(crate) struct Locking<'g>(pub(crate) &'g SharedState);

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

/// The state a `SetBatch` holds.
pub(crate) struct Held<'h, 'g>(pub(crate) &'h HeldState<'g>);

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
