//! Reflection tables: bindings and entry points of a shader, as naga sees them.

use std::num::NonZeroU32;
use std::sync::Arc;

use crate::layout::{ScalarType, TypeLayout};
use crate::plan::WritePlan;

/// A pipeline stage vgpu reflects.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stage {
    /// `@vertex`.
    Vertex,
    /// `@fragment`.
    Fragment,
    /// `@compute`.
    Compute,
}

impl Stage {
    /// The matching `wgpu::ShaderStages` flag.
    pub const fn to_wgpu(self) -> wgpu::ShaderStages {
        match self {
            Stage::Vertex => wgpu::ShaderStages::VERTEX,
            Stage::Fragment => wgpu::ShaderStages::FRAGMENT,
            Stage::Compute => wgpu::ShaderStages::COMPUTE,
        }
    }

    /// The conventional entry-point name vgpu looks for first (`vs_main`, `fs_main`, `cs_main`).
    pub const fn default_entry_point(self) -> &'static str {
        match self {
            Stage::Vertex => "vs_main",
            Stage::Fragment => "fs_main",
            Stage::Compute => "cs_main",
        }
    }

    /// Lower-case name (`vertex`, `fragment`, `compute`).
    pub const fn name(self) -> &'static str {
        match self {
            Stage::Vertex => "vertex",
            Stage::Fragment => "fragment",
            Stage::Compute => "compute",
        }
    }

    pub(crate) fn from_naga(stage: naga::ShaderStage) -> Option<Self> {
        match stage {
            naga::ShaderStage::Vertex => Some(Stage::Vertex),
            naga::ShaderStage::Fragment => Some(Stage::Fragment),
            naga::ShaderStage::Compute => Some(Stage::Compute),
            _ => None,
        }
    }
}

/// What kind of resource a binding is, with everything a bind-group-layout entry needs except
/// the per-binding choices (dynamic offset).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum BindingKind {
    /// `var<uniform>`.
    UniformBuffer,
    /// `var<storage, read>` (`read_only`) or `var<storage, read_write>`.
    StorageBuffer {
        /// Declared `read` (true) or `read_write` (false).
        read_only: bool,
    },
    /// A sampled or depth texture.
    Texture {
        /// `Float { filterable: true }` for `texture_*<f32>` (non-filterable when multisampled),
        /// `Depth` for depth textures, `Sint` / `Uint` for integer textures.
        sample_type: wgpu::TextureSampleType,
        /// View dimension (arrayed or not).
        view_dimension: wgpu::TextureViewDimension,
        /// `texture_multisampled_*`.
        multisampled: bool,
    },
    /// A storage texture.
    StorageTexture {
        /// Texel format.
        format: wgpu::TextureFormat,
        /// Declared access.
        access: wgpu::StorageTextureAccess,
        /// View dimension.
        view_dimension: wgpu::TextureViewDimension,
    },
    /// `sampler` (`Filtering`) or `sampler_comparison` (`Comparison`).
    Sampler(wgpu::SamplerBindingType),
}

impl BindingKind {
    /// True for uniform and storage buffers.
    pub const fn is_buffer(&self) -> bool {
        matches!(
            self,
            BindingKind::UniformBuffer | BindingKind::StorageBuffer { .. }
        )
    }

    /// The `wgpu::BindingType` of this kind; `has_dynamic_offset` and `min_binding_size` apply
    /// to buffers only.
    pub fn to_wgpu(
        &self,
        has_dynamic_offset: bool,
        min_binding_size: Option<wgpu::BufferSize>,
    ) -> wgpu::BindingType {
        let buffer = |ty| wgpu::BindingType::Buffer {
            ty,
            has_dynamic_offset,
            min_binding_size,
        };
        match *self {
            BindingKind::UniformBuffer => buffer(wgpu::BufferBindingType::Uniform),
            BindingKind::StorageBuffer { read_only } => {
                buffer(wgpu::BufferBindingType::Storage { read_only })
            }
            BindingKind::Texture {
                sample_type,
                view_dimension,
                multisampled,
            } => wgpu::BindingType::Texture {
                sample_type,
                view_dimension,
                multisampled,
            },
            BindingKind::StorageTexture {
                format,
                access,
                view_dimension,
            } => wgpu::BindingType::StorageTexture {
                access,
                format,
                view_dimension,
            },
            BindingKind::Sampler(t) => wgpu::BindingType::Sampler(t),
        }
    }

    /// A short description for messages: `uniform buffer`, `storage buffer (read)`, and for
    /// textures and samplers the WGSL type (`texture_2d<f32>`, `texture_depth_2d`,
    /// `texture_multisampled_2d<f32>`, `texture_storage_2d<rgba8unorm, write>`, `sampler`,
    /// `sampler_comparison`). A float texture that needs a filterable format says so.
    pub fn describe(&self) -> String {
        match self {
            BindingKind::UniformBuffer => "uniform buffer".to_owned(),
            BindingKind::StorageBuffer { read_only: true } => "storage buffer (read)".to_owned(),
            BindingKind::StorageBuffer { read_only: false } => {
                "storage buffer (read_write)".to_owned()
            }
            BindingKind::Texture {
                sample_type,
                view_dimension,
                multisampled,
            } => {
                let wgsl = wgsl_texture_type(*sample_type, *view_dimension, *multisampled);
                match sample_type {
                    wgpu::TextureSampleType::Float { filterable: true } => {
                        format!("{wgsl} (a filterable float format)")
                    }
                    wgpu::TextureSampleType::Float { filterable: false } if !multisampled => {
                        format!("{wgsl} (an unfilterable float format)")
                    }
                    _ => wgsl,
                }
            }
            BindingKind::StorageTexture {
                format,
                access,
                view_dimension,
            } => format!(
                "texture_storage_{}<{}, {}>",
                wgsl_dimension(*view_dimension),
                wgsl_texel_format(*format),
                match access {
                    wgpu::StorageTextureAccess::WriteOnly => "write",
                    wgpu::StorageTextureAccess::ReadOnly => "read",
                    wgpu::StorageTextureAccess::ReadWrite => "read_write",
                    wgpu::StorageTextureAccess::Atomic => "atomic",
                }
            ),
            BindingKind::Sampler(t) => wgsl_sampler_type(*t).to_owned(),
        }
    }
}

/// The WGSL spelling of a view dimension in a texture type: `2d`, `2d_array`, `cube`, ….
pub fn wgsl_dimension(d: wgpu::TextureViewDimension) -> &'static str {
    match d {
        wgpu::TextureViewDimension::D1 => "1d",
        wgpu::TextureViewDimension::D2 => "2d",
        wgpu::TextureViewDimension::D2Array => "2d_array",
        wgpu::TextureViewDimension::Cube => "cube",
        wgpu::TextureViewDimension::CubeArray => "cube_array",
        wgpu::TextureViewDimension::D3 => "3d",
    }
}

/// The WGSL texture type that binds a texture of `sample_type` with this dimension:
/// `texture_2d<f32>`, `texture_2d<u32>`, `texture_depth_2d`, `texture_multisampled_2d<i32>`, ….
pub fn wgsl_texture_type(
    sample_type: wgpu::TextureSampleType,
    view_dimension: wgpu::TextureViewDimension,
    multisampled: bool,
) -> String {
    let dim = wgsl_dimension(view_dimension);
    let multi = if multisampled { "multisampled_" } else { "" };
    match sample_type {
        wgpu::TextureSampleType::Depth => format!("texture_depth_{multi}{dim}"),
        wgpu::TextureSampleType::Float { .. } => format!("texture_{multi}{dim}<f32>"),
        wgpu::TextureSampleType::Sint => format!("texture_{multi}{dim}<i32>"),
        wgpu::TextureSampleType::Uint => format!("texture_{multi}{dim}<u32>"),
    }
}

/// The WGSL texel format of a storage texture (`rgba8unorm`, `r32float`, …).
pub fn wgsl_texel_format(format: wgpu::TextureFormat) -> String {
    // wgpu's storage formats are WGSL's texel formats in CamelCase.
    format!("{format:?}").to_ascii_lowercase()
}

/// The WGSL sampler type of a sampler binding: `sampler` or `sampler_comparison`.
pub fn wgsl_sampler_type(t: wgpu::SamplerBindingType) -> &'static str {
    match t {
        wgpu::SamplerBindingType::Filtering => "sampler",
        wgpu::SamplerBindingType::NonFiltering => "sampler (non-filtering)",
        wgpu::SamplerBindingType::Comparison => "sampler_comparison",
    }
}

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

pub(crate) fn vertex_format(scalar: ScalarType, components: u8) -> Option<wgpu::VertexFormat> {
    use wgpu::VertexFormat as F;
    Some(match (scalar, components) {
        (ScalarType::F32, 1) => F::Float32,
        (ScalarType::F32, 2) => F::Float32x2,
        (ScalarType::F32, 3) => F::Float32x3,
        (ScalarType::F32, 4) => F::Float32x4,
        (ScalarType::I32, 1) => F::Sint32,
        (ScalarType::I32, 2) => F::Sint32x2,
        (ScalarType::I32, 3) => F::Sint32x3,
        (ScalarType::I32, 4) => F::Sint32x4,
        (ScalarType::U32, 1) => F::Uint32,
        (ScalarType::U32, 2) => F::Uint32x2,
        (ScalarType::U32, 3) => F::Uint32x3,
        (ScalarType::U32, 4) => F::Uint32x4,
        (ScalarType::F16, 1) => F::Float16,
        (ScalarType::F16, 2) => F::Float16x2,
        (ScalarType::F16, 3 | 4) => F::Float16x4,
        (ScalarType::F64, 1) => F::Float64,
        (ScalarType::F64, 2) => F::Float64x2,
        (ScalarType::F64, 3) => F::Float64x3,
        (ScalarType::F64, 4) => F::Float64x4,
        _ => return None,
    })
}

pub(crate) fn storage_format(format: naga::StorageFormat) -> wgpu::TextureFormat {
    use naga::StorageFormat as Sf;
    use wgpu::TextureFormat as Tf;
    match format {
        Sf::R8Unorm => Tf::R8Unorm,
        Sf::R8Snorm => Tf::R8Snorm,
        Sf::R8Uint => Tf::R8Uint,
        Sf::R8Sint => Tf::R8Sint,
        Sf::R16Uint => Tf::R16Uint,
        Sf::R16Sint => Tf::R16Sint,
        Sf::R16Float => Tf::R16Float,
        Sf::Rg8Unorm => Tf::Rg8Unorm,
        Sf::Rg8Snorm => Tf::Rg8Snorm,
        Sf::Rg8Uint => Tf::Rg8Uint,
        Sf::Rg8Sint => Tf::Rg8Sint,
        Sf::R32Uint => Tf::R32Uint,
        Sf::R32Sint => Tf::R32Sint,
        Sf::R32Float => Tf::R32Float,
        Sf::Rg16Uint => Tf::Rg16Uint,
        Sf::Rg16Sint => Tf::Rg16Sint,
        Sf::Rg16Float => Tf::Rg16Float,
        Sf::Rgba8Unorm => Tf::Rgba8Unorm,
        Sf::Rgba8Snorm => Tf::Rgba8Snorm,
        Sf::Rgba8Uint => Tf::Rgba8Uint,
        Sf::Rgba8Sint => Tf::Rgba8Sint,
        Sf::Bgra8Unorm => Tf::Bgra8Unorm,
        Sf::Rgb10a2Uint => Tf::Rgb10a2Uint,
        Sf::Rgb10a2Unorm => Tf::Rgb10a2Unorm,
        Sf::Rg11b10Ufloat => Tf::Rg11b10Ufloat,
        Sf::R64Uint => Tf::R64Uint,
        Sf::Rg32Uint => Tf::Rg32Uint,
        Sf::Rg32Sint => Tf::Rg32Sint,
        Sf::Rg32Float => Tf::Rg32Float,
        Sf::Rgba16Uint => Tf::Rgba16Uint,
        Sf::Rgba16Sint => Tf::Rgba16Sint,
        Sf::Rgba16Float => Tf::Rgba16Float,
        Sf::Rgba32Uint => Tf::Rgba32Uint,
        Sf::Rgba32Sint => Tf::Rgba32Sint,
        Sf::Rgba32Float => Tf::Rgba32Float,
        Sf::R16Unorm => Tf::R16Unorm,
        Sf::R16Snorm => Tf::R16Snorm,
        Sf::Rg16Unorm => Tf::Rg16Unorm,
        Sf::Rg16Snorm => Tf::Rg16Snorm,
        Sf::Rgba16Unorm => Tf::Rgba16Unorm,
        Sf::Rgba16Snorm => Tf::Rgba16Snorm,
    }
}

pub(crate) fn view_dimension(
    dim: naga::ImageDimension,
    arrayed: bool,
) -> wgpu::TextureViewDimension {
    use wgpu::TextureViewDimension as V;
    match (dim, arrayed) {
        (naga::ImageDimension::D1, _) => V::D1,
        (naga::ImageDimension::D2, false) => V::D2,
        (naga::ImageDimension::D2, true) => V::D2Array,
        (naga::ImageDimension::D3, _) => V::D3,
        (naga::ImageDimension::Cube, false) => V::Cube,
        (naga::ImageDimension::Cube, true) => V::CubeArray,
    }
}

pub(crate) fn storage_access(access: naga::StorageAccess) -> wgpu::StorageTextureAccess {
    if access.contains(naga::StorageAccess::ATOMIC) {
        wgpu::StorageTextureAccess::Atomic
    } else if access.contains(naga::StorageAccess::LOAD | naga::StorageAccess::STORE) {
        wgpu::StorageTextureAccess::ReadWrite
    } else if access.contains(naga::StorageAccess::STORE) {
        wgpu::StorageTextureAccess::WriteOnly
    } else {
        wgpu::StorageTextureAccess::ReadOnly
    }
}
