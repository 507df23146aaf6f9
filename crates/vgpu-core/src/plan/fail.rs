//! An error on its way up the walk: a boxed [`Fail`] gathers the path segments while the walk
//! unwinds (innermost first) and becomes a [`SetError`] naming the binding at the top.

use crate::set_error::{PackContext, SetError};

/// What every step of the walk returns.
pub(super) type R = Result<(), Box<Fail>>;

/// A path segment while unwinding (borrowed; owned only once an error exists).
pub(super) enum Seg<'a> {
    Field(&'a str),
    Index(usize),
}

/// A path segment of an error (owned).
pub(super) enum PathSeg {
    Field(String),
    Index(usize),
}

/// How to set only some fields, in the user's API: the first value of a binding or block is
/// whole; later ones may be partial, or a member set.
#[cold]
pub(super) fn missing_field_hint(member: &str) -> Box<str> {
    format!(
        "the first value of a binding (or of a uniforms block) gives every field; once it holds \
         one, a struct with only some fields changes just those (`draw.set(\"binding\", \
         value! {{ {member}: … }})`, `block.set(…)`), and so does a member set \
         (`draw.set(\"{member}\", …)`, for a member of one struct binding)"
    )
    .into()
}

/// An error on its way up: segments are pushed innermost first.
pub(super) struct Fail {
    pub(super) path: Vec<PathSeg>,
    pub(super) expected: String,
    pub(super) actual: String,
    pub(super) hint: Option<Box<str>>,
}

impl Fail {
    /// A failure at the current node (its path filled in on the way up).
    pub(super) fn new(expected: String, actual: String) -> Box<Self> {
        Box::new(Fail {
            path: Vec::new(),
            expected,
            actual,
            hint: None,
        })
    }

    pub(super) fn boxed(self) -> Box<Self> {
        Box::new(self)
    }

    /// The `VGPU-SET-VALUE-INVALID` error, its path written outermost first.
    pub(super) fn into_error(self, ctx: &PackContext<'_>) -> SetError {
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

/// Adds a path segment to a failure on its way up.
pub(super) trait At {
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
