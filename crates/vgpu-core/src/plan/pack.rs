//! Writing a [`Value`] along a plan: the entry points that validate a value and write it
//! (whole, partial, one member), the copy path for flat partial structs, and the two ways a
//! write stays all-or-nothing (a stack backup of a small destination, or a validation pass
//! first).

use smallvec::SmallVec;

use super::fail::{At, Fail, Seg};
use super::walk::{Out, name_eq};
use super::{FlatMember, NodeKind, PlanMember, StructNode, WritePlan};
use crate::layout::ScalarType;
use crate::set_error::{PackContext, SetError};
use crate::value::Value;

/// Fixed-size types up to this size are packed in one pass over a stack backup of the
/// destination (restored on error); larger ones are validated in a first pass.
const BACKUP_MAX: usize = 4096;

/// Zeroes a struct's padding gaps in `dst`: padding reads as zero, as the interpreter leaves it.
#[inline(always)]
fn zero_gaps(gaps: &[(u32, u32)], dst: &mut [u8]) {
    for &(start, len) in gaps {
        if let Some(gap) = dst.get_mut(start as usize..(start + len) as usize) {
            gap.fill(0);
        }
    }
}

/// Member `name` of a flat struct and the bytes `field` gives it, when that is a copy:
/// `(member index, offset, bytes)`.
#[inline(always)]
fn flat_run<'v>(
    members: &[PlanMember],
    flat: &[Option<FlatMember>],
    name: &str,
    field: &'v Value,
) -> Option<(usize, usize, &'v [u8])> {
    let i = members.iter().position(|m| *m.name == *name)?;
    let m = (*flat.get(i)?)?;
    let count = m.count as usize;
    let bytes: &[u8] = match (field, m.scalar) {
        (Value::F32s(v), ScalarType::F32) if v.len() == count => bytemuck::cast_slice(v),
        (Value::I32s(v), ScalarType::I32) if v.len() == count => bytemuck::cast_slice(v),
        (Value::U32s(v), ScalarType::U32) if v.len() == count => bytemuck::cast_slice(v),
        (Value::F32(x), ScalarType::F32) if count == 1 => bytemuck::bytes_of(x),
        (Value::I32(x), ScalarType::I32) if count == 1 => bytemuck::bytes_of(x),
        (Value::U32(x), ScalarType::U32) if count == 1 => bytemuck::bytes_of(x),
        _ => return None,
    };
    Some((i, m.offset as usize, bytes))
}

impl WritePlan {
    /// Validates `value` and returns the bytes [`pack`](Self::pack) would write.
    pub fn packed_size(&self, value: &Value, ctx: &PackContext<'_>) -> Result<usize, SetError> {
        self.check(value, false, ctx)
    }

    /// For a type ending in a runtime-sized array, the size `value` packs to when it gives that
    /// array (a top-level array value, or a struct value naming the array member):
    /// `Some(fixed part + elements × stride)`, validated as a partial value. `None` when the type
    /// has no runtime-sized array or a partial struct value leaves it out (the previous elements
    /// stay). A value for a runtime-sized array replaces the whole array, so callers size the
    /// destination from this.
    pub fn runtime_array_size(
        &self,
        value: &Value,
        ctx: &PackContext<'_>,
    ) -> Result<Option<usize>, SetError> {
        let Some(rt) = self.tail else {
            return Ok(None);
        };
        let gives_tail = match (&self.nodes[self.root as usize].kind, value) {
            (NodeKind::Struct(StructNode { members, .. }), Value::Struct(fields)) => members
                .last()
                .is_some_and(|tail| fields.iter().any(|(n, _)| name_eq(n, &tail.name))),
            (NodeKind::Struct(_), _) => false,
            _ => true,
        };
        if !gives_tail {
            return Ok(None);
        }
        let end = self.check(value, true, ctx)?;
        let (offset, stride) = (rt.offset as usize, rt.stride.max(1) as usize);
        let elements = end.saturating_sub(offset).div_ceil(stride);
        Ok(Some(offset + elements * stride))
    }

    /// Packs a complete value into `dst[..n]` and returns `n`: the type's size, or for a
    /// runtime-sized array `offset + elements × stride`. Every member must be given, shapes
    /// and lengths must match exactly, integers must be integral and in range. Padding is
    /// zeroed. Bytes past `n` are not touched; on error nothing is written.
    pub fn pack(
        &self,
        value: &Value,
        dst: &mut [u8],
        ctx: &PackContext<'_>,
    ) -> Result<usize, SetError> {
        self.run(value, dst, false, ctx)
    }

    /// Packs a partial value onto a destination that already holds the previous full value:
    /// only the struct members present in `value` are written (at any depth; members of
    /// nested structs, including structs inside arrays, may be omitted too), everything else
    /// keeps its previous bytes. Given members are checked as strictly as by
    /// [`pack`](Self::pack); arrays must still be complete. `dst` must hold the whole
    /// previous value (at least [`size`](Self::size) bytes for a fixed-size type). Returns the
    /// end of the last byte written; on error nothing is written.
    pub fn pack_partial(
        &self,
        value: &Value,
        dst: &mut [u8],
        ctx: &PackContext<'_>,
    ) -> Result<usize, SetError> {
        if let Some(end) = self.pack_flat(value, dst) {
            return Ok(end);
        }
        self.run(value, dst, true, ctx)
    }

    /// A struct value giving exactly one member of a flat struct type without padding, as a
    /// copy (see [`pack_partial`](Self::pack_partial)'s copy path): that member's offset and
    /// bytes. Packing it partially writes exactly these bytes, so a caller holding the previous
    /// value may compare and write this range alone. `None` for anything else.
    #[inline]
    pub fn flat_member<'v>(&self, value: &'v Value) -> Option<(usize, &'v [u8])> {
        let flat = self.flat_members.as_deref()?;
        let Value::Struct(fields) = value else {
            return None;
        };
        let [(name, field)] = fields.as_slice() else {
            return None;
        };
        let NodeKind::Struct(StructNode { members, gaps, .. }) =
            &self.nodes.get(self.root as usize)?.kind
        else {
            return None;
        };
        if !gaps.is_empty() {
            return None;
        }
        let (_, offset, bytes) = flat_run(members, flat, name, field)?;
        Some((offset, bytes))
    }

    /// The copy path of [`pack_partial`](Self::pack_partial): a struct value of at most eight
    /// distinct members, each a tight run of numbers given in its own representation and count
    /// (`F32s` of 16 for a `mat4x4<f32>`). Every member is checked before any byte is written;
    /// `None` when anything else is given (the interpreter then packs, or reports the error).
    #[inline]
    fn pack_flat(&self, value: &Value, dst: &mut [u8]) -> Option<usize> {
        let flat = self.flat_members.as_deref()?;
        let Value::Struct(fields) = value else {
            return None;
        };
        let NodeKind::Struct(StructNode { members, gaps, .. }) =
            &self.nodes.get(self.root as usize)?.kind
        else {
            return None;
        };
        if fields.is_empty() || fields.len() > 8 || dst.len() < self.layout.size as usize {
            return None;
        }
        // One member (the common case: one field changed): check and write in one lookup.
        if let [(name, field)] = fields.as_slice() {
            let (_, offset, bytes) = flat_run(members, flat, name, field)?;
            dst.get_mut(offset..offset + bytes.len())?
                .copy_from_slice(bytes);
            zero_gaps(gaps, dst);
            return Some(offset + bytes.len());
        }
        // Check every member (names distinct, each a copy), then write.
        let mut seen = 0u64;
        for (name, field) in fields {
            let (i, _, _) = flat_run(members, flat, name, field)?;
            if i >= 64 || seen & (1 << i) != 0 {
                return None;
            }
            seen |= 1 << i;
        }
        let mut end = 0;
        for (name, field) in fields {
            let (_, offset, bytes) = flat_run(members, flat, name, field)?;
            dst.get_mut(offset..offset + bytes.len())?
                .copy_from_slice(bytes);
            end = end.max(offset + bytes.len());
        }
        zero_gaps(gaps, dst);
        Some(end)
    }

    /// Packs one member of a struct type (by index, e.g. [`MemberRef::member_index`] from the
    /// member shorthand) into a destination that already holds the whole previous value: only
    /// that member's bytes are written, checked as strictly as by [`pack`](Self::pack); errors
    /// name the path from the member (`$.color[1]`). Returns the end of the last byte
    /// written; on error nothing is written.
    ///
    /// [`MemberRef::member_index`]: crate::MemberRef::member_index
    pub fn pack_member(
        &self,
        member: usize,
        value: &Value,
        dst: &mut [u8],
        ctx: &PackContext<'_>,
    ) -> Result<usize, SetError> {
        let m = match &self.nodes[self.root as usize].kind {
            NodeKind::Struct(StructNode { members, .. }) => members.get(member),
            _ => None,
        };
        let Some(m) = m else {
            return Err(Fail::new(
                format!(
                    "a member index below {} of {}",
                    self.layout.members().len(),
                    self.layout.name
                ),
                format!("member index {member}"),
            )
            .into_error(ctx));
        };
        let at = m.offset as usize;
        let field = |f: Box<Fail>| f.at(Seg::Field(&m.name)).into_error(ctx);
        let mut check = Out {
            dst: &mut [],
            write: false,
            partial: true,
            end: 0,
        };
        self.child(m.node, value, at, &mut check).map_err(field)?;
        let need = check.end.max(
            self.tail
                .map_or(self.layout.size as usize, |rt| rt.offset as usize),
        );
        if dst.len() < need {
            return Err(SetError::DestinationSize {
                label: ctx.label.into(),
                binding: ctx.binding.into(),
                expected: need as u64,
                actual: dst.len() as u64,
            });
        }
        let mut out = Out {
            dst,
            write: true,
            partial: true,
            end: 0,
        };
        self.child(m.node, value, at, &mut out).map_err(field)?;
        Ok(check.end)
    }

    /// The validation pass alone: the end of the bytes `value` would write.
    fn check(
        &self,
        value: &Value,
        partial: bool,
        ctx: &PackContext<'_>,
    ) -> Result<usize, SetError> {
        let mut out = Out {
            dst: &mut [],
            write: false,
            partial,
            end: 0,
        };
        self.node(self.root, value, 0, &mut out)
            .map_err(|f| f.into_error(ctx))?;
        Ok(out.end)
    }

    /// Validates and writes `value` all-or-nothing: over a stack backup of a small fixed-size
    /// destination (restored on error), else after a validation pass.
    fn run(
        &self,
        value: &Value,
        dst: &mut [u8],
        partial: bool,
        ctx: &PackContext<'_>,
    ) -> Result<usize, SetError> {
        let size = self.layout.size as usize;
        if self.tail.is_none() && size <= BACKUP_MAX {
            // Fixed size, small: one checked write pass over a backup of the destination,
            // restored if the value is rejected.
            let Some(region) = dst.get_mut(..size) else {
                return Err(SetError::DestinationSize {
                    label: ctx.label.into(),
                    binding: ctx.binding.into(),
                    expected: size as u64,
                    actual: dst.len() as u64,
                });
            };
            let backup: SmallVec<[u8; BACKUP_MAX]> = SmallVec::from_slice(region);
            let mut out = Out {
                dst: region,
                write: true,
                partial,
                end: 0,
            };
            let result = self.node(self.root, value, 0, &mut out);
            let end = out.end;
            return match result {
                Ok(()) => Ok(if partial { end } else { size }),
                Err(f) => {
                    region.copy_from_slice(&backup);
                    Err(f.into_error(ctx))
                }
            };
        }
        // Runtime-sized or large: validate first (which also measures), then write.
        let need = self.check(value, partial, ctx)?;
        if dst.len() < need {
            return Err(SetError::DestinationSize {
                label: ctx.label.into(),
                binding: ctx.binding.into(),
                expected: need as u64,
                actual: dst.len() as u64,
            });
        }
        let mut out = Out {
            dst,
            write: true,
            partial,
            end: 0,
        };
        self.node(self.root, value, 0, &mut out)
            .map_err(|f| f.into_error(ctx))?;
        Ok(need)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The copy path of `pack_partial` writes what the interpreter writes, and leaves what it
    /// cannot take (wrong counts, types, unknown or repeated names) to it.
    #[test]
    fn flat_partial_values_pack_as_the_interpreter_does() {
        let shader = crate::Shader::new(
            "flat",
            "struct S { m: mat4x4f, c: vec4f, g: f32, n: u32, p: vec3f, q: mat3x3f }
             @group(0) @binding(0) var<uniform> s: S;
             @vertex fn vs_main() -> @builtin(position) vec4f { return s.m[0] + s.c; }",
        )
        .unwrap();
        let plan = shader.binding("s").unwrap().plan.clone().unwrap();
        assert!(plan.flat_members.is_some());
        let cx = PackContext::new("flat", "s");
        let m: Vec<f32> = (0..16).map(|i| i as f32 * 0.5).collect();
        let cases = [
            Value::Struct(vec![("m".into(), Value::from(m.clone()))]),
            Value::Struct(vec![
                ("g".into(), Value::F32(3.5)),
                ("c".into(), Value::from([1.0f32, 2.0, 3.0, 4.0])),
                ("n".into(), Value::U32(7)),
                ("p".into(), Value::from([9.0f32, 8.0, 7.0])),
            ]),
            // Not copies: the interpreter decides (a converted integer, a padded matrix, a
            // wrong count, an unknown name, a repeated one).
            Value::Struct(vec![("n".into(), Value::F32(2.0))]),
            Value::Struct(vec![("q".into(), Value::from([1.0f32; 9]))]),
            Value::Struct(vec![("c".into(), Value::from([1.0f32; 3]))]),
            Value::Struct(vec![("x".into(), Value::F32(1.0))]),
            Value::Struct(vec![
                ("g".into(), Value::F32(1.0)),
                ("g".into(), Value::F32(2.0)),
            ]),
        ];
        for (k, value) in cases.iter().enumerate() {
            let base: Vec<u8> = (0..plan.size()).map(|i| i as u8).collect();
            let (mut fast, mut slow) = (base.clone(), base.clone());
            let a = plan.pack_partial(value, &mut fast, &cx);
            let b = plan.run(value, &mut slow, true, &cx);
            assert_eq!(a.is_ok(), b.is_ok(), "case {k}");
            assert_eq!(a.err(), b.err(), "case {k}");
            assert_eq!(fast, slow, "case {k}");
            assert_eq!(
                plan.pack_flat(value, &mut base.clone()).is_some(),
                k < 2,
                "case {k}"
            );
        }
    }
}
