//! [`TextureError`]: errors of textures (kinds, views, writes, read-back, mipmaps), caught before
//! wgpu sees them; and their codes.

use vgpu_core::{CodeInfo, ErrorCode};

/// Errors of textures and their views, writes, read-back and mipmaps. Each is caught before wgpu
/// sees the call; a refused call changes nothing (the texture keeps its contents).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TextureError {
    /// A texture description wgpu would refuse: a dimension, layer, mip or sample count out of
    /// range for the texture's kind or the device.
    #[error("VGPU-TEXTURE-DESC: texture {label:?}: {problem}; expected {expected}")]
    Desc {
        /// The texture's label.
        label: String,
        /// What is wrong.
        problem: String,
        /// What would be accepted.
        expected: String,
    },
    /// A view of a texture that does not fit it: a mip or layer past the texture's, a dimension
    /// the texture cannot have (a cube of other than 6 square layers, a 3D view of a 2D
    /// texture), an aspect the format lacks, a format outside the texture's `view_formats`.
    #[error("VGPU-TEXTURE-VIEW: texture {label:?}: a view of {problem}; expected {expected}")]
    View {
        /// The texture's label.
        label: String,
        /// What the view asks for.
        problem: String,
        /// What the texture allows.
        expected: String,
    },
    /// A texture write was given a number of bytes other than the region it covers holds
    /// (tightly packed rows; rows of blocks for block-compressed formats).
    #[error("VGPU-TEXTURE-WRITE-SIZE: texture {label:?}: {what} is {expected} bytes, got {actual}")]
    WriteSize {
        /// The texture's label.
        label: String,
        /// The region written, in texels or blocks, and its format.
        what: String,
        /// The bytes that region holds.
        expected: u64,
        /// The bytes given.
        actual: u64,
    },
    /// A write or read names a mip level, layer or region past the texture's extent (or not on
    /// block boundaries, or empty).
    #[error("VGPU-TEXTURE-REGION: texture {label:?}: {problem}; the texture has {available}")]
    Region {
        /// The texture's label.
        label: String,
        /// What is out of range.
        problem: String,
        /// What the texture has (mip levels, the mip's size, layers).
        available: String,
    },
    /// A texture of this format (or aspect, or sample count) cannot be written or read back
    /// this way: `Depth24Plus` depth, depth written through the queue, a multisampled texture,
    /// an accessor of another component type.
    #[error("VGPU-TEXTURE-FORMAT: texture {label:?}: {format:?} cannot be {usage}; {hint}")]
    Format {
        /// The texture's label.
        label: String,
        /// Its format.
        format: wgpu::TextureFormat,
        /// What was asked (`written`, `read back`, `read as f32s`, …).
        usage: &'static str,
        /// What to do instead.
        hint: String,
    },
    /// `Texture::generate_mips` cannot fill this texture's mips: its kind or format has no
    /// filtered average (integer, depth, compressed, 3D, multisampled, one mip level), or it
    /// lacks the usage the fill needs (`RENDER_ATTACHMENT` or `STORAGE_BINDING`).
    #[error(
        "VGPU-TEXTURE-MIPS: texture {label:?} ({format:?}): cannot generate mips: {problem}; expected {expected}"
    )]
    Mips {
        /// The texture's label.
        label: String,
        /// The texture's format.
        format: wgpu::TextureFormat,
        /// What stops it.
        problem: String,
        /// What would be accepted.
        expected: String,
    },
    /// A sampler description wgpu would refuse: a LOD clamp negative, NaN or reversed, an
    /// anisotropy outside 1..=16 or with a non-linear filter, `ClampToBorder` without a color.
    #[error("VGPU-SAMPLER-DESC: sampler: {problem}; expected {expected}")]
    Sampler {
        /// What is wrong, with the value given.
        problem: String,
        /// What would be accepted.
        expected: &'static str,
    },
    /// A shader binds a `texture_storage_*` with a format and access mode (`read`,
    /// `read_write`, `write`, `atomic`) this device cannot use together (`rgba8unorm` with
    /// `read_write` is not core WebGPU; GL lacks many). Caught where the draw's or compute's
    /// layouts are made, before wgpu sees them.
    #[error(
        "VGPU-TEXTURE-STORAGE-ACCESS: {operation}: binding {binding:?} is {wgsl}, but this device cannot use {format:?} storage textures with {access} access; {hint}"
    )]
    StorageAccess {
        /// The operation: entry points and shader label.
        operation: String,
        /// The binding's WGSL name.
        binding: String,
        /// Its WGSL type (`texture_storage_2d<rgba8unorm, read_write>`).
        wgsl: String,
        /// The texel format.
        format: wgpu::TextureFormat,
        /// The access mode as WGSL spells it.
        access: &'static str,
        /// What to do instead: formats this device has that access for, or the feature to
        /// request.
        hint: String,
    },
}

impl ErrorCode for TextureError {
    fn code(&self) -> &'static str {
        match self {
            TextureError::Desc { .. } => "VGPU-TEXTURE-DESC",
            TextureError::View { .. } => "VGPU-TEXTURE-VIEW",
            TextureError::WriteSize { .. } => "VGPU-TEXTURE-WRITE-SIZE",
            TextureError::Region { .. } => "VGPU-TEXTURE-REGION",
            TextureError::Format { .. } => "VGPU-TEXTURE-FORMAT",
            TextureError::Mips { .. } => "VGPU-TEXTURE-MIPS",
            TextureError::Sampler { .. } => "VGPU-SAMPLER-DESC",
            TextureError::StorageAccess { .. } => "VGPU-TEXTURE-STORAGE-ACCESS",
        }
    }
}

/// The codes of [`TextureError`].
pub(crate) const CODES: &[CodeInfo] = &[
    CodeInfo {
        code: "VGPU-TEXTURE-WRITE-SIZE",
        variant: "TextureError::WriteSize",
        meaning: "A texture write was given more or fewer bytes than the region (mip, layer or box) holds in tightly packed rows.",
        fix: "Give width × height × layers texels of the format's size (block-compressed formats: whole blocks), rows tightly packed: vgpu pads rows for the copy itself.",
    },
    CodeInfo {
        code: "VGPU-TEXTURE-REGION",
        variant: "TextureError::Region",
        meaning: "A texture write or read names a mip level, layer or region past the texture's extent, an empty region, or one off block boundaries.",
        fix: "Keep mip < mip_level_count and origin + size within the mip level's size (mip n: max(1, size >> n)), layers within the texture's layers.",
    },
    CodeInfo {
        code: "VGPU-TEXTURE-FORMAT",
        variant: "TextureError::Format",
        meaning: "A texture's format, aspect or sample count cannot be written or read back this way (Depth24Plus depth, Depth32Float written through the queue, multisampled), or a TextureData accessor does not match the format's component type.",
        fix: "Use Depth32Float (read) or Depth16Unorm (write and read) for depth, resolve multisampled textures first, and read integer formats with u32s()/i32s(), float and normalized ones with f32s().",
    },
    CodeInfo {
        code: "VGPU-TEXTURE-DESC",
        variant: "TextureError::Desc",
        meaning: "A texture description is out of range for its kind or the device (size, layers, mip levels, sample count).",
        fix: "Follow the `expected` part of the message: e.g. a cube needs 6 layers of square faces, mips at most log2(size)+1.",
    },
    CodeInfo {
        code: "VGPU-TEXTURE-VIEW",
        variant: "TextureError::View",
        meaning: "A view of a texture asks for a mip level or layer it does not have, a dimension it cannot have (a cube of other than 6 square layers, a non-2D view of a multisampled texture, a cube array where the adapter has none), an aspect its format lacks, or a format outside its view_formats.",
        fix: "Keep base_mip + mip_count <= mip_level_count() and base_layer + layer_count <= layers(); use cube_view() on a 6-layer square texture; list the sRGB twin in TextureDesc::view_formats to view it in that format.",
    },
    CodeInfo {
        code: "VGPU-TEXTURE-MIPS",
        variant: "TextureError::Mips",
        meaning: "generate_mips cannot fill this texture's mips: integer, depth, compressed, 3D or multisampled, a single mip level, or a format this adapter can neither render to nor write as storage, or the texture lacks that usage.",
        fix: "Use a float, unorm or snorm 2D (array or cube) texture of several mip levels, created by Gpu::texture (it adds RENDER_ATTACHMENT, or STORAGE_BINDING, for mip chains); for integer data, average on the CPU and write each mip.",
    },
    CodeInfo {
        code: "VGPU-SAMPLER-DESC",
        variant: "TextureError::Sampler",
        meaning: "A SamplerDesc is out of range: lod_min_clamp negative or above lod_max_clamp, a LOD clamp NaN or infinite, anisotropy_clamp 0 or above 16, anisotropy above 1 with a filter other than Linear, or a ClampToBorder axis without border_color.",
        fix: "Keep 0 <= lod_min_clamp <= lod_max_clamp (finite), anisotropy_clamp in 1..=16 with every filter Linear (SamplerDesc::with_anisotropy sets them), and give border_color with ClampToBorder (SamplerDesc::with_border).",
    },
    CodeInfo {
        code: "VGPU-TEXTURE-STORAGE-ACCESS",
        variant: "TextureError::StorageAccess",
        meaning: "A shader's `texture_storage_*` binding asks for a format and access mode this device cannot use together: `read_write` is core WebGPU only for r32float, r32uint and r32sint; `read` and `read_write` of other formats, and any storage access on GL, depend on the adapter.",
        fix: "Use a format the message lists for that access (r32float, r32uint, r32sint have `read_write` wherever WebGPU's formats are supported), split the access into a `read` and a `write` texture, or request `Features::TEXTURE_ADAPTER_SPECIFIC_FORMAT_FEATURES` in `GpuOptions::features` where the adapter has the access for that format.",
    },
];
