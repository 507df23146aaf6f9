//! Host-shareable memory layouts of uniform and storage types.
//!
//! Every number here (member offsets, sizes, alignments, array and matrix-column strides) comes
//! from naga: the member offsets and struct spans of the IR and `naga::proc::Layouter`. A
//! [`TypeLayout`] is built once per WGSL type of a shader and shared (`Arc`).
//!
//! Its files: this one holds the layout types and what they answer directly; `build` computes
//! layouts from naga's IR (and finds what cannot have one); `type_name` spells naga types in
//! WGSL; `shape` compares the shapes of two layouts; `gl` lists where wgpu's GL backend reads a
//! layout differently.

mod build;
mod gl;
mod shape;
mod type_name;

use std::fmt::Write as _;
use std::sync::Arc;

use crate::set_error::{SetError, did_you_mean};

pub(crate) use build::{LayoutBuilder, find_non_host_shareable};
pub use gl::MAX_GL_HAZARDS;
pub use shape::ShapeDifference;
pub(crate) use type_name::type_name;

/// Deepest nesting of arrays and structs accepted in a buffer type. Bounds every recursion over
/// types and values (reflection, plan compilation, packing).
pub(crate) const MAX_TYPE_DEPTH: usize = 64;

/// A scalar type that can live in host-shareable memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ScalarType {
    /// `f16` (needs `enable f16;` and the `SHADER_F16` feature).
    F16,
    /// `f32`.
    F32,
    /// `f64` (needs the `SHADER_F64` feature).
    F64,
    /// `i32`.
    I32,
    /// `u32`.
    U32,
    /// `i64` (needs the `SHADER_INT64` feature).
    I64,
    /// `u64` (needs the `SHADER_INT64` feature).
    U64,
}

impl ScalarType {
    /// Size in bytes.
    #[inline]
    pub const fn width(self) -> u32 {
        match self {
            ScalarType::F16 => 2,
            ScalarType::F32 | ScalarType::I32 | ScalarType::U32 => 4,
            ScalarType::F64 | ScalarType::I64 | ScalarType::U64 => 8,
        }
    }

    /// The WGSL spelling (`f32`, `u32`, …).
    pub const fn wgsl_name(self) -> &'static str {
        match self {
            ScalarType::F16 => "f16",
            ScalarType::F32 => "f32",
            ScalarType::F64 => "f64",
            ScalarType::I32 => "i32",
            ScalarType::U32 => "u32",
            ScalarType::I64 => "i64",
            ScalarType::U64 => "u64",
        }
    }

    /// True for `f16`, `f32` and `f64`.
    pub const fn is_float(self) -> bool {
        matches!(self, ScalarType::F16 | ScalarType::F32 | ScalarType::F64)
    }

    pub(crate) fn from_naga(scalar: naga::Scalar) -> Option<Self> {
        use naga::ScalarKind as K;
        Some(match (scalar.kind, scalar.width) {
            (K::Float, 2) => ScalarType::F16,
            (K::Float, 4) => ScalarType::F32,
            (K::Float, 8) => ScalarType::F64,
            (K::Sint, 4) => ScalarType::I32,
            (K::Uint, 4) => ScalarType::U32,
            (K::Sint, 8) => ScalarType::I64,
            (K::Uint, 8) => ScalarType::U64,
            _ => return None,
        })
    }
}

/// The layout of one host-shareable type: its WGSL name, size, alignment and structure.
///
/// Invariants (from naga and the WGSL memory-layout rules): `align` is a power of two; members
/// are sorted by offset and do not overlap; `size` is the type's byte size, and for a type that
/// ends in a runtime-sized array it counts exactly one element of that array (WebGPU's minimum
/// binding size).
#[derive(Debug)]
#[non_exhaustive]
pub struct TypeLayout {
    /// The WGSL spelling (`vec3<f32>`, `array<Light, 4>`, `Light`).
    pub name: Box<str>,
    /// Size in bytes (`SizeOf`); one element for runtime-sized arrays.
    pub size: u32,
    /// Alignment in bytes (`AlignOf`), as naga's `Layouter` computes it. Note: naga ignores
    /// `@align` attributes when it computes a struct's own alignment (they still move member
    /// offsets and the span); this is the alignment naga uses to place the struct inside
    /// another type, so it agrees with the offsets the GPU code uses.
    pub align: u32,
    /// The structure.
    pub kind: LayoutKind,
}

/// What a [`TypeLayout`] is made of.
#[derive(Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum LayoutKind {
    /// A scalar.
    Scalar(ScalarType),
    /// `atomic<T>`: same bytes as its scalar.
    Atomic(ScalarType),
    /// `vecN<T>`: `components` tightly packed scalars.
    Vector {
        /// Component type.
        scalar: ScalarType,
        /// 2, 3 or 4.
        components: u8,
    },
    /// `matCxR<T>`: `columns` column vectors of `rows` components, `column_stride` bytes apart
    /// (column-major).
    Matrix {
        /// Component type.
        scalar: ScalarType,
        /// Number of columns (C).
        columns: u8,
        /// Number of rows (R), the length of each column vector.
        rows: u8,
        /// Bytes from one column to the next (`AlignOf(vecR)`).
        column_stride: u32,
    },
    /// `array<T, N>` or the runtime-sized `array<T>` (`length` is `None`).
    Array {
        /// Element layout.
        element: Arc<TypeLayout>,
        /// Element count; `None` for runtime-sized arrays.
        length: Option<u32>,
        /// Bytes from one element to the next.
        stride: u32,
    },
    /// A struct, members sorted by offset.
    Struct {
        /// Members in declaration (= offset) order.
        members: Box<[MemberLayout]>,
    },
}

/// One member of a struct layout.
#[derive(Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct MemberLayout {
    /// The WGSL member name.
    pub name: Box<str>,
    /// Byte offset from the start of the struct (`OffsetOfMember`).
    pub offset: u32,
    /// The member's type layout; the member occupies `layout.size` bytes at `offset` (an
    /// `@size` attribute only adds padding after it).
    pub layout: Arc<TypeLayout>,
}

/// Where a runtime-sized array starts and how far apart its elements are.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RuntimeArray {
    /// Byte offset of element 0 from the start of the binding (the size of the fixed part).
    pub offset: u32,
    /// Bytes from one element to the next.
    pub stride: u32,
}

impl TypeLayout {
    /// The struct members (empty for non-struct types).
    pub fn members(&self) -> &[MemberLayout] {
        match &self.kind {
            LayoutKind::Struct { members } => members,
            _ => &[],
        }
    }

    /// The struct member called `name`.
    pub fn member(&self, name: &str) -> Option<&MemberLayout> {
        self.members().iter().find(|m| &*m.name == name)
    }

    /// The runtime-sized array this type ends with (the type itself, or a struct's last member).
    pub fn runtime_array(&self) -> Option<RuntimeArray> {
        match &self.kind {
            LayoutKind::Array {
                length: None,
                stride,
                ..
            } => Some(RuntimeArray {
                offset: 0,
                stride: *stride,
            }),
            LayoutKind::Struct { members } => {
                let last = members.last()?;
                match &last.layout.kind {
                    LayoutKind::Array {
                        length: None,
                        stride,
                        ..
                    } => Some(RuntimeArray {
                        offset: last.offset,
                        stride: *stride,
                    }),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// WebGPU's `min_binding_size` for a buffer of this type: the size, counting one element of
    /// a trailing runtime-sized array.
    pub fn min_binding_size(&self) -> u64 {
        u64::from(self.size)
    }

    /// Bytes occupied by a value of this type whose runtime-sized array holds `elements`
    /// elements (for fixed-size types: the size, `elements` ignored).
    pub fn size_with_elements(&self, elements: u64) -> u64 {
        match self.runtime_array() {
            Some(rt) => u64::from(rt.offset) + elements.saturating_mul(u64::from(rt.stride)),
            None => u64::from(self.size),
        }
    }

    /// Checks a `#[repr(C)]` Rust struct against this struct layout, once, e.g.
    /// `layout.check_fields(&[("world", offset_of!(Object, world), size_of::<[[f32; 4]; 4]>())])`.
    ///
    /// Each entry is `(member, offset, size)`; nested members are dotted (`"light.color"`).
    /// Every entry must name a member whose reflected offset and size are exactly those given.
    /// Members not listed are not checked.
    pub fn check_fields(&self, fields: &[(&str, usize, usize)]) -> Result<(), SetError> {
        for &(field, offset, size) in fields {
            let mut layout = self;
            let mut base = 0u64;
            let mut found = None;
            for part in field.split('.') {
                let Some(m) = layout.member(part) else {
                    return Err(SetError::PodLayout {
                        type_name: self.name.clone(),
                        field: field.into(),
                        expected: format!("a member of {}", describe_members(layout)).into(),
                        actual: format!("no member `{part}`").into(),
                        hint: did_you_mean(part, layout.members().iter().map(|m| &*m.name)),
                    });
                };
                base += u64::from(m.offset);
                layout = &m.layout;
                found = Some(m);
            }
            let Some(m) = found else { continue };
            let (exp_off, exp_size) = (base, u64::from(m.layout.size));
            if exp_off != offset as u64 || exp_size != size as u64 {
                return Err(SetError::PodLayout {
                    type_name: self.name.clone(),
                    field: field.into(),
                    expected: format!("offset {exp_off}, size {exp_size} ({})", m.layout.name)
                        .into(),
                    actual: format!("offset {offset}, size {size}").into(),
                    hint: None,
                });
            }
        }
        Ok(())
    }
}

/// Structural equality. Layouts share the `Arc`s of repeated types, so a type can be a DAG far
/// larger as a tree (`struct S1 { a: S0, b: S0 }`, `S2 { a: S1, b: S1 }`, …): pairs found equal
/// are remembered, so the compare is linear in the number of distinct types.
impl PartialEq for TypeLayout {
    fn eq(&self, other: &Self) -> bool {
        layout_eq(self, other, &mut ahash::AHashSet::default())
    }
}

impl Eq for TypeLayout {}

fn layout_eq(
    a: &TypeLayout,
    b: &TypeLayout,
    same: &mut ahash::AHashSet<(*const TypeLayout, *const TypeLayout)>,
) -> bool {
    crate::visits::visit();
    if std::ptr::eq(a, b) || same.contains(&(a as *const _, b as *const _)) {
        return true;
    }
    let eq = a.name == b.name
        && a.size == b.size
        && a.align == b.align
        && match (&a.kind, &b.kind) {
            (
                LayoutKind::Array {
                    element: ea,
                    length: la,
                    stride: sa,
                },
                LayoutKind::Array {
                    element: eb,
                    length: lb,
                    stride: sb,
                },
            ) => la == lb && sa == sb && layout_eq(ea, eb, same),
            (LayoutKind::Struct { members: ma }, LayoutKind::Struct { members: mb }) => {
                ma.len() == mb.len()
                    && ma.iter().zip(mb.iter()).all(|(x, y)| {
                        x.name == y.name
                            && x.offset == y.offset
                            && layout_eq(&x.layout, &y.layout, same)
                    })
            }
            (LayoutKind::Array { .. } | LayoutKind::Struct { .. }, _)
            | (_, LayoutKind::Array { .. } | LayoutKind::Struct { .. }) => false,
            (x, y) => x == y,
        };
    if eq {
        same.insert((a as *const _, b as *const _));
    }
    eq
}

/// `struct Name { member: type, … }`, for messages.
pub(crate) fn describe_members(layout: &TypeLayout) -> String {
    let mut s = format!("struct {} {{", layout.name);
    for (i, m) in layout.members().iter().enumerate() {
        let sep = if i == 0 { " " } else { ", " };
        let _ = write!(s, "{sep}{}: {}", m.name, m.layout.name);
    }
    s.push_str(" }");
    s
}
