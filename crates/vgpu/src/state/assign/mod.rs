//! Binding assignment: what `Draw::set`, `Compute::set`, `Binding::set`, `TypedBinding::set` and
//! `set_all` do to an operation's bindings.
//!
//! The handle floor lowers its public `BindingArg` into a [`BindingInput`]
//! (`state/binding_input.rs`: records, raw wgpu objects, no handles) after checking that every handle belongs to the operation's
//! `Gpu`; that one input type goes all the way down. There are two entry points, one per way of
//! naming a binding:
//! - [`State::set_by_name`]: by WGSL binding name, or a struct member by shorthand
//!   (`set("color", …)`, `members.rs`);
//! - [`State::set_by_index`]: a binding resolved by name once (`Binding`, `TypedBinding`).
//!
//! Each tries the in-place write first ([`State::set_in_place`], `values.rs`: a new value for a
//! binding that already holds one of a fixed size, written straight into its owner's bytes),
//! then the full assignment ([`State::assign`]), split by kind of input: values (`values.rs`),
//! shared blocks (`blocks.rs`), user buffers (`buffers.rs`), textures and samplers
//! (`textures.rs`). Each kind checks its input against the WGSL binding and returns the
//! binding's new content, or `None` when the binding keeps its content (a new value for an
//! existing owner, the same resource again); [`State::replace_content`] installs a new content.
//! A rejected input changes nothing; `set_all` (`set_all.rs`) puts a whole batch back.
//!
//! A `TypedBinding` keeps the value owner its binding holds and writes through it
//! (`values.rs`: `write_plain_owner`, `write_typed_owner`), falling back to
//! [`State::set_by_index`] when the owner is not there.

mod blocks;
mod buffers;
mod members;
mod set_all;
mod textures;
mod values;

use vgpu_core::BindingKind;

use super::State;
use super::binding_input::BindingInput;
use super::followers::target_part_view;
use super::operation::{BindingContent, OpKey};
use super::program::{Program, ProgramBinding};
use super::resources::HeldResource;
use crate::error::{BindingError, Result};

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
    /// `Draw::set`, `Compute::set`: binding `name` of operation `key`, or the member `name` of
    /// the one struct binding that has it. In place when the binding already holds a value of
    /// a fixed size (the steady path), else the full assignment.
    #[inline]
    pub(crate) fn set_by_name(
        &mut self,
        key: OpKey,
        name: &str,
        input: BindingInput<'_>,
    ) -> Result<()> {
        let index = self
            .ops
            .get(key)
            .and_then(|op| op.program.binding_index(name));
        if let Some(index) = index
            && let Some(done) = self.set_in_place(key, index, &input)
        {
            return done;
        }
        self.assign_by_name(key, name, input)
    }

    /// `Binding::set`, `TypedBinding::set`: binding `index` (resolved by name once) of operation
    /// `key`. In place when it can be, else the full assignment.
    #[inline]
    pub(crate) fn set_by_index(
        &mut self,
        key: OpKey,
        index: usize,
        input: BindingInput<'_>,
    ) -> Result<()> {
        if let Some(done) = self.set_in_place(key, index, &input) {
            return done;
        }
        self.assign_by_index(key, index, input)
    }

    /// The full path of [`set_by_name`](Self::set_by_name): a binding by name, or a member by
    /// shorthand.
    #[inline(never)]
    fn assign_by_name(&mut self, key: OpKey, name: &str, input: BindingInput<'_>) -> Result<()> {
        let Some(op) = self.ops.get(key) else {
            return Ok(());
        };
        let program = op.program.clone();
        let label = op.label.clone();
        match program.binding_index(name) {
            Some(index) => self.assign(key, index, &label, &program, input),
            None => self.assign_member(key, name, &label, &program, input),
        }
    }

    /// The full path of [`set_by_index`](Self::set_by_index).
    #[inline(never)]
    fn assign_by_index(&mut self, key: OpKey, index: usize, input: BindingInput<'_>) -> Result<()> {
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

    /// The full assignment of binding `index` of operation `key`: checked against the binding
    /// by the kind of `input`, then its new content installed.
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
        op.check_unclaimed(index)?;
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
            BindingInput::Target(target, part) => match target_part_view(target, part) {
                Ok(view) => self.assign_view(&t, &view.input(target, part))?,
                Err(what) => return Err(t.kind_error(what)),
            },
            BindingInput::Sampler(sampler) => self.assign_sampler(&t, &sampler)?,
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
        self.note_op_changed(key);
        match &mut self.set_all_replaced {
            Some(replaced) => replaced.push((index, old)),
            None => self.release_content(old),
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
        && *r == res
    {
        return None;
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
