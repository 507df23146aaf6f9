//! Computing [`TypeLayout`]s from naga's IR (once per type handle), and finding what in a
//! buffer type cannot have one, so the error can say what to use instead.

use std::sync::Arc;

use ahash::AHashMap;

use super::type_name::type_name;
use super::{LayoutKind, MAX_TYPE_DEPTH, MemberLayout, ScalarType, TypeLayout};

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
    /// A builder for the types of `module`, sized by `layouter`.
    pub(crate) fn new(module: &'m naga::Module, layouter: &'m naga::proc::Layouter) -> Self {
        LayoutBuilder {
            module,
            layouter,
            memo: AHashMap::default(),
        }
    }

    /// The layout of type `ty` (built once, then shared).
    pub(crate) fn layout(
        &mut self,
        ty: naga::Handle<naga::Type>,
    ) -> Result<Arc<TypeLayout>, LayoutProblem> {
        self.layout_at(ty, 0)
    }

    /// [`layout`](Self::layout) at nesting `depth` (bounded by [`MAX_TYPE_DEPTH`]).
    fn layout_at(
        &mut self,
        ty: naga::Handle<naga::Type>,
        depth: usize,
    ) -> Result<Arc<TypeLayout>, LayoutProblem> {
        crate::visits::visit();
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
            Ti::Struct { members, .. } => self.struct_kind(members, depth)?,
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

    /// A struct's layout kind: its members' layouts (named `member{i}` where naga has no name),
    /// at naga's offsets.
    fn struct_kind(
        &mut self,
        members: &[naga::StructMember],
        depth: usize,
    ) -> Result<LayoutKind, LayoutProblem> {
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
        Ok(LayoutKind::Struct {
            members: out.into_boxed_slice(),
        })
    }
}

/// The problem of a scalar that cannot live in a buffer (`bool`, or a width not enabled).
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
    crate::visits::visit();
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

/// [`find_in`] without the cache: the type itself, then its elements or members.
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
