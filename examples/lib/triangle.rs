//! The triangle example: one draw, clear color, read-back.

use vgpu::{Gpu, Result, Target};

/// Clear color of the triangle example (exactly representable in 8-bit unorm: 51, 102, 153, 255).
pub const CLEAR: [f64; 4] = [0.2, 0.4, 0.6, 1.0];
/// Triangle color (255, 51, 0, 255).
pub const COLOR: [f32; 4] = [1.0, 0.2, 0.0, 1.0];

/// WGSL of the triangle: vertices from `vertex_index`, one flat color.
pub const SHADER: &str = r#"
@vertex
fn vs_main(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
    var p = array<vec2f, 3>(vec2f(-0.5, -0.5), vec2f(0.5, -0.5), vec2f(0.0, 0.5));
    return vec4f(p[i], 0.0, 1.0);
}

@fragment
fn fs_main() -> @location(0) vec4f {
    return vec4f(1.0, 0.2, 0.0, 1.0);
}
"#;

/// Renders the triangle into a new `size`×`size` target and returns it.
pub fn render(gpu: &Gpu, size: u32) -> Result<Target> {
    let target = gpu.target(size, size)?;
    let ctx = gpu.context();
    let module = ctx.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some("triangle"),
        source: wgpu::ShaderSource::Wgsl(SHADER.into()),
    })?;
    let layout = ctx.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: Some("triangle"),
        bind_group_layouts: &[],
        immediate_size: 0,
    })?;
    let pipeline = ctx.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some("triangle"),
        layout: Some(&layout),
        vertex: wgpu::VertexState {
            module: &module,
            entry_point: Some("vs_main"),
            compilation_options: Default::default(),
            buffers: &[],
        },
        fragment: Some(wgpu::FragmentState {
            module: &module,
            entry_point: Some("fs_main"),
            compilation_options: Default::default(),
            targets: &[Some(target.format().into())],
        }),
        primitive: Default::default(),
        depth_stencil: None,
        multisample: Default::default(),
        multiview_mask: None,
        cache: None,
    })?;
    let mut encoder = gpu.device().create_command_encoder(&Default::default());
    {
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("triangle"),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view: target.color_view().expect("color target"),
                depth_slice: None,
                resolve_target: None,
                ops: wgpu::Operations {
                    load: wgpu::LoadOp::Clear(wgpu::Color {
                        r: CLEAR[0],
                        g: CLEAR[1],
                        b: CLEAR[2],
                        a: CLEAR[3],
                    }),
                    store: wgpu::StoreOp::Store,
                },
            })],
            ..Default::default()
        });
        pass.set_pipeline(&pipeline);
        pass.draw(0..3, 0..1);
    }
    ctx.submit([encoder.finish()]);
    Ok(target)
}
