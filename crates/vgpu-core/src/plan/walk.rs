//! The interpreter: walks a value along the plan's nodes and writes each leaf's components at
//! its offset, zeroing padding (or, in the validation pass, only measures; see [`Out`]). Numeric
//! leaves given as flat runs in their own representation are single copies; everything else is
//! converted and checked component by component.

use smallvec::SmallVec;

use super::convert::{Src, convert};
use super::fail::{At, Fail, PathSeg, R, Seg, missing_field_hint};
use super::{ArrayNode, Flat, Node, NodeKind, Shape, StructNode, WritePlan};
use crate::layout::{ScalarType, describe_members};
use crate::set_error::did_you_mean;
use crate::value::{FieldName, Value};

impl WritePlan {
    /// A child node: numeric leaves given as flat components are written right here (the
    /// common case), everything else recurses.
    #[inline(always)]
    pub(super) fn child(&self, n: u32, v: &Value, base: usize, out: &mut Out<'_>) -> R {
        let node = &self.nodes[n as usize];
        if let NodeKind::Numeric { scalar, shape } = node.kind
            && let Some(src) = Src::of(v)
            && src.len() == shape.count()
        {
            return numeric_flat(scalar, shape, src, 0, base, out);
        }
        self.node(n, v, base, out)
    }

    /// Walks `v` along node `n`, writing at `base` (see [`Out`]).
    pub(super) fn node(&self, n: u32, v: &Value, base: usize, out: &mut Out<'_>) -> R {
        let node = &self.nodes[n as usize];
        match &node.kind {
            NodeKind::Numeric { scalar, shape } => {
                self.numeric(node, *scalar, *shape, v, base, out)
            }
            NodeKind::Array(array) => self.array(node, array, v, base, out),
            NodeKind::Struct(st) => self.structure(node, st, v, base, out),
        }
    }

    /// An array node: an array value element by element, or a flat run of components for an
    /// array whose leaves are numbers of one type.
    #[inline]
    fn array(
        &self,
        node: &Node,
        array: &ArrayNode,
        v: &Value,
        base: usize,
        out: &mut Out<'_>,
    ) -> R {
        let ArrayNode {
            elem,
            len,
            stride,
            elem_size,
            flat,
        } = array;
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

    /// A struct node: every member in declaration order (the fast path), or fields by name;
    /// then the padding gaps are zeroed.
    #[inline]
    fn structure(
        &self,
        node: &Node,
        st: &StructNode,
        v: &Value,
        base: usize,
        out: &mut Out<'_>,
    ) -> R {
        let StructNode { members, gaps, .. } = st;
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
            self.struct_by_name(node, st, fields, base, out)?;
        }
        for &(off, len) in gaps.iter() {
            out.zero(base + off as usize, len as usize)?;
        }
        Ok(())
    }

    /// The fields of a struct value that are not every member in declaration order: each found
    /// by name (a hash index for many members), none given twice, and, unless the value is
    /// partial, none missing.
    #[inline]
    fn struct_by_name(
        &self,
        node: &Node,
        st: &StructNode,
        fields: &[(FieldName, Value)],
        base: usize,
        out: &mut Out<'_>,
    ) -> R {
        let StructNode { members, index, .. } = st;
        let mut seen: SmallVec<[u64; 2]> = SmallVec::from_elem(0, members.len().div_ceil(64));
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
        Ok(())
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
        let NodeKind::Array(ArrayNode {
            elem,
            stride,
            elem_size,
            flat: Some(flat),
            ..
        }) = &node.kind
        else {
            return Err(Fail::new(
                node.layout.name.to_string(),
                "flat components".to_owned(),
            ));
        };
        if flat.tight {
            return write_run(
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
            NodeKind::Array(ArrayNode {
                len: Some(len),
                flat: Some(_),
                ..
            }) => self.flat_array(node, *len as usize, src, start, base, out),
            _ => Err(Fail::new(
                node.layout.name.to_string(),
                "flat components".to_owned(),
            )),
        }
    }
}

/// What a numeric leaf expects, for messages.
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
        return write_run(scalar, src, 0, count, base, count > 1, out);
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
        Shape::Scalar => write_run(scalar, src, start, 1, base, false, out),
        Shape::Vector(n) => write_run(scalar, src, start, n as usize, base, true, out),
        Shape::Matrix {
            cols,
            rows,
            col_stride,
        } => {
            let (cols, rows, cs) = (cols as usize, rows as usize, col_stride as usize);
            let w = scalar.width() as usize;
            if cs == rows * w {
                return write_run(scalar, src, start, cols * rows, base, true, out);
            }
            for c in 0..cols {
                write_run(
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
fn write_run(
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
    write_run_converted(scalar, src, start, count, base, indexed, out)
}

/// [`write_run`] when the source is not already in the target representation: a checked conversion
/// per component.
#[inline(never)]
fn write_run_converted(
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

/// Where the walk writes: the destination in the write pass; nothing (only the extent) in the
/// validation pass.
pub(super) struct Out<'d> {
    pub(super) dst: &'d mut [u8],
    /// False in the validation pass: nothing is written, only `end` moves.
    pub(super) write: bool,
    /// Struct members may be left out (they keep their previous bytes).
    pub(super) partial: bool,
    /// The end of the last byte written (or that would be).
    pub(super) end: usize,
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
pub(super) fn name_eq(a: &str, b: &str) -> bool {
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
