//! Helpers shared by the noop-device (tier 1) tests of vgpu-bind.
#![allow(
    dead_code,
    unreachable_pub,
    clippy::unwrap_used,
    reason = "an unwrap in a test is an assertion; shared helpers, each test binary uses some"
)]

use std::num::NonZeroU64;
use std::sync::Arc;

use vgpu_bind::{BindEntry, BindingStore, LayoutKey, ResourceKey};
use vgpu_core::GpuContext;

/// Uniform buffer binding of `size` bytes at `binding`, visible to every stage.
pub fn uniform_entry(binding: u32) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::VERTEX_FRAGMENT | wgpu::ShaderStages::COMPUTE,
        ty: wgpu::BindingType::Buffer {
            ty: wgpu::BufferBindingType::Uniform,
            has_dynamic_offset: false,
            min_binding_size: None,
        },
        count: None,
    }
}

pub fn texture_entry(binding: u32) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::FRAGMENT,
        ty: wgpu::BindingType::Texture {
            sample_type: wgpu::TextureSampleType::Float { filterable: true },
            view_dimension: wgpu::TextureViewDimension::D2,
            multisampled: false,
        },
        count: None,
    }
}

pub fn sampler_entry(binding: u32) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::FRAGMENT,
        ty: wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Filtering),
        count: None,
    }
}

pub fn uniform_buffer(ctx: &GpuContext, size: u64, label: &str) -> wgpu::Buffer {
    ctx.create_buffer(&wgpu::BufferDescriptor {
        label: Some(label),
        size,
        usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    })
    .unwrap()
}

pub fn texture_view(ctx: &GpuContext) -> wgpu::TextureView {
    ctx.create_texture(&wgpu::TextureDescriptor {
        label: Some("test texture"),
        size: wgpu::Extent3d {
            width: 4,
            height: 4,
            depth_or_array_layers: 1,
        },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: wgpu::TextureFormat::Rgba8Unorm,
        usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::RENDER_ATTACHMENT,
        view_formats: &[],
    })
    .unwrap()
    .create_view(&wgpu::TextureViewDescriptor::default())
}

pub fn sampler(ctx: &GpuContext) -> wgpu::Sampler {
    ctx.create_sampler(&wgpu::SamplerDescriptor::default())
        .unwrap()
}

/// 256 bytes of a buffer at `offset` (one uniform slot).
pub fn slot(binding: u32, resource: ResourceKey, offset: u64) -> BindEntry {
    BindEntry::buffer(binding, resource, offset, NonZeroU64::new(256))
}

/// A store on a fresh noop context with a layout of two uniform bindings (0 and 1).
pub fn two_uniform_store() -> (Arc<GpuContext>, BindingStore, LayoutKey) {
    let ctx = GpuContext::noop();
    let mut store = BindingStore::new(ctx.clone());
    let layout = store
        .create_layout(&[uniform_entry(0), uniform_entry(1)], "two uniforms")
        .unwrap();
    (ctx, store, layout)
}

/// A grid of `pages_slots × objects` distinct cached groups: binding 0 = a 256-byte slot of one
/// shared page buffer, binding 1 = one of `objects` per-object buffers. Returns the page key and
/// the object keys.
pub fn fill_grid(
    ctx: &GpuContext,
    store: &mut BindingStore,
    layout: LayoutKey,
    page_slots: u64,
    objects: usize,
) -> (ResourceKey, Vec<ResourceKey>) {
    let page = uniform_buffer(ctx, page_slots * 256, "page");
    let page_key = store.register_buffer(&page, "page");
    let object_keys: Vec<ResourceKey> = (0..objects)
        .map(|i| {
            let label = format!("object {i}");
            let b = uniform_buffer(ctx, 256, &label);
            store.register_buffer(&b, &label)
        })
        .collect();
    for &object in &object_keys {
        for s in 0..page_slots {
            store
                .get_or_create(
                    layout,
                    &[slot(0, page_key, s * 256), BindEntry::new(1, object)],
                )
                .unwrap();
        }
    }
    (page_key, object_keys)
}
