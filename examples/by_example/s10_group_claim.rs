//! by-example §10, claiming a bind group (upstream: `examples/by-example-s10-group-claim`).
//!
//! A draw may take a whole bind group from the caller: `claim_group` hands out the group's
//! layout as the shader reflects it (here with a dynamic offset for its uniform buffer), the
//! caller builds the bind group from it with plain wgpu and attaches it (`set_group`), and each
//! recorded draw gives its offsets (`draw_with_offsets`). vgpu stops managing that group: it
//! creates no bind group and uploads nothing for it, and setting one of its bindings is an error
//! (`VGPU-GROUP-CLAIMED`). Two colors live in the caller's buffer, one per aligned slice; the
//! same draw is recorded twice, into the left and the right half of the 8×8 target, with the
//! offset of each slice. Writes `by_example_s10_group_claim.png`, prints the frame's counters
//! and the code of the refused set.
//!
//! ```text
//! cargo run --example by_example_s10_group_claim
//! ```

use vgpu::{DrawDesc, Gpu, PassDesc, TargetDesc, value};

/// Width and height of the target in pixels.
const SIZE: u32 = 8;

/// A fullscreen triangle colored by group 0, which the caller provides.
const CLAIMED: &str = r#"
struct Params { color: vec4f }
@group(0) @binding(0) var<uniform> params: Params;
struct VertexOut { @builtin(position) position: vec4f, @location(0) uv: vec2f };
@vertex fn vs_main(@builtin(vertex_index) vi: u32) -> VertexOut {
    var pos = array<vec2f, 3>(vec2f(-1.0, -1.0), vec2f(3.0, -1.0), vec2f(-1.0, 3.0));
    var uv = array<vec2f, 3>(vec2f(0.0, 0.0), vec2f(2.0, 0.0), vec2f(0.0, 2.0));
    var out: VertexOut;
    out.position = vec4f(pos[vi], 0.0, 1.0);
    out.uv = uv[vi];
    return out;
}
@fragment fn fs_main(@location(0) uv: vec2f) -> @location(0) vec4f { return params.color; }
"#;

/// The color of each slice of the caller's buffer: the left half, then the right half.
const COLORS: [[f32; 4]; 2] = [[0.9, 0.2, 0.1, 1.0], [0.1, 0.3, 0.9, 1.0]];

fn main() -> std::process::ExitCode {
    vgpu_examples::report(run())
}

fn run() -> Result<(), Box<dyn std::error::Error>> {
    let gpu = Gpu::from_env()?;
    println!(
        "adapter: {} ({:?})",
        gpu.adapter_info().name,
        gpu.adapter_info().backend
    );

    let target = gpu.target_with(&TargetDesc::new(SIZE, SIZE).label("claimed"))?;
    let shader = gpu.shader("claimed", CLAIMED)?;
    let draw = gpu.draw(
        &shader,
        DrawDesc {
            label: "claimed".into(),
            ..Default::default()
        },
    )?;
    // Group 0 is the caller's from now on; its layout takes a dynamic offset.
    let layout = draw.claim_group(0, true)?;

    // The caller's buffer: one color per slice, slices a dynamic-offset alignment apart.
    let stride = gpu.device().limits().min_uniform_buffer_offset_alignment as usize;
    let mut bytes = vec![0; stride * COLORS.len()];
    for (i, color) in COLORS.iter().enumerate() {
        bytes[i * stride..i * stride + 16].copy_from_slice(bytemuck::bytes_of(color));
    }
    let buffer = gpu.buffer_init("claimed uniform", &bytes, wgpu::BufferUsages::UNIFORM)?;
    // A plain wgpu bind group from the layout vgpu handed out (16 bytes seen per offset).
    let group = gpu.device().create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("claimed group"),
        layout: &layout,
        entries: &[wgpu::BindGroupEntry {
            binding: 0,
            resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                buffer: buffer.raw(),
                offset: 0,
                size: wgpu::BufferSize::new(16),
            }),
        }],
    });
    draw.set_group(0, &group)?;

    // vgpu no longer sets that group's bindings.
    if let Err(e) = draw.set("params", value! { color: [1.0, 1.0, 1.0, 1.0] }) {
        println!("set after the claim: {}", e.code());
    }

    let half = SIZE as f32 / 2.0;
    let report = gpu.frame(|f| {
        f.pass(PassDesc::new(&target).clear([0.0, 0.0, 0.0, 1.0]), |p| {
            for (i, offset) in [0, stride as u32].into_iter().enumerate() {
                p.set_viewport(i as f32 * half, 0.0, half, SIZE as f32);
                p.draw_with_offsets(&draw, 0, &[offset])?;
            }
            Ok(())
        })
    })?;
    println!("{}", vgpu_examples::counter_line("frame 1", &report.stats));

    vgpu_examples::fail_on_uncaptured_errors(&gpu)?;
    if gpu.is_noop() {
        println!("nothing was rendered (the noop device executes no GPU work): no PNG was written");
        return Ok(());
    }
    target.save_png("by_example_s10_group_claim.png")?;
    println!("wrote by_example_s10_group_claim.png");
    Ok(())
}
