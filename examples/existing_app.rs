//! vgpu inside an existing wgpu program.
//!
//! The program owns everything: its instance, adapter, device and queue, its uncaptured-error
//! handler, its render target and its command encoder. It clears its own view in its own pass,
//! then hands vgpu the same device (`Gpu::from_wgpu`), view (`Gpu::target_for_view`) and
//! encoder (`Gpu::frame_in`): vgpu draws a square with a camera block set differently for each
//! of two passes, then records a third square into a render pass the program began itself
//! (`Frame::record_in`). The program finishes and submits the encoder, reads its view back and
//! writes `existing_app_frame<N>.png` for each frame. Its error handler is still the one it
//! installed: an error raised outside vgpu calls reaches it, and the program forwards it to
//! vgpu. Prints the counters of each frame and what the handlers received;
//! `VGPU_BACKEND=vulkan|gl|noop` picks the program's backend.
//!
//! ```text
//! cargo run --release --example existing_app
//! ```

use std::sync::{Arc, Mutex};

use glam::Vec2;
use vgpu::{DrawDesc, Gpu, PassDesc, TargetSignature, value};

/// Side of the program's render target in pixels.
const SIZE: u32 = 32;
/// The program's own clear color (8-bit: 51, 102, 153, 255).
const CLEAR: wgpu::Color = wgpu::Color {
    r: 0.2,
    g: 0.4,
    b: 0.6,
    a: 1.0,
};
/// The square's color (8-bit: 255, 128, 0, 255 after rounding 0.5 · 255).
const SQUARE: [f32; 4] = [1.0, 0.5, 0.0, 1.0];
/// The three camera offsets (clip space): left half, right half, top middle.
const OFFSETS: [Vec2; 3] = [
    Vec2::new(-0.5, -0.5),
    Vec2::new(0.5, -0.5),
    Vec2::new(0.0, 0.5),
];

/// The vgpu shader: a square of half-size 0.25 around the origin, moved by the camera block.
const SHADER: &str = "
struct Camera { offset: vec2f }
@group(0) @binding(0) var<uniform> camera: Camera;
struct Object { color: vec4f }
@group(1) @binding(0) var<uniform> object: Object;

@vertex fn vs_main(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
    var corners = array<vec2f, 6>(
        vec2f(-0.25, -0.25), vec2f(0.25, -0.25), vec2f(0.25, 0.25),
        vec2f(-0.25, -0.25), vec2f(0.25, 0.25), vec2f(-0.25, 0.25));
    return vec4f(corners[i] + camera.offset, 0.0, 1.0);
}
@fragment fn fs_main() -> @location(0) vec4f { return object.color; }
";

/// Frames the program renders.
const FRAMES: usize = 3;

/// The program's device, on the backend `VGPU_BACKEND` names (`vulkan`, `gl`, `noop`; default:
/// any).
fn app_device() -> Result<(wgpu::Instance, wgpu::Adapter, wgpu::Device, wgpu::Queue), String> {
    let choice = std::env::var("VGPU_BACKEND").unwrap_or_default();
    let (backends, options) = match choice.as_str() {
        "vulkan" => (wgpu::Backends::VULKAN, wgpu::BackendOptions::default()),
        "gl" => (wgpu::Backends::GL, wgpu::BackendOptions::default()),
        "noop" => (
            wgpu::Backends::NOOP,
            wgpu::BackendOptions {
                noop: wgpu::NoopBackendOptions::enabled(),
                ..Default::default()
            },
        ),
        _ => (
            wgpu::Backends::VULKAN | wgpu::Backends::GL,
            wgpu::BackendOptions::default(),
        ),
    };
    let instance = wgpu::Instance::new(wgpu::InstanceDescriptor {
        backends,
        backend_options: options,
        ..wgpu::InstanceDescriptor::new_without_display_handle()
    });
    let adapter =
        pollster::block_on(instance.request_adapter(&wgpu::RequestAdapterOptions::default()))
            .map_err(|e| format!("no adapter for VGPU_BACKEND={choice:?}: {e}"))?;
    let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
        label: Some("existing app"),
        ..Default::default()
    }))
    .map_err(|e| format!("request_device: {e}"))?;
    Ok((instance, adapter, device, queue))
}

fn main() -> std::process::ExitCode {
    vgpu_examples::report(run())
}

fn run() -> Result<(), Box<dyn std::error::Error>> {
    let (instance, adapter, device, queue) = app_device()?;
    // The program's own error handler, installed before vgpu exists.
    let app_errors: Arc<Mutex<Vec<wgpu::Error>>> = Arc::default();
    let sink = app_errors.clone();
    device.on_uncaptured_error(Arc::new(move |e: wgpu::Error| {
        if let Ok(mut v) = sink.lock() {
            v.push(e);
        }
    }));
    let info = adapter.get_info();
    println!("adapter: {} ({:?})", info.name, info.backend);
    let noop = info.backend == wgpu::Backend::Noop;

    // The program's render target.
    let format = wgpu::TextureFormat::Rgba8Unorm;
    let texture = device.create_texture(&wgpu::TextureDescriptor {
        label: Some("app target"),
        size: wgpu::Extent3d {
            width: SIZE,
            height: SIZE,
            depth_or_array_layers: 1,
        },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format,
        usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
        view_formats: &[],
    });
    let view = texture.create_view(&Default::default());

    // vgpu on the program's objects.
    let gpu = Gpu::from_wgpu(
        Some(instance),
        adapter.clone(),
        device.clone(),
        queue.clone(),
    );
    let target = gpu.target_for_view("app view", &view, None)?;
    let shader = gpu.shader("square", SHADER)?;
    let camera = gpu.uniforms_labeled("camera", value! { offset: OFFSETS[0] })?;
    let draws = (0..3)
        .map(|i| -> vgpu::Result<vgpu::Draw> {
            let draw = gpu.draw(
                &shader,
                DrawDesc {
                    label: format!("square {i}"),
                    vertex_count: Some(6),
                    ..Default::default()
                },
            )?;
            draw.set("camera", &camera)?;
            draw.set("object", value! { color: SQUARE })?;
            Ok(draw)
        })
        .collect::<vgpu::Result<Vec<_>>>()?;
    let signature = TargetSignature::new(Some(format), None, 1);

    for frame in 1..=FRAMES {
        let mut encoder = device.create_command_encoder(&Default::default());
        // The program clears its view in its own pass.
        drop(encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("app clear"),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view: &view,
                depth_slice: None,
                resolve_target: None,
                ops: wgpu::Operations {
                    load: wgpu::LoadOp::Clear(CLEAR),
                    store: wgpu::StoreOp::Store,
                },
            })],
            ..Default::default()
        }));
        // vgpu records into the same encoder: two passes into the program's view (the camera
        // set before each), then a draw inside a pass the program begins itself.
        let report = gpu.frame_in(&mut encoder, |f| {
            camera.set(value! { offset: OFFSETS[0] })?;
            f.pass(PassDesc::new(&target).load().label("left"), |p| {
                p.draw(&draws[0])
            })?;
            camera.set(value! { offset: OFFSETS[1] })?;
            f.pass(PassDesc::new(&target).load().label("right"), |p| {
                p.draw(&draws[1])
            })?;
            camera.set(value! { offset: OFFSETS[2] })?;
            let mut rpass = f
                .encoder()
                .begin_render_pass(&wgpu::RenderPassDescriptor {
                    label: Some("app pass"),
                    color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                        view: &view,
                        depth_slice: None,
                        resolve_target: None,
                        ops: wgpu::Operations {
                            load: wgpu::LoadOp::Load,
                            store: wgpu::StoreOp::Store,
                        },
                    })],
                    ..Default::default()
                })
                .forget_lifetime();
            f.record_in(&mut rpass, signature, |p| p.draw(&draws[2]))
        })?;
        println!(
            "{}",
            vgpu_examples::counter_line(&format!("frame {frame}"), &report.stats)
        );
        // The program reads its target back in the same encoder and submits.
        let bytes_per_row = (SIZE * 4).next_multiple_of(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT);
        let readback = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("app read-back"),
            size: u64::from(bytes_per_row * SIZE),
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        encoder.copy_texture_to_buffer(
            texture.as_image_copy(),
            wgpu::TexelCopyBufferInfo {
                buffer: &readback,
                layout: wgpu::TexelCopyBufferLayout {
                    offset: 0,
                    bytes_per_row: Some(bytes_per_row),
                    rows_per_image: Some(SIZE),
                },
            },
            texture.size(),
        );
        queue.submit([encoder.finish()]);
        let pixels = read(&device, &readback, bytes_per_row)?;
        if noop {
            continue; // nothing executed: the pixels are zeros
        }
        let path = format!("existing_app_frame{frame}.png");
        vgpu::RgbaImage {
            width: SIZE,
            height: SIZE,
            data: pixels,
        }
        .save_png(&path)?;
        println!("wrote {path}");
    }

    // An error outside any vgpu call reaches the program's handler, not vgpu's log; the
    // program forwards it to vgpu, which then counts and logs it.
    let _invalid = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("invalid on purpose"),
        size: 16,
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::MAP_WRITE,
        mapped_at_creation: false,
    });
    let received: Vec<wgpu::Error> = match app_errors.lock() {
        Ok(mut v) => std::mem::take(&mut *v),
        Err(_) => Vec::new(),
    };
    let vgpu_before = gpu.take_uncaptured_errors();
    for e in &received {
        gpu.report_uncaptured_error(e);
    }
    let vgpu_errors = vgpu_before.len() + gpu.take_uncaptured_errors().len();
    println!(
        "the program's error handler received {} error(s); vgpu logged {vgpu_errors} (the \
         forwarded ones)",
        received.len()
    );
    for e in &received {
        println!("  the program's handler: {:?}", e.to_string());
    }
    if noop {
        println!("nothing was rendered (the noop device executes no GPU work): no PNG was written");
    }
    Ok(())
}

/// Maps the program's read-back buffer and returns tightly packed RGBA8 rows.
fn read(
    device: &wgpu::Device,
    buffer: &wgpu::Buffer,
    bytes_per_row: u32,
) -> Result<Vec<u8>, String> {
    let (tx, rx) = std::sync::mpsc::channel();
    buffer.slice(..).map_async(wgpu::MapMode::Read, move |r| {
        let _ = tx.send(r);
    });
    device
        .poll(wgpu::PollType::wait_indefinitely())
        .map_err(|e| format!("poll: {e}"))?;
    rx.recv()
        .map_err(|e| format!("map callback: {e}"))?
        .map_err(|e| format!("map: {e}"))?;
    let view = buffer
        .slice(..)
        .get_mapped_range()
        .map_err(|e| format!("mapped range: {e}"))?;
    let mut out = Vec::with_capacity((SIZE * SIZE * 4) as usize);
    for row in view.chunks(bytes_per_row as usize).take(SIZE as usize) {
        out.extend_from_slice(&row[..(SIZE * 4) as usize]);
    }
    drop(view);
    buffer.unmap();
    Ok(out)
}
