//! 10 000 instances in ONE draw call: a 100×100 grid of small squares with gaps between them,
//! colored by a gradient (red grows to the right, green downwards), each placed and colored by
//! its own record in a storage buffer read by `@builtin(instance_index)`. Writes
//! `instancing_storage.png` (800×800) and prints the counters of every frame.
//!
//! One binding, one bind group, one draw: the per-object CPU cost is gone. The records are
//! stored shuffled (instance `i` goes to cell `i × 7919 mod 10 000`), so the image is right only
//! if every record is drawn once, wherever it sits in the buffer.
//!
//! Where the device cannot read storage buffers in the vertex stage (some GL / GLES devices:
//! `DownlevelFlags::VERTEX_STORAGE` absent or `max_storage_buffers_per_shader_stage == 0`), the
//! example passes the same records as a per-instance vertex buffer (`VertexStepMode::Instance`):
//! still one draw call, same pixels. `--vertex-buffer` takes that path on any device,
//! `--storage-buffer` the storage path (an error where the device lacks it).
//!
//! ```text
//! cargo run --release --example instancing_storage [-- --storage-buffer | --vertex-buffer]
//! ```

use vgpu::{DrawDesc, Gpu, PassDesc, VertexBuffer};

/// Squares per row and per column.
const GRID: u32 = 100;
/// Instances drawn (one per grid cell).
const INSTANCES: u32 = GRID * GRID;
/// Pixels per cell side.
const CELL: u32 = 8;
/// Side of each square in pixels (centered in its cell: a 2-pixel gap between squares).
const SQUARE: u32 = 6;
/// Target width and height in pixels.
const SIZE: u32 = GRID * CELL;
/// Multiplier of the placement permutation (coprime with `INSTANCES`).
const PERMUTATION: u32 = 7919;
/// Clear color (0, 0, 0, 255), seen in the gaps: no instance has blue 0.
const CLEAR: [f64; 4] = [0.0, 0.0, 0.0, 1.0];
/// Frames rendered: the first creates the bind group, the second is steady.
const FRAMES: usize = 2;

/// One instance record, as the shader's `Instance` struct reads it (16 bytes).
#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct Instance {
    /// Center in clip space.
    center: [f32; 2],
    /// Half the side length in clip space.
    half_size: f32,
    /// RGBA8 color packed little-endian (red in the low byte).
    color: u32,
}

/// The grid cell `(column, row)` of instance `i` (row 0 at the top).
fn cell_of(i: u32) -> (u32, u32) {
    let c = ((u64::from(i) * u64::from(PERMUTATION)) % u64::from(INSTANCES)) as u32;
    (c % GRID, c / GRID)
}

/// The color of the square in cell `(column, row)`: red grows to the right, green downwards
/// (all 10 000 colors differ).
fn color_of(column: u32, row: u32) -> [u8; 4] {
    let ramp = |v: u32| (v * 255 / (GRID - 1)) as u8;
    [ramp(column), ramp(row), 160, 255]
}

/// The instance records, in instance order.
fn instances() -> Vec<Instance> {
    let px = 2.0 / SIZE as f32; // one pixel in clip space
    (0..INSTANCES)
        .map(|i| {
            let (column, row) = cell_of(i);
            let x = (column * CELL) as f32 + CELL as f32 / 2.0;
            let y = (row * CELL) as f32 + CELL as f32 / 2.0;
            Instance {
                center: [x * px - 1.0, 1.0 - y * px],
                half_size: SQUARE as f32 / 2.0 * px,
                color: u32::from_le_bytes(color_of(column, row)),
            }
        })
        .collect()
}

/// WGSL of the storage path.
const STORAGE_SHADER: &str = r#"
struct Instance { center: vec2f, half_size: f32, color: u32 }
@group(0) @binding(0) var<storage, read> instances: array<Instance>;

struct VsOut {
    @builtin(position) position: vec4f,
    @location(0) @interpolate(flat) color: vec4f,
}

fn corner(v: u32) -> vec2f {
    var corners = array<vec2f, 6>(
        vec2f(-1.0, -1.0), vec2f(1.0, -1.0), vec2f(1.0, 1.0),
        vec2f(-1.0, -1.0), vec2f(1.0, 1.0), vec2f(-1.0, 1.0),
    );
    return corners[v];
}

fn unpack(c: u32) -> vec4f {
    return vec4f(f32(c & 255u), f32((c >> 8u) & 255u), f32((c >> 16u) & 255u), f32(c >> 24u)) / 255.0;
}

@vertex
fn vs_main(@builtin(vertex_index) v: u32, @builtin(instance_index) i: u32) -> VsOut {
    let inst = instances[i];
    var out: VsOut;
    out.position = vec4f(inst.center + corner(v) * inst.half_size, 0.0, 1.0);
    out.color = unpack(inst.color);
    return out;
}

@fragment
fn fs_main(in: VsOut) -> @location(0) vec4f {
    return in.color;
}
"#;

/// WGSL of the fallback path: the same records as per-instance vertex attributes.
const VERTEX_SHADER: &str = r#"
struct VsOut {
    @builtin(position) position: vec4f,
    @location(0) @interpolate(flat) color: vec4f,
}

fn corner(v: u32) -> vec2f {
    var corners = array<vec2f, 6>(
        vec2f(-1.0, -1.0), vec2f(1.0, -1.0), vec2f(1.0, 1.0),
        vec2f(-1.0, -1.0), vec2f(1.0, 1.0), vec2f(-1.0, 1.0),
    );
    return corners[v];
}

fn unpack(c: u32) -> vec4f {
    return vec4f(f32(c & 255u), f32((c >> 8u) & 255u), f32((c >> 16u) & 255u), f32(c >> 24u)) / 255.0;
}

@vertex
fn vs_main(
    @builtin(vertex_index) v: u32,
    @location(0) center: vec2f,
    @location(1) half_size: f32,
    @location(2) color: u32,
) -> VsOut {
    var out: VsOut;
    out.position = vec4f(center + corner(v) * half_size, 0.0, 1.0);
    out.color = unpack(color);
    return out;
}

@fragment
fn fs_main(in: VsOut) -> @location(0) vec4f {
    return in.color;
}
"#;

/// True when the device can read storage buffers in the vertex stage.
fn vertex_storage_supported(gpu: &Gpu) -> bool {
    let ctx = gpu.context();
    ctx.limits().max_storage_buffers_per_shader_stage > 0
        && ctx
            .adapter()
            .get_downlevel_capabilities()
            .flags
            .contains(wgpu::DownlevelFlags::VERTEX_STORAGE)
}

fn main() -> std::process::ExitCode {
    vgpu_examples::report(run())
}

fn run() -> Result<(), Box<dyn std::error::Error>> {
    // Which path: the storage buffer where the device has it (the default), or forced.
    let forced = match std::env::args().nth(1).as_deref() {
        None => None,
        Some("--storage-buffer") => Some(true),
        Some("--vertex-buffer") => Some(false),
        Some(other) => {
            return Err(format!(
                "unknown argument {other:?}; usage: instancing_storage \
                 [--storage-buffer | --vertex-buffer]"
            )
            .into());
        }
    };
    let gpu = Gpu::from_env()?;
    println!(
        "adapter: {} ({:?})",
        gpu.adapter_info().name,
        gpu.adapter_info().backend
    );

    let records = instances();
    let bytes: &[u8] = bytemuck::cast_slice(&records);
    let draw = if forced.unwrap_or_else(|| vertex_storage_supported(&gpu)) {
        println!("path: storage buffer");
        // The records in a storage buffer, bound by its WGSL name like any value.
        let buffer = gpu.buffer_init("instances", bytes, wgpu::BufferUsages::STORAGE)?;
        let shader = gpu.shader("instancing_storage.wgsl", STORAGE_SHADER)?;
        let draw = gpu.draw(
            &shader,
            DrawDesc {
                label: "instances (storage)".into(),
                vertex_count: Some(6),
                instance_count: INSTANCES,
                ..Default::default()
            },
        )?;
        draw.set("instances", &buffer)?;
        draw
    } else {
        println!("path: vertex buffer");
        // The fallback: the same records as per-instance vertex attributes.
        let buffer = gpu.buffer_init("instances", bytes, wgpu::BufferUsages::VERTEX)?;
        let shader = gpu.shader("instancing_vertex.wgsl", VERTEX_SHADER)?;
        gpu.draw(
            &shader,
            DrawDesc {
                label: "instances (vertex buffer)".into(),
                vertex_count: Some(6),
                instance_count: INSTANCES,
                vertex_buffers: vec![VertexBuffer {
                    buffer,
                    offset: 0,
                    stride: size_of::<Instance>() as u64,
                    step_mode: wgpu::VertexStepMode::Instance,
                    attributes: wgpu::vertex_attr_array![
                        0 => Float32x2, 1 => Float32, 2 => Uint32
                    ]
                    .to_vec(),
                }],
                ..Default::default()
            },
        )?
    };

    let target = gpu.target(SIZE, SIZE)?;
    for frame in 1..=FRAMES {
        let report = gpu.frame(|f| {
            f.pass(
                PassDesc::new(&target).clear(CLEAR).label("instances"),
                |p| p.draw(&draw),
            )
        })?;
        let what = format!("frame {frame} ({INSTANCES} instances)");
        println!("{}", vgpu_examples::counter_line(&what, &report.stats));
    }

    vgpu_examples::fail_on_uncaptured_errors(&gpu)?;
    if gpu.is_noop() {
        println!(
            "nothing was rendered (the noop device executes no GPU work): \
             instancing_storage.png was not written"
        );
        return Ok(());
    }
    target.save_png("instancing_storage.png")?;
    println!("wrote instancing_storage.png");
    Ok(())
}
