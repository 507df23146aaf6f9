//! Shared uniforms blocks: the layout a block adopts from the first binding it is bound to,
//! checked by shape against every later one, and values set before any layout is known.

use std::any::TypeId;
use std::sync::Arc;

use vgpu_core::RustShape;

use vgpu_core::Value;
use vgpu_core::{PackContext, WritePlan};
use vgpu_uniforms::{AddressSpace, OwnerKey};

use super::State;
use crate::error::{BindingError, Result};
use crate::typed_ref::TypedRef;

/// How far a block's layout is known.
#[derive(Debug, Default)]
pub(crate) struct BlockState {
    /// The write plan adopted from the first shader binding that bound the block.
    pub(crate) plan: Option<Arc<WritePlan>>,
    /// Who gave the block its layout (`draw "x" binding `frame``), for errors.
    pub(crate) fixed_by: String,
    /// A value set before any shader gave the block a layout.
    pub(crate) pending: Option<Value>,
    /// The Rust type of the typed value the bytes hold: unchecked while no layout is adopted
    /// (checked at adoption), checked against the adopted layout once it is.
    pub(crate) typed: Option<TypeId>,
    /// The shape of the typed value set before any layout was adopted, checked at adoption.
    pub(crate) pending_shape: Option<(&'static RustShape, &'static str)>,
}

impl State {
    /// A block's owner, marked shared: its moves leave the engine's value clock alone (the draws
    /// that bind it check it against what their pass bound, `record_fast`).
    fn create_block_owner(&mut self, label: &str) -> OwnerKey {
        let owner = self.engine.create_owner(label, AddressSpace::Uniform);
        self.engine.mark_shared(owner);
        owner
    }

    /// A block holding `value`, validated when first bound; returns its owner.
    pub(crate) fn create_block(&mut self, label: &str, value: Value) -> OwnerKey {
        let owner = self.create_block_owner(label);
        self.blocks.insert(
            owner,
            BlockState {
                pending: Some(value),
                ..BlockState::default()
            },
        );
        owner
    }

    /// A block holding `bytes` (checked against the first binding's size).
    pub(crate) fn create_block_bytes(&mut self, label: &str, bytes: &[u8]) -> Result<OwnerKey> {
        let owner = self.create_block_owner(label);
        if let Err(e) = self.engine.set_bytes(owner, bytes) {
            let _ = self.engine.remove_owner(owner);
            return Err(e.into());
        }
        self.blocks.insert(owner, BlockState::default());
        Ok(owner)
    }

    /// `SharedUniforms::set`: packs onto the adopted layout, or keeps the value until one is.
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
                        .map_err(crate::error::Error::from)
                })?;
            }
            None => {
                // No layout yet: keep the value; it is validated when first bound.
                block.pending = Some(value.clone());
                block.typed = None;
                block.pending_shape = None;
            }
        }
        Ok(())
    }

    /// A block holding a typed value, written in the Rust type's WGSL layout and checked by
    /// shape when first bound.
    pub(crate) fn create_block_typed(
        &mut self,
        label: &str,
        value: TypedRef<'_>,
    ) -> Result<OwnerKey> {
        let mut bytes = vec![0u8; value.size()];
        value.write(&mut bytes);
        let owner = self.create_block_bytes(label, &bytes)?;
        if let Some(block) = self.blocks.get_mut(owner) {
            block.typed = Some(value.type_key());
            block.pending_shape = Some((value.shape(), value.rust_type()));
        }
        Ok(owner)
    }

    /// `SharedUniforms::set` of a typed value: written in place once its Rust type was checked
    /// against the adopted layout (checked now if not); before any layout, its bytes replace
    /// the block's and its shape waits for the first bind.
    pub(crate) fn set_block_typed(
        &mut self,
        owner: OwnerKey,
        label: &str,
        value: TypedRef<'_>,
    ) -> Result<()> {
        let Some(block) = self.blocks.get_mut(owner) else {
            return Ok(());
        };
        let key = value.type_key();
        match &block.plan {
            Some(_) if block.typed == Some(key) => {}
            Some(plan) => {
                let cx = PackContext::new(label, label);
                value.shape().check(plan.layout(), value.rust_type(), &cx)?;
                if value.size() != plan.size() {
                    return Err(vgpu_core::SetError::PodSize {
                        label: label.into(),
                        binding: label.into(),
                        type_name: plan.layout().name.clone(),
                        expected: plan.size() as u64,
                        actual: value.size() as u64,
                        hint: None,
                    }
                    .into());
                }
                block.typed = Some(key);
            }
            None => {
                let mut bytes = vec![0u8; value.size()];
                value.write(&mut bytes);
                self.engine.set_bytes(owner, &bytes)?;
                if let Some(block) = self.blocks.get_mut(owner) {
                    block.pending = None;
                    block.typed = Some(key);
                    block.pending_shape = Some((value.shape(), value.rust_type()));
                }
                return Ok(());
            }
        }
        if let Some(bytes) = value.plain() {
            // The checked type is the block's size, so this is the full set.
            self.engine.set_bytes(owner, bytes)?;
            return Ok(());
        }
        self.engine.overwrite(owner, |bytes| {
            value.write(bytes);
            Ok::<(), crate::error::Error>(())
        })?;
        Ok(())
    }

    /// `SharedUniforms::set_bytes`: size checked against the adopted layout, or against the
    /// previous bytes.
    pub(crate) fn set_block_bytes(
        &mut self,
        owner: OwnerKey,
        label: &str,
        bytes: &[u8],
    ) -> Result<()> {
        let plan = self.blocks.get(owner).and_then(|b| b.plan.clone());
        match plan {
            Some(plan) => {
                let cx = PackContext::new(label, label);
                plan.check_pod_size(bytes.len(), &cx)?;
                self.engine.set_bytes(owner, bytes)?;
                if let Some(b) = self.blocks.get_mut(owner) {
                    b.typed = None;
                }
            }
            None => {
                self.engine.set_bytes(owner, bytes)?;
                if let Some(b) = self.blocks.get_mut(owner) {
                    b.pending = None;
                    b.typed = None;
                    b.pending_shape = None;
                }
            }
        }
        Ok(())
    }

    /// Gives a block the layout of the binding it is being bound to, or checks that the binding's
    /// type has the same shape (member names, types, offsets, sizes; struct names may differ).
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
            if Arc::ptr_eq(existing, plan) {
                return Ok(());
            }
            let Some(difference) = existing.layout().shape_difference(plan.layout()) else {
                return Ok(());
            };
            return Err(BindingError::LayoutMismatch {
                label: draw_label.to_owned(),
                binding: binding.to_owned(),
                block: block_label.to_owned(),
                expected: format!("{} ({} bytes)", plan.layout().name, plan.size()),
                actual: format!("{} ({} bytes)", existing.layout().name, existing.size()),
                fixed_by: block.fixed_by.clone(),
                difference: difference.to_string(),
            }
            .into());
        }
        let cx = PackContext::new(draw_label, binding);
        if let Some(value) = &block.pending {
            let size = plan.packed_size(value, &cx)?;
            self.engine.update_sized(owner, size, |bytes| {
                plan.pack(value, bytes, &cx)
                    .map(|_| ())
                    .map_err(crate::error::Error::from)
            })?;
        } else if let Some((shape, rust_type)) = block.pending_shape {
            shape.check(plan.layout(), rust_type, &cx)?;
            let len = self.engine.bytes(owner).map_or(0, <[u8]>::len);
            plan.check_pod_size(len, &cx)?;
        } else {
            let len = self.engine.bytes(owner).map_or(0, <[u8]>::len);
            plan.check_pod_size(len, &cx)?;
        }
        if let Some(block) = self.blocks.get_mut(owner) {
            block.pending = None;
            block.pending_shape = None;
            block.plan = Some(plan.clone());
            block.fixed_by = format!("draw {draw_label:?} binding `{binding}`");
        }
        Ok(())
    }
}
