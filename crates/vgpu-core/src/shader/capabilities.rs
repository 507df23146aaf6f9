//! naga's validation capabilities for a device's features and downlevel flags.

/// naga capabilities for a device's features and downlevel flags (the same mapping wgpu-core
/// applies when it creates a shader module).
pub fn naga_capabilities(
    features: wgpu::Features,
    downlevel: wgpu::DownlevelFlags,
) -> naga::valid::Capabilities {
    use naga::valid::Capabilities as C;
    use wgpu::Features as F;
    let mut c = C::empty();
    let pairs = [
        (C::IMMEDIATES, F::IMMEDIATES),
        (C::FLOAT64, F::SHADER_F64),
        (C::SHADER_FLOAT16, F::SHADER_F16),
        (C::SHADER_INT16, F::SHADER_I16),
        (C::PRIMITIVE_INDEX, F::PRIMITIVE_INDEX),
        (
            C::TEXTURE_AND_SAMPLER_BINDING_ARRAY,
            F::TEXTURE_BINDING_ARRAY,
        ),
        (C::BUFFER_BINDING_ARRAY, F::BUFFER_BINDING_ARRAY),
        (
            C::TEXTURE_AND_SAMPLER_BINDING_ARRAY_NON_UNIFORM_INDEXING,
            F::SAMPLED_TEXTURE_AND_STORAGE_BUFFER_ARRAY_NON_UNIFORM_INDEXING,
        ),
        (
            C::BUFFER_BINDING_ARRAY_NON_UNIFORM_INDEXING,
            F::UNIFORM_BUFFER_BINDING_ARRAYS,
        ),
        (
            C::STORAGE_TEXTURE_BINDING_ARRAY_NON_UNIFORM_INDEXING,
            F::STORAGE_TEXTURE_ARRAY_NON_UNIFORM_INDEXING,
        ),
        (
            C::STORAGE_BUFFER_BINDING_ARRAY_NON_UNIFORM_INDEXING,
            F::SAMPLED_TEXTURE_AND_STORAGE_BUFFER_ARRAY_NON_UNIFORM_INDEXING,
        ),
        (
            C::STORAGE_TEXTURE_16BIT_NORM_FORMATS,
            F::TEXTURE_FORMAT_16BIT_NORM,
        ),
        (C::MULTIVIEW, F::MULTIVIEW),
        (C::EARLY_DEPTH_TEST, F::SHADER_EARLY_DEPTH_TEST),
        (C::SHADER_INT64, F::SHADER_INT64),
        (
            C::SHADER_INT64_ATOMIC_ALL_OPS,
            F::SHADER_INT64_ATOMIC_ALL_OPS,
        ),
        (C::TEXTURE_ATOMIC, F::TEXTURE_ATOMIC),
        (C::TEXTURE_INT64_ATOMIC, F::TEXTURE_INT64_ATOMIC),
        (C::SHADER_FLOAT32_ATOMIC, F::SHADER_FLOAT32_ATOMIC),
        (C::DUAL_SOURCE_BLENDING, F::DUAL_SOURCE_BLENDING),
        (C::CLIP_DISTANCES, F::CLIP_DISTANCES),
        (C::SUBGROUP_BARRIER, F::SUBGROUP_BARRIER),
        (C::SUBGROUP_VERTEX_STAGE, F::SUBGROUP_VERTEX),
        (C::SHADER_BARYCENTRICS, F::SHADER_BARYCENTRICS),
        (C::PER_VERTEX, F::SHADER_PER_VERTEX),
        (C::DRAW_INDEX, F::SHADER_DRAW_INDEX),
    ];
    for (cap, feature) in pairs {
        c.set(cap, features.contains(feature));
    }
    c.set(
        C::STORAGE_TEXTURE_BINDING_ARRAY,
        features.contains(F::TEXTURE_BINDING_ARRAY | F::STORAGE_RESOURCE_BINDING_ARRAY),
    );
    c.set(
        C::STORAGE_BUFFER_BINDING_ARRAY,
        features.contains(F::BUFFER_BINDING_ARRAY | F::STORAGE_RESOURCE_BINDING_ARRAY),
    );
    c.set(
        C::SHADER_INT64_ATOMIC_MIN_MAX,
        features.intersects(F::SHADER_INT64_ATOMIC_MIN_MAX | F::SHADER_INT64_ATOMIC_ALL_OPS),
    );
    c.set(
        C::SUBGROUP,
        features.intersects(F::SUBGROUP | F::SUBGROUP_VERTEX),
    );
    c.set(
        C::SHADER_FLOAT16_IN_FLOAT32,
        downlevel.contains(wgpu::DownlevelFlags::SHADER_F16_IN_F32),
    );
    c.set(
        C::MULTISAMPLED_SHADING,
        downlevel.contains(wgpu::DownlevelFlags::MULTISAMPLED_SHADING),
    );
    c.set(
        C::CUBE_ARRAY_TEXTURES,
        downlevel.contains(wgpu::DownlevelFlags::CUBE_ARRAY_TEXTURES),
    );
    c
}
