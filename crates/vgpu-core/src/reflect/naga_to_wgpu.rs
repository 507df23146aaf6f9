//! naga's vertex, texel and image types as wgpu's: vertex formats, storage formats, view
//! dimensions and storage access.

use crate::layout::ScalarType;

/// The vertex format of a vertex input of `components` × `scalar` (`None`: no format holds
/// it).
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

/// The texture format of a storage texture's texel format.
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

/// The view dimension of an image type (arrayed or not).
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

/// The access a storage texture declares.
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
