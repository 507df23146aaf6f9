//! The reflection tables of a validated module: bindings (with their layouts and shared write
//! plans), entry points with the bindings they use, vertex inputs and fragment outputs, and the
//! member index of the member shorthand.

use std::num::NonZeroU32;
use std::sync::Arc;

use ahash::AHashMap;
use smallvec::SmallVec;

use crate::layout::{LayoutBuilder, MAX_TYPE_DEPTH, ScalarType, TypeLayout, type_name};
use crate::plan::WritePlan;
use crate::reflect::{
    BindingInfo, BindingKind, EntryPointInfo, FragmentOutput, Stage, VertexInput, storage_access,
    storage_format, vertex_format, view_dimension,
};
use crate::shader_error::ShaderError;

/// What reflection produces, owned (no borrow of the module).
pub(super) struct Tables {
    pub(super) bindings: Vec<BindingInfo>,
    pub(super) by_name: AHashMap<Box<str>, usize>,
    pub(super) members: AHashMap<Box<str>, SmallVec<[(u32, u32); 1]>>,
    pub(super) entry_points: Vec<EntryPointInfo>,
    pub(super) plans_compiled: usize,
}

/// Builds the reflection tables from a validated module.
pub(super) struct Reflector<'m> {
    label: &'m str,
    module: &'m naga::Module,
    info: &'m naga::valid::ModuleInfo,
    layouts: LayoutBuilder<'m>,
    plans: AHashMap<*const TypeLayout, Arc<WritePlan>>,
}

impl<'m> Reflector<'m> {
    /// A reflector of `module`, its types sized by `layouter`.
    pub(super) fn new(
        label: &'m str,
        module: &'m naga::Module,
        info: &'m naga::valid::ModuleInfo,
        layouter: &'m naga::proc::Layouter,
    ) -> Self {
        Reflector {
            label,
            module,
            info,
            layouts: LayoutBuilder::new(module, layouter),
            plans: AHashMap::default(),
        }
    }

    /// `VGPU-SHADER-UNSUPPORTED`: `item` uses `what`, which vgpu does not reflect.
    fn unsupported(&self, item: &str, what: String) -> ShaderError {
        ShaderError::Unsupported {
            label: self.label.to_owned(),
            item: item.to_owned(),
            what,
        }
    }

    /// Reflects every binding and entry point.
    pub(super) fn run(mut self) -> Result<Tables, ShaderError> {
        // Stages of the reflected entry points, in module order.
        let mut stages = Vec::with_capacity(self.module.entry_points.len());
        for ep in &self.module.entry_points {
            let stage = Stage::from_naga(ep.stage)
                .ok_or_else(|| self.unsupported(&ep.name, format!("the {:?} stage", ep.stage)))?;
            stages.push(stage);
        }

        let mut bindings: Vec<(naga::Handle<naga::GlobalVariable>, BindingInfo)> = Vec::new();
        for (handle, gv) in self.module.global_variables.iter() {
            let Some(rb) = gv.binding else { continue };
            let mut visibility = wgpu::ShaderStages::NONE;
            for (i, stage) in stages.iter().enumerate() {
                if !self.info.get_entry_point(i)[handle].is_empty() {
                    visibility |= stage.to_wgpu();
                }
            }
            let info = self.reflect_binding(gv, rb, visibility)?;
            bindings.push((handle, info));
        }
        bindings.sort_by(|a, b| {
            (a.1.group, a.1.binding, &a.1.name).cmp(&(b.1.group, b.1.binding, &b.1.name))
        });

        let mut entry_points = Vec::with_capacity(stages.len());
        for (i, (ep, stage)) in self.module.entry_points.iter().zip(&stages).enumerate() {
            let fi = self.info.get_entry_point(i);
            let used = bindings
                .iter()
                .enumerate()
                .filter(|(_, (h, _))| !fi[*h].is_empty())
                .map(|(j, _)| j)
                .collect();
            entry_points.push(EntryPointInfo {
                name: ep.name.clone(),
                stage: *stage,
                workgroup_size: if *stage == Stage::Compute {
                    ep.workgroup_size
                } else {
                    [0; 3]
                },
                vertex_inputs: if *stage == Stage::Vertex {
                    self.vertex_inputs(ep)?
                } else {
                    Vec::new()
                },
                fragment_outputs: if *stage == Stage::Fragment {
                    self.fragment_outputs(ep)?
                } else {
                    Vec::new()
                },
                bindings: used,
            });
        }

        let bindings: Vec<BindingInfo> = bindings.into_iter().map(|(_, b)| b).collect();
        let mut by_name = AHashMap::default();
        let mut members: AHashMap<Box<str>, SmallVec<[(u32, u32); 1]>> = AHashMap::default();
        for (i, b) in bindings.iter().enumerate() {
            by_name.insert(b.name.clone().into_boxed_str(), i);
            if let Some(layout) = &b.layout {
                for (m, member) in layout.members().iter().enumerate() {
                    members
                        .entry(member.name.clone())
                        .or_default()
                        .push((i as u32, m as u32));
                }
            }
        }
        Ok(Tables {
            plans_compiled: self.plans.len(),
            bindings,
            by_name,
            members,
            entry_points,
        })
    }

    /// The reflected binding of global `gv`, bound at `rb` and used by the stages in
    /// `visibility`.
    fn reflect_binding(
        &mut self,
        gv: &naga::GlobalVariable,
        rb: naga::ResourceBinding,
        visibility: wgpu::ShaderStages,
    ) -> Result<BindingInfo, ShaderError> {
        let name = gv.name.clone().unwrap_or_default();
        let mut ty = gv.ty;
        let mut count = None;
        if let naga::TypeInner::BindingArray { base, size } = self.module.types[ty].inner {
            match size {
                naga::ArraySize::Constant(n) => count = Some(NonZeroU32::from(n)),
                _ => {
                    return Err(self
                        .unsupported(&name, "a binding_array without a constant size".to_owned()));
                }
            }
            ty = base;
        }
        let type_name = type_name(self.module, gv.ty);
        let (kind, layout) = match gv.space {
            naga::AddressSpace::Uniform | naga::AddressSpace::Storage { .. } => {
                let (kind, layout) = self.buffer_binding(&name, gv.space, ty)?;
                (kind, Some(layout))
            }
            naga::AddressSpace::Handle => (self.handle_kind(&name, ty, &type_name)?, None),
            other => {
                return Err(
                    self.unsupported(&name, format!("a binding in address space {other:?}"))
                );
            }
        };
        let plan = layout.as_ref().map(|l| {
            self.plans
                .entry(Arc::as_ptr(l))
                .or_insert_with(|| Arc::new(WritePlan::new(l.clone())))
                .clone()
        });
        Ok(BindingInfo {
            name,
            group: rb.group,
            binding: rb.binding,
            kind,
            visibility,
            count,
            type_name,
            layout,
            plan,
        })
    }

    /// A uniform or storage buffer binding named `name` of type `ty`: its kind and its type's
    /// layout.
    fn buffer_binding(
        &mut self,
        name: &str,
        space: naga::AddressSpace,
        ty: naga::Handle<naga::Type>,
    ) -> Result<(BindingKind, Arc<TypeLayout>), ShaderError> {
        let kind = match space {
            naga::AddressSpace::Storage { access } => BindingKind::StorageBuffer {
                read_only: !access.contains(naga::StorageAccess::STORE),
            },
            _ => BindingKind::UniformBuffer,
        };
        let layout = self.layouts.layout(ty).map_err(|p| {
            if p.too_deep {
                ShaderError::Limit {
                    label: self.label.to_owned(),
                    what: "type nesting depth of a buffer binding",
                    expected: MAX_TYPE_DEPTH as u64,
                    actual: MAX_TYPE_DEPTH as u64 + 1,
                }
            } else {
                ShaderError::HostShareable {
                    label: self.label.to_owned(),
                    binding: name.to_owned(),
                    path: p.path_string_rev(),
                    actual: p.actual,
                    hint: p.hint,
                }
            }
        })?;
        Ok((kind, layout))
    }

    /// The kind of a texture or sampler binding named `name` of type `ty` (spelled
    /// `type_name`).
    fn handle_kind(
        &self,
        name: &str,
        ty: naga::Handle<naga::Type>,
        type_name: &str,
    ) -> Result<BindingKind, ShaderError> {
        let kind = match self.module.types[ty].inner {
            naga::TypeInner::Image {
                dim,
                arrayed,
                class,
            } => {
                let view_dimension = view_dimension(dim, arrayed);
                match class {
                    naga::ImageClass::Sampled { kind, multi } => BindingKind::Texture {
                        sample_type: match kind {
                            naga::ScalarKind::Sint => wgpu::TextureSampleType::Sint,
                            naga::ScalarKind::Uint => wgpu::TextureSampleType::Uint,
                            _ => wgpu::TextureSampleType::Float { filterable: !multi },
                        },
                        view_dimension,
                        multisampled: multi,
                    },
                    naga::ImageClass::Depth { multi } => BindingKind::Texture {
                        sample_type: wgpu::TextureSampleType::Depth,
                        view_dimension,
                        multisampled: multi,
                    },
                    naga::ImageClass::Storage { format, access } => BindingKind::StorageTexture {
                        format: storage_format(format),
                        access: storage_access(access),
                        view_dimension,
                    },
                    naga::ImageClass::External => {
                        return Err(self.unsupported(name, "texture_external".to_owned()));
                    }
                }
            }
            naga::TypeInner::Sampler { comparison } => BindingKind::Sampler(if comparison {
                wgpu::SamplerBindingType::Comparison
            } else {
                wgpu::SamplerBindingType::Filtering
            }),
            _ => {
                return Err(self.unsupported(name, format!("a binding of type {type_name}")));
            }
        };
        Ok(kind)
    }

    /// The scalar type and component count of a scalar or vector type.
    fn scalar_components(&self, ty: naga::Handle<naga::Type>) -> Option<(ScalarType, u8)> {
        match self.module.types[ty].inner {
            naga::TypeInner::Scalar(s) => Some((ScalarType::from_naga(s)?, 1)),
            naga::TypeInner::Vector { size, scalar } => {
                Some((ScalarType::from_naga(scalar)?, size as u8))
            }
            _ => None,
        }
    }

    /// `(name, binding, type)` of every location-bound value among `args` (arguments or a
    /// result), with struct members flattened.
    fn locations(
        &self,
        items: impl Iterator<Item = (String, Option<naga::Binding>, naga::Handle<naga::Type>)>,
    ) -> Vec<(String, u32, Option<u32>, naga::Handle<naga::Type>)> {
        let mut out = Vec::new();
        for (name, binding, ty) in items {
            match binding {
                Some(naga::Binding::Location {
                    location,
                    blend_src,
                    ..
                }) => out.push((name, location, blend_src, ty)),
                Some(naga::Binding::BuiltIn(_)) => {}
                None => {
                    if let naga::TypeInner::Struct { members, .. } = &self.module.types[ty].inner {
                        for m in members {
                            if let Some(naga::Binding::Location {
                                location,
                                blend_src,
                                ..
                            }) = m.binding
                            {
                                out.push((
                                    m.name.clone().unwrap_or_default(),
                                    location,
                                    blend_src,
                                    m.ty,
                                ));
                            }
                        }
                    }
                }
            }
        }
        out.sort_by_key(|l| (l.1, l.2));
        out
    }

    /// The vertex inputs of a vertex entry point, by location.
    fn vertex_inputs(&self, ep: &naga::EntryPoint) -> Result<Vec<VertexInput>, ShaderError> {
        let items = ep
            .function
            .arguments
            .iter()
            .map(|a| (a.name.clone().unwrap_or_default(), a.binding.clone(), a.ty));
        self.locations(items)
            .into_iter()
            .map(|(name, location, _, ty)| {
                let format = self
                    .scalar_components(ty)
                    .and_then(|(s, n)| vertex_format(s, n))
                    .ok_or_else(|| {
                        self.unsupported(
                            &ep.name,
                            format!(
                                "vertex input `{name}` of type {}",
                                type_name(self.module, ty)
                            ),
                        )
                    })?;
                Ok(VertexInput {
                    name,
                    location,
                    format,
                })
            })
            .collect()
    }

    /// The fragment outputs of a fragment entry point, by location.
    fn fragment_outputs(&self, ep: &naga::EntryPoint) -> Result<Vec<FragmentOutput>, ShaderError> {
        let items = ep
            .function
            .result
            .iter()
            .map(|r| (String::new(), r.binding.clone(), r.ty));
        self.locations(items)
            .into_iter()
            .map(|(name, location, blend_src, ty)| {
                let (scalar, components) = self.scalar_components(ty).ok_or_else(|| {
                    self.unsupported(
                        &ep.name,
                        format!(
                            "fragment output `{name}` of type {}",
                            type_name(self.module, ty)
                        ),
                    )
                })?;
                Ok(FragmentOutput {
                    name,
                    location,
                    blend_src,
                    scalar,
                    components,
                })
            })
            .collect()
    }
}
