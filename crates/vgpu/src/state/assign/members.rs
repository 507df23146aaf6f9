//! Member shorthand: `set("color", …)` sets member `color` of the one struct binding that has
//! it, as a partial value (merged onto the value already set) or, for a typed value, written
//! over the member's bytes of the value already set.

use vgpu_core::{FieldName, MemberRef, PackContext, SetError, Value};

use crate::error::{BindingError, Result};
use crate::state::State;
use crate::state::binding_input::BindingInput;
use crate::state::operation::{BindingContent, OpKey};
use crate::state::program::Program;
use crate::typed_ref::TypedRef;

impl State {
    /// Member shorthand: `set("color", …)` sets member `color` of the one struct binding that
    /// has it.
    pub(super) fn assign_member(
        &mut self,
        key: OpKey,
        name: &str,
        label: &str,
        program: &Program,
        input: BindingInput<'_>,
    ) -> Result<()> {
        let refl = &program.shader.core;
        let member = refl.resolve_member(name, label)?;
        let Some(i) = program
            .bindings
            .iter()
            .position(|b| b.info == member.binding_index)
        else {
            return Err(SetError::BindingUnknown {
                label: label.into(),
                name: name.into(),
                available: program
                    .bindings
                    .iter()
                    .map(|b| Box::<str>::from(&*b.name))
                    .collect(),
                hint: Some(
                    format!(
                        "`{name}` is a member of `{}`, which these entry points do not use",
                        member.binding.name
                    )
                    .into(),
                ),
            }
            .into());
        };
        if let Some(op) = self.ops.get(key) {
            op.check_unclaimed(i)?;
        }
        let cx = PackContext::new(label, &member.binding.name);
        if let BindingInput::Typed(value) = input {
            return self.assign_typed_member(key, i, &member, value, &cx);
        }
        let BindingInput::Value(field) = input else {
            return Err(BindingError::Kind {
                label: label.to_owned(),
                binding: format!("{}.{name}", member.binding.name),
                expected: "a value for a struct member".to_owned(),
                actual: input.describe().to_owned(),
            }
            .into());
        };
        // A value already set: pack just the member in place (no partial value built).
        let owner = match self.ops.get(key).map(|op| &op.contents[i]) {
            Some(BindingContent::Value { owner, .. })
                if self.engine.revision(*owner).unwrap_or(0) > 0 =>
            {
                Some(*owner)
            }
            _ => None,
        };
        let runtime_tail = member.binding.plan.as_deref().is_some_and(|p| {
            p.runtime_array().is_some() && p.layout().members().len() == member.member_index + 1
        });
        if let (Some(owner), Some(plan), false) =
            (owner, member.binding.plan.as_deref(), runtime_tail)
        {
            return self
                .engine
                .update(owner, |bytes| {
                    plan.pack_member(member.member_index, field, bytes, &cx)
                        .map(|_| ())
                        .map_err(crate::error::Error::from)
                })
                .map(|_| ());
        }
        let member_name: FieldName = member.member.name.to_string().into();
        let partial = Value::Struct(vec![(member_name, field.clone())]);
        self.assign(key, i, label, program, BindingInput::Value(&partial))
    }

    /// Member shorthand with a typed value: checked against the member's type (each time: the
    /// cache is per binding), written over the member's bytes of the value already set.
    fn assign_typed_member(
        &mut self,
        key: OpKey,
        index: usize,
        member: &MemberRef<'_>,
        value: TypedRef<'_>,
        cx: &PackContext<'_>,
    ) -> Result<()> {
        let m = member.member;
        let member_cx = PackContext::new(cx.label, &m.name);
        value
            .shape()
            .check(&m.layout, value.rust_type(), &member_cx)?;
        let owner = match self.ops.get(key).map(|op| &op.contents[index]) {
            Some(BindingContent::Value { owner, .. })
                if self.engine.revision(*owner).unwrap_or(0) > 0 =>
            {
                *owner
            }
            _ => {
                return Err(BindingError::Kind {
                    label: cx.label.to_owned(),
                    binding: format!("{}.{}", member.binding.name, m.name),
                    expected: format!(
                        "a value for the whole binding `{}` first (a typed member value is \
                         written over the member of the value already set)",
                        member.binding.name
                    ),
                    actual: "a typed value for one member".to_owned(),
                }
                .into());
            }
        };
        let (start, size) = (m.offset as usize, value.size());
        self.engine
            .update(owner, |bytes| match bytes.get_mut(start..start + size) {
                Some(dst) => {
                    value.write(dst);
                    Ok(())
                }
                None => Err(crate::error::Error::from(SetError::DestinationSize {
                    label: cx.label.into(),
                    binding: cx.binding.into(),
                    expected: (start + size) as u64,
                    actual: bytes.len() as u64,
                })),
            })
            .map(|_| ())
    }
}
