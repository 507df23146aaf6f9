//! What kind of resource a binding is ([`BindingKind`]), and the WGSL spellings messages use
//! for textures and samplers.

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
pub(crate) fn wgsl_dimension(d: wgpu::TextureViewDimension) -> &'static str {
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
pub(crate) fn wgsl_sampler_type(t: wgpu::SamplerBindingType) -> &'static str {
    match t {
        wgpu::SamplerBindingType::Filtering => "sampler",
        wgpu::SamplerBindingType::NonFiltering => "sampler (non-filtering)",
        wgpu::SamplerBindingType::Comparison => "sampler_comparison",
    }
}
