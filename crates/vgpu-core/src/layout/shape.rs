//! Comparing the shapes of two layouts ([`TypeLayout::shape_difference`]): the bytes they
//! describe and the member names that address them, ignoring type names.

use super::{LayoutKind, MAX_TYPE_DEPTH, MemberLayout, TypeLayout};

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
    crate::visits::visit();
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
            struct_shape_walk(a, b, ma, mb, path, same, depth)
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

/// [`shape_walk`] for two structs `a` and `b` with members `ma` and `mb`: member names in
/// order, each member's shape and offset, then member counts, sizes and alignments.
fn struct_shape_walk(
    a: &TypeLayout,
    b: &TypeLayout,
    ma: &[MemberLayout],
    mb: &[MemberLayout],
    path: &mut String,
    same: &mut ahash::AHashSet<(*const TypeLayout, *const TypeLayout)>,
    depth: usize,
) -> Option<String> {
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
