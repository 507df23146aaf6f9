//! Compiled write plans: strict packing of [`Value`](crate::Value)s (and `Pod` values) into
//! host-shareable bytes.
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
//!
//! The plan's files, one job each: `compile` builds the node table from a layout; `pack` holds
//! the entry points that take a value (validate, then write; or write over a backup); `walk` is
//! the interpreter they run, node by node; `convert` turns one number into a scalar's bytes;
//! `pod` copies typed (`Pod`) values after a size check; `fail` carries an error up the walk to
//! a `SetError`.

mod compile;
mod convert;

pub use convert::{f16_bits_to_f32, f32_to_f16_bits};
mod fail;
mod pack;
mod pod;
mod walk;

use std::sync::Arc;

use ahash::AHashMap;

use crate::layout::{RuntimeArray, ScalarType, TypeLayout};

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

/// What a node is: a numeric leaf, an array or a struct.
#[derive(Debug)]
enum NodeKind {
    Numeric { scalar: ScalarType, shape: Shape },
    Array(ArrayNode),
    Struct(StructNode),
}

/// An array node: its element node and how elements lie.
#[derive(Debug)]
struct ArrayNode {
    elem: u32,
    len: Option<u32>,
    stride: u32,
    elem_size: u32,
    flat: Option<Flat>,
}

/// A struct node: its members, the padding gaps between them, and (for many members) a name
/// index.
#[derive(Debug)]
struct StructNode {
    members: Box<[PlanMember]>,
    gaps: Box<[(u32, u32)]>,
    index: Option<AHashMap<Box<str>, u32>>,
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
}
