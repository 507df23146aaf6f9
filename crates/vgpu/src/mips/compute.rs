//! The compute path of mip generation, for formats the adapter can write as storage but not
//! render to (or textures made with `STORAGE_BINDING`): one dispatch of 8×8 workgroups per mip
//! per layer, each invocation storing one texel's average into a 2D scratch texture, then a copy
//! into the mip. (OpenGL cannot store into a level of a texture whose previous level is bound
//! for sampling: an image unit outside the texture's base..max levels ignores the stores.)

use super::source::{self, Source};
use crate::error::Result;
use crate::gpu::Gpu;
use crate::state::{MipPipeline, MipPipelineKind as PipelineKind};

/// The workgroup's side.
const GROUP: u32 = 8;

/// The compute pipeline writing mips of `format` (a storage format) from `src`.
pub(super) fn pipeline(gpu: &Gpu, format: wgpu::TextureFormat, src: Source) -> Result<MipPipeline> {
    let ctx = &gpu.ctx;
    let label = Some("vgpu generate_mips (compute)");
    let texel = vgpu_core::wgsl_texel_format(format);
    let shader = format!(
        "{}
@group(0) @binding(1) var dst: texture_storage_2d<{texel}, write>;

@compute @workgroup_size({GROUP}, {GROUP})
fn cs_main(@builtin(global_invocation_id) id: vec3u) {{
    if (any(id.xy >= textureDimensions(dst))) {{
        return;
    }}
    textureStore(dst, id.xy, average(id.xy));
}}
",
        source::wgsl(src)
    );
    let module = ctx.create_shader_module(wgpu::ShaderModuleDescriptor {
        label,
        source: wgpu::ShaderSource::Wgsl(shader.into()),
    })?;
    let mut entries = source::entries(src, wgpu::ShaderStages::COMPUTE);
    entries.push(wgpu::BindGroupLayoutEntry {
        binding: 1,
        visibility: wgpu::ShaderStages::COMPUTE,
        ty: wgpu::BindingType::StorageTexture {
            access: wgpu::StorageTextureAccess::WriteOnly,
            format,
            view_dimension: wgpu::TextureViewDimension::D2,
        },
        count: None,
    });
    let layout = ctx.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label,
        entries: &entries,
    })?;
    let pipeline_layout = ctx.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label,
        bind_group_layouts: &[Some(&layout)],
        immediate_size: 0,
    })?;
    let pipeline = ctx.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
        label,
        layout: Some(&pipeline_layout),
        module: &module,
        entry_point: Some("cs_main"),
        compilation_options: wgpu::PipelineCompilationOptions::default(),
        cache: None,
    })?;
    Ok(MipPipeline {
        layout,
        sampler: source::sampler(gpu, src)?,
        kind: PipelineKind::Compute(pipeline),
    })
}

/// The storage view of `store` (which holds mips `1..` at levels `0..`) for mip `level`.
pub(super) fn target_view(store: &wgpu::Texture, level: u32) -> wgpu::TextureView {
    store.create_view(&wgpu::TextureViewDescriptor {
        label: Some("vgpu mip store"),
        dimension: Some(wgpu::TextureViewDimension::D2),
        base_mip_level: level - 1,
        mip_level_count: Some(1),
        ..Default::default()
    })
}

/// Records the dispatch storing mip `level` into `store` with `group`, then its copy into
/// `layer` of `raw`.
pub(super) fn encode(
    encoder: &mut wgpu::CommandEncoder,
    pipeline: &wgpu::ComputePipeline,
    group: &wgpu::BindGroup,
    store: &wgpu::Texture,
    raw: &wgpu::Texture,
    layer: u32,
    level: u32,
) {
    let size = raw.size().mip_level_size(level, wgpu::TextureDimension::D2);
    {
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
            label: Some("vgpu generate_mips"),
            timestamp_writes: None,
        });
        pass.set_pipeline(pipeline);
        pass.set_bind_group(0, group, &[]);
        pass.dispatch_workgroups(size.width.div_ceil(GROUP), size.height.div_ceil(GROUP), 1);
    }
    encoder.copy_texture_to_texture(
        wgpu::TexelCopyTextureInfo {
            texture: store,
            mip_level: level - 1,
            origin: wgpu::Origin3d::ZERO,
            aspect: wgpu::TextureAspect::All,
        },
        wgpu::TexelCopyTextureInfo {
            texture: raw,
            mip_level: level,
            origin: wgpu::Origin3d {
                x: 0,
                y: 0,
                z: layer,
            },
            aspect: wgpu::TextureAspect::All,
        },
        wgpu::Extent3d {
            depth_or_array_layers: 1,
            ..size
        },
    );
}
