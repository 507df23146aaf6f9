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

use vgpu_core::Value;
use vgpu_uniforms::OwnerKey;

use crate::error::Result;
use crate::gpu::Gpu;
use crate::state::BlockRecord;
use crate::typed::Uniform;
use crate::typed_ref::TypedRef;

/// A uniform struct shared by many draws. Cheap to clone (an `Arc`); draws that bind it keep it
/// alive. Belongs to the `Gpu` that created it.
#[derive(Clone)]
pub struct SharedUniforms {
    pub(crate) gpu: Gpu,
    pub(crate) inner: Arc<BlockRecord>,
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
    /// is bound to (and checked by shape against every later one: member names, types, offsets
    /// and sizes, whatever the WGSL struct is called); until then the value is kept as given
    /// and validated at that first bind.
    ///
    /// `value` is a [`Value`] (`value! { … }`) or a typed value (`&T` where `T:`
    /// [`Uniform`](crate::Uniform), e.g. a `#[derive(vgpu::Uniform)]` struct; checked by shape
    /// at that first bind).
    pub fn uniforms<'a>(&self, value: impl Into<ValueArg<'a>>) -> Result<SharedUniforms> {
        self.uniforms_labeled("uniforms", value)
    }

    /// Like [`uniforms`](Self::uniforms), with a label for errors.
    pub fn uniforms_labeled<'a>(
        &self,
        label: &str,
        value: impl Into<ValueArg<'a>>,
    ) -> Result<SharedUniforms> {
        self.ctx.check_device("Gpu::uniforms")?;
        let owner = match value.into() {
            ValueArg::Owned(value) => self.with_state(|st| st.create_block(label, value)),
            ValueArg::Borrowed(value) => {
                self.with_state(|st| st.create_block(label, value.clone()))
            }
            ValueArg::Typed(value) => self.with_state(|st| st.create_block_typed(label, value))?,
        };
        Ok(self.block_handle(owner, label))
    }

    /// A uniforms block holding raw bytes already in the WGSL layout; only their size is checked
    /// against the binding's type when bound. Prefer a typed value (see
    /// [`uniforms`](Self::uniforms)).
    pub fn uniforms_bytes(&self, label: &str, bytes: &[u8]) -> Result<SharedUniforms> {
        self.ctx.check_device("Gpu::uniforms_bytes")?;
        let owner = self.with_state(|st| st.create_block_bytes(label, bytes))?;
        Ok(self.block_handle(owner, label))
    }

    fn block_handle(&self, owner: OwnerKey, label: &str) -> SharedUniforms {
        SharedUniforms {
            gpu: self.clone(),
            inner: Arc::new(BlockRecord {
                owner,
                label: label.to_owned(),
                gpu: self.id(),
                shared: Arc::downgrade(&self.shared),
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
    ///
    /// A typed value (`&T` where `T:` [`Uniform`](crate::Uniform)) is checked against the
    /// adopted layout once per Rust type, then written straight into place.
    pub fn set<'a>(&self, value: impl Into<ValueArg<'a>>) -> Result<()> {
        let (owner, label) = (self.inner.owner, &self.inner.label);
        match value.into() {
            ValueArg::Owned(value) => self
                .gpu
                .with_state(|st| st.set_block_value(owner, label, &value)),
            ValueArg::Borrowed(value) => self
                .gpu
                .with_state(|st| st.set_block_value(owner, label, value)),
            ValueArg::Typed(value) => self
                .gpu
                .with_state(|st| st.set_block_typed(owner, label, value)),
        }
    }

    /// Sets raw bytes already in the WGSL layout (size checked against the adopted layout, or
    /// against the previous bytes). Prefer a typed value.
    pub fn set_bytes(&self, bytes: &[u8]) -> Result<()> {
        let (owner, label) = (self.inner.owner, &self.inner.label);
        self.gpu
            .with_state(|st| st.set_block_bytes(owner, label, bytes))
    }

    /// The current revision (bumps exactly when a set changes the packed bytes).
    pub fn revision(&self) -> u64 {
        let owner = self.inner.owner;
        self.gpu
            .with_state(|st| st.engine.revision(owner).unwrap_or(0))
    }
}

/// A value argument: an owned [`Value`], a reference to one (no clone), or a typed value.
#[derive(Debug)]
#[non_exhaustive]
pub enum ValueArg<'a> {
    /// Owned.
    Owned(Value),
    /// Borrowed.
    Borrowed(&'a Value),
    /// A typed value ([`Uniform`](crate::Uniform)).
    Typed(TypedRef<'a>),
}

impl<'a, T: Uniform> From<&'a T> for ValueArg<'a> {
    fn from(v: &'a T) -> Self {
        ValueArg::Typed(TypedRef::new(v))
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
