//! The WGSL shape of a typed Rust value ([`RustShape`]) and its check against a reflected
//! [`TypeLayout`].
//!
//! A Rust type that implements `vgpu::Uniform` (by `#[derive(vgpu::Uniform)]`, or the impls for
//! scalars, arrays and the glam and mint types) describes the WGSL layout its bytes are written
//! in as a `&'static RustShape`, computed at compile time by the WGSL memory-layout rules. The
//! first set of a Rust type against a binding checks that shape against the reflected layout
//! once ([`RustShape::check`]): member names, their order, their types, their offsets and the
//! struct size. Later sets write the bytes straight into place.

use std::fmt::Write as _;

use crate::layout::{LayoutKind, MemberLayout, ScalarType, TypeLayout};
use crate::set_error::{PackContext, SetError, TypedLayoutError, TypedMismatch, did_you_mean};

/// The WGSL layout a Rust type is written in (see the module doc).
///
/// Built by `vgpu::Uniform` impls (generated code constructs it, so it is exhaustive).
#[derive(Debug)]
pub enum RustShape {
    /// A scalar (`f32`, `i32`, `u32`, …).
    Scalar(ScalarType),
    /// A vector type (`glam::Vec4`, `mint::Vector3<f32>`): `vecN<T>`.
    Vector {
        /// Component type.
        scalar: ScalarType,
        /// 2, 3 or 4.
        components: u8,
    },
    /// A column-major matrix type (`glam::Mat4`, `mint::ColumnMatrix4<f32>`): `matCxR<T>`.
    Matrix {
        /// Component type.
        scalar: ScalarType,
        /// Columns.
        columns: u8,
        /// Rows (components per column).
        rows: u8,
    },
    /// `[T; N]`. An array of 2, 3 or 4 scalars is laid out as a WGSL vector (it matches
    /// `vecN<T>`), so `[[f32; 4]; 4]` matches `mat4x4<f32>` and `array<vec4<f32>, 4>`.
    Array {
        /// The element's shape.
        element: &'static RustShape,
        /// The element count.
        length: usize,
        /// Bytes from one element to the next (`roundUp(AlignOf(T), SizeOf(T))`).
        stride: usize,
    },
    /// A struct with named fields, in declaration order.
    Struct {
        /// The Rust type name.
        name: &'static str,
        /// `SizeOf`: the end of the last field rounded up to the alignment.
        size: usize,
        /// The fields in declaration order, with their WGSL offsets.
        fields: &'static [RustField],
    },
}

/// One field of a [`RustShape::Struct`].
#[derive(Debug)]
pub struct RustField {
    /// The field name (matched against the WGSL member name).
    pub name: &'static str,
    /// The Rust type as written in the struct (for error messages).
    pub rust_type: &'static str,
    /// The WGSL offset the field is written at.
    pub offset: usize,
    /// The field's shape.
    pub shape: &'static RustShape,
}

/// `roundUp(align, n)`, for the layout constants of `vgpu::Uniform` impls.
pub const fn round_up(n: usize, align: usize) -> usize {
    n.div_ceil(align) * align
}

/// The larger of two numbers (const), for struct alignments.
pub const fn const_max(a: usize, b: usize) -> usize {
    if a > b { a } else { b }
}

/// A difference found while walking: where, what kind, expected (WGSL) and actual (Rust).
struct Found {
    path: String,
    kind: TypedMismatch,
    expected: String,
    actual: String,
    hint: Option<String>,
}

impl RustShape {
    /// The WGSL spelling of this shape (`vec4<f32>`, `array<vec4<f32>, 4>`, the struct's name).
    pub fn wgsl_name(&self) -> String {
        let mut s = String::new();
        self.write_wgsl_name(&mut s);
        s
    }

    fn write_wgsl_name(&self, out: &mut String) {
        match self {
            RustShape::Scalar(s) => out.push_str(s.wgsl_name()),
            RustShape::Vector { scalar, components } => {
                let _ = write!(out, "vec{components}<{}>", scalar.wgsl_name());
            }
            RustShape::Matrix {
                scalar,
                columns,
                rows,
            } => {
                let _ = write!(out, "mat{columns}x{rows}<{}>", scalar.wgsl_name());
            }
            RustShape::Array {
                element, length, ..
            } => match element.as_vector_scalar(*length) {
                Some(s) => {
                    let _ = write!(out, "vec{length}<{}>", s.wgsl_name());
                }
                None => {
                    out.push_str("array<");
                    element.write_wgsl_name(out);
                    let _ = write!(out, ", {length}>");
                }
            },
            RustShape::Struct { name, .. } => out.push_str(name),
        }
    }

    /// `Some(scalar)` when an array of `length` of this shape is laid out as a vector.
    const fn as_vector_scalar(&self, length: usize) -> Option<ScalarType> {
        match self {
            RustShape::Scalar(s) if length >= 2 && length <= 4 => Some(*s),
            _ => None,
        }
    }

    /// Checks this shape against the reflected `layout` of binding `cx.binding`; `rust_type` is
    /// the Rust type's name. `Err` is `VGPU-SET-TYPED-LAYOUT`, naming the field path, the kind
    /// of difference, the WGSL type and the Rust type.
    pub fn check(
        &self,
        layout: &TypeLayout,
        rust_type: &str,
        cx: &PackContext<'_>,
    ) -> Result<(), SetError> {
        match self.walk(layout, rust_type, "$", 0) {
            None => Ok(()),
            Some(f) => Err(SetError::TypedLayout(Box::new(TypedLayoutError {
                label: cx.label.into(),
                binding: cx.binding.into(),
                rust_type: rust_type.into(),
                wgsl_type: layout.name.clone(),
                path: f.path.into(),
                kind: f.kind,
                expected: f.expected.into(),
                actual: f.actual.into(),
                hint: f.hint.map(Into::into),
            }))),
        }
    }

    /// The first difference between this shape and `wgsl` (depth first), at `path`.
    fn walk(&self, wgsl: &TypeLayout, rust_type: &str, path: &str, depth: usize) -> Option<Found> {
        let type_diff = |path: &str| Found {
            path: path.to_owned(),
            kind: TypedMismatch::Type,
            expected: wgsl.name.to_string(),
            actual: format!("{rust_type} (WGSL {})", self.wgsl_name()),
            hint: None,
        };
        if depth > crate::layout::MAX_TYPE_DEPTH {
            return Some(type_diff(path));
        }
        match (self, &wgsl.kind) {
            (RustShape::Scalar(a), LayoutKind::Scalar(b) | LayoutKind::Atomic(b)) => {
                (a != b).then(|| type_diff(path))
            }
            (
                RustShape::Vector { scalar, components },
                LayoutKind::Vector {
                    scalar: s,
                    components: c,
                },
            ) => (scalar != s || components != c).then(|| type_diff(path)),
            (
                RustShape::Matrix {
                    scalar,
                    columns,
                    rows,
                },
                LayoutKind::Matrix {
                    scalar: s,
                    columns: c,
                    rows: r,
                    ..
                },
            ) => (scalar != s || columns != c || rows != r).then(|| type_diff(path)),
            (
                RustShape::Matrix {
                    scalar,
                    columns,
                    rows,
                },
                LayoutKind::Array {
                    element,
                    length: Some(n),
                    ..
                },
            ) => (!matrix_is_array(*scalar, *columns, *rows, element, *n)).then(|| type_diff(path)),
            (
                RustShape::Array {
                    element, length, ..
                },
                LayoutKind::Vector { scalar, components },
            ) => (element.as_vector_scalar(*length) != Some(*scalar)
                || *length != usize::from(*components))
            .then(|| type_diff(path)),
            (
                RustShape::Array {
                    element, length, ..
                },
                LayoutKind::Matrix {
                    scalar,
                    columns,
                    rows,
                    ..
                },
            ) => (!array_is_matrix(element, *length, *scalar, *columns, *rows))
                .then(|| type_diff(path)),
            (
                RustShape::Array {
                    element,
                    length,
                    stride,
                },
                LayoutKind::Array {
                    element: e,
                    length: l,
                    stride: s,
                },
            ) => {
                if l.map(|l| l as usize) != Some(*length) {
                    return Some(type_diff(path));
                }
                let inner = element.walk(e, &element.wgsl_name(), &format!("{path}[i]"), depth + 1);
                inner.or_else(|| {
                    (*stride != *s as usize).then(|| Found {
                        path: path.to_owned(),
                        kind: TypedMismatch::Padding,
                        expected: format!("{} with an element stride of {s}", wgsl.name),
                        actual: format!("{rust_type} with an element stride of {stride}"),
                        hint: None,
                    })
                })
            }
            (RustShape::Struct { fields, size, .. }, LayoutKind::Struct { members }) => {
                walk_struct(fields, *size, wgsl, members, rust_type, path, depth)
            }
            _ => Some(type_diff(path)),
        }
    }
}

/// A Rust matrix against a WGSL `array<vecR<T>, C>`: the same columns.
fn matrix_is_array(
    scalar: ScalarType,
    columns: u8,
    rows: u8,
    element: &TypeLayout,
    length: u32,
) -> bool {
    let column_ok = matches!(element.kind,
        LayoutKind::Vector { scalar: s, components: c } if s == scalar && c == rows);
    column_ok && length == u32::from(columns)
}

/// A Rust array of columns (arrays of scalars laid out as vectors, or vectors) against a WGSL
/// matrix.
fn array_is_matrix(
    element: &RustShape,
    length: usize,
    scalar: ScalarType,
    columns: u8,
    rows: u8,
) -> bool {
    let column_ok = match element {
        RustShape::Array {
            element: e,
            length: l,
            ..
        } => e.as_vector_scalar(*l) == Some(scalar) && *l == usize::from(rows),
        RustShape::Vector {
            scalar: s,
            components,
        } => *s == scalar && *components == rows,
        _ => false,
    };
    column_ok && length == usize::from(columns)
}

/// The first difference between a Rust struct's fields and a WGSL struct's members: names in
/// order, each field's shape and offset, then the size.
fn walk_struct(
    fields: &[RustField],
    size: usize,
    wgsl: &TypeLayout,
    members: &[MemberLayout],
    rust_type: &str,
    path: &str,
    depth: usize,
) -> Option<Found> {
    for i in 0..fields.len().max(members.len()) {
        let (field, member) = (fields.get(i), members.get(i));
        match (field, member) {
            (Some(f), Some(m)) if f.name == &*m.name => {
                let child = member_path(path, f.name);
                let inner = f.shape.walk(&m.layout, f.rust_type, &child, depth + 1);
                if inner.is_some() {
                    return inner;
                }
                if f.offset != m.offset as usize {
                    return Some(Found {
                        path: child,
                        kind: TypedMismatch::Padding,
                        expected: format!("{} at offset {}", m.layout.name, m.offset),
                        actual: format!("{} at offset {}", f.rust_type, f.offset),
                        hint: Some(
                            "the WGSL struct moves this member with @align or @size; the Rust \
                             type lays it out by the default rules"
                                .to_owned(),
                        ),
                    });
                }
            }
            (Some(f), Some(m)) => return Some(misplaced(fields, members, f, m, path)),
            (Some(f), None) => {
                return Some(Found {
                    path: member_path(path, f.name),
                    kind: TypedMismatch::ExtraField,
                    expected: format!("no more members (members: {})", member_list(members)),
                    actual: format!("field `{}`: {}", f.name, f.rust_type),
                    hint: padding_hint(f.name),
                });
            }
            (None, Some(m)) => {
                return Some(Found {
                    path: member_path(path, &m.name),
                    kind: TypedMismatch::MissingField,
                    expected: format!("member `{}`: {}", m.name, m.layout.name),
                    actual: format!("no field `{}` (fields: {})", m.name, field_list(fields)),
                    hint: None,
                });
            }
            (None, None) => {}
        }
    }
    (size != wgsl.size as usize).then(|| Found {
        path: path.to_owned(),
        kind: TypedMismatch::Padding,
        expected: format!("{} of {} bytes", wgsl.name, wgsl.size),
        actual: format!("{rust_type} of {size} bytes"),
        hint: Some(
            "the WGSL struct's size is changed by @size or @align on its last member".to_owned(),
        ),
    })
}

/// Field `f` where the WGSL struct has member `m` (another name): the fields are out of order,
/// the Rust struct has a field the WGSL one lacks, or lacks a member.
fn misplaced(
    fields: &[RustField],
    members: &[MemberLayout],
    f: &RustField,
    m: &MemberLayout,
    path: &str,
) -> Found {
    let in_wgsl = members.iter().position(|x| &*x.name == f.name);
    let in_rust = fields.iter().position(|x| x.name == &*m.name);
    let (kind, name, expected, actual, hint) = match (in_wgsl, in_rust) {
        (Some(_), Some(_)) => (
            TypedMismatch::Order,
            f.name,
            format!(
                "member `{}` here (WGSL order: {})",
                m.name,
                member_list(members)
            ),
            format!("field `{}` (Rust order: {})", f.name, field_list(fields)),
            Some("declare the fields in the WGSL order".to_owned()),
        ),
        (None, _) => (
            TypedMismatch::ExtraField,
            f.name,
            format!(
                "member `{}`: {} (members: {})",
                m.name,
                m.layout.name,
                member_list(members)
            ),
            format!(
                "field `{}`: {}, which the WGSL struct lacks",
                f.name, f.rust_type
            ),
            did_you_mean(f.name, members.iter().map(|x| &*x.name))
                .map(String::from)
                .or_else(|| padding_hint(f.name)),
        ),
        (Some(_), None) => (
            TypedMismatch::MissingField,
            &*m.name,
            format!("member `{}`: {}", m.name, m.layout.name),
            format!("no field `{}` (fields: {})", m.name, field_list(fields)),
            None,
        ),
    };
    Found {
        path: member_path(path, name),
        kind,
        expected,
        actual,
        hint,
    }
}

/// `name: type` of every WGSL member, for messages.
fn member_list(members: &[MemberLayout]) -> String {
    members
        .iter()
        .map(|m| format!("{}: {}", m.name, m.layout.name))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `name: type` of every Rust field, for messages.
fn field_list(fields: &[RustField]) -> String {
    fields
        .iter()
        .map(|f| format!("{}: {}", f.name, f.rust_type))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The path of member `name` inside `path` (`$.name`, `$.light.name`).
fn member_path(path: &str, name: &str) -> String {
    if path == "$" {
        format!("$.{name}")
    } else {
        format!("{path}.{name}")
    }
}

/// Fields that look like hand-written padding: the derive pads by itself.
fn padding_hint(name: &str) -> Option<String> {
    let n = name.trim_start_matches('_').to_ascii_lowercase();
    (n.starts_with("pad") || n.starts_with("padding")).then(|| {
        "#[derive(vgpu::Uniform)] inserts the WGSL padding itself: remove the padding field"
            .to_owned()
    })
}
