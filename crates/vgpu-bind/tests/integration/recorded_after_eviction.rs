//! Tier 1 (wgpu noop device): evicting a cached group never breaks work that recorded it.
#![allow(clippy::unwrap_used, reason = "an unwrap in a test is an assertion")]

use crate::common::*;
use vgpu_bind::{BindEntry, BindingStore};
use vgpu_core::GpuContext;

const COMPUTE: &str = "
@group(0) @binding(0) var<storage, read_write> data: array<u32>;
@compute @workgroup_size(1) fn main() { data[0] = data[0] + 1u; }
";

const RENDER: &str = "
@group(0) @binding(0) var<uniform> color: vec4f;
@vertex fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
    return vec4f(f32(i & 1u), f32(i >> 1u), 0.0, 1.0);
}
@fragment fn fs() -> @location(0) vec4f { return color; }
";

fn module(ctx: &GpuContext, src: &str) -> wgpu::ShaderModule {
    ctx.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some("test shader"),
        source: wgpu::ShaderSource::Wgsl(src.into()),
    })
    .unwrap()
}

#[test]
fn compute_pass_survives_eviction_of_its_group() {
    let ctx = GpuContext::noop();
    let mut store = BindingStore::new(ctx.clone());
    let layout = store
        .create_layout(
            &[wgpu::BindGroupLayoutEntry {
                binding: 0,
                visibility: wgpu::ShaderStages::COMPUTE,
                ty: wgpu::BindingType::Buffer {
                    ty: wgpu::BufferBindingType::Storage { read_only: false },
                    has_dynamic_offset: false,
                    min_binding_size: None,
                },
                count: None,
            }],
            "storage",
        )
        .unwrap();
    let pipeline_layout = ctx
        .create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: None,
            bind_group_layouts: &[store.registry().layout(layout)],
            immediate_size: 0,
        })
        .unwrap();
    let pipeline = ctx
        .create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some("increment"),
            layout: Some(&pipeline_layout),
            module: &module(&ctx, COMPUTE),
            entry_point: Some("main"),
            compilation_options: Default::default(),
            cache: None,
        })
        .unwrap();
    let buffer = ctx
        .create_buffer(&wgpu::BufferDescriptor {
            label: Some("data"),
            size: 256,
            usage: wgpu::BufferUsages::STORAGE,
            mapped_at_creation: false,
        })
        .unwrap();
    let key = store.register_buffer(&buffer, "data");

    let mut encoder = ctx
        .device()
        .create_command_encoder(&wgpu::CommandEncoderDescriptor::default());
    {
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor::default());
        pass.set_pipeline(&pipeline);
        let (_, group) = store
            .get_or_create(layout, &[BindEntry::new(0, key)])
            .unwrap();
        pass.set_bind_group(0, group, &[]);
        // Evict the group (and drop the cache's handle) while the pass still uses it.
        let s0 = ctx.stats().snapshot();
        assert_eq!(store.destroy(key), 1);
        assert!(store.is_empty());
        assert_eq!((ctx.stats().snapshot() - s0).cache_evictions, 1);
        // A pass holds its own reference: even releasing the retired handle is safe.
        assert_eq!(store.release_retired(), 1);
        pass.dispatch_workgroups(1, 1, 1);
    }
    let commands = encoder.finish();
    ctx.submit([commands]);
    ctx.wait_idle().unwrap();
    assert_eq!(ctx.take_uncaptured_errors(), vec![]);
    assert_eq!(ctx.stats().snapshot().uncaptured_errors, 0);
}

#[test]
fn render_bundle_survives_eviction_of_its_group() {
    let ctx = GpuContext::noop();
    let mut store = BindingStore::new(ctx.clone());
    let layout = store.create_layout(&[uniform_entry(0)], "color").unwrap();
    let pipeline_layout = ctx
        .create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: None,
            bind_group_layouts: &[store.registry().layout(layout)],
            immediate_size: 0,
        })
        .unwrap();
    let shader = module(&ctx, RENDER);
    let format = wgpu::TextureFormat::Rgba8Unorm;
    let pipeline = ctx
        .create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some("flat"),
            layout: Some(&pipeline_layout),
            vertex: wgpu::VertexState {
                module: &shader,
                entry_point: Some("vs"),
                compilation_options: Default::default(),
                buffers: &[],
            },
            primitive: wgpu::PrimitiveState::default(),
            depth_stencil: None,
            multisample: wgpu::MultisampleState::default(),
            fragment: Some(wgpu::FragmentState {
                module: &shader,
                entry_point: Some("fs"),
                compilation_options: Default::default(),
                targets: &[Some(format.into())],
            }),
            multiview_mask: None,
            cache: None,
        })
        .unwrap();
    let ubo = uniform_buffer(&ctx, 256, "color");
    let key = store.register_buffer(&ubo, "color");
    let target = texture_view(&ctx);

    let mut bundle_encoder =
        ctx.device()
            .create_render_bundle_encoder(&wgpu::RenderBundleEncoderDescriptor {
                label: Some("bundle"),
                color_formats: &[Some(format)],
                depth_stencil: None,
                sample_count: 1,
                multiview: None,
            });
    bundle_encoder.set_pipeline(&pipeline);
    let (_, group) = store
        .get_or_create(layout, &[BindEntry::new(0, key)])
        .unwrap();
    bundle_encoder.set_bind_group(0, group, &[]);
    bundle_encoder.draw(0..3, 0..1);
    // Evict every cached group before the bundle is even finished: the group is retired, not
    // dropped, because wgpu resolves a bundle encoder's bind groups only in `finish()`.
    assert_eq!(store.clear(), 1);
    assert!(store.is_empty());
    assert_eq!(store.cache().retired_len(), 1);
    let bundle = bundle_encoder.finish(&wgpu::RenderBundleDescriptor {
        label: Some("bundle"),
    });
    // Once finished, the bundle holds its own reference: releasing is safe.
    assert_eq!(store.release_retired(), 1);
    assert_eq!(store.cache().retired_len(), 0);

    // The bundle replays after eviction and release, twice.
    for _ in 0..2 {
        let mut encoder = ctx
            .device()
            .create_command_encoder(&wgpu::CommandEncoderDescriptor::default());
        {
            let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("replay"),
                color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                    view: &target,
                    depth_slice: None,
                    resolve_target: None,
                    ops: wgpu::Operations::default(),
                })],
                ..Default::default()
            });
            pass.execute_bundles([&bundle]);
        }
        ctx.submit([encoder.finish()]);
    }
    ctx.wait_idle().unwrap();
    assert_eq!(ctx.take_uncaptured_errors(), vec![]);
    assert_eq!(ctx.stats().snapshot().uncaptured_errors, 0);
}

#[test]
fn render_pass_survives_lru_eviction_of_its_group() {
    let ctx = GpuContext::noop();
    let mut store = BindingStore::with_config(ctx.clone(), vgpu_bind::CacheConfig::new(1, 1));
    let layout = store.create_layout(&[uniform_entry(0)], "color").unwrap();
    let pipeline_layout = ctx
        .create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: None,
            bind_group_layouts: &[store.registry().layout(layout)],
            immediate_size: 0,
        })
        .unwrap();
    let shader = module(&ctx, RENDER);
    let format = wgpu::TextureFormat::Rgba8Unorm;
    let pipeline = ctx
        .create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some("flat"),
            layout: Some(&pipeline_layout),
            vertex: wgpu::VertexState {
                module: &shader,
                entry_point: Some("vs"),
                compilation_options: Default::default(),
                buffers: &[],
            },
            primitive: wgpu::PrimitiveState::default(),
            depth_stencil: None,
            multisample: wgpu::MultisampleState::default(),
            fragment: Some(wgpu::FragmentState {
                module: &shader,
                entry_point: Some("fs"),
                compilation_options: Default::default(),
                targets: &[Some(format.into())],
            }),
            multiview_mask: None,
            cache: None,
        })
        .unwrap();
    let page = uniform_buffer(&ctx, 1024, "colors");
    let key = store.register_buffer(&page, "colors");
    let target = texture_view(&ctx);
    let s0 = ctx.stats().snapshot();
    let mut encoder = ctx
        .device()
        .create_command_encoder(&wgpu::CommandEncoderDescriptor::default());
    {
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("pass"),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view: &target,
                depth_slice: None,
                resolve_target: None,
                ops: wgpu::Operations::default(),
            })],
            ..Default::default()
        });
        pass.set_pipeline(&pipeline);
        // Cache bound of 1: each new group evicts the one the previous draw used, and the
        // evicted handle is released at once.
        for i in 0..4 {
            let (_, group) = store
                .get_or_create(layout, &[slot(0, key, i * 256)])
                .unwrap();
            pass.set_bind_group(0, group, &[]);
            pass.draw(0..3, 0..1);
            assert_eq!(store.release_retired(), usize::from(i > 0));
        }
    }
    ctx.submit([encoder.finish()]);
    ctx.wait_idle().unwrap();
    let d = ctx.stats().snapshot() - s0;
    assert_eq!((d.bind_groups_created, d.cache_evictions), (4, 3));
    assert_eq!(store.len(), 1);
    assert_eq!(ctx.take_uncaptured_errors(), vec![]);
    assert_eq!(ctx.stats().snapshot().uncaptured_errors, 0);
}
