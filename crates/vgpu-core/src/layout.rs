//! Host-shareable memory layouts of uniform and storage types.
//!
//! Every number here (member offsets, sizes, alignments, array and matrix-column strides) comes
//! from naga: the member offsets and struct spans of the IR and `naga::proc::Layouter`. A
//! [`TypeLayout`] is built once per WGSL type of a shader and shared (`Arc`).

use std::fmt::Write as _;
use std::sync::Arc;

use ahash::AHashMap;

use crate::set_error::{SetError, did_you_mean};

/// Deepest nesting of arrays and structs accepted in a buffer type. Bounds every recursion over
/// types and values (reflection, plan compilation, packing).
pub const MAX_TYPE_DEPTH: usize = 64;

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

/// The first difference between the shapes of two type layouts, from
/// [`TypeLayout::shape_difference`]. Displays as
/// ``member `mouse`: vec2<f32> at offset 8 (8 bytes) vs vec3<f32> at offset 16 (12 bytes)``,
/// or, when the compared types themselves differ, as the detail alone
/// (`` `Globals` has 3 members, `BlurGlobals` has 2 ``).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ShapeDifference {
    /// Where the shapes differ, from the compared types: member names joined by `.`, `[i]` for an
    /// array element (`light.color`, `lights[i].color`, `[i]`). Empty when the compared types
    /// themselves differ (their member counts, sizes, or kinds). Member names are the left
    /// side's (up to the difference both sides have the same names).
    pub path: String,
    /// What differs, left side first: each side's type, with its offset and size for a member
    /// (`f32 at offset 4 (4 bytes) vs u32 at offset 4 (4 bytes)`), or the two member names, member
    /// counts, array lengths, strides or sizes.
    pub detail: String,
}

impl std::fmt::Display for ShapeDifference {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.path.is_empty() {
            f.write_str(&self.detail)
        } else if self.path.starts_with('[') {
            write!(f, "element `{}`: {}", self.path, self.detail)
        } else {
            write!(f, "member `{}`: {}", self.path, self.detail)
        }
    }
}

impl TypeLayout {
    /// Compares the shapes of two layouts: the bytes they describe and the member names that
    /// address them, ignoring the names of the types themselves at every depth (a
    /// `struct Globals { time: f32, mouse: vec2f }` has the shape of a
    /// `struct BlurGlobals { time: f32, mouse: vec2f }`, and so do arrays and nested structs of
    /// such types). Compared: kinds (scalar, atomic, vector, matrix, array, struct) with their
    /// scalar types, component and column counts and column strides; sizes and alignments;
    /// array lengths and strides; struct members in order, by name, offset and shape.
    ///
    /// Returns `None` when the shapes are equal, else the first difference in member order
    /// (depth first), with its path. Linear in the number of distinct type pairs compared
    /// (repeated types are shared `Arc`s, and a pair found equal is not compared again), so a
    /// type with 2^26 leaves as a tree is compared as fast as its 27 distinct types.
    pub fn shape_difference(&self, other: &TypeLayout) -> Option<ShapeDifference> {
        let mut path = String::new();
        let mut same = ahash::AHashSet::default();
        let detail = shape_walk(self, other, None, &mut path, &mut same, 0)?;
        Some(ShapeDifference { path, detail })
    }
}

/// A type as a shape difference describes it: name, offset (for a member) and size.
fn describe_shape(l: &TypeLayout, offset: Option<u32>) -> String {
    match offset {
        Some(offset) => format!("{} at offset {offset} ({} bytes)", l.name, l.size),
        None => format!("{} ({} bytes)", l.name, l.size),
    }
}

/// The first difference between `a` and `b` (`None`: same shape); `path` is left pointing at
/// it. `at`: the offsets of the two members whose types these are (`None` at the root and for
/// array elements). `same`: pairs already found to have the same shape.
fn shape_walk(
    a: &TypeLayout,
    b: &TypeLayout,
    at: Option<(u32, u32)>,
    path: &mut String,
    same: &mut ahash::AHashSet<(*const TypeLayout, *const TypeLayout)>,
    depth: usize,
) -> Option<String> {
    let leaf = || {
        format!(
            "{} vs {}",
            describe_shape(a, at.map(|(x, _)| x)),
            describe_shape(b, at.map(|(_, y)| y))
        )
    };
    if at.is_some_and(|(x, y)| x != y) {
        return Some(leaf());
    }
    if std::ptr::eq(a, b) || same.contains(&(a as *const _, b as *const _)) {
        return None;
    }
    // Layouts are built at most MAX_TYPE_DEPTH deep; a deeper one is not compared.
    if depth > MAX_TYPE_DEPTH {
        return Some(format!(
            "types nested more than {MAX_TYPE_DEPTH} levels deep are not compared"
        ));
    }
    let found = match (&a.kind, &b.kind) {
        (LayoutKind::Struct { members: ma }, LayoutKind::Struct { members: mb }) => {
            let mut found = None;
            for (i, (x, y)) in ma.iter().zip(mb.iter()).enumerate() {
                if x.name != y.name {
                    found = Some(format!("member {i} is `{}` vs `{}`", x.name, y.name));
                    break;
                }
                let len = path.len();
                if !path.is_empty() {
                    path.push('.');
                }
                path.push_str(&x.name);
                found = shape_walk(
                    &x.layout,
                    &y.layout,
                    Some((x.offset, y.offset)),
                    path,
                    same,
                    depth + 1,
                );
                if found.is_some() {
                    break;
                }
                path.truncate(len);
            }
            found.or_else(|| {
                if ma.len() != mb.len() {
                    Some(format!(
                        "`{}` has {} members, `{}` has {}",
                        a.name,
                        ma.len(),
                        b.name,
                        mb.len()
                    ))
                } else if a.size != b.size {
                    Some(format!(
                        "`{}` is {} bytes, `{}` is {}",
                        a.name, a.size, b.name, b.size
                    ))
                } else if a.align != b.align {
                    Some(format!(
                        "`{}` is aligned to {} bytes, `{}` to {}",
                        a.name, a.align, b.name, b.align
                    ))
                } else {
                    None
                }
            })
        }
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
        ) => {
            let length = |l: &Option<u32>| match l {
                Some(n) => format!("{n} elements"),
                None => "runtime-sized".to_owned(),
            };
            if la != lb {
                Some(format!(
                    "{} ({}) vs {} ({})",
                    a.name,
                    length(la),
                    b.name,
                    length(lb)
                ))
            } else if sa != sb {
                Some(format!(
                    "{} (stride {sa}) vs {} (stride {sb})",
                    a.name, b.name
                ))
            } else {
                let len = path.len();
                path.push_str("[i]");
                let found = shape_walk(ea, eb, None, path, same, depth + 1);
                if found.is_none() {
                    path.truncate(len);
                }
                found.or_else(|| (a.size != b.size || a.align != b.align).then(leaf))
            }
        }
        (LayoutKind::Array { .. } | LayoutKind::Struct { .. }, _)
        | (_, LayoutKind::Array { .. } | LayoutKind::Struct { .. }) => Some(leaf()),
        // Scalars, atomics, vectors, matrices: no nested layout, so `==` compares no names.
        (x, y) => (x != y || a.size != b.size || a.align != b.align).then(leaf),
    };
    if found.is_none() {
        same.insert((a as *const _, b as *const _));
    }
    found
}

impl TypeLayout {
    /// Where wgpu's GL backend would read this type differently from WGSL, as `path: reason`
    /// lines (empty when the GL backend agrees). naga's GLSL writer declares struct members
    /// without explicit offsets, relying on std140 (uniform) / std430 (storage) placement, so
    /// it ignores the gaps `@size` and `@align` create (upstream gfx-rs/wgpu#4374), and it
    /// gives `matCx2` in uniform buffers std140's 16-byte column stride instead of WGSL's 8
    /// (gfx-rs/wgpu#4371). Packing follows WGSL, which every other backend honours.
    /// At most [`MAX_GL_HAZARDS`] lines are listed.
    pub fn gl_hazards(&self, uniform: bool) -> Vec<String> {
        let mut out = Vec::new();
        let mut clean = ahash::AHashSet::default();
        gl_walk(
            self,
            uniform,
            &mut String::from("$"),
            &mut out,
            &mut clean,
            0,
        );
        out
    }
}

/// Alignment GLSL gives a type in std140 (`uniform`) or std430.
fn glsl_align(l: &TypeLayout, uniform: bool) -> u32 {
    match &l.kind {
        LayoutKind::Struct { .. } | LayoutKind::Array { .. } if uniform => l.align.max(16),
        LayoutKind::Matrix { rows: 2, .. } if uniform => l.align.max(16),
        _ => l.align,
    }
}

/// Size GLSL gives a type in std140 (`uniform`) or std430.
fn glsl_size(l: &TypeLayout, uniform: bool) -> u32 {
    match &l.kind {
        LayoutKind::Struct { .. } if uniform => l.size.div_ceil(16) * 16,
        LayoutKind::Matrix {
            columns, rows: 2, ..
        } if uniform => u32::from(*columns) * 16,
        _ => l.size,
    }
}

/// Most hazards [`TypeLayout::gl_hazards`] lists (the walk stops there).
pub const MAX_GL_HAZARDS: usize = 16;

/// `clean`: types already walked without finding a hazard (shared `Arc`s of repeated types are
/// walked once, so the walk is linear in distinct types, not in the tree's size).
fn gl_walk(
    l: &TypeLayout,
    uniform: bool,
    path: &mut String,
    out: &mut Vec<String>,
    clean: &mut ahash::AHashSet<*const TypeLayout>,
    depth: usize,
) {
    if depth > MAX_TYPE_DEPTH || out.len() >= MAX_GL_HAZARDS || clean.contains(&(l as *const _)) {
        return;
    }
    let before = out.len();
    match &l.kind {
        LayoutKind::Matrix { rows: 2, .. } if uniform => out.push(format!(
            "{path}: {} in a uniform buffer (GL reads columns 16 bytes apart, WGSL packs them 8 apart; gfx-rs/wgpu#4371)",
            l.name
        )),
        LayoutKind::Array { element, .. } => {
            let len = path.len();
            path.push_str("[i]");
            gl_walk(element, uniform, path, out, clean, depth + 1);
            path.truncate(len);
        }
        LayoutKind::Struct { members } => {
            let mut end = 0u32;
            for m in members.iter() {
                let align = glsl_align(&m.layout, uniform);
                let natural = end.div_ceil(align) * align;
                let len = path.len();
                path.push('.');
                path.push_str(&m.name);
                if m.offset != natural {
                    out.push(format!(
                        "{path}: WGSL offset {}, GL offset {natural} (GL ignores @size/@align gaps, gfx-rs/wgpu#4374, and pads matCx2 columns)",
                        m.offset
                    ));
                }
                gl_walk(&m.layout, uniform, path, out, clean, depth + 1);
                path.truncate(len);
                // Continue from where GL puts this member: later members shift with it.
                end = natural + glsl_size(&m.layout, uniform);
            }
        }
        _ => {}
    }
    if out.len() == before {
        clean.insert(l as *const _);
    }
    out.truncate(MAX_GL_HAZARDS);
}

pub(crate) fn describe_members(layout: &TypeLayout) -> String {
    let mut s = format!("struct {} {{", layout.name);
    for (i, m) in layout.members().iter().enumerate() {
        let sep = if i == 0 { " " } else { ", " };
        let _ = write!(s, "{sep}{}: {}", m.name, m.layout.name);
    }
    s.push_str(" }");
    s
}

/// A reason a buffer type has no host-shareable layout, with the path inside the type.
#[derive(Debug)]
pub(crate) struct LayoutProblem {
    /// Path segments from the binding's type to the offending type, innermost last.
    pub(crate) path: Vec<String>,
    pub(crate) actual: String,
    pub(crate) hint: String,
    pub(crate) too_deep: bool,
}

impl LayoutProblem {
    /// The path as `$.a[i].b`; segments were pushed innermost first while unwinding.
    pub(crate) fn path_string_rev(&self) -> String {
        let mut s = String::from("$");
        for p in self.path.iter().rev() {
            s.push_str(p);
        }
        s
    }
}

/// Builds [`TypeLayout`]s for naga types, once per type handle.
pub(crate) struct LayoutBuilder<'m> {
    module: &'m naga::Module,
    layouter: &'m naga::proc::Layouter,
    memo: AHashMap<naga::Handle<naga::Type>, Arc<TypeLayout>>,
}

impl<'m> LayoutBuilder<'m> {
    pub(crate) fn new(module: &'m naga::Module, layouter: &'m naga::proc::Layouter) -> Self {
        LayoutBuilder {
            module,
            layouter,
            memo: AHashMap::default(),
        }
    }

    pub(crate) fn layout(
        &mut self,
        ty: naga::Handle<naga::Type>,
    ) -> Result<Arc<TypeLayout>, LayoutProblem> {
        self.layout_at(ty, 0)
    }

    fn layout_at(
        &mut self,
        ty: naga::Handle<naga::Type>,
        depth: usize,
    ) -> Result<Arc<TypeLayout>, LayoutProblem> {
        if let Some(l) = self.memo.get(&ty) {
            return Ok(l.clone());
        }
        if depth > MAX_TYPE_DEPTH {
            return Err(LayoutProblem {
                path: Vec::new(),
                actual: format!("a type nested more than {MAX_TYPE_DEPTH} levels deep"),
                hint: "flatten the type".to_owned(),
                too_deep: true,
            });
        }
        let t = &self.module.types[ty];
        let tl = self.layouter[ty];
        let size = tl.size;
        let align = tl.alignment * 1;
        let scalar = |s: naga::Scalar| {
            ScalarType::from_naga(s).ok_or_else(|| scalar_problem(s, self.module, ty))
        };
        use naga::TypeInner as Ti;
        let kind = match &t.inner {
            Ti::Scalar(s) => LayoutKind::Scalar(scalar(*s)?),
            Ti::Atomic(s) => LayoutKind::Atomic(scalar(*s)?),
            Ti::Vector { size, scalar: s } => LayoutKind::Vector {
                scalar: scalar(*s)?,
                components: *size as u8,
            },
            Ti::Matrix {
                columns,
                rows,
                scalar: s,
            } => {
                let st = scalar(*s)?;
                LayoutKind::Matrix {
                    scalar: st,
                    columns: *columns as u8,
                    rows: *rows as u8,
                    column_stride: naga::proc::Alignment::from(*rows) * st.width(),
                }
            }
            Ti::Array { base, size, stride } => {
                let length = match size {
                    naga::ArraySize::Constant(n) => Some(n.get()),
                    naga::ArraySize::Dynamic => None,
                    naga::ArraySize::Pending(_) => {
                        return Err(LayoutProblem {
                            path: Vec::new(),
                            actual: type_name(self.module, ty),
                            hint: "an array sized by an override is not host-shareable".to_owned(),
                            too_deep: false,
                        });
                    }
                };
                let element = self.layout_at(*base, depth + 1).map_err(|mut p| {
                    p.path.push("[i]".to_owned());
                    p
                })?;
                LayoutKind::Array {
                    element,
                    length,
                    stride: *stride,
                }
            }
            Ti::Struct { members, .. } => {
                let mut out = Vec::with_capacity(members.len());
                for (i, m) in members.iter().enumerate() {
                    let name: Box<str> = m
                        .name
                        .clone()
                        .unwrap_or_else(|| format!("member{i}"))
                        .into();
                    let layout = self.layout_at(m.ty, depth + 1).map_err(|mut p| {
                        p.path.push(format!(".{name}"));
                        p
                    })?;
                    out.push(MemberLayout {
                        name,
                        offset: m.offset,
                        layout,
                    });
                }
                LayoutKind::Struct {
                    members: out.into_boxed_slice(),
                }
            }
            _ => {
                return Err(LayoutProblem {
                    path: Vec::new(),
                    actual: type_name(self.module, ty),
                    hint: "only scalars, vectors, matrices, atomics, arrays and structs can live in a buffer"
                        .to_owned(),
                    too_deep: false,
                });
            }
        };
        let layout = Arc::new(TypeLayout {
            name: type_name(self.module, ty).into(),
            size,
            align,
            kind,
        });
        self.memo.insert(ty, layout.clone());
        Ok(layout)
    }
}

fn scalar_problem(
    s: naga::Scalar,
    module: &naga::Module,
    ty: naga::Handle<naga::Type>,
) -> LayoutProblem {
    let hint = if s.kind == naga::ScalarKind::Bool {
        "bool is not host-shareable: use u32 (0 or 1) instead".to_owned()
    } else {
        "use f32, i32 or u32 (or f16, f64, i64, u64 where enabled)".to_owned()
    };
    LayoutProblem {
        path: Vec::new(),
        actual: type_name(module, ty),
        hint,
        too_deep: false,
    }
}

/// Finds the first `bool` (or a nesting deeper than [`MAX_TYPE_DEPTH`]) inside a buffer type,
/// before naga's validator sees it, so the error can say what to use instead.
///
/// Types are a DAG (a struct can hold the same struct twice, and so on): a type found clean at
/// some depth is not walked again at that depth or shallower, so the walk is linear in the
/// number of distinct types.
pub(crate) fn find_non_host_shareable(
    module: &naga::Module,
    ty: naga::Handle<naga::Type>,
    depth: usize,
) -> Option<LayoutProblem> {
    find_in(module, ty, depth, &mut AHashMap::default())
}

/// `clean`: the deepest depth each type was found clean at.
fn find_in(
    module: &naga::Module,
    ty: naga::Handle<naga::Type>,
    depth: usize,
    clean: &mut AHashMap<naga::Handle<naga::Type>, usize>,
) -> Option<LayoutProblem> {
    if clean.get(&ty).is_some_and(|&d| depth <= d) {
        return None;
    }
    let found = find_uncached(module, ty, depth, clean);
    if found.is_none() {
        let d = clean.entry(ty).or_insert(depth);
        *d = (*d).max(depth);
    }
    found
}

fn find_uncached(
    module: &naga::Module,
    ty: naga::Handle<naga::Type>,
    depth: usize,
    clean: &mut AHashMap<naga::Handle<naga::Type>, usize>,
) -> Option<LayoutProblem> {
    if depth > MAX_TYPE_DEPTH {
        return Some(LayoutProblem {
            path: Vec::new(),
            actual: format!("a type nested more than {MAX_TYPE_DEPTH} levels deep"),
            hint: "flatten the type".to_owned(),
            too_deep: true,
        });
    }
    use naga::TypeInner as Ti;
    let t = module.types.get_handle(ty).ok()?;
    match &t.inner {
        Ti::Scalar(s)
        | Ti::Atomic(s)
        | Ti::Vector { scalar: s, .. }
        | Ti::Matrix { scalar: s, .. }
            if s.kind == naga::ScalarKind::Bool =>
        {
            Some(scalar_problem(*s, module, ty))
        }
        Ti::Array { base, .. } | Ti::BindingArray { base, .. } => {
            find_in(module, *base, depth + 1, clean).map(|mut p| {
                if !matches!(t.inner, Ti::BindingArray { .. }) {
                    p.path.push("[i]".to_owned());
                }
                p
            })
        }
        Ti::Struct { members, .. } => members.iter().enumerate().find_map(|(i, m)| {
            find_in(module, m.ty, depth + 1, clean).map(|mut p| {
                match &m.name {
                    Some(n) => p.path.push(format!(".{n}")),
                    None => p.path.push(format!(".member{i}")),
                }
                p
            })
        }),
        _ => None,
    }
}

/// The WGSL spelling of a naga type (bounded depth; deeper parts print as `…`).
pub(crate) fn type_name(module: &naga::Module, ty: naga::Handle<naga::Type>) -> String {
    let mut s = String::new();
    write_type_name(&mut s, module, ty, 0);
    s
}

fn write_type_name(
    s: &mut String,
    module: &naga::Module,
    ty: naga::Handle<naga::Type>,
    depth: usize,
) {
    let Ok(t) = module.types.get_handle(ty) else {
        s.push('?');
        return;
    };
    if let Some(name) = &t.name {
        s.push_str(name);
        return;
    }
    if depth > 8 {
        s.push('…');
        return;
    }
    use naga::TypeInner as Ti;
    match &t.inner {
        Ti::Scalar(sc) => s.push_str(&scalar_name(*sc)),
        Ti::Atomic(sc) => {
            let _ = write!(s, "atomic<{}>", scalar_name(*sc));
        }
        Ti::Vector { size, scalar } => {
            let _ = write!(s, "vec{}<{}>", *size as u8, scalar_name(*scalar));
        }
        Ti::Matrix {
            columns,
            rows,
            scalar,
        } => {
            let _ = write!(
                s,
                "mat{}x{}<{}>",
                *columns as u8,
                *rows as u8,
                scalar_name(*scalar)
            );
        }
        Ti::Array { base, size, .. } => {
            s.push_str("array<");
            write_type_name(s, module, *base, depth + 1);
            match size {
                naga::ArraySize::Constant(n) => {
                    let _ = write!(s, ", {n}>");
                }
                naga::ArraySize::Pending(_) => s.push_str(", (override)>"),
                naga::ArraySize::Dynamic => s.push('>'),
            }
        }
        Ti::BindingArray { base, size } => {
            s.push_str("binding_array<");
            write_type_name(s, module, *base, depth + 1);
            match size {
                naga::ArraySize::Constant(n) => {
                    let _ = write!(s, ", {n}>");
                }
                _ => s.push('>'),
            }
        }
        Ti::Struct { .. } => s.push_str("struct"),
        Ti::Image {
            dim,
            arrayed,
            class,
        } => {
            let dim = match dim {
                naga::ImageDimension::D1 => "1d",
                naga::ImageDimension::D2 => "2d",
                naga::ImageDimension::D3 => "3d",
                naga::ImageDimension::Cube => "cube",
            };
            let arr = if *arrayed { "_array" } else { "" };
            let _ = match class {
                naga::ImageClass::Sampled { kind, multi } => {
                    let ms = if *multi { "multisampled_" } else { "" };
                    let k = scalar_name(naga::Scalar {
                        kind: *kind,
                        width: 4,
                    });
                    write!(s, "texture_{ms}{dim}{arr}<{k}>")
                }
                naga::ImageClass::Depth { multi } => {
                    let ms = if *multi { "multisampled_" } else { "" };
                    write!(s, "texture_depth_{ms}{dim}{arr}")
                }
                naga::ImageClass::Storage { format, access } => {
                    let a = if access
                        .contains(naga::StorageAccess::LOAD | naga::StorageAccess::STORE)
                    {
                        "read_write"
                    } else if access.contains(naga::StorageAccess::STORE) {
                        "write"
                    } else {
                        "read"
                    };
                    let f = format!("{format:?}").to_ascii_lowercase();
                    write!(s, "texture_storage_{dim}{arr}<{f}, {a}>")
                }
                naga::ImageClass::External => write!(s, "texture_external"),
            };
        }
        Ti::Sampler { comparison } => s.push_str(if *comparison {
            "sampler_comparison"
        } else {
            "sampler"
        }),
        Ti::Pointer { .. } | Ti::ValuePointer { .. } => s.push_str("ptr"),
        Ti::AccelerationStructure { .. } => s.push_str("acceleration_structure"),
        Ti::RayQuery { .. } => s.push_str("ray_query"),
        _ => s.push_str("(unsupported type)"),
    }
}

fn scalar_name(s: naga::Scalar) -> String {
    use naga::ScalarKind as K;
    match s.kind {
        K::Bool => "bool".to_owned(),
        K::Float => format!("f{}", u32::from(s.width) * 8),
        K::Sint => format!("i{}", u32::from(s.width) * 8),
        K::Uint => format!("u{}", u32::from(s.width) * 8),
        K::AbstractInt => "abstract-int".to_owned(),
        K::AbstractFloat => "abstract-float".to_owned(),
    }
}
