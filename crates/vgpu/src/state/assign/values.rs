//! Library-owned values: a struct value or typed bytes packed into the binding's WGSL layout,
//! held by an owner of the capture engine (one per binding). A partial struct merges onto the
//! previous full value; a value for a runtime-sized array replaces the whole array (the storage
//! buffer and its bind group follow the new length).
//!
//! The in-place write both entry points try first ([`State::set_in_place`]: a value of a fixed
//! size for a binding that already holds one), the full assignment of a value
//! ([`State::assign_value`]), and the writes of a `TypedBinding` through the owner it keeps.

use vgpu_core::{PackContext, Value, WritePlan};
use vgpu_uniforms::OwnerKey;

use super::{Assigned, value_space};
use crate::error::{BindingError, Result};
use crate::state::State;
use crate::state::binding_input::BindingInput;
use crate::state::operation::{BindingContent, OpKey};
use crate::typed_ref::{CheckedType, TypedRef};

/// A value input that goes through the binding's write plan.
enum Untyped<'v> {
    Value(&'v Value),
    Bytes(&'v [u8]),
}

impl State {
    /// The in-place write of both entry points: a new value for a binding already holding a
    /// library-owned value of a fixed-size type. Packs straight into the engine's scratch bytes;
    /// no handle clones, no allocation. `None` (not a value, or no value of a fixed size there
    /// yet): the full path must run.
    #[inline]
    pub(super) fn set_in_place(
        &mut self,
        key: OpKey,
        i: usize,
        input: &BindingInput<'_>,
    ) -> Option<Result<()>> {
        let value = match *input {
            BindingInput::Typed(value) => return self.set_typed_in_place(key, i, value),
            BindingInput::Value(v) => Untyped::Value(v),
            BindingInput::Bytes(bytes) => Untyped::Bytes(bytes),
            _ => return None,
        };
        let State { ops, engine, .. } = self;
        let op = ops.get(key)?;
        let BindingContent::Value { owner, .. } = *op.contents.get(i)? else {
            return None;
        };
        let pb = &op.program.bindings[i];
        let plan = op
            .program
            .shader
            .core
            .bindings()
            .get(pb.info)?
            .plan
            .as_deref()?;
        if plan.runtime_array().is_some() {
            return None;
        }
        if let Untyped::Value(v) = value {
            // One member of a flat struct (a `world` matrix): compared and written in place.
            if let Some((offset, bytes)) = plan.flat_member(v)
                && engine
                    .write_range_if_changed(owner, offset, bytes)
                    .is_some()
            {
                return Some(Ok(()));
            }
        }
        let cx = PackContext::new(&op.label, &pb.name);
        Some(match value {
            Untyped::Value(v) => engine
                .update(owner, |bytes| {
                    plan.pack_partial(v, bytes, &cx)
                        .map(|_| ())
                        .map_err(crate::error::Error::from)
                })
                .map(|_| ()),
            Untyped::Bytes(bytes) => plan
                .check_pod_size(bytes.len(), &cx)
                .map_err(crate::error::Error::from)
                .and_then(|()| {
                    engine
                        .set_bytes(owner, bytes)
                        .map(|_| ())
                        .map_err(crate::error::Error::from)
                }),
        })
    }

    /// Fast path of a typed `set`: a value of the Rust type already checked against binding `i`
    /// of operation `key` (which holds its library-owned value, then of fixed size): every byte
    /// written straight into the engine's scratch and compared with the owner's, no plan, no
    /// tree. `None` (another type, or no value yet): the full path must run (once).
    #[inline]
    fn set_typed_in_place(
        &mut self,
        key: OpKey,
        i: usize,
        value: TypedRef<'_>,
    ) -> Option<Result<()>> {
        let State { ops, engine, .. } = self;
        let op = ops.get(key)?;
        let BindingContent::Value { owner, typed } = *op.contents.get(i)? else {
            return None;
        };
        if !typed.holds(&value) {
            return None;
        }
        if let Some(bytes) = value.plain() {
            return engine.replace_bytes(owner, bytes).map(|_| Ok(()));
        }
        Some(
            engine
                .overwrite(owner, |bytes| {
                    value.write(bytes);
                    Ok::<(), crate::error::Error>(())
                })
                .map(|_| ()),
        )
    }

    /// The value owner binding `i` of operation `key` holds, if it holds one (a
    /// [`TypedBinding`](crate::TypedBinding) keeps it to write without looking up the operation).
    pub(crate) fn value_owner(&self, key: OpKey, i: usize) -> Option<OwnerKey> {
        match self.ops.get(key)?.contents.get(i)? {
            BindingContent::Value { owner, .. } => Some(*owner),
            _ => None,
        }
    }

    /// Writes a typed value of a type already checked against the binding whose value `owner`
    /// is: `None`, with nothing done, when that owner is gone (the binding was given something
    /// else) or holds no bytes yet. An owner belongs to one binding of one operation for its
    /// whole life, and its key is never reused.
    #[inline]
    pub(crate) fn write_typed_owner(
        &mut self,
        owner: OwnerKey,
        write: impl FnOnce(&mut [u8]),
    ) -> Option<()> {
        self.engine.replace_with(owner, write).map(|_| ())
    }

    /// [`write_typed_owner`](Self::write_typed_owner) for a plain type (see
    /// [`MemoryIsWgsl`](crate::MemoryIsWgsl)): the value's bytes as they lie, compared and
    /// copied without a scratch copy. Releases nothing.
    #[inline(always)]
    pub(crate) fn write_plain_owner(&mut self, owner: OwnerKey, bytes: &[u8]) -> Option<()> {
        self.engine.replace_bytes(owner, bytes).map(|_| ())
    }

    /// A value or typed bytes for binding `t`: packs into its owner (created on the first
    /// value). Returns the new content for a binding that held no value yet.
    pub(super) fn assign_value(
        &mut self,
        t: &Assigned<'_>,
        input: &BindingInput<'_>,
    ) -> Result<Option<BindingContent>> {
        let info = &t.program.shader.core.bindings()[t.binding.info];
        let (Some(plan), Some(space)) = (info.plan.clone(), value_space(t.binding.kind)) else {
            return Err(t.kind_error(input.describe()));
        };
        let cx = PackContext::new(t.label, &t.binding.name);
        let existing = match self.ops.get(t.key).map(|op| &op.contents[t.index]) {
            Some(BindingContent::Value { owner, .. }) => Some(*owner),
            _ => None,
        };
        let owner = match existing {
            Some(owner) => owner,
            None => {
                let owner_label = format!("{}.{}", t.label, t.binding.name);
                self.engine.create_owner(&owner_label, space)
            }
        };
        let size_before = self.engine.bytes(owner).map_or(0, <[u8]>::len);
        let result = self.pack_value(owner, existing.is_some(), &plan, input, t, &cx);
        match (result, existing) {
            (Err(e), None) => {
                let _ = self.engine.remove_owner(owner);
                Err(e)
            }
            (Err(e), Some(_)) => Err(e),
            (Ok(()), Some(_)) => {
                if let (BindingInput::Typed(value), Some(op)) = (input, self.ops.get_mut(t.key))
                    && let BindingContent::Value { typed, .. } = &mut op.contents[t.index]
                {
                    *typed = CheckedType::of(value);
                }
                // A runtime-sized array of another length lives in another buffer: bundles that
                // recorded the old one are stale, memos rebuild their group.
                if self.engine.bytes(owner).map_or(0, <[u8]>::len) != size_before
                    && let Some(op) = self.ops.get_mut(t.key)
                {
                    op.bindings_changed();
                    self.note_op_changed(t.key);
                }
                Ok(None)
            }
            (Ok(()), None) => Ok(Some(BindingContent::Value {
                owner,
                typed: match input {
                    BindingInput::Typed(value) => CheckedType::of(value),
                    _ => CheckedType::none(),
                },
            })),
        }
    }

    /// Packs `input` into `owner`: a partial value merges onto the previous bytes; a value (or
    /// bytes) for a runtime-sized array replaces the array and may change the size.
    fn pack_value(
        &mut self,
        owner: OwnerKey,
        existing: bool,
        plan: &WritePlan,
        input: &BindingInput<'_>,
        t: &Assigned<'_>,
        cx: &PackContext<'_>,
    ) -> Result<()> {
        let empty = || -> crate::error::Error {
            BindingError::EmptyRuntimeArray {
                label: t.label.to_owned(),
                binding: t.binding.name.to_string(),
                path: match plan.layout().members().last() {
                    Some(m) => format!("$.{}", m.name),
                    None => "$".to_owned(),
                },
            }
            .into()
        };
        let has_bytes = existing && self.engine.bytes(owner).is_some_and(|b| !b.is_empty());
        match input {
            BindingInput::Typed(value) => {
                // The check a `TypedBinding` makes when it is created; it also guards the write
                // below (a fixed size equal to the binding's).
                t.program.check_typed(
                    t.label,
                    t.index,
                    value.shape(),
                    value.rust_type(),
                    value.size(),
                )?;
                let size = value.size();
                if has_bytes {
                    self.engine.update(owner, |bytes| {
                        value.write(bytes);
                        Ok::<(), crate::error::Error>(())
                    })?;
                } else {
                    self.engine.update_sized(owner, size, |bytes| {
                        value.write(bytes);
                        Ok::<(), crate::error::Error>(())
                    })?;
                }
                Ok(())
            }
            BindingInput::Bytes(bytes) => {
                plan.check_pod_size(bytes.len(), cx)?;
                if plan
                    .runtime_array()
                    .is_some_and(|rt| bytes.len() <= rt.offset as usize)
                {
                    return Err(empty());
                }
                self.engine.set_bytes(owner, bytes)?;
                Ok(())
            }
            BindingInput::Value(v) => {
                if let Some(size) = plan.runtime_array_size(v, cx)? {
                    if plan
                        .runtime_array()
                        .is_some_and(|rt| size <= rt.offset as usize)
                    {
                        return Err(empty());
                    }
                    return self.replace_runtime_array(owner, has_bytes, plan, v, size, cx);
                }
                if has_bytes {
                    self.engine.update(owner, |bytes| {
                        plan.pack_partial(v, bytes, cx)
                            .map(|_| ())
                            .map_err(crate::error::Error::from)
                    })?;
                    return Ok(());
                }
                let size = plan.packed_size(v, cx)?;
                self.engine.update_sized(owner, size, |bytes| {
                    plan.pack(v, bytes, cx)
                        .map(|_| ())
                        .map_err(crate::error::Error::from)
                })?;
                Ok(())
            }
            _ => Err(t.kind_error(input.describe())),
        }
    }

    /// A value that gives a runtime-sized array `size` bytes in all: the other members merge
    /// onto the previous bytes (a complete value replaces them), the array is replaced whole.
    fn replace_runtime_array(
        &mut self,
        owner: OwnerKey,
        has_bytes: bool,
        plan: &WritePlan,
        value: &Value,
        size: usize,
        cx: &PackContext<'_>,
    ) -> Result<()> {
        let current = self.engine.bytes(owner).map_or(0, <[u8]>::len);
        if has_bytes && current == size {
            self.engine.update(owner, |bytes| {
                plan.pack_partial(value, bytes, cx)
                    .map(|_| ())
                    .map_err(crate::error::Error::from)
            })?;
            return Ok(());
        }
        let mut bytes = match self.engine.bytes(owner) {
            Some(b) if has_bytes => b.to_vec(),
            _ => Vec::new(),
        };
        bytes.resize(size, 0);
        if has_bytes {
            plan.pack_partial(value, &mut bytes, cx)?;
        } else {
            plan.pack(value, &mut bytes, cx)?;
        }
        self.engine.set_bytes(owner, &bytes)?;
        Ok(())
    }
}
