//! Reflection tables: bindings and entry points of a shader, as naga sees them.
//!
//! Its files: this one holds the tables ([`BindingInfo`], [`EntryPointInfo`] and what an entry
//! point reads and writes); `stage` the pipeline stages; `binding_kind` the kinds of resources
//! with their WGSL spellings; `naga_to_wgpu` naga's formats and dimensions as wgpu's.

mod binding_kind;
mod naga_to_wgpu;
mod override_info;
mod stage;

use std::num::NonZeroU32;
use std::sync::Arc;

use crate::layout::{ScalarType, TypeLayout};
use crate::plan::WritePlan;

pub use binding_kind::{BindingKind, wgsl_texel_format, wgsl_texture_type};
pub(crate) use naga_to_wgpu::{storage_access, storage_format, vertex_format, view_dimension};
pub use override_info::{OverrideInfo, OverrideType};
pub(crate) use override_info::{const_value, reflect_overrides};
pub use stage::Stage;

/// One resource binding of a shader (`@group(g) @binding(b) var … name: T`).
///
/// Invariants: `layout` and `plan` are `Some` exactly for buffers; `visibility` is the set of
/// stages whose entry points statically use the binding (empty if none does).
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct BindingInfo {
    /// The WGSL variable name.
    pub name: String,
    /// `@group`.
    pub group: u32,
    /// `@binding`.
    pub binding: u32,
    /// The resource kind.
    pub kind: BindingKind,
    /// The stages of the entry points that use it.
    pub visibility: wgpu::ShaderStages,
    /// `Some(n)` for `binding_array<T, n>`.
    pub count: Option<NonZeroU32>,
    /// The WGSL type, e.g. `Object` or `texture_2d<f32>`.
    pub type_name: String,
    /// The host-shareable layout of the buffer's type (buffers only).
    pub layout: Option<Arc<TypeLayout>>,
    /// The compiled write plan of the buffer's type (buffers only), shared by every binding of
    /// the same type in this shader.
    pub plan: Option<Arc<WritePlan>>,
}

impl BindingInfo {
    /// WebGPU's minimum binding size (buffers only): the type's size, counting one element of a
    /// trailing runtime-sized array.
    pub fn min_binding_size(&self) -> Option<wgpu::BufferSize> {
        self.layout
            .as_ref()
            .and_then(|l| wgpu::BufferSize::new(l.min_binding_size()))
    }

    /// For buffers: where wgpu's GL backend would read this binding's type differently from
    /// WGSL ([`TypeLayout::gl_hazards`]); empty for other kinds and for types GL reads right.
    pub fn gl_hazards(&self) -> Vec<String> {
        match &self.layout {
            Some(l) => l.gl_hazards(self.kind == BindingKind::UniformBuffer),
            None => Vec::new(),
        }
    }
}

/// One vertex input (`@location(n)` argument or struct member of a vertex entry point).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct VertexInput {
    /// The argument or member name.
    pub name: String,
    /// `@location`.
    pub location: u32,
    /// The matching vertex format (`vec3<f16>` maps to `Float16x4`, the smallest format that
    /// holds it).
    pub format: wgpu::VertexFormat,
}

/// One fragment output (`@location(n)` of a fragment entry point's result).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct FragmentOutput {
    /// The struct member name, or empty for a plain return value.
    pub name: String,
    /// `@location`.
    pub location: u32,
    /// `@blend_src`, if any.
    pub blend_src: Option<u32>,
    /// Component type.
    pub scalar: ScalarType,
    /// 1 to 4.
    pub components: u8,
}

/// One entry point: stage, workgroup size, vertex inputs, fragment outputs and the bindings it
/// statically uses.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct EntryPointInfo {
    /// The function name.
    pub name: String,
    /// The stage.
    pub stage: Stage,
    /// `@workgroup_size` (compute; `[0, 0, 0]` for other stages; 0 where an override decides).
    pub workgroup_size: [u32; 3],
    /// Vertex inputs, sorted by location (vertex stage only).
    pub vertex_inputs: Vec<VertexInput>,
    /// Fragment outputs, sorted by location (fragment stage only).
    pub fragment_outputs: Vec<FragmentOutput>,
    /// Indices into [`Shader::bindings`](crate::Shader::bindings) of the bindings this entry
    /// point uses (naga's per-entry-point global usage), sorted by (group, binding).
    pub bindings: Vec<usize>,
}
