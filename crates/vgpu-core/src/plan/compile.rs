//! Building a [`WritePlan`] from a [`TypeLayout`]: one node per distinct type (shared `Arc`s of
//! repeated types become one node), flat runs coalesced, padding gaps listed.

use std::sync::Arc;

use ahash::AHashMap;

use super::{
    ArrayNode, Flat, FlatMember, Node, NodeKind, PlanMember, Shape, StructNode, WritePlan,
};
use crate::layout::{LayoutKind, ScalarType, TypeLayout};

/// Structs with more members than this get a hash index for field lookup.
const LINEAR_LOOKUP_MAX: usize = 8;

impl WritePlan {
    /// Compiles the plan for a layout.
    pub fn new(layout: Arc<TypeLayout>) -> Self {
        let mut b = PlanBuilder {
            nodes: Vec::new(),
            memo: AHashMap::default(),
        };
        let root = b.node_for(&layout);
        let flat_members = match (&b.nodes[root as usize].kind, layout.runtime_array()) {
            (NodeKind::Struct(StructNode { members, .. }), None) => Some(
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
}

/// The node table under construction, with the node of each layout already built.
struct PlanBuilder {
    nodes: Vec<Node>,
    memo: AHashMap<*const TypeLayout, u32>,
}

impl PlanBuilder {
    /// The index of the node for `layout`, built (with its children) on first sight.
    fn node_for(&mut self, layout: &Arc<TypeLayout>) -> u32 {
        crate::visits::visit();
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
                let elem = self.node_for(element);
                let elem_node = &self.nodes[elem as usize];
                let flat = self
                    .flat_of(elem_node)
                    .map(|(scalar, per_elem, tight)| Flat {
                        scalar,
                        per_elem,
                        tight: tight && *stride == element.size,
                    });
                NodeKind::Array(ArrayNode {
                    elem,
                    len: *length,
                    stride: *stride,
                    elem_size: element.size.min(*stride),
                    flat,
                })
            }
            LayoutKind::Struct { members } => NodeKind::Struct(self.struct_node(layout, members)),
        };
        let n = self.nodes.len() as u32;
        self.nodes.push(Node {
            layout: layout.clone(),
            kind,
        });
        self.memo.insert(Arc::as_ptr(layout), n);
        n
    }

    /// A struct's node: its members' nodes, the gaps between them (and after the last one),
    /// and a name index when there are many members.
    fn struct_node(
        &mut self,
        layout: &TypeLayout,
        members: &[crate::layout::MemberLayout],
    ) -> StructNode {
        let mut out = Vec::with_capacity(members.len());
        let mut gaps = Vec::new();
        let mut cursor = 0u32;
        let runtime_tail = layout.runtime_array().is_some();
        for (i, m) in members.iter().enumerate() {
            let node = self.node_for(&m.layout);
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
        StructNode {
            members: out.into_boxed_slice(),
            gaps: gaps.into_boxed_slice(),
            index,
        }
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
            NodeKind::Array(ArrayNode {
                len: Some(len),
                flat: Some(flat),
                ..
            }) => Some((flat.scalar, flat.per_elem * *len as usize, flat.tight)),
            _ => None,
        }
    }
}
