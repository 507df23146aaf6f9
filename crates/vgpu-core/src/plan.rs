//! Compiled write plans: strict packing of [`Value`]s (and `Pod` values) into host-shareable
//! bytes.
//!
//! A [`WritePlan`] is compiled once per type from its [`TypeLayout`] and shared (`Arc`). It is a
//! flat table of nodes: numeric leaves know their component type and how their components lie
//! in memory (contiguous runs are coalesced: a `mat4x4f`, a `vec4f` or an `array<f32, N>` with
//! stride 4 is one copy), structs know their members and their padding gaps, arrays their
//! stride. Packing walks the value along the plan and writes straight into the destination;
//! padding is zeroed.
//!
//! Every `pack*` method validates the whole value first and only then writes, so a rejected
//! value leaves the destination untouched. Neither pass allocates; strings are only built when
//! an error is returned.

use std::sync::Arc;

use ahash::AHashMap;
use smallvec::SmallVec;

use crate::layout::{LayoutKind, RuntimeArray, ScalarType, TypeLayout, describe_members};
use crate::set_error::{PackContext, SetError, did_you_mean};
use crate::value::{Value, fmt_float};

/// Fixed-size types up to this size are packed in one pass over a stack backup of the
/// destination (restored on error); larger ones are validated in a first pass.
const BACKUP_MAX: usize = 4096;

/// Structs with more members than this get a hash index for field lookup.
const LINEAR_LOOKUP_MAX: usize = 8;

/// A compiled plan for packing values of one host-shareable type.
///
/// Invariants: node indices are valid; every node's byte ranges lie within its type's size
/// (for runtime-sized arrays: within `offset + n × stride` for the `n` elements given).
#[derive(Debug)]
pub struct WritePlan {
    layout: Arc<TypeLayout>,
    nodes: Box<[Node]>,
    root: u32,
    tail: Option<RuntimeArray>,
    /// For a fixed-size struct: per member (declaration order), the member as one tight run
    /// of 32-bit numbers, when it is one (a scalar, vector, tight matrix or tight array of
    /// them). A partial value made only of such members in their own representation packs
    /// as checked copies ([`WritePlan::pack_partial`]), without the interpreter.
    flat_members: Option<Box<[Option<FlatMember>]>>,
}

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

/// One struct member that is a tight run of `count` numbers of type `scalar` at `offset`.
#[derive(Clone, Copy, Debug)]
struct FlatMember {
    offset: u32,
    scalar: ScalarType,
    count: u32,
}

#[derive(Debug)]
struct Node {
    layout: Arc<TypeLayout>,
    kind: NodeKind,
}

#[derive(Debug)]
enum NodeKind {
    Numeric {
        scalar: ScalarType,
        shape: Shape,
    },
    Array {
        elem: u32,
        len: Option<u32>,
        stride: u32,
        elem_size: u32,
        flat: Option<Flat>,
    },
    Struct {
        members: Box<[PlanMember]>,
        gaps: Box<[(u32, u32)]>,
        index: Option<AHashMap<Box<str>, u32>>,
    },
}

#[derive(Clone, Copy, Debug)]
enum Shape {
    Scalar,
    Vector(u8),
    Matrix { cols: u8, rows: u8, col_stride: u32 },
}

impl Shape {
    fn count(self) -> usize {
        match self {
            Shape::Scalar => 1,
            Shape::Vector(n) => n as usize,
            Shape::Matrix { cols, rows, .. } => cols as usize * rows as usize,
        }
    }
}

/// How an array whose leaves are all numbers of one type takes a flat run of components.
#[derive(Clone, Copy, Debug)]
struct Flat {
    scalar: ScalarType,
    /// Components per element.
    per_elem: usize,
    /// Elements are contiguous and tight, so n elements are one run of `n × per_elem`.
    tight: bool,
}

#[derive(Debug)]
struct PlanMember {
    name: Box<str>,
    offset: u32,
    node: u32,
}

impl WritePlan {
    /// Compiles the plan for a layout.
    pub fn new(layout: Arc<TypeLayout>) -> Self {
        let mut b = PlanBuilder {
            nodes: Vec::new(),
            memo: AHashMap::default(),
        };
        let root = b.node(&layout);
        let flat_members = match (&b.nodes[root as usize].kind, layout.runtime_array()) {
            (NodeKind::Struct { members, .. }, None) => Some(
                members
                    .iter()
                    .map(|m| {
                        let (scalar, count, tight) = b.flat_of(&b.nodes[m.node as usize])?;
                        let word =
                            matches!(scalar, ScalarType::F32 | ScalarType::I32 | ScalarType::U32);
                        (tight && word).then_some(FlatMember {
                            offset: m.offset,
                            scalar,
                            count: u32::try_from(count).ok()?,
                        })
                    })
                    .collect(),
            ),
            _ => None,
        };
        WritePlan {
            tail: layout.runtime_array(),
            layout,
            nodes: b.nodes.into_boxed_slice(),
            root,
            flat_members,
        }
    }

    /// The layout this plan packs.
    pub fn layout(&self) -> &Arc<TypeLayout> {
        &self.layout
    }

    /// The type's size in bytes (one element of a trailing runtime-sized array): exactly what
    /// [`pack`](Self::pack) writes for a fixed-size type.
    pub fn size(&self) -> usize {
        self.layout.size as usize
    }

    /// The trailing runtime-sized array, if the type has one.
    pub fn runtime_array(&self) -> Option<RuntimeArray> {
        self.tail
    }

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
            (NodeKind::Struct { members, .. }, Value::Struct(fields)) => members
                .last()
                .is_some_and(|tail| fields.iter().any(|(n, _)| name_eq(n, &tail.name))),
            (NodeKind::Struct { .. }, _) => false,
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
        let NodeKind::Struct { members, gaps, .. } = &self.nodes.get(self.root as usize)?.kind
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
        let NodeKind::Struct { members, gaps, .. } = &self.nodes.get(self.root as usize)?.kind
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
            NodeKind::Struct { members, .. } => members.get(member),
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

    /// Copies a `Pod` value whose size equals the reflected size (fixed-size types), or the
    /// fixed part plus a whole number of elements (types ending in a runtime-sized array).
    /// Check field offsets once with [`TypeLayout::check_fields`]. Returns the bytes written.
    pub fn pack_pod<T: bytemuck::Pod>(
        &self,
        value: &T,
        dst: &mut [u8],
        ctx: &PackContext<'_>,
    ) -> Result<usize, SetError> {
        self.pack_bytes(bytemuck::bytes_of(value), dst, ctx)
    }

    /// Like [`pack_pod`](Self::pack_pod) for a slice, e.g. the elements of a top-level
    /// `array<T>`.
    pub fn pack_pod_slice<T: bytemuck::Pod>(
        &self,
        values: &[T],
        dst: &mut [u8],
        ctx: &PackContext<'_>,
    ) -> Result<usize, SetError> {
        self.pack_bytes(bytemuck::cast_slice(values), dst, ctx)
    }

    /// Checks that `len` bytes of typed data fit this type (see [`pack_pod`](Self::pack_pod)).
    pub fn check_pod_size(&self, len: usize, ctx: &PackContext<'_>) -> Result<(), SetError> {
        let size = self.layout.size as usize;
        let ok = match self.tail {
            None => len == size,
            Some(rt) => {
                let fixed = rt.offset as usize;
                len >= fixed && (len - fixed).is_multiple_of(rt.stride.max(1) as usize)
            }
        };
        if ok {
            return Ok(());
        }
        Err(SetError::PodSize {
            label: ctx.label.into(),
            binding: ctx.binding.into(),
            type_name: self.layout.name.clone(),
            expected: match self.tail {
                Some(rt) => u64::from(rt.offset),
                None => size as u64,
            },
            actual: len as u64,
            hint: Some(match self.tail {
                Some(rt) => format!(
                    "{} ends in a runtime-sized array: give {} + k × {} bytes",
                    self.layout.name, rt.offset, rt.stride
                ),
                None => format!(
                    "{} is {size} bytes in WGSL's layout; put #[derive(vgpu::Uniform)] on the Rust struct and set it as a value: it is laid out as WGSL lays out {}, and checked once by member name, order and type",
                    self.layout.name, self.layout.name
                ),
            }
            .into()),
        })
    }

    /// Copies raw bytes after checking their length as [`pack_pod`](Self::pack_pod) does.
    pub fn pack_bytes(
        &self,
        bytes: &[u8],
        dst: &mut [u8],
        ctx: &PackContext<'_>,
    ) -> Result<usize, SetError> {
        self.check_pod_size(bytes.len(), ctx)?;
        match dst.get_mut(..bytes.len()) {
            Some(d) => {
                d.copy_from_slice(bytes);
                Ok(bytes.len())
            }
            None => Err(SetError::DestinationSize {
                label: ctx.label.into(),
                binding: ctx.binding.into(),
                expected: bytes.len() as u64,
                actual: dst.len() as u64,
            }),
        }
    }

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

    /// A child node: numeric leaves given as flat components are written right here (the
    /// common case), everything else recurses.
    #[inline(always)]
    fn child(&self, n: u32, v: &Value, base: usize, out: &mut Out<'_>) -> R {
        let node = &self.nodes[n as usize];
        if let NodeKind::Numeric { scalar, shape } = node.kind {
            if let Some(src) = Src::of(v) {
                if src.len() == shape.count() {
                    return numeric_flat(scalar, shape, src, 0, base, out);
                }
            }
        }
        self.node(n, v, base, out)
    }

    fn node(&self, n: u32, v: &Value, base: usize, out: &mut Out<'_>) -> R {
        let node = &self.nodes[n as usize];
        match &node.kind {
            NodeKind::Numeric { scalar, shape } => {
                self.numeric(node, *scalar, *shape, v, base, out)
            }
            NodeKind::Array {
                elem,
                len,
                stride,
                elem_size,
                flat,
            } => {
                let stride = *stride as usize;
                let elem_size = *elem_size as usize;
                match v {
                    Value::Array(elems) => {
                        if len.is_some_and(|len| elems.len() != len as usize) {
                            return Err(Fail::new(
                                format!("{} ({} elements)", node.layout.name, len.unwrap_or(0)),
                                v.describe(),
                            ));
                        }
                        for (i, e) in elems.iter().enumerate() {
                            let at = base.saturating_add(i.saturating_mul(stride));
                            self.child(*elem, e, at, out)
                                .map_err(|f| f.at(Seg::Index(i)))?;
                            out.zero(at + elem_size, stride - elem_size)?;
                        }
                        Ok(())
                    }
                    _ => match (flat, Src::of(v)) {
                        (Some(flat), Some(src)) => {
                            let n_elems = match len {
                                Some(len) => {
                                    let len = *len as usize;
                                    if src.len() != len * flat.per_elem {
                                        return Err(self.count_fail(
                                            node,
                                            Some(len * flat.per_elem),
                                            flat,
                                            v,
                                        ));
                                    }
                                    len
                                }
                                None => {
                                    if src.len() % flat.per_elem != 0 {
                                        return Err(self.count_fail(node, None, flat, v));
                                    }
                                    src.len() / flat.per_elem
                                }
                            };
                            self.flat_array(node, n_elems, src, 0, base, out)
                        }
                        _ => Err(Fail::new(
                            format!("{} (an array)", node.layout.name),
                            v.describe(),
                        )),
                    },
                }
            }
            NodeKind::Struct {
                members,
                gaps,
                index,
            } => {
                let Value::Struct(fields) = v else {
                    return Err(Fail::new(describe_members(&node.layout), v.describe()));
                };
                if fields.len() == members.len()
                    && fields
                        .iter()
                        .zip(members.iter())
                        .all(|((n, _), m)| name_eq(n, &m.name))
                {
                    // Fast path: every member, in declaration order.
                    for ((_, fv), m) in fields.iter().zip(members.iter()) {
                        self.child(m.node, fv, base + m.offset as usize, out)
                            .map_err(|f| f.at(Seg::Field(&m.name)))?;
                    }
                } else {
                    let mut seen: SmallVec<[u64; 2]> =
                        SmallVec::from_elem(0, members.len().div_ceil(64));
                    for (name, fv) in fields {
                        let found = match index {
                            Some(map) => map.get(&**name).copied(),
                            None => members
                                .iter()
                                .position(|m| name_eq(&m.name, name))
                                .map(|i| i as u32),
                        };
                        let Some(i) = found else {
                            return Err(Fail {
                                path: vec![PathSeg::Field(name.to_string())],
                                expected: format!("a member of {}", describe_members(&node.layout)),
                                actual: format!("unknown field `{name}`"),
                                hint: did_you_mean(name, members.iter().map(|m| &*m.name)),
                            }
                            .boxed());
                        };
                        let i = i as usize;
                        let (word, bit) = (i / 64, 1u64 << (i % 64));
                        if seen[word] & bit != 0 {
                            return Err(Fail::new(
                                "one value per member".to_owned(),
                                format!("field `{name}` given twice"),
                            )
                            .at(Seg::Field(&members[i].name)));
                        }
                        seen[word] |= bit;
                        let m = &members[i];
                        self.child(m.node, fv, base + m.offset as usize, out)
                            .map_err(|f| f.at(Seg::Field(&m.name)))?;
                    }
                    let missing = if out.partial {
                        None
                    } else {
                        (0..members.len()).find(|i| seen[i / 64] & (1u64 << (i % 64)) == 0)
                    };
                    if let Some(i) = missing {
                        let m = &members[i];
                        return Err(Fail {
                            path: vec![PathSeg::Field(m.name.to_string())],
                            expected: format!(
                                "a value of type {}",
                                self.nodes[m.node as usize].layout.name
                            ),
                            actual: "nothing (missing field)".to_owned(),
                            hint: Some(missing_field_hint(&m.name)),
                        }
                        .boxed());
                    }
                }
                for &(off, len) in gaps.iter() {
                    out.zero(base + off as usize, len as usize)?;
                }
                Ok(())
            }
        }
    }

    fn count_fail(&self, node: &Node, count: Option<usize>, flat: &Flat, v: &Value) -> Box<Fail> {
        let expected = match count {
            Some(c) => format!(
                "{} ({c} {} components)",
                node.layout.name,
                flat.scalar.wgsl_name()
            ),
            None => format!(
                "{} (a multiple of {} {} components)",
                node.layout.name,
                flat.per_elem,
                flat.scalar.wgsl_name()
            ),
        };
        Fail::new(expected, v.describe())
    }

    fn numeric(
        &self,
        node: &Node,
        scalar: ScalarType,
        shape: Shape,
        v: &Value,
        base: usize,
        out: &mut Out<'_>,
    ) -> R {
        if let Some(src) = Src::of(v) {
            let count = shape.count();
            if src.len() != count {
                return Err(Fail::new(
                    expected_numeric(node, scalar, shape),
                    v.describe(),
                ));
            }
            return numeric_flat(scalar, shape, src, 0, base, out);
        }
        let Value::Array(elems) = v else {
            return Err(Fail::new(
                expected_numeric(node, scalar, shape),
                v.describe(),
            ));
        };
        let w = scalar.width() as usize;
        match shape {
            Shape::Scalar => Err(Fail::new(
                expected_numeric(node, scalar, shape),
                v.describe(),
            )),
            Shape::Vector(n) => {
                if elems.len() != n as usize {
                    return Err(Fail::new(
                        expected_numeric(node, scalar, shape),
                        v.describe(),
                    ));
                }
                for (i, e) in elems.iter().enumerate() {
                    components(scalar, 1, e, base + i * w, out).map_err(|f| f.at(Seg::Index(i)))?;
                }
                Ok(())
            }
            Shape::Matrix {
                cols,
                rows,
                col_stride,
            } => {
                if elems.len() != cols as usize {
                    return Err(Fail::new(
                        expected_numeric(node, scalar, shape),
                        v.describe(),
                    ));
                }
                let (rows, cs) = (rows as usize, col_stride as usize);
                for (c, col) in elems.iter().enumerate() {
                    components(scalar, rows, col, base + c * cs, out)
                        .map_err(|f| f.at(Seg::Index(c)))?;
                    out.zero(base + c * cs + rows * w, cs - rows * w)?;
                }
                Ok(())
            }
        }
    }

    /// Writes `n_elems` elements of an array whose leaves are numbers from a flat run.
    fn flat_array(
        &self,
        node: &Node,
        n_elems: usize,
        src: Src<'_>,
        start: usize,
        base: usize,
        out: &mut Out<'_>,
    ) -> R {
        let NodeKind::Array {
            elem,
            stride,
            elem_size,
            flat: Some(flat),
            ..
        } = &node.kind
        else {
            return Err(Fail::new(
                node.layout.name.to_string(),
                "flat components".to_owned(),
            ));
        };
        if flat.tight {
            return run(
                flat.scalar,
                src,
                start,
                n_elems * flat.per_elem,
                base,
                true,
                out,
            );
        }
        let (stride, elem_size) = (*stride as usize, *elem_size as usize);
        let elem_node = &self.nodes[*elem as usize];
        for i in 0..n_elems {
            let at = base + i * stride;
            self.flat_node(elem_node, src, start + i * flat.per_elem, at, out)?;
            out.zero(at + elem_size, stride - elem_size)?;
        }
        Ok(())
    }

    fn flat_node(
        &self,
        node: &Node,
        src: Src<'_>,
        start: usize,
        base: usize,
        out: &mut Out<'_>,
    ) -> R {
        match &node.kind {
            NodeKind::Numeric { scalar, shape } => {
                numeric_flat(*scalar, *shape, src, start, base, out)
            }
            NodeKind::Array {
                len: Some(len),
                flat: Some(_),
                ..
            } => self.flat_array(node, *len as usize, src, start, base, out),
            _ => Err(Fail::new(
                node.layout.name.to_string(),
                "flat components".to_owned(),
            )),
        }
    }
}

fn expected_numeric(node: &Node, scalar: ScalarType, shape: Shape) -> String {
    match shape {
        Shape::Scalar => format!("{} (a number)", node.layout.name),
        Shape::Vector(n) => format!(
            "{} ({n} {} components)",
            node.layout.name,
            scalar.wgsl_name()
        ),
        Shape::Matrix { cols, rows, .. } => format!(
            "{} ({} {} components, column-major, or {cols} columns of {rows})",
            node.layout.name,
            cols as usize * rows as usize,
            scalar.wgsl_name()
        ),
    }
}

/// Writes `count` components of one vector-like value (a flat run, a scalar when `count` is 1,
/// or an array of scalars) at `base`.
fn components(scalar: ScalarType, count: usize, v: &Value, base: usize, out: &mut Out<'_>) -> R {
    let expected = || {
        if count == 1 {
            format!("a {} number", scalar.wgsl_name())
        } else {
            format!("vec{count}<{}> ({count} components)", scalar.wgsl_name())
        }
    };
    if let Some(src) = Src::of(v) {
        if src.len() != count {
            return Err(Fail::new(expected(), v.describe()));
        }
        return run(scalar, src, 0, count, base, count > 1, out);
    }
    match v {
        Value::Array(elems) if elems.len() == count && count > 1 => {
            let w = scalar.width() as usize;
            for (i, e) in elems.iter().enumerate() {
                components(scalar, 1, e, base + i * w, out).map_err(|f| f.at(Seg::Index(i)))?;
            }
            Ok(())
        }
        _ => Err(Fail::new(expected(), v.describe())),
    }
}

#[inline]
fn numeric_flat(
    scalar: ScalarType,
    shape: Shape,
    src: Src<'_>,
    start: usize,
    base: usize,
    out: &mut Out<'_>,
) -> R {
    match shape {
        Shape::Scalar => run(scalar, src, start, 1, base, false, out),
        Shape::Vector(n) => run(scalar, src, start, n as usize, base, true, out),
        Shape::Matrix {
            cols,
            rows,
            col_stride,
        } => {
            let (cols, rows, cs) = (cols as usize, rows as usize, col_stride as usize);
            let w = scalar.width() as usize;
            if cs == rows * w {
                return run(scalar, src, start, cols * rows, base, true, out);
            }
            for c in 0..cols {
                run(
                    scalar,
                    src,
                    start + c * rows,
                    rows,
                    base + c * cs,
                    true,
                    out,
                )?;
                out.zero(base + c * cs + rows * w, cs - rows * w)?;
            }
            Ok(())
        }
    }
}

/// Writes components `start..start + count` of `src` as `scalar`s at `base`: one copy when the
/// source already has the target's representation, else a checked conversion per component.
#[inline(always)]
fn run(
    scalar: ScalarType,
    src: Src<'_>,
    start: usize,
    count: usize,
    base: usize,
    indexed: bool,
    out: &mut Out<'_>,
) -> R {
    let same: Option<&[u8]> = match (src, scalar) {
        (Src::F32(s), ScalarType::F32) => s.get(start..start + count).map(bytemuck::cast_slice),
        (Src::I32(s), ScalarType::I32) => s.get(start..start + count).map(bytemuck::cast_slice),
        (Src::U32(s), ScalarType::U32) => s.get(start..start + count).map(bytemuck::cast_slice),
        _ => None,
    };
    if let Some(bytes) = same {
        return out.put(base, bytes);
    }
    run_converted(scalar, src, start, count, base, indexed, out)
}

/// [`run`] when the source is not already in the target representation: a checked conversion
/// per component.
#[inline(never)]
fn run_converted(
    scalar: ScalarType,
    src: Src<'_>,
    start: usize,
    count: usize,
    base: usize,
    indexed: bool,
    out: &mut Out<'_>,
) -> R {
    let w = scalar.width() as usize;
    for k in 0..count {
        let Some(num) = src.get(start + k) else {
            return Err(Fail::new(
                format!("{count} components"),
                format!("{} components", src.len()),
            ));
        };
        let bytes = convert(num, scalar).map_err(|expected| {
            let f = Fail::new(expected, num.describe());
            if indexed {
                f.at(Seg::Index(start + k))
            } else {
                f
            }
        })?;
        out.put(base + k * w, &bytes[..w])?;
    }
    Ok(())
}

/// A flat source of components, borrowed from a [`Value`].
#[derive(Clone, Copy)]
enum Src<'v> {
    F32(&'v [f32]),
    F64(&'v [f64]),
    I32(&'v [i32]),
    U32(&'v [u32]),
}

impl<'v> Src<'v> {
    fn of(v: &'v Value) -> Option<Self> {
        Some(match v {
            Value::F32(x) => Src::F32(std::slice::from_ref(x)),
            Value::F64(x) => Src::F64(std::slice::from_ref(x)),
            Value::I32(x) => Src::I32(std::slice::from_ref(x)),
            Value::U32(x) => Src::U32(std::slice::from_ref(x)),
            Value::F32s(s) => Src::F32(s),
            Value::I32s(s) => Src::I32(s),
            Value::U32s(s) => Src::U32(s),
            _ => return None,
        })
    }
    fn len(self) -> usize {
        match self {
            Src::F32(s) => s.len(),
            Src::F64(s) => s.len(),
            Src::I32(s) => s.len(),
            Src::U32(s) => s.len(),
        }
    }
    fn get(self, i: usize) -> Option<Num> {
        Some(match self {
            Src::F32(s) => Num::F32(*s.get(i)?),
            Src::F64(s) => Num::F64(*s.get(i)?),
            Src::I32(s) => Num::I32(*s.get(i)?),
            Src::U32(s) => Num::U32(*s.get(i)?),
        })
    }
}

#[derive(Clone, Copy)]
enum Num {
    F32(f32),
    F64(f64),
    I32(i32),
    U32(u32),
}

impl Num {
    fn describe(self) -> String {
        match self {
            Num::F32(x) => format!("f32 {}", fmt_float(f64::from(x))),
            Num::F64(x) => format!("f64 {}", fmt_float(x)),
            Num::I32(x) => format!("i32 {x}"),
            Num::U32(x) => format!("u32 {x}"),
        }
    }
    /// The exact value as f64 (every f32, i32 and u32 is exactly representable).
    fn as_f64(self) -> f64 {
        match self {
            Num::F32(x) => f64::from(x),
            Num::F64(x) => x,
            Num::I32(x) => f64::from(x),
            Num::U32(x) => f64::from(x),
        }
    }
    fn is_int(self) -> bool {
        matches!(self, Num::I32(_) | Num::U32(_))
    }
}

/// Converts one component to `scalar`'s bytes (native endian, `width` bytes used), or returns
/// what was expected.
fn convert(num: Num, scalar: ScalarType) -> Result<[u8; 8], String> {
    let mut b = [0u8; 8];
    match scalar {
        ScalarType::F32 => {
            let x = match num {
                Num::F32(x) => x,
                _ => {
                    let v = num.as_f64();
                    if v.is_finite() && v.abs() > f64::from(f32::MAX) {
                        return Err("a number in f32 range (|x| ≤ 3.4028235e38)".to_owned());
                    }
                    let x = v as f32;
                    if num.is_int() && f64::from(x) != v {
                        return Err(
                            "an integer exactly representable as f32 (|x| ≤ 16777216)".to_owned()
                        );
                    }
                    x
                }
            };
            b[..4].copy_from_slice(&x.to_ne_bytes());
        }
        ScalarType::F16 => {
            let v = num.as_f64();
            if v.is_finite() && v.abs() > 65504.0 {
                return Err("a number in f16 range (|x| ≤ 65504)".to_owned());
            }
            let h = f32_to_f16(v as f32);
            if num.is_int() && f64::from(f16_to_f32(h)) != v {
                return Err("an integer exactly representable as f16 (|x| ≤ 2048)".to_owned());
            }
            b[..2].copy_from_slice(&h.to_ne_bytes());
        }
        ScalarType::F64 => b.copy_from_slice(&num.as_f64().to_ne_bytes()),
        ScalarType::I32 => {
            let x = match num {
                Num::I32(x) => x,
                Num::U32(x) => i32::try_from(x)
                    .map_err(|_| int_range("i32", i32::MIN.into(), i32::MAX.into()))?,
                _ => float_to_int(num.as_f64(), i32::MIN.into(), i32::MAX.into(), "i32")? as i32,
            };
            b[..4].copy_from_slice(&x.to_ne_bytes());
        }
        ScalarType::U32 => {
            let x = match num {
                Num::U32(x) => x,
                Num::I32(x) => {
                    u32::try_from(x).map_err(|_| int_range("u32", 0, u32::MAX.into()))?
                }
                _ => float_to_int(num.as_f64(), 0, u32::MAX.into(), "u32")? as u32,
            };
            b[..4].copy_from_slice(&x.to_ne_bytes());
        }
        ScalarType::I64 => {
            let x: i64 = match num {
                Num::I32(x) => x.into(),
                Num::U32(x) => x.into(),
                _ => float_to_int(num.as_f64(), i64::MIN.into(), i64::MAX.into(), "i64")? as i64,
            };
            b.copy_from_slice(&x.to_ne_bytes());
        }
        ScalarType::U64 => {
            let x: u64 = match num {
                Num::U32(x) => x.into(),
                Num::I32(x) => {
                    u64::try_from(x).map_err(|_| int_range("u64", 0, u64::MAX.into()))?
                }
                _ => float_to_int(num.as_f64(), 0, u64::MAX.into(), "u64")? as u64,
            };
            b.copy_from_slice(&x.to_ne_bytes());
        }
    }
    Ok(b)
}

fn int_range(name: &str, min: i128, max: i128) -> String {
    format!("an integer in {min}..={max} ({name})")
}

/// A float given for an integer field: must be finite, integral and in range.
fn float_to_int(v: f64, min: i128, max: i128, name: &str) -> Result<i128, String> {
    // `max as f64` rounds up for 64-bit types; compare with `<` against 2^k so the cast below
    // cannot saturate.
    let (lo, hi) = (min as f64, max as f64 + 1.0);
    if !v.is_finite() || v.fract() != 0.0 || v < lo || v >= hi {
        return Err(int_range(name, min, max));
    }
    Ok(v as i128)
}

/// f32 → IEEE binary16 bits, round to nearest even; overflow gives infinity.
pub(crate) fn f32_to_f16(x: f32) -> u16 {
    let b = x.to_bits();
    let sign = ((b >> 16) & 0x8000) as u16;
    let exp = ((b >> 23) & 0xff) as i32;
    let man = b & 0x7f_ffff;
    if exp == 0xff {
        let nan = if man != 0 {
            0x200 | (man >> 13) as u16
        } else {
            0
        };
        return sign | 0x7c00 | nan;
    }
    let e = exp - 127 + 15;
    if e >= 0x1f {
        return sign | 0x7c00;
    }
    if e <= 0 {
        if e < -10 {
            return sign;
        }
        let m = man | 0x80_0000;
        let shift = (14 - e) as u32;
        let half = 1u32 << (shift - 1);
        let rem = m & ((1u32 << shift) - 1);
        let mut r = m >> shift;
        if rem > half || (rem == half && r & 1 == 1) {
            r += 1;
        }
        return sign | r as u16;
    }
    let mut r = ((e as u32) << 10) | (man >> 13);
    let rem = man & 0x1fff;
    if rem > 0x1000 || (rem == 0x1000 && r & 1 == 1) {
        r += 1;
    }
    sign | r as u16
}

/// IEEE binary16 bits → f32 (exact).
pub(crate) fn f16_to_f32(h: u16) -> f32 {
    let sign = u32::from(h & 0x8000) << 16;
    let exp = u32::from((h >> 10) & 0x1f);
    let man = u32::from(h & 0x3ff);
    let bits = match (exp, man) {
        (0, 0) => sign,
        (0, _) => {
            // Subnormal: value = man × 2^-24.
            let v = man as f32 * f32::from_bits(0x3380_0000);
            return if sign != 0 { -v } else { v };
        }
        (0x1f, _) => sign | 0x7f80_0000 | (man << 13),
        _ => sign | ((exp + 127 - 15) << 23) | (man << 13),
    };
    f32::from_bits(bits)
}

/// Where the walk writes: the destination in the write pass; nothing (only the extent) in the
/// validation pass.
struct Out<'d> {
    dst: &'d mut [u8],
    write: bool,
    partial: bool,
    end: usize,
}

impl Out<'_> {
    #[inline(always)]
    fn put(&mut self, at: usize, bytes: &[u8]) -> R {
        let end = at.saturating_add(bytes.len());
        self.end = self.end.max(end);
        if self.write {
            match self.dst.get_mut(at..end) {
                Some(d) => copy_small(d, bytes),
                None => {
                    return Err(Fail::new(
                        format!("room for {end} bytes"),
                        format!("{} bytes", self.dst.len()),
                    ));
                }
            }
        }
        Ok(())
    }

    #[inline]
    fn zero(&mut self, at: usize, len: usize) -> R {
        if len == 0 {
            return Ok(());
        }
        let end = at.saturating_add(len);
        self.end = self.end.max(end);
        if self.write {
            match self.dst.get_mut(at..end) {
                Some(d) => d.fill(0),
                None => {
                    return Err(Fail::new(
                        format!("room for {end} bytes"),
                        format!("{} bytes", self.dst.len()),
                    ));
                }
            }
        }
        Ok(())
    }
}

/// `a == b` for field names, without a `memcmp` call for the usual short names.
#[inline(always)]
fn name_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    if a.len() <= 16 {
        let mut diff = 0u8;
        for (x, y) in a.iter().zip(b) {
            diff |= x ^ y;
        }
        return diff == 0;
    }
    a == b
}

/// `d.copy_from_slice(s)` (equal lengths), with the common leaf sizes as fixed-size moves
/// instead of a `memcpy` call.
#[inline(always)]
fn copy_small(d: &mut [u8], s: &[u8]) {
    macro_rules! fixed {
        ($($n:literal)*) => {
            $(
                if let (Ok(d), Ok(s)) = (<&mut [u8; $n]>::try_from(&mut *d), <&[u8; $n]>::try_from(s)) {
                    *d = *s;
                    return;
                }
            )*
        };
    }
    fixed!(4 8 12 16 64);
    d.copy_from_slice(s);
}

type R = Result<(), Box<Fail>>;

/// A path segment while unwinding (borrowed; owned only once an error exists).
enum Seg<'a> {
    Field(&'a str),
    Index(usize),
}

enum PathSeg {
    Field(String),
    Index(usize),
}

/// An error on its way up: segments are pushed innermost first.
/// How to set only some fields, in the user's API: the first value of a binding or block is
/// whole; later ones may be partial, or a member set.
#[cold]
fn missing_field_hint(member: &str) -> Box<str> {
    format!(
        "the first value of a binding (or of a uniforms block) gives every field; once it holds \
         one, a struct with only some fields changes just those (`draw.set(\"binding\", \
         value! {{ {member}: … }})`, `block.set(…)`), and so does a member set \
         (`draw.set(\"{member}\", …)`, for a member of one struct binding)"
    )
    .into()
}

struct Fail {
    path: Vec<PathSeg>,
    expected: String,
    actual: String,
    hint: Option<Box<str>>,
}

impl Fail {
    fn new(expected: String, actual: String) -> Box<Self> {
        Box::new(Fail {
            path: Vec::new(),
            expected,
            actual,
            hint: None,
        })
    }

    fn boxed(self) -> Box<Self> {
        Box::new(self)
    }

    fn into_error(self, ctx: &PackContext<'_>) -> SetError {
        let mut path = String::from("$");
        for seg in self.path.iter().rev() {
            match seg {
                PathSeg::Field(f) => {
                    path.push('.');
                    path.push_str(f);
                }
                PathSeg::Index(i) => {
                    path.push('[');
                    path.push_str(&i.to_string());
                    path.push(']');
                }
            }
        }
        SetError::ValueInvalid {
            label: ctx.label.into(),
            binding: ctx.binding.into(),
            path: path.into(),
            expected: self.expected.into(),
            actual: self.actual.into(),
            hint: self.hint,
        }
    }
}

trait At {
    fn at(self, seg: Seg<'_>) -> Self;
}

impl At for Box<Fail> {
    fn at(mut self, seg: Seg<'_>) -> Self {
        self.path.push(match seg {
            Seg::Field(f) => PathSeg::Field(f.to_owned()),
            Seg::Index(i) => PathSeg::Index(i),
        });
        self
    }
}

struct PlanBuilder {
    nodes: Vec<Node>,
    memo: AHashMap<*const TypeLayout, u32>,
}

impl PlanBuilder {
    fn node(&mut self, layout: &Arc<TypeLayout>) -> u32 {
        if let Some(&n) = self.memo.get(&Arc::as_ptr(layout)) {
            return n;
        }
        let kind = match &layout.kind {
            LayoutKind::Scalar(s) | LayoutKind::Atomic(s) => NodeKind::Numeric {
                scalar: *s,
                shape: Shape::Scalar,
            },
            LayoutKind::Vector { scalar, components } => NodeKind::Numeric {
                scalar: *scalar,
                shape: Shape::Vector(*components),
            },
            LayoutKind::Matrix {
                scalar,
                columns,
                rows,
                column_stride,
            } => NodeKind::Numeric {
                scalar: *scalar,
                shape: Shape::Matrix {
                    cols: *columns,
                    rows: *rows,
                    col_stride: *column_stride,
                },
            },
            LayoutKind::Array {
                element,
                length,
                stride,
            } => {
                let elem = self.node(element);
                let elem_node = &self.nodes[elem as usize];
                let flat = self
                    .flat_of(elem_node)
                    .map(|(scalar, per_elem, tight)| Flat {
                        scalar,
                        per_elem,
                        tight: tight && *stride == element.size,
                    });
                NodeKind::Array {
                    elem,
                    len: *length,
                    stride: *stride,
                    elem_size: element.size.min(*stride),
                    flat,
                }
            }
            LayoutKind::Struct { members } => {
                let mut out = Vec::with_capacity(members.len());
                let mut gaps = Vec::new();
                let mut cursor = 0u32;
                let runtime_tail = layout.runtime_array().is_some();
                for (i, m) in members.iter().enumerate() {
                    let node = self.node(&m.layout);
                    if m.offset > cursor {
                        gaps.push((cursor, m.offset - cursor));
                    }
                    let is_tail = runtime_tail && i + 1 == members.len();
                    cursor = if is_tail {
                        layout.size
                    } else {
                        m.offset + m.layout.size
                    };
                    out.push(PlanMember {
                        name: m.name.clone(),
                        offset: m.offset,
                        node,
                    });
                }
                if cursor < layout.size {
                    gaps.push((cursor, layout.size - cursor));
                }
                let index = (members.len() > LINEAR_LOOKUP_MAX).then(|| {
                    members
                        .iter()
                        .enumerate()
                        .map(|(i, m)| (m.name.clone(), i as u32))
                        .collect()
                });
                NodeKind::Struct {
                    members: out.into_boxed_slice(),
                    gaps: gaps.into_boxed_slice(),
                    index,
                }
            }
        };
        let n = self.nodes.len() as u32;
        self.nodes.push(Node {
            layout: layout.clone(),
            kind,
        });
        self.memo.insert(Arc::as_ptr(layout), n);
        n
    }

    /// `(scalar, components, tight)` if the node's leaves are all numbers of one type and its
    /// size is fixed.
    fn flat_of(&self, node: &Node) -> Option<(ScalarType, usize, bool)> {
        match &node.kind {
            NodeKind::Numeric { scalar, shape } => {
                let tight = match shape {
                    Shape::Matrix {
                        rows, col_stride, ..
                    } => *col_stride == u32::from(*rows) * scalar.width(),
                    _ => true,
                };
                Some((*scalar, shape.count(), tight))
            }
            NodeKind::Array {
                len: Some(len),
                flat: Some(flat),
                ..
            } => Some((flat.scalar, flat.per_elem * *len as usize, flat.tight)),
            _ => None,
        }
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

    #[test]
    fn f16_conversion_round_trips_and_rounds_to_even() {
        for h in 0u16..=0xffff {
            let f = f16_to_f32(h);
            if f.is_nan() {
                assert!(f32_to_f16(f) & 0x7c00 == 0x7c00 && f32_to_f16(f) & 0x3ff != 0);
            } else {
                assert_eq!(f32_to_f16(f), h, "bits {h:#06x} -> {f}");
            }
        }
        // 1 + 2^-11 is halfway between 1 and the next f16: ties to even (1.0).
        assert_eq!(f32_to_f16(1.0 + f32::powi(2.0, -11)), 0x3c00);
        // 1 + 3 × 2^-11 is halfway between two f16s with an odd lower one: rounds up.
        assert_eq!(f32_to_f16(1.0 + 3.0 * f32::powi(2.0, -11)), 0x3c02);
        assert_eq!(f32_to_f16(65520.0), 0x7c00);
        assert_eq!(f32_to_f16(1e-9), 0);
    }

    #[test]
    fn float_to_int_is_strict() {
        assert_eq!(float_to_int(3.0, 0, u32::MAX.into(), "u32"), Ok(3));
        assert!(float_to_int(-1.0, 0, u32::MAX.into(), "u32").is_err());
        assert!(float_to_int(1.5, 0, u32::MAX.into(), "u32").is_err());
        assert!(float_to_int(f64::NAN, 0, u32::MAX.into(), "u32").is_err());
        assert!(float_to_int(4294967296.0, 0, u32::MAX.into(), "u32").is_err());
        assert_eq!(
            float_to_int(4294967295.0, 0, u32::MAX.into(), "u32"),
            Ok(4294967295)
        );
        assert!(float_to_int(9.3e18, i64::MIN.into(), i64::MAX.into(), "i64").is_err());
    }
}
