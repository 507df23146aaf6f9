//! Where a mip's source texels come from, and the WGSL that averages them.
//!
//! - A single-layer texture: a single-mip 2D view of the previous mip, read by `textureLoad`.
//! - A cube (6 square layers): a single-mip cube view of the previous mip, each source texel
//!   read by a nearest sample at its centre's direction, one pipeline per face. OpenGL keeps such
//!   a texture as a cube map, which neither views one face as 2D nor copies out of a face.
//! - Other layered textures (arrays, cube arrays): a 2D copy of the layer's previous mip.

use crate::error::Result;
use crate::gpu::Gpu;

pub(super) use crate::state::MipSource as Source;

/// Whether `raw` is read as a cube: 6 square layers (what OpenGL makes a cube map).
pub(super) fn is_cube(raw: &wgpu::Texture) -> bool {
    raw.depth_or_array_layers() == 6 && raw.width() == raw.height()
}

/// The WGSL of `source`: its bindings and `average(d)`, the mean of the 2×2 source texels under
/// destination texel `d`, clamped at an odd edge.
pub(super) fn wgsl(source: Source) -> String {
    let (decl, load) = match source {
        Source::Flat => (
            "@group(0) @binding(0) var src: texture_2d<f32>;",
            "fn load(s: vec2u, size: vec2u) -> vec4f {
    return textureLoad(src, s, 0);
}"
            .to_owned(),
        ),
        Source::CubeFace(face) => (
            "@group(0) @binding(0) var src: texture_cube<f32>;
@group(0) @binding(2) var nearest: sampler;",
            // The direction through texel centre `uv` of the face (WebGPU's cube face table).
            format!(
                "fn load(s: vec2u, size: vec2u) -> vec4f {{
    let uv = (vec2f(s) + 0.5) / vec2f(size) * 2.0 - 1.0;
    var dir: vec3f;
    switch {face}u {{
        case 0u: {{ dir = vec3f(1.0, -uv.y, -uv.x); }}
        case 1u: {{ dir = vec3f(-1.0, -uv.y, uv.x); }}
        case 2u: {{ dir = vec3f(uv.x, 1.0, uv.y); }}
        case 3u: {{ dir = vec3f(uv.x, -1.0, -uv.y); }}
        case 4u: {{ dir = vec3f(uv.x, -uv.y, 1.0); }}
        default: {{ dir = vec3f(-uv.x, -uv.y, -1.0); }}
    }}
    return textureSampleLevel(src, nearest, dir, 0.0);
}}"
            ),
        ),
    };
    format!(
        "{decl}
{load}

fn average(d: vec2u) -> vec4f {{
    let size = textureDimensions(src);
    let last = size - 1u;
    let s = d * 2u;
    let a = load(min(s, last), size);
    let b = load(min(s + vec2u(1u, 0u), last), size);
    let c = load(min(s + vec2u(0u, 1u), last), size);
    let e = load(min(s + vec2u(1u, 1u), last), size);
    return (a + b + c + e) * 0.25;
}}
"
    )
}

/// The layout entries of `source` (binding 0, and the sampler at 2 for a cube), visible to
/// `visibility`: unfilterable float, so `r32float` without `FLOAT32_FILTERABLE` is read too.
pub(super) fn entries(
    source: Source,
    visibility: wgpu::ShaderStages,
) -> Vec<wgpu::BindGroupLayoutEntry> {
    let view_dimension = match source {
        Source::Flat => wgpu::TextureViewDimension::D2,
        Source::CubeFace(_) => wgpu::TextureViewDimension::Cube,
    };
    let mut entries = vec![wgpu::BindGroupLayoutEntry {
        binding: 0,
        visibility,
        ty: wgpu::BindingType::Texture {
            sample_type: wgpu::TextureSampleType::Float { filterable: false },
            view_dimension,
            multisampled: false,
        },
        count: None,
    }];
    if let Source::CubeFace(_) = source {
        entries.push(wgpu::BindGroupLayoutEntry {
            binding: 2,
            visibility,
            ty: wgpu::BindingType::Sampler(wgpu::SamplerBindingType::NonFiltering),
            count: None,
        });
    }
    entries
}

/// The nearest sampler a cube source is read with (none for a flat source).
pub(super) fn sampler(gpu: &Gpu, source: Source) -> Result<Option<wgpu::Sampler>> {
    if source == Source::Flat {
        return Ok(None);
    }
    Ok(Some(gpu.ctx.create_sampler(&wgpu::SamplerDescriptor {
        label: Some("vgpu generate_mips"),
        ..Default::default()
    })?))
}

/// The single-mip view of mip `level - 1` that the mip `level` of `layer` is made from: of the
/// texture (2D, or cube for a cube), or of `copies` after copying that layer's mip into it.
pub(super) fn view(
    encoder: &mut wgpu::CommandEncoder,
    raw: &wgpu::Texture,
    copies: Option<&wgpu::Texture>,
    layer: u32,
    level: u32,
) -> wgpu::TextureView {
    let previous = level - 1;
    let single_mip = |texture: &wgpu::Texture, dimension, base_array_layer| {
        texture.create_view(&wgpu::TextureViewDescriptor {
            label: Some("vgpu mip source"),
            dimension: Some(dimension),
            base_mip_level: previous,
            mip_level_count: Some(1),
            base_array_layer,
            array_layer_count: Some(if dimension == wgpu::TextureViewDimension::Cube {
                6
            } else {
                1
            }),
            ..Default::default()
        })
    };
    if is_cube(raw) {
        return single_mip(raw, wgpu::TextureViewDimension::Cube, 0);
    }
    let Some(copies) = copies else {
        return single_mip(raw, wgpu::TextureViewDimension::D2, layer);
    };
    let size = raw
        .size()
        .mip_level_size(previous, wgpu::TextureDimension::D2);
    encoder.copy_texture_to_texture(
        wgpu::TexelCopyTextureInfo {
            texture: raw,
            mip_level: previous,
            origin: wgpu::Origin3d {
                x: 0,
                y: 0,
                z: layer,
            },
            aspect: wgpu::TextureAspect::All,
        },
        wgpu::TexelCopyTextureInfo {
            texture: copies,
            mip_level: previous,
            origin: wgpu::Origin3d::ZERO,
            aspect: wgpu::TextureAspect::All,
        },
        wgpu::Extent3d {
            depth_or_array_layers: 1,
            ..size
        },
    );
    single_mip(copies, wgpu::TextureViewDimension::D2, 0)
}
