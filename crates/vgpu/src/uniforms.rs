//! [`SharedUniforms`]: one uniform struct value bound by many draws (a camera, a light setup).
//!
//! Setting it bumps a revision only when the packed bytes change. Each operation recorded in a
//! frame sees the value as it was when recorded: set it to A, record the shadow pass, set it to
//! B, record the main pass, and each pass reads its own camera. Values that repeat every frame
//! stay resident in retained slots, so a per-pass camera costs no upload in steady state.
//!
//! Choose it for values shared by many draws. For a value per draw, set it on the draw
//! (`draw.set("object", value)`): same capture semantics, one owner per draw. For large arrays
//! read by index (instancing), use a storage buffer: one binding, one draw call. Inside render
//! bundles a block is pinned to its home slot and read live.

use std::sync::Arc;

use vgpu_core::value::Value;
use vgpu_core::{PackContext, WritePlan};
use vgpu_uniforms::{AddressSpace, OwnerKey};

use crate::error::Result;
use crate::gpu::{Gpu, State};

/// How far a block's layout is known.
#[derive(Debug, Default)]
pub(crate) struct BlockState {
    /// The write plan adopted from the first shader binding that bound the block.
    pub(crate) plan: Option<Arc<WritePlan>>,
    /// A value set before any shader gave the block a layout.
    pub(crate) pending: Option<Value>,
}

pub(crate) struct BlockHandle {
    pub(crate) gpu: Gpu,
    pub(crate) owner: OwnerKey,
    pub(crate) label: Arc<str>,
}

impl Drop for BlockHandle {
    fn drop(&mut self) {
        let mut st = self.gpu.shared.lock();
        st.blocks.remove(self.owner);
        let _ = st.engine.remove_owner(self.owner);
    }
}

/// A uniform struct shared by many draws. Cheap to clone (an `Arc`); draws that bind it keep it
/// alive.
#[derive(Clone)]
pub struct SharedUniforms {
    pub(crate) inner: Arc<BlockHandle>,
}

impl std::fmt::Debug for SharedUniforms {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SharedUniforms")
            .field("label", &self.inner.label)
            .finish_non_exhaustive()
    }
}

impl Gpu {
    /// A uniforms block holding `value`. Its layout is adopted from the first shader binding it
    /// is bound to (and checked against every later one); until then the value is kept as given
    /// and validated at that first bind.
    pub fn uniforms(&self, value: Value) -> Result<SharedUniforms> {
        self.uniforms_labeled("uniforms", value)
    }

    /// Like [`uniforms`](Self::uniforms), with a label for errors.
    pub fn uniforms_labeled(&self, label: &str, value: Value) -> Result<SharedUniforms> {
        let mut st = self.shared.lock();
        let owner = st.engine.create_owner(label, AddressSpace::Uniform);
        st.blocks.insert(
            owner,
            BlockState {
                plan: None,
                pending: Some(value),
            },
        );
        drop(st);
        Ok(self.block_handle(owner, label))
    }

    /// A uniforms block holding the bytes of a typed `bytemuck::Pod` value; its size is checked
    /// against the binding's type when bound.
    pub fn uniforms_pod<T: bytemuck::Pod>(&self, label: &str, value: &T) -> Result<SharedUniforms> {
        let mut st = self.shared.lock();
        let owner = st.engine.create_owner(label, AddressSpace::Uniform);
        if let Err(e) = st.engine.set_bytes(owner, bytemuck::bytes_of(value)) {
            let _ = st.engine.remove_owner(owner);
            return Err(e.into());
        }
        st.blocks.insert(owner, BlockState::default());
        drop(st);
        Ok(self.block_handle(owner, label))
    }

    fn block_handle(&self, owner: OwnerKey, label: &str) -> SharedUniforms {
        SharedUniforms {
            inner: Arc::new(BlockHandle {
                gpu: self.clone(),
                owner,
                label: Arc::from(label),
            }),
        }
    }
}

impl SharedUniforms {
    /// The label.
    pub fn label(&self) -> &str {
        &self.inner.label
    }

    /// Sets the value. Once a layout is adopted, a partial struct merges onto the previous
    /// value; the revision bumps only if the packed bytes change. Operations already recorded in
    /// the open frame keep seeing the previous value.
    pub fn set<'a>(&self, value: impl Into<ValueArg<'a>>) -> Result<()> {
        let value = value.into();
        let mut st = self.inner.gpu.shared.lock();
        st.set_block_value(self.inner.owner, &self.inner.label, value.as_ref())
    }

    /// Sets the value from a typed `bytemuck::Pod` value (size checked against the adopted
    /// layout, or against the previous bytes).
    pub fn set_pod<T: bytemuck::Pod>(&self, value: &T) -> Result<()> {
        let mut st = self.inner.gpu.shared.lock();
        let bytes = bytemuck::bytes_of(value);
        let plan = st.blocks.get(self.inner.owner).and_then(|b| b.plan.clone());
        match plan {
            Some(plan) => {
                let cx = PackContext::new(&self.inner.label, &self.inner.label);
                plan.check_pod_size(bytes.len(), &cx)?;
                st.engine.set_bytes(self.inner.owner, bytes)?;
            }
            None => {
                st.engine.set_bytes(self.inner.owner, bytes)?;
                if let Some(b) = st.blocks.get_mut(self.inner.owner) {
                    b.pending = None;
                }
            }
        }
        Ok(())
    }

    /// The current revision (bumps exactly when a set changes the packed bytes).
    pub fn revision(&self) -> u64 {
        let st = self.inner.gpu.shared.lock();
        st.engine.revision(self.inner.owner).unwrap_or(0)
    }
}

/// A value argument: an owned [`Value`] or a reference to one (no clone).
#[derive(Debug)]
pub enum ValueArg<'a> {
    /// Owned.
    Owned(Value),
    /// Borrowed.
    Borrowed(&'a Value),
}

impl ValueArg<'_> {
    fn as_ref(&self) -> &Value {
        match self {
            ValueArg::Owned(v) => v,
            ValueArg::Borrowed(v) => v,
        }
    }
}

impl From<Value> for ValueArg<'_> {
    fn from(v: Value) -> Self {
        ValueArg::Owned(v)
    }
}
impl<'a> From<&'a Value> for ValueArg<'a> {
    fn from(v: &'a Value) -> Self {
        ValueArg::Borrowed(v)
    }
}

impl State {
    pub(crate) fn set_block_value(
        &mut self,
        owner: OwnerKey,
        label: &str,
        value: &Value,
    ) -> Result<()> {
        let Some(block) = self.blocks.get_mut(owner) else {
            return Ok(());
        };
        match block.plan.clone() {
            Some(plan) => {
                let cx = PackContext::new(label, label);
                self.engine.update(owner, |bytes| {
                    plan.pack_partial(value, bytes, &cx)
                        .map(|_| ())
                        .map_err(crate::Error::from)
                })?;
            }
            None => {
                // No layout yet: keep the value; it is validated when first bound.
                block.pending = Some(value.clone());
            }
        }
        Ok(())
    }

    /// Gives a block the layout of the binding it is being bound to, or checks it matches.
    pub(crate) fn adopt_block(
        &mut self,
        owner: OwnerKey,
        block_label: &str,
        plan: &Arc<WritePlan>,
        draw_label: &str,
        binding: &str,
    ) -> Result<()> {
        let Some(block) = self.blocks.get_mut(owner) else {
            return Ok(());
        };
        if let Some(existing) = &block.plan {
            if Arc::ptr_eq(existing, plan) || existing.layout() == plan.layout() {
                return Ok(());
            }
            return Err(crate::error::BindingError::LayoutMismatch {
                label: draw_label.to_owned(),
                binding: binding.to_owned(),
                block: block_label.to_owned(),
                expected: format!("{} ({} bytes)", plan.layout().name, plan.size()),
                actual: format!("{} ({} bytes)", existing.layout().name, existing.size()),
            }
            .into());
        }
        let cx = PackContext::new(draw_label, binding);
        if let Some(value) = &block.pending {
            let size = plan.packed_size(value, &cx)?;
            self.engine.update_sized(owner, size, |bytes| {
                plan.pack(value, bytes, &cx)
                    .map(|_| ())
                    .map_err(crate::Error::from)
            })?;
        } else {
            let len = self.engine.bytes(owner).map_or(0, <[u8]>::len);
            plan.check_pod_size(len, &cx)?;
        }
        if let Some(block) = self.blocks.get_mut(owner) {
            block.pending = None;
            block.plan = Some(plan.clone());
        }
        Ok(())
    }
}
