//! Finding a binding by name, or the one struct binding with a member of that name (the member
//! shorthand), with the did-you-mean errors when there is none.

use super::Shader;
use crate::layout::MemberLayout;
use crate::reflect::BindingInfo;
use crate::set_error::{SetError, did_you_mean};

/// A struct member reached through the member shorthand ([`Shader::resolve_member`]).
#[derive(Clone, Copy, Debug)]
pub struct MemberRef<'s> {
    /// Index of the binding in [`Shader::bindings`].
    pub binding_index: usize,
    /// The struct binding the member belongs to.
    pub binding: &'s BindingInfo,
    /// Index of the member in the struct.
    pub member_index: usize,
    /// The member's layout (offset, type).
    pub member: &'s MemberLayout,
}

impl Shader {
    /// The binding with this WGSL name.
    #[inline]
    pub fn binding(&self, name: &str) -> Option<&BindingInfo> {
        self.by_name.get(name).map(|&i| &self.bindings[i])
    }

    /// Index in [`bindings`](Self::bindings) of the binding with this WGSL name.
    #[inline]
    pub fn binding_index(&self, name: &str) -> Option<usize> {
        self.by_name.get(name).copied()
    }

    /// The binding with this WGSL name, or `VGPU-SET-BINDING-UNKNOWN` listing the bindings.
    pub fn binding_or_err(&self, name: &str, label: &str) -> Result<&BindingInfo, SetError> {
        self.binding(name)
            .ok_or_else(|| self.unknown_name(name, label))
    }

    /// Member shorthand: the struct binding that has a member called `name`, if exactly one
    /// does. Two or more: `VGPU-SET-MEMBER-AMBIGUOUS` naming the candidates; none:
    /// `VGPU-SET-BINDING-UNKNOWN`. `label` (the draw label) only goes into errors.
    pub fn resolve_member(&self, name: &str, label: &str) -> Result<MemberRef<'_>, SetError> {
        match self.members.get(name).map(|v| v.as_slice()) {
            Some(&[(b, m)]) => {
                let binding = &self.bindings[b as usize];
                let member = binding
                    .layout
                    .as_ref()
                    .and_then(|l| l.members().get(m as usize));
                match member {
                    Some(member) => Ok(MemberRef {
                        binding_index: b as usize,
                        binding,
                        member_index: m as usize,
                        member,
                    }),
                    None => Err(self.unknown_name(name, label)),
                }
            }
            Some(many) if many.len() > 1 => Err(SetError::MemberAmbiguous {
                label: label.into(),
                member: name.into(),
                candidates: many
                    .iter()
                    .map(|&(b, _)| format!("{}.{name}", self.bindings[b as usize].name).into())
                    .collect(),
            }),
            _ => Err(self.unknown_name(name, label)),
        }
    }

    /// `VGPU-SET-BINDING-UNKNOWN` for `name`. The did-you-mean hint prefers a binding: a close
    /// binding name (`modle` → `model`) wins over a closer struct member (`mode`); a member is
    /// suggested only when no binding is close (members in name order, so ties are stable).
    #[cold]
    fn unknown_name(&self, name: &str, label: &str) -> SetError {
        let hint =
            did_you_mean(name, self.bindings.iter().map(|b| b.name.as_str())).or_else(|| {
                let mut members: Vec<&str> = self.members.keys().map(|k| &**k).collect();
                members.sort_unstable();
                did_you_mean(name, members)
            });
        SetError::BindingUnknown {
            label: label.into(),
            name: name.into(),
            available: self
                .bindings
                .iter()
                .map(|b| format!("{} ({})", b.name, b.kind.describe()).into())
                .collect(),
            hint,
        }
    }
}
