//! Errors of setting values on bindings ([`SetError`]) and the context that names them
//! ([`PackContext`]).

use crate::error::ErrorCode;

/// Who is packing: the draw (or block) label and the WGSL binding name, borrowed. Strings are
/// only built from it when an error happens, so passing it costs nothing on the hot path.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PackContext<'a> {
    /// The label of the draw, effect, compute or uniforms block being set.
    pub label: &'a str,
    /// The WGSL name of the binding being set.
    pub binding: &'a str,
}

impl<'a> PackContext<'a> {
    /// A context naming the draw label and the binding.
    #[inline]
    pub const fn new(label: &'a str, binding: &'a str) -> Self {
        PackContext { label, binding }
    }
}

/// An error from setting a value: wrong shape, type or range, unknown or ambiguous names, or a
/// typed (`Pod`) value whose size or layout does not match the reflected one.
///
/// A rejected set changes nothing: packing validates the whole value before writing a byte.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SetError {
    /// The value's shape, type or range does not match the binding's WGSL type.
    #[error(
        "VGPU-SET-VALUE-INVALID: {label:?}: binding `{binding}` at {path}: expected {expected}, got {actual}{}",
        hint_suffix(.hint)
    )]
    ValueInvalid {
        /// The draw (or block) label.
        label: Box<str>,
        /// The WGSL binding name.
        binding: Box<str>,
        /// Where in the value, e.g. `$.lights[1].color` (`$` is the binding's value).
        path: Box<str>,
        /// What the WGSL type requires there.
        expected: Box<str>,
        /// What the value holds there.
        actual: Box<str>,
        /// A suggestion, e.g. "did you mean `color`?".
        hint: Option<Box<str>>,
    },
    /// A member shorthand names a field of more than one struct binding.
    #[error(
        "VGPU-SET-MEMBER-AMBIGUOUS: {label:?}: member `{member}` belongs to several bindings: {}; set it through its binding instead",
        .candidates.join(", ")
    )]
    MemberAmbiguous {
        /// The draw label.
        label: Box<str>,
        /// The member name given.
        member: Box<str>,
        /// Every `binding.member` that matches.
        candidates: Vec<Box<str>>,
    },
    /// A name is neither a binding nor a member of a struct binding of the shader.
    #[error(
        "VGPU-SET-BINDING-UNKNOWN: {label:?}: no binding or struct member named `{name}`; bindings: {}{}",
        list_or_none(.available),
        hint_suffix(.hint)
    )]
    BindingUnknown {
        /// The draw label.
        label: Box<str>,
        /// The name given.
        name: Box<str>,
        /// Every binding of the shader.
        available: Vec<Box<str>>,
        /// A suggestion, e.g. "did you mean `object`?".
        hint: Option<Box<str>>,
    },
    /// A typed (`Pod`) value's size differs from the reflected size.
    #[error(
        "VGPU-SET-POD-SIZE: {label:?}: binding `{binding}` of type {type_name}: expected a value of {expected} bytes, got {actual} bytes{}",
        hint_suffix(.hint)
    )]
    PodSize {
        /// The draw label.
        label: Box<str>,
        /// The WGSL binding name.
        binding: Box<str>,
        /// The WGSL type.
        type_name: Box<str>,
        /// The reflected size (for runtime-sized arrays: the fixed part plus a whole number of
        /// elements is accepted, see the hint).
        expected: u64,
        /// `size_of` the Rust value.
        actual: u64,
        /// Extra guidance.
        hint: Option<Box<str>>,
    },
    /// A `#[repr(C)]` field's offset or size differs from the reflected member.
    #[error(
        "VGPU-SET-POD-LAYOUT: type {type_name}, field `{field}`: expected {expected}, got {actual}{}",
        hint_suffix(.hint)
    )]
    PodLayout {
        /// The WGSL struct type.
        type_name: Box<str>,
        /// The field checked (dotted for nested members).
        field: Box<str>,
        /// The reflected offset and size.
        expected: Box<str>,
        /// The offset and size given.
        actual: Box<str>,
        /// A suggestion for misspelled fields.
        hint: Option<Box<str>>,
    },
    /// A typed Rust value (`#[derive(vgpu::Uniform)]`, glam, mint, arrays) does not have the
    /// binding's WGSL layout: checked once per Rust type and binding, before any byte is written.
    #[error("{0}")]
    TypedLayout(Box<TypedLayoutError>),
    /// The destination slice is too small for the packed value.
    #[error(
        "VGPU-SET-DEST-SIZE: {label:?}: binding `{binding}`: the destination holds {actual} bytes, the value needs {expected}"
    )]
    DestinationSize {
        /// The draw label.
        label: Box<str>,
        /// The WGSL binding name.
        binding: Box<str>,
        /// Bytes needed.
        expected: u64,
        /// Bytes available.
        actual: u64,
    },
}

/// The details of [`SetError::TypedLayout`] (`VGPU-SET-TYPED-LAYOUT`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
#[error(
    "VGPU-SET-TYPED-LAYOUT: {label:?}: binding `{binding}` of WGSL type {wgsl_type} cannot take the Rust type `{rust_type}`: {kind} at {path}: expected {expected}, got {actual}{}",
    hint_suffix(.hint)
)]
pub struct TypedLayoutError {
    /// The draw (or block) label.
    pub label: Box<str>,
    /// The WGSL binding name.
    pub binding: Box<str>,
    /// The Rust type set.
    pub rust_type: Box<str>,
    /// The binding's WGSL type.
    pub wgsl_type: Box<str>,
    /// Where they differ (`$.light.color`; `$` is the binding's value).
    pub path: Box<str>,
    /// The kind of difference.
    pub kind: TypedMismatch,
    /// What the WGSL type has there.
    pub expected: Box<str>,
    /// What the Rust type has there.
    pub actual: Box<str>,
    /// A suggestion.
    pub hint: Option<Box<str>>,
}

impl ErrorCode for SetError {
    fn code(&self) -> &'static str {
        match self {
            SetError::ValueInvalid { .. } => "VGPU-SET-VALUE-INVALID",
            SetError::MemberAmbiguous { .. } => "VGPU-SET-MEMBER-AMBIGUOUS",
            SetError::BindingUnknown { .. } => "VGPU-SET-BINDING-UNKNOWN",
            SetError::PodSize { .. } => "VGPU-SET-POD-SIZE",
            SetError::PodLayout { .. } => "VGPU-SET-POD-LAYOUT",
            SetError::DestinationSize { .. } => "VGPU-SET-DEST-SIZE",
            SetError::TypedLayout { .. } => "VGPU-SET-TYPED-LAYOUT",
        }
    }
}

fn hint_suffix(hint: &Option<Box<str>>) -> String {
    match hint {
        Some(h) => format!("; {h}"),
        None => String::new(),
    }
}

fn list_or_none(items: &[Box<str>]) -> String {
    if items.is_empty() {
        "none".to_owned()
    } else {
        items.join(", ")
    }
}

/// Levenshtein distance between two short names (case-sensitive), for "did you mean" hints.
pub(crate) fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for (i, ca) in a.iter().enumerate() {
        cur[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != cb);
            cur[j + 1] = (prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

/// The closest candidate to `name`, if it is close enough to be a likely misspelling, as
/// "did you mean `x`?".
pub fn did_you_mean<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<Box<str>> {
    // Bounded input: names longer than this are not compared (the cost is quadratic).
    const MAX_LEN: usize = 256;
    if name.len() > MAX_LEN {
        return None;
    }
    let mut best: Option<(usize, &str)> = None;
    for c in candidates {
        if c.len() > MAX_LEN || c == name {
            continue;
        }
        let d = if c.eq_ignore_ascii_case(name) {
            0
        } else {
            edit_distance(name, c)
        };
        let limit = 2.max(name.chars().count() / 3);
        if d <= limit && best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, c));
        }
    }
    best.map(|(_, c)| format!("did you mean `{c}`?").into())
}

/// What kind of difference a typed-layout check found (stable names, see
/// [`TypedMismatch::as_str`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum TypedMismatch {
    /// The fields are the WGSL members in another order.
    Order,
    /// A field's type does not match the member's WGSL type.
    Type,
    /// A WGSL member has no field in the Rust type.
    MissingField,
    /// A Rust field has no WGSL member.
    ExtraField,
    /// Same members and types, other offsets or size (`@align`/`@size` attributes in the WGSL, or
    /// a Rust array laid out as a vector).
    Padding,
}

impl TypedMismatch {
    /// `order`, `type`, `missing field`, `extra field` or `padding`.
    pub const fn as_str(self) -> &'static str {
        match self {
            TypedMismatch::Order => "order",
            TypedMismatch::Type => "type",
            TypedMismatch::MissingField => "missing field",
            TypedMismatch::ExtraField => "extra field",
            TypedMismatch::Padding => "padding",
        }
    }
}

impl std::fmt::Display for TypedMismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edit_distance_counts_single_edits() {
        assert_eq!(edit_distance("color", "colr"), 1);
        assert_eq!(edit_distance("world", "wrold"), 2);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("same", "same"), 0);
    }

    #[test]
    fn did_you_mean_picks_closest_within_limit() {
        let names = ["world", "color", "lights"];
        assert_eq!(
            did_you_mean("colr", names).as_deref(),
            Some("did you mean `color`?")
        );
        assert_eq!(
            did_you_mean("Color", names).as_deref(),
            Some("did you mean `color`?")
        );
        assert_eq!(did_you_mean("zzzzzzzz", names), None);
    }
}
