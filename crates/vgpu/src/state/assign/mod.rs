//! Binding assignment: what `Draw::set` (and `Compute::set`, `set_all`) does to an operation's
//! bindings, split by kind of input: values (`values.rs`), shared blocks (`blocks.rs`), user
//! buffers (`buffers.rs`), textures and samplers (`textures.rs`).
//!
//! The handle floor lowers its public `Bind` into a [`BindingInput`] (records, raw wgpu objects,
//! no handles) after checking that every handle belongs to the operation's `Gpu`. Each kind
//! checks its input against the WGSL binding and returns the binding's new content, or `None`
//! when the binding keeps its content (a new value for an existing owner, the same resource
//! again); [`State::replace_content`] installs a new content. A rejected input changes nothing.

mod blocks;
mod buffers;
mod textures;
mod values;

use std::sync::Arc;

use vgpu_core::reflect::BindingKind;
use vgpu_core::value::Value;
use vgpu_uniforms::OwnerKey;

use super::State;
use super::operation::{BindingContent, OpKey};
use super::program::{Program, ProgramBinding};
use super::resources::{
    BlockRecord, BufferRecord, HeldResource, SamplerRecord, TargetRecord, TextureRecord,
};
use crate::error::{BindingError, Result};
use crate::typed::TypedRef;

/// What a binding is given, as the state sees it (lowered from the public `Bind`).
#[derive(Clone, Debug)]
pub(crate) enum BindingInput<'a> {
    /// A library-owned struct value.
    Value(&'a Value),
    /// Raw bytes in the binding's layout (size checked only).
    Bytes(&'a [u8]),
    /// A typed value (`vgpu::Uniform`), checked by shape once per binding and Rust type.
    Typed(TypedRef<'a>),
    /// A shared uniforms block.
    Block(&'a Arc<BlockRecord>),
    /// A user buffer (a vgpu buffer, or a raw one), bound by identity.
    Buffer(BufferInput<'a>),
    /// A texture view (of a vgpu texture, a target, or raw).
    View(ViewInput<'a>),
    /// A sampler (vgpu or raw).
    Sampler(SamplerInput<'a>),
    /// A handle that cannot be bound at all; the text says what it is.
    Unusable(&'static str),
}

/// A value for a binding: the common input, passed without lowering (see [`State::set_value`]).
#[derive(Clone, Copy, Debug)]
pub(crate) enum ValueInput<'a> {
    /// A library-owned struct value.
    Value(&'a Value),
    /// Raw bytes in the binding's layout (size checked only).
    Bytes(&'a [u8]),
    /// A typed value (`vgpu::Uniform`).
    Typed(TypedRef<'a>),
}

impl<'a> From<ValueInput<'a>> for BindingInput<'a> {
    fn from(v: ValueInput<'a>) -> Self {
        match v {
            ValueInput::Value(v) => BindingInput::Value(v),
            ValueInput::Bytes(p) => BindingInput::Bytes(p),
            ValueInput::Typed(t) => BindingInput::Typed(t),
        }
    }
}

/// A buffer range to bind.
#[derive(Clone, Debug)]
pub(crate) struct BufferInput<'a> {
    pub(crate) raw: &'a wgpu::Buffer,
    pub(crate) offset: u64,
    pub(crate) size: Option<wgpu::BufferSize>,
    /// The vgpu buffer, kept alive while bound (`None` for a raw buffer).
    pub(crate) record: Option<&'a Arc<BufferRecord>>,
    /// The buffer's label for the registry.
    pub(crate) label: &'a str,
}

/// The record a view comes from, kept alive while bound.
#[derive(Clone, Debug)]
pub(crate) enum ViewOwner<'a> {
    Raw,
    Texture(&'a Arc<TextureRecord>),
    Target(&'a Arc<TargetRecord>),
}

/// A texture view to bind.
#[derive(Clone, Debug)]
pub(crate) struct ViewInput<'a> {
    pub(crate) view: &'a wgpu::TextureView,
    pub(crate) format: Option<wgpu::TextureFormat>,
    pub(crate) samples: u32,
    pub(crate) owner: ViewOwner<'a>,
    /// What it is, for errors ("a texture", "a target's depth texture").
    pub(crate) what: &'static str,
}

/// A sampler to bind.
#[derive(Clone, Debug)]
pub(crate) struct SamplerInput<'a> {
    pub(crate) raw: &'a wgpu::Sampler,
    pub(crate) record: Option<&'a Arc<SamplerRecord>>,
}

impl BindingInput<'_> {
    /// What the input is, for errors.
    pub(crate) fn describe(&self) -> &'static str {
        match self {
            BindingInput::Value(_) => "a value",
            BindingInput::Bytes(_) => "raw bytes",
            BindingInput::Typed(_) => "a typed value",
            BindingInput::Block(_) => "a uniforms block",
            BindingInput::Buffer(b) if b.record.is_some() => "a vgpu buffer",
            BindingInput::Buffer(_) => "a wgpu buffer",
            BindingInput::View(v) => v.what,
            BindingInput::Sampler(_) => "a sampler",
            BindingInput::Unusable(what) => what,
        }
    }

    /// Values and blocks: the library owns the bytes.
    pub(crate) fn is_library_owned(&self) -> bool {
        matches!(
            self,
            BindingInput::Value(_)
                | BindingInput::Bytes(_)
                | BindingInput::Typed(_)
                | BindingInput::Block(_)
        )
    }
}

/// The binding being assigned, for checks and errors.
pub(crate) struct Assigned<'p> {
    pub(crate) key: OpKey,
    pub(crate) index: usize,
    pub(crate) label: &'p str,
    pub(crate) binding: &'p ProgramBinding,
    pub(crate) program: &'p Program,
}

impl Assigned<'_> {
    /// `VGPU-SET-KIND`: the binding's reflected kind, and what was given.
    #[cold]
    pub(crate) fn kind_error(&self, actual: &str) -> crate::error::Error {
        BindingError::Kind {
            label: self.label.to_owned(),
            binding: self.binding.name.to_string(),
            expected: self.binding.kind.describe(),
            actual: actual.to_owned(),
        }
        .into()
    }
}

impl State {
    /// `Draw::set` of a value: packed in place when the binding already holds a value (the
    /// steady path), else the full path.
    #[inline]
    pub(crate) fn set_value(
        &mut self,
        key: OpKey,
        name: &str,
        input: ValueInput<'_>,
    ) -> Result<()> {
        let index = self
            .ops
            .get(key)
            .and_then(|op| op.program.binding_index(name));
        if let Some(index) = index {
            if let Some(done) = self.set_value_in_place(key, index, input) {
                return done;
            }
        }
        self.set_binding_full(key, name, input.into())
    }

    /// `Binding::set`: binding `index` (resolved by name once) of operation `key`.
    #[inline]
    pub(crate) fn set_binding_at(
        &mut self,
        key: OpKey,
        index: usize,
        input: BindingInput<'_>,
    ) -> Result<()> {
        let value = match input {
            BindingInput::Value(v) => Some(ValueInput::Value(v)),
            BindingInput::Bytes(b) => Some(ValueInput::Bytes(b)),
            BindingInput::Typed(t) => Some(ValueInput::Typed(t)),
            _ => None,
        };
        if let Some(value) = value {
            if let Some(done) = self.set_value_in_place(key, index, value) {
                return done;
            }
        }
        self.assign_at(key, index, input)
    }

    /// The full path of [`set_binding_at`](Self::set_binding_at).
    #[inline(never)]
    pub(crate) fn assign_at(
        &mut self,
        key: OpKey,
        index: usize,
        input: BindingInput<'_>,
    ) -> Result<()> {
        let Some(op) = self.ops.get(key) else {
            return Ok(());
        };
        let program = op.program.clone();
        let label = op.label.clone();
        if index >= program.bindings.len() {
            return Ok(());
        }
        self.assign(key, index, &label, &program, input)
    }

    /// `Draw::set`: one binding, by binding name or member shorthand.
    pub(crate) fn set_binding(
        &mut self,
        key: OpKey,
        name: &str,
        input: BindingInput<'_>,
    ) -> Result<()> {
        match input {
            BindingInput::Value(v) => self.set_value(key, name, ValueInput::Value(v)),
            BindingInput::Bytes(p) => self.set_value(key, name, ValueInput::Bytes(p)),
            BindingInput::Typed(t) => self.set_value(key, name, ValueInput::Typed(t)),
            input => self.set_binding_full(key, name, input),
        }
    }

    /// The full path of `set`: a binding by name, or a member by shorthand.
    #[inline(never)]
    fn set_binding_full(&mut self, key: OpKey, name: &str, input: BindingInput<'_>) -> Result<()> {
        let Some(op) = self.ops.get(key) else {
            return Ok(());
        };
        let program = op.program.clone();
        let label = op.label.clone();
        match program.binding_index(name) {
            Some(i) => self.assign(key, i, &label, &program, input),
            None => self.set_member(key, name, &label, &program, input),
        }
    }

    /// Sets binding `index` of operation `key`.
    fn assign(
        &mut self,
        key: OpKey,
        index: usize,
        label: &str,
        program: &Program,
        input: BindingInput<'_>,
    ) -> Result<()> {
        let Some(op) = self.ops.get(key) else {
            return Ok(());
        };
        let t = Assigned {
            key,
            index,
            label,
            binding: &program.bindings[index],
            program,
        };
        check_ownership(&t, &op.contents[index], &input)?;
        let content = match input {
            BindingInput::Value(_) | BindingInput::Bytes(_) | BindingInput::Typed(_) => {
                self.assign_value(&t, &input)?
            }
            BindingInput::Block(block) => self.assign_block(&t, block)?,
            BindingInput::Buffer(buffer) => self.assign_buffer(&t, &buffer)?,
            BindingInput::View(view) => self.assign_view(&t, &view)?,
            BindingInput::Sampler(sampler) => self.assign_sampler(&t, &sampler)?,
            BindingInput::Unusable(what) => return Err(t.kind_error(what)),
        };
        if let Some(content) = content {
            self.replace_content(key, index, content);
        }
        Ok(())
    }

    /// Installs a binding's new content: the operation's binding revision moves (memos and
    /// bundles recorded before no longer hold) and the old content is released (inside
    /// `set_all`: kept until every binding was accepted).
    fn replace_content(&mut self, key: OpKey, index: usize, content: BindingContent) {
        let Some(op) = self.ops.get_mut(key) else {
            return;
        };
        let old = std::mem::replace(&mut op.contents[index], content);
        if matches!(old, BindingContent::Unset) {
            op.fast.unset -= 1;
        }
        op.bindings_changed();
        op.rebuild_group_values();
        match &mut self.set_all_replaced {
            Some(replaced) => replaced.push((index, old)),
            None => self.release_content(old),
        }
    }

    /// `Draw::set_all`: applies every binding in order; if one is rejected, puts back what each
    /// held before and returns that error.
    pub(crate) fn set_bindings_atomic(
        &mut self,
        key: OpKey,
        inputs: &[(&str, BindingInput<'_>)],
    ) -> Result<()> {
        let Some(op) = self.ops.get(key) else {
            return Ok(());
        };
        // The bytes of every value owner that existed before (restored on failure).
        let mut saved_bytes: Vec<(OwnerKey, Vec<u8>)> = Vec::new();
        for content in &op.contents {
            if let BindingContent::Value { owner, .. } = content {
                if let Some(b) = self.engine.bytes(*owner) {
                    saved_bytes.push((*owner, b.to_vec()));
                }
            }
        }
        let saved_rev = op.bindings_rev;
        let outer = self.set_all_replaced.replace(Vec::new());
        let mut result = Ok(());
        for (name, input) in inputs {
            if let Err(e) = self.set_binding(key, name, input.clone()) {
                result = Err(e);
                break;
            }
        }
        let replaced = std::mem::replace(&mut self.set_all_replaced, outer).unwrap_or_default();
        match result {
            Ok(()) => {
                for (_, old) in replaced {
                    self.release_content(old);
                }
            }
            Err(_) => self.roll_back(key, replaced, saved_bytes, saved_rev),
        }
        result
    }

    /// Puts back the contents `set_all` replaced (latest first, so each binding ends with what
    /// it held before) and the previous bytes of value owners, releasing what `set_all` created.
    fn roll_back(
        &mut self,
        key: OpKey,
        replaced: Vec<(usize, BindingContent)>,
        bytes: Vec<(OwnerKey, Vec<u8>)>,
        saved_rev: u64,
    ) {
        for (owner, b) in bytes {
            let _ = self.engine.set_bytes(owner, &b);
        }
        let Some(op) = self.ops.get_mut(key) else {
            return;
        };
        let mut created = Vec::new();
        for (i, old) in replaced.into_iter().rev() {
            created.push(std::mem::replace(&mut op.contents[i], old));
        }
        op.fast.unset = op.count_unset();
        // Every binding holds what it held before `set_all` (nothing was recorded in between),
        // so the binding revision is restored too: bundles recorded before stay valid (the
        // group memos were forgotten and rebuild at the next record, from the bind-group cache).
        op.bindings_rev = saved_rev;
        op.rebuild_group_values();
        for content in created {
            self.release_content(content);
        }
    }
}

/// `VGPU-SET-OWNERSHIP`: a buffer binding latched library-owned (a value or block) cannot take a
/// user buffer, and the reverse.
fn check_ownership(
    t: &Assigned<'_>,
    current: &BindingContent,
    input: &BindingInput<'_>,
) -> Result<()> {
    let Some(current_owner) = current.ownership() else {
        return Ok(());
    };
    // Only a value or a buffer can switch a buffer binding's ownership; anything else (a
    // texture, a sampler) is a kind error later.
    let buffer_like = input.is_library_owned() || matches!(input, BindingInput::Buffer(_));
    let latched_library = matches!(
        current,
        BindingContent::Value { .. } | BindingContent::Block { .. }
    );
    if latched_library != input.is_library_owned() && t.binding.kind.is_buffer() && buffer_like {
        return Err(BindingError::Ownership {
            label: t.label.to_owned(),
            binding: t.binding.name.to_string(),
            current: current_owner,
            requested: if input.is_library_owned() {
                "library-owned (a value or uniforms block)"
            } else {
                "user-owned (a buffer bound by identity)"
            },
        }
        .into());
    }
    Ok(())
}

/// The content of a resource binding: `None` when the binding already holds `res`, else the
/// resource acquired.
fn resource_content(
    st: &mut State,
    t: &Assigned<'_>,
    res: vgpu_bind::ResourceKey,
    held: HeldResource,
) -> Option<BindingContent> {
    if let Some(BindingContent::Resource { res: r, .. }) =
        st.ops.get(t.key).map(|op| &op.contents[t.index])
    {
        if *r == res {
            return None;
        }
    }
    st.acquire_resource(res);
    Some(BindingContent::Resource { res, held })
}

/// The storage class of a value binding, or `None` for a binding that takes no value.
fn value_space(kind: BindingKind) -> Option<vgpu_uniforms::AddressSpace> {
    match kind {
        BindingKind::UniformBuffer => Some(vgpu_uniforms::AddressSpace::Uniform),
        BindingKind::StorageBuffer { .. } => Some(vgpu_uniforms::AddressSpace::Storage),
        _ => None,
    }
}
