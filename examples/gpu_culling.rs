//! GPU culling: 4096 instances on a 64×64 grid; each frame a compute pass keeps those inside the
//! camera's view rectangle, appends their indices to a storage buffer and counts them
//! atomically in the `instance_count` of an indirect-arguments buffer; a render pass then draws
//! exactly the survivors with ONE `Pass::draw_indirect`, the CPU never learning how many there
//! are. Writes `gpu_culling.png` (512×512, the last frame) and prints, per frame, the instance
//! count the GPU wrote (read back afterwards) next to a CPU count of the same culling.
//!
//! No barrier is written: wgpu orders the compute pass's writes before the render pass's
//! indirect read (the buffer has `STORAGE | INDIRECT` usage). The arguments are reset each frame
//! by a `Buffer::write` of `(6, 0, 0, 0)` (6 vertices, 0 instances) before the frame.
//!
//! ```text
//! cargo run --release --example gpu_culling
//! ```

use vgpu::{BufferDesc, ComputeDesc, DrawDesc, Gpu, PassDesc, value};

/// Squares per row and per column.
const GRID: u32 = 64;
/// Instances (one per grid cell).
const INSTANCES: u32 = GRID * GRID;
/// Pixels per cell side.
const CELL: u32 = 8;
/// Side of each square in pixels (centered in its cell: a 2-pixel gap between squares).
const SQUARE: u32 = 6;
/// Target width and height in pixels.
const SIZE: u32 = GRID * CELL;
/// Workgroup size of the culling pass.
const WORKGROUP: u32 = 64;
/// Clear color; every square has blue 200, so a lit cell is one whose blue is not 0.
const CLEAR: [f64; 4] = [0.0, 0.0, 0.0, 1.0];

/// A camera: the view rectangle, `center ± half_extent` in clip space.
#[derive(Clone, Copy, Debug)]
struct Camera {
    center: [f32; 2],
    half_extent: [f32; 2],
}

/// The camera of each frame (it moves: the count changes).
const CAMERAS: [Camera; 2] = [
    Camera {
        center: [-0.2, 0.1],
        half_extent: [0.5, 0.3],
    },
    Camera {
        center: [0.31, -0.17],
        half_extent: [0.43, 0.61],
    },
];

/// The center of instance `i` in clip space (row 0 at the top).
fn center(i: u32) -> [f32; 2] {
    let (column, row) = (i % GRID, i / GRID);
    let px = 2.0 / SIZE as f32;
    let x = (column * CELL) as f32 + CELL as f32 / 2.0;
    let y = (row * CELL) as f32 + CELL as f32 / 2.0;
    [x * px - 1.0, 1.0 - y * px]
}

/// The CPU's culling: the same test, in the same `f32` operations, as `cs_main`.
fn visible(p: [f32; 2], c: &Camera) -> bool {
    (p[0] - c.center[0]).abs() <= c.half_extent[0] && (p[1] - c.center[1]).abs() <= c.half_extent[1]
}

/// The culling pass: one invocation per instance.
const CULL: &str = "
struct Camera { center: vec2f, half_extent: vec2f }
struct DrawArgs {
    vertex_count: u32,
    instance_count: atomic<u32>,
    first_vertex: u32,
    first_instance: u32,
}
@group(0) @binding(0) var<uniform> camera: Camera;
@group(0) @binding(1) var<storage, read> centers: array<vec2f>;
@group(0) @binding(2) var<storage, read_write> survivors: array<u32>;
@group(0) @binding(3) var<storage, read_write> args: DrawArgs;

@compute @workgroup_size(64)
fn cs_main(@builtin(global_invocation_id) id: vec3u) {
    let i = id.x;
    if i >= arrayLength(&centers) {
        return;
    }
    let d = abs(centers[i] - camera.center);
    if d.x <= camera.half_extent.x && d.y <= camera.half_extent.y {
        survivors[atomicAdd(&args.instance_count, 1u)] = i;
    }
}
";

/// The draw: instance `k` is the `k`-th survivor.
const DRAW: &str = "
@group(0) @binding(0) var<storage, read> centers: array<vec2f>;
@group(0) @binding(1) var<storage, read> survivors: array<u32>;
struct Params { half_size: f32 }
@group(0) @binding(2) var<uniform> params: Params;

struct VsOut {
    @builtin(position) position: vec4f,
    @location(0) @interpolate(flat) color: vec4f,
}

@vertex
fn vs_main(@builtin(vertex_index) v: u32, @builtin(instance_index) k: u32) -> VsOut {
    var corners = array<vec2f, 6>(
        vec2f(-1.0, -1.0), vec2f(1.0, -1.0), vec2f(1.0, 1.0),
        vec2f(-1.0, -1.0), vec2f(1.0, 1.0), vec2f(-1.0, 1.0),
    );
    let i = survivors[k];
    var out: VsOut;
    out.position = vec4f(centers[i] + corners[v] * params.half_size, 0.0, 1.0);
    let g = f32(i % 64u) / 63.0;
    out.color = vec4f(g, 1.0 - g, 200.0 / 255.0, 1.0);
    return out;
}

@fragment
fn fs_main(in: VsOut) -> @location(0) vec4f {
    return in.color;
}
";

/// Whether the device can run the example: compute shaders, indirect draws and storage
/// buffers in the vertex stage.
fn supported(gpu: &Gpu) -> Result<(), String> {
    let ctx = gpu.context();
    let needed = wgpu::DownlevelFlags::COMPUTE_SHADERS
        | wgpu::DownlevelFlags::INDIRECT_EXECUTION
        | wgpu::DownlevelFlags::VERTEX_STORAGE;
    let flags = ctx.adapter().get_downlevel_capabilities().flags;
    if !flags.contains(needed) || ctx.limits().max_storage_buffers_per_shader_stage < 4 {
        return Err(format!(
            "gpu_culling needs compute shaders, indirect execution and vertex-stage storage \
             buffers; this adapter has {flags:?}"
        ));
    }
    Ok(())
}

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
    supported(&gpu)?;

    let centers: Vec<[f32; 2]> = (0..INSTANCES).map(center).collect();
    let storage = wgpu::BufferUsages::STORAGE;
    let centers = gpu.buffer_init("centers", bytemuck::cast_slice(&centers), storage)?;
    let survivors = gpu.buffer(&BufferDesc {
        label: "survivors".into(),
        size: u64::from(INSTANCES) * 4,
        usage: storage,
    })?;
    // Written by the culling pass, read by the draw: both usages.
    let args = gpu.buffer(&BufferDesc {
        label: "draw args".into(),
        size: 16,
        usage: storage | wgpu::BufferUsages::INDIRECT,
    })?;

    let cull = gpu.compute(
        &gpu.shader("gpu_culling_cull.wgsl", CULL)?,
        ComputeDesc {
            label: "cull".into(),
            ..Default::default()
        },
    )?;
    cull.set("centers", &centers)?;
    cull.set("survivors", &survivors)?;
    cull.set("args", &args)?;
    let draw = gpu.draw(
        &gpu.shader("gpu_culling_draw.wgsl", DRAW)?,
        DrawDesc {
            label: "survivors".into(),
            ..Default::default()
        },
    )?;
    draw.set("centers", &centers)?;
    draw.set("survivors", &survivors)?;
    let half_size = SQUARE as f32 / SIZE as f32;
    draw.set("params", value! { half_size: half_size })?;

    let target = gpu.target(SIZE, SIZE)?;
    for (frame, camera) in CAMERAS.iter().enumerate() {
        let frame = frame + 1;
        // 6 vertices per square, no instance yet: the culling pass counts them.
        args.write(0, bytemuck::cast_slice(&[6u32, 0, 0, 0]))?;
        cull.set(
            "camera",
            value! { center: camera.center, half_extent: camera.half_extent },
        )?;
        let report = gpu.frame(|f| {
            f.compute_pass(|c| c.dispatch(&cull, INSTANCES.div_ceil(WORKGROUP), 1, 1))?;
            f.pass(
                PassDesc::new(&target).clear(CLEAR).label("survivors"),
                |p| p.draw_indirect(&draw, &args, 0),
            )
        })?;
        println!(
            "{}",
            vgpu_examples::counter_line(&format!("frame {frame}"), &report.stats)
        );
        let (c, h) = (camera.center, camera.half_extent);
        println!(
            "frame {frame} camera: center {} {}, half extent {} {}",
            c[0], c[1], h[0], h[1]
        );
        let cpu = (0..INSTANCES)
            .filter(|&i| visible(center(i), camera))
            .count();
        println!("frame {frame} cpu visible: {cpu} of {INSTANCES}");
        if !gpu.is_noop() {
            let words: Vec<u32> = bytemuck::pod_collect_to_vec(&args.read_blocking()?);
            let count = words
                .get(1)
                .ok_or("the arguments read back are too short")?;
            println!("frame {frame} gpu instance count: {count}");
        }
    }

    vgpu_examples::fail_on_uncaptured_errors(&gpu)?;
    if gpu.is_noop() {
        println!(
            "nothing was rendered (the noop device executes no GPU work): \
             gpu_culling.png was not written"
        );
        return Ok(());
    }
    target.save_png("gpu_culling.png")?;
    println!("wrote gpu_culling.png");
    Ok(())
}
