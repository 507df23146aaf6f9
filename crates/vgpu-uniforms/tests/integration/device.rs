//! Tier 2: what the GPU actually saw. Raw wgpu draws bind the engine's page buffers with dynamic
//! offsets and render the uniform's color into small targets that are read back.
//!
//! Runs on the device chosen by `VGPU_BACKEND` (`vulkan` → lavapipe, `gl` → llvmpipe here);
//! returns early on the noop backend.
#![allow(
    missing_docs,
    clippy::unwrap_used,
    reason = "an unwrap in a test is an assertion; test items need no docs"
)]

use std::collections::HashMap;
use std::sync::Arc;

use vgpu_core::GpuContext;
use vgpu_uniforms::{
    AddressSpace, BufferKey, EngineConfig, OwnerKey, PageKey, SlotRef, UniformEngine,
};

const SHADER: &str = r#"
struct Params { color: vec4f }
@group(0) @binding(0) var<uniform> params: Params;

@vertex
fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
    let p = vec2f(f32((i << 1u) & 2u), f32(i & 2u));
    return vec4f(p * 2.0 - 1.0, 0.0, 1.0);
}

@fragment
fn fs() -> @location(0) vec4f {
    return params.color;
}
"#;

const SIZE: u32 = 4;
const FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8Unorm;

/// A color exactly representable in Rgba8Unorm, distinct per `k`.
fn color(k: u8) -> [u8; 4] {
    [k, 255 - k, k.wrapping_mul(3), 255]
}

fn packed(k: u8) -> [u8; 16] {
    let mut out = [0u8; 16];
    for (i, c) in color(k).iter().enumerate() {
        out[i * 4..i * 4 + 4].copy_from_slice(&(f32::from(*c) / 255.0).to_le_bytes());
    }
    out
}

struct Rig {
    ctx: Arc<GpuContext>,
    engine: UniformEngine,
    layout: wgpu::BindGroupLayout,
    pipeline: wgpu::RenderPipeline,
    groups: HashMap<PageKey, wgpu::BindGroup>,
}

impl Rig {
    fn new(ctx: Arc<GpuContext>) -> Self {
        let engine = UniformEngine::new(ctx.clone(), EngineConfig::default());
        let layout = ctx
            .create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
                label: Some("params"),
                entries: &[wgpu::BindGroupLayoutEntry {
                    binding: 0,
                    visibility: wgpu::ShaderStages::FRAGMENT,
                    ty: wgpu::BindingType::Buffer {
                        ty: wgpu::BufferBindingType::Uniform,
                        has_dynamic_offset: true,
                        min_binding_size: wgpu::BufferSize::new(16),
                    },
                    count: None,
                }],
            })
            .unwrap();
        let pipeline_layout = ctx
            .create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
                label: Some("params"),
                bind_group_layouts: &[Some(&layout)],
                immediate_size: 0,
            })
            .unwrap();
        let module = ctx
            .create_shader_module(wgpu::ShaderModuleDescriptor {
                label: Some("color from uniform"),
                source: wgpu::ShaderSource::Wgsl(SHADER.into()),
            })
            .unwrap();
        let pipeline = ctx
            .create_render_pipeline(&wgpu::RenderPipelineDescriptor {
                label: Some("color from uniform"),
                layout: Some(&pipeline_layout),
                vertex: wgpu::VertexState {
                    module: &module,
                    entry_point: Some("vs"),
                    compilation_options: Default::default(),
                    buffers: &[],
                },
                primitive: wgpu::PrimitiveState::default(),
                depth_stencil: None,
                multisample: wgpu::MultisampleState::default(),
                fragment: Some(wgpu::FragmentState {
                    module: &module,
                    entry_point: Some("fs"),
                    compilation_options: Default::default(),
                    targets: &[Some(FORMAT.into())],
                }),
                multiview_mask: None,
                cache: None,
            })
            .unwrap();
        Rig {
            ctx,
            engine,
            layout,
            pipeline,
            groups: HashMap::new(),
        }
    }

    fn owner(&mut self, label: &str, k: u8) -> OwnerKey {
        let key = self.engine.create_owner(label, AddressSpace::Uniform);
        self.engine.set_bytes(key, &packed(k)).unwrap();
        key
    }

    fn target(&self) -> wgpu::Texture {
        self.ctx
            .create_texture(&wgpu::TextureDescriptor {
                label: Some("target"),
                size: wgpu::Extent3d {
                    width: SIZE,
                    height: SIZE,
                    depth_or_array_layers: 1,
                },
                mip_level_count: 1,
                sample_count: 1,
                dimension: wgpu::TextureDimension::D2,
                format: FORMAT,
                usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
                view_formats: &[],
            })
            .unwrap()
    }

    /// The bind group of a page: depends on the page buffer only, never on a value.
    fn group(&mut self, slot: SlotRef) -> &wgpu::BindGroup {
        let BufferKey::Page(page) = slot.buffer else {
            panic!("uniform owners resolve to pages");
        };
        let (ctx, engine, layout) = (&self.ctx, &self.engine, &self.layout);
        self.groups.entry(page).or_insert_with(|| {
            ctx.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some("params page"),
                layout,
                entries: &[wgpu::BindGroupEntry {
                    binding: 0,
                    resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                        buffer: engine.page_buffer(page).unwrap(),
                        offset: 0,
                        size: wgpu::BufferSize::new(16),
                    }),
                }],
            })
            .unwrap()
        })
    }

    /// Records one pass into `target`: for each `(owner, value)` in order, sets the value,
    /// resolves the owner (recording time) and draws into its vertical strip of the target.
    fn pass(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        target: &wgpu::Texture,
        draws: &[(OwnerKey, u8)],
    ) {
        let view = target.create_view(&Default::default());
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("pass"),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view: &view,
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
        pass.set_pipeline(&self.pipeline);
        let strip = SIZE / draws.len() as u32;
        for (i, &(owner, k)) in draws.iter().enumerate() {
            self.engine.set_bytes(owner, &packed(k)).unwrap();
            let slot = self.engine.resolve(owner).unwrap();
            pass.set_bind_group(0, self.group(slot), &[slot.offset]);
            pass.set_viewport(
                (i as u32 * strip) as f32,
                0.0,
                strip as f32,
                SIZE as f32,
                0.0,
                1.0,
            );
            pass.draw(0..3, 0..1);
        }
    }

    fn encoder(&self) -> wgpu::CommandEncoder {
        self.ctx
            .device()
            .create_command_encoder(&wgpu::CommandEncoderDescriptor::default())
    }

    /// Finishes the engine's submission (uploads), then submits.
    fn submit(&mut self, encoder: wgpu::CommandEncoder) {
        self.engine.finish_submission().unwrap();
        self.ctx.submit([encoder.finish()]);
    }

    /// Pixel colors of one row of `target`.
    fn read_row(&self, target: &wgpu::Texture) -> Vec<[u8; 4]> {
        let row_bytes = wgpu::COPY_BYTES_PER_ROW_ALIGNMENT;
        let staging = self
            .ctx
            .create_buffer(&wgpu::BufferDescriptor {
                label: Some("read-back"),
                size: u64::from(row_bytes * SIZE),
                usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            })
            .unwrap();
        let mut encoder = self.encoder();
        encoder.copy_texture_to_buffer(
            target.as_image_copy(),
            wgpu::TexelCopyBufferInfo {
                buffer: &staging,
                layout: wgpu::TexelCopyBufferLayout {
                    offset: 0,
                    bytes_per_row: Some(row_bytes),
                    rows_per_image: Some(SIZE),
                },
            },
            target.size(),
        );
        self.ctx.submit([encoder.finish()]);
        let slice = staging.slice(..);
        slice.map_async(wgpu::MapMode::Read, |r| r.unwrap());
        self.ctx.wait_idle().unwrap();
        let bytes = slice.get_mapped_range().unwrap().to_vec();
        // Row 1 (rows 0..SIZE all hold the same colors).
        let row = &bytes[row_bytes as usize..row_bytes as usize + SIZE as usize * 4];
        row.chunks_exact(4)
            .map(|c| [c[0], c[1], c[2], c[3]])
            .collect()
    }

    fn assert_strips(&self, target: &wgpu::Texture, expected: &[u8], what: &str) {
        let row = self.read_row(target);
        let strip = SIZE as usize / expected.len();
        for (x, px) in row.iter().enumerate() {
            let want = color(expected[x / strip]);
            let close = px.iter().zip(want).all(|(&a, b)| a.abs_diff(b) <= 1);
            assert!(
                close,
                "{what} on {:?}: pixel {x} is {px:?}, expected {want:?} (row {row:?})",
                self.ctx.adapter_info().backend
            );
        }
    }
}

#[test]
fn the_gpu_sees_each_operation_snapshot() {
    let ctx = match GpuContext::from_env() {
        Ok(ctx) => ctx,
        Err(e) => panic!("no device for the tier-2 test: {e}"),
    };
    if ctx.is_noop() {
        crate::common::skip(
            "device",
            "VGPU_BACKEND selects the noop backend: no read-back",
        );
        return;
    }
    eprintln!(
        "tier-2 read-back on {:?} ({})",
        ctx.adapter_info().backend,
        ctx.adapter_info().name
    );
    let mut rig = Rig::new(ctx.clone());
    let camera = rig.owner("camera", 1);
    three_passes_see_their_camera(&mut rig, camera);
    let object = rig.owner("object", 40);
    draws_before_and_after_a_set_see_different_values(&mut rig, object);
    two_frames_back_to_back_see_their_values(&mut rig, object);
    steady_per_pass_camera_uploads_nothing(&ctx, &mut rig, camera, object);
    a_bundle_sees_every_set_of_a_pinned_owner(&ctx, &mut rig);
    assert_eq!(ctx.take_uncaptured_errors(), vec![]);
}

/// 1. Three passes of one frame, the camera set before each: each sees its own value.
fn three_passes_see_their_camera(rig: &mut Rig, camera: OwnerKey) {
    let targets: Vec<_> = (0..3).map(|_| rig.target()).collect();
    rig.engine.begin_submission().unwrap();
    let mut encoder = rig.encoder();
    for (t, k) in targets.iter().zip([10u8, 20, 30]) {
        rig.pass(&mut encoder, t, &[(camera, k)]);
    }
    rig.submit(encoder);
    for (t, k) in targets.iter().zip([10u8, 20, 30]) {
        rig.assert_strips(t, &[k], "three passes");
    }
}

/// 2. A draw recorded before a set and one after it, in one pass, see different values.
fn draws_before_and_after_a_set_see_different_values(rig: &mut Rig, object: OwnerKey) {
    let target = rig.target();
    rig.engine.begin_submission().unwrap();
    let mut encoder = rig.encoder();
    rig.pass(&mut encoder, &target, &[(object, 40), (object, 50)]);
    rig.submit(encoder);
    rig.assert_strips(&target, &[40, 50], "draws before and after a set");
}

/// 3. Two consecutive frames (submitted back to back, read afterwards) with different values:
///    each sees its own, although both use the owner's home slot.
fn two_frames_back_to_back_see_their_values(rig: &mut Rig, object: OwnerKey) {
    let (first, second) = (rig.target(), rig.target());
    for (t, k) in [(&first, 60u8), (&second, 70)] {
        rig.engine.begin_submission().unwrap();
        let mut encoder = rig.encoder();
        rig.pass(&mut encoder, t, &[(object, k)]);
        rig.submit(encoder);
    }
    rig.assert_strips(&first, &[60], "first of two frames");
    rig.assert_strips(&second, &[70], "second of two frames");
}

/// 4. Steady per-pass camera (A for one pass, B for the next, every frame) uploads nothing and
///    still shows each pass its value; a cancelled frame with other values changes nothing the
///    next frame sees.
fn steady_per_pass_camera_uploads_nothing(
    ctx: &GpuContext,
    rig: &mut Rig,
    camera: OwnerKey,
    object: OwnerKey,
) {
    let (ta, tb) = (rig.target(), rig.target());
    let frame = |rig: &mut Rig, a: u8, b: u8, cancel: bool| {
        rig.engine.begin_submission().unwrap();
        let mut encoder = rig.encoder();
        rig.pass(&mut encoder, &ta, &[(camera, a), (object, 90)]);
        rig.pass(&mut encoder, &tb, &[(camera, b), (object, 90)]);
        if cancel {
            rig.engine.cancel_submission();
        } else {
            rig.submit(encoder);
        }
    };
    for _ in 0..2 {
        frame(rig, 100, 200, false);
    }
    let before = ctx.stats().snapshot();
    for _ in 0..3 {
        frame(rig, 100, 200, false);
    }
    let d = ctx.stats().snapshot() - before;
    assert_eq!((d.write_calls, d.bytes_uploaded), (0, 0));
    assert_eq!(d.bind_groups_created, 0);
    rig.assert_strips(&ta, &[100, 90], "steady pass A");
    rig.assert_strips(&tb, &[200, 90], "steady pass B");
    frame(rig, 111, 222, true);
    frame(rig, 100, 200, false);
    rig.assert_strips(&ta, &[100, 90], "pass A after a cancelled frame");
    rig.assert_strips(&tb, &[200, 90], "pass B after a cancelled frame");
    frame(rig, 111, 222, true);
    frame(rig, 112, 223, false);
    rig.assert_strips(
        &ta,
        &[112, 90],
        "pass A, new values after a cancelled frame",
    );
    rig.assert_strips(
        &tb,
        &[223, 90],
        "pass B, new values after a cancelled frame",
    );
}

/// 5. A render bundle recorded once with a pinned owner's home offset sees every later set.
fn a_bundle_sees_every_set_of_a_pinned_owner(ctx: &GpuContext, rig: &mut Rig) {
    let pinned = rig.owner("bundle params", 120);
    let home = rig.engine.pin(pinned).unwrap();
    let group = rig.group(home).clone();
    let mut bundle_encoder =
        ctx.device()
            .create_render_bundle_encoder(&wgpu::RenderBundleEncoderDescriptor {
                label: Some("bundle"),
                color_formats: &[Some(FORMAT)],
                depth_stencil: None,
                sample_count: 1,
                multiview: None,
            });
    bundle_encoder.set_pipeline(&rig.pipeline);
    bundle_encoder.set_bind_group(0, &group, &[home.offset]);
    bundle_encoder.draw(0..3, 0..1);
    let bundle = bundle_encoder.finish(&wgpu::RenderBundleDescriptor {
        label: Some("bundle"),
    });
    let target = rig.target();
    for k in [130u8, 140, 150] {
        rig.engine.set_bytes(pinned, &packed(k)).unwrap();
        rig.engine.begin_submission().unwrap();
        let mut encoder = rig.encoder();
        {
            let view = target.create_view(&Default::default());
            let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("bundle pass"),
                color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                    view: &view,
                    depth_slice: None,
                    resolve_target: None,
                    ops: wgpu::Operations::default(),
                })],
                ..Default::default()
            });
            pass.execute_bundles([&bundle]);
        }
        rig.submit(encoder);
        rig.assert_strips(&target, &[k], "bundle replay");
    }
}
