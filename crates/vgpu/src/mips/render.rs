//! The render path of mip generation: one fullscreen triangle per mip per layer, its fragment
//! the 2×2 average of the previous mip, into a single-mip, single-layer view (an sRGB view of an
//! sRGB texture encodes what it writes).

use super::source::{self, Source};
use crate::error::Result;
use crate::gpu::Gpu;
use crate::state::{MipPipeline, MipPipelineKind as PipelineKind};

/// The fullscreen triangle and the fragment writing each texel's average.
const SHADER: &str = "
@vertex fn vs_main(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
    let p = vec2f(f32((i << 1u) & 2u), f32(i & 2u));
    return vec4f(p * 2.0 - 1.0, 0.0, 1.0);
}

@fragment fn fs_main(@builtin(position) pos: vec4f) -> @location(0) vec4f {
    return average(vec2u(pos.xy));
}
";

/// The render pipeline writing mips of `format` from `src`.
pub(super) fn pipeline(gpu: &Gpu, format: wgpu::TextureFormat, src: Source) -> Result<MipPipeline> {
    let ctx = &gpu.ctx;
    let label = Some("vgpu generate_mips (render)");
    let module = ctx.create_shader_module(wgpu::ShaderModuleDescriptor {
        label,
        source: wgpu::ShaderSource::Wgsl(format!("{}{SHADER}", source::wgsl(src)).into()),
    })?;
    let layout = ctx.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label,
        entries: &source::entries(src, wgpu::ShaderStages::FRAGMENT),
    })?;
    let pipeline_layout = ctx.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label,
        bind_group_layouts: &[Some(&layout)],
        immediate_size: 0,
    })?;
    let pipeline = ctx.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label,
        layout: Some(&pipeline_layout),
        vertex: wgpu::VertexState {
            module: &module,
            entry_point: Some("vs_main"),
            compilation_options: wgpu::PipelineCompilationOptions::default(),
            buffers: &[],
        },
        primitive: wgpu::PrimitiveState::default(),
        depth_stencil: None,
        multisample: wgpu::MultisampleState::default(),
        fragment: Some(wgpu::FragmentState {
            module: &module,
            entry_point: Some("fs_main"),
            compilation_options: wgpu::PipelineCompilationOptions::default(),
            targets: &[Some(wgpu::ColorTargetState {
                format,
                blend: None,
                write_mask: wgpu::ColorWrites::ALL,
            })],
        }),
        multiview_mask: None,
        cache: None,
    })?;
    Ok(MipPipeline {
        layout,
        sampler: source::sampler(gpu, src)?,
        kind: PipelineKind::Render(pipeline),
    })
}

/// Records the pass writing mip `level` of `layer` of `raw` with `group` (its previous mip).
pub(super) fn encode(
    encoder: &mut wgpu::CommandEncoder,
    pipeline: &wgpu::RenderPipeline,
    group: &wgpu::BindGroup,
    raw: &wgpu::Texture,
    layer: u32,
    level: u32,
) {
    let target = raw.create_view(&wgpu::TextureViewDescriptor {
        label: Some("vgpu mip"),
        dimension: Some(wgpu::TextureViewDimension::D2),
        base_mip_level: level,
        mip_level_count: Some(1),
        base_array_layer: layer,
        array_layer_count: Some(1),
        ..Default::default()
    });
    let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
        label: Some("vgpu generate_mips"),
        color_attachments: &[Some(wgpu::RenderPassColorAttachment {
            view: &target,
            depth_slice: None,
            resolve_target: None,
            ops: wgpu::Operations {
                load: wgpu::LoadOp::Clear(wgpu::Color::TRANSPARENT),
                store: wgpu::StoreOp::Store,
            },
        })],
        depth_stencil_attachment: None,
        timestamp_writes: None,
        occlusion_query_set: None,
        multiview_mask: None,
    });
    pass.set_pipeline(pipeline);
    pass.set_bind_group(0, group, &[]);
    pass.draw(0..3, 0..1);
}
