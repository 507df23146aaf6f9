//! [`OpHandle`]: what every handle of an operation holds (a [`Draw`](crate::Draw), a
//! [`Compute`](crate::Compute), their clones and their bindings), and the `set` and `set_all`
//! they share.

use std::sync::Arc;

use vgpu_core::Label;

use crate::binding_arg::BindingArg;
use crate::descriptors::GpuId;
use crate::error::Result;
use crate::gpu::Gpu;
use crate::state::{BindingInput, OpKey, OperationKind, Program, SharedState, State};

/// A handle of an operation (a draw or compute, a clone of one, or a binding of one): the
/// operation record counts its handles (`Operation::handles`), and dropping the last removes it.
/// No allocation of its own: 16 bytes, the state's `Arc` and the key. (Its program is read from
/// the record: `Gpu::replace_shader` moves an operation onto another one.)
pub(crate) struct OpHandle {
    pub(crate) shared: Arc<SharedState>,
    pub(crate) key: OpKey,
}

impl OpHandle {
    /// Creates the operation in the state.
    pub(crate) fn insert(
        gpu: &Gpu,
        label: &str,
        program: Arc<Program>,
        kind: OperationKind,
        counts: (u32, u32),
    ) -> OpHandle {
        let label = Label::new(label);
        let key = gpu.with_state(|st| st.insert_op(label, program, kind, counts));
        OpHandle {
            shared: gpu.shared.clone(),
            key,
        }
    }

    /// The `Gpu` the operation belongs to.
    #[inline]
    pub(crate) fn gpu_id(&self) -> GpuId {
        self.shared.id
    }

    /// Runs `f` on the locked state of the operation's `Gpu`.
    #[inline]
    pub(crate) fn with_state<R>(&self, f: impl FnOnce(&mut State) -> R) -> R {
        self.shared.with(f)
    }

    /// The operation's program now (read from its record).
    pub(crate) fn program(&self) -> Option<Arc<Program>> {
        let key = self.key;
        self.with_state(|st| st.op_program(key))
    }

    /// The operation's label (read from its record: errors and `Debug` only).
    pub(crate) fn label(&self) -> Label {
        let key = self.key;
        self.with_state(|st| st.op_label(key))
    }

    /// `set` of draws and computes: one binding by name (or a member by shorthand).
    pub(crate) fn set(&self, name: &str, value: BindingArg<'_>) -> Result<()> {
        let key = self.key;
        let input = value.lower(self.gpu_id(), &|| self.label(), name)?;
        self.with_state(|st| st.set_by_name(key, name, input))
    }

    /// `set_all` of draws and computes.
    pub(crate) fn set_all<'a>(
        &self,
        values: impl IntoIterator<Item = (&'a str, BindingArg<'a>)>,
    ) -> Result<()> {
        let values: Vec<(&str, BindingArg<'_>)> = values.into_iter().collect();
        let inputs = values
            .iter()
            .map(|(name, value)| Ok((*name, value.lower(self.gpu_id(), &|| self.label(), name)?)))
            .collect::<Result<Vec<(&str, BindingInput<'_>)>>>()?;
        self.with_state(|st| st.set_all_by_name(self.key, &inputs))
    }
}

impl Clone for OpHandle {
    fn clone(&self) -> Self {
        let key = self.key;
        self.with_state(|st| st.retain_op(key));
        OpHandle {
            shared: self.shared.clone(),
            key,
        }
    }
}

impl Drop for OpHandle {
    fn drop(&mut self) {
        let key = self.key;
        self.shared.with(|st| st.release_op(key));
    }
}

/// The claimed-group calls of an operation, shared by `Draw` and `Compute` (their public forms
/// and documentation are in `claim/`).
impl OpHandle {
    pub(crate) fn claim_group(&self, group: u32, dynamic: bool) -> Result<wgpu::BindGroupLayout> {
        let key = self.key;
        self.with_state(|st| st.claim_group(key, group, dynamic))
    }

    pub(crate) fn set_group(&self, group: u32, bind_group: &wgpu::BindGroup) -> Result<()> {
        let key = self.key;
        self.with_state(|st| st.set_claimed_group(key, group, bind_group))
    }

    pub(crate) fn set_group_offsets(&self, group: u32, offsets: &[u32]) -> Result<()> {
        let key = self.key;
        self.with_state(|st| st.set_claimed_offsets(key, group, offsets))
    }

    pub(crate) fn create_group(
        &self,
        group: u32,
        entries: &[wgpu::BindGroupEntry<'_>],
    ) -> Result<wgpu::BindGroup> {
        let key = self.key;
        self.with_state(|st| st.create_claimed_group(key, group, entries))
    }
}
