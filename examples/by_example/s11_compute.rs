//! by-example §11, compute (upstream: `examples/by-example-s11-compute`).
//!
//! A compute shader with a uniform (`sim`, a value vgpu owns) and two storage buffers the app
//! owns (`src` read, `dst` written), set by name like a draw's bindings, dispatched in a compute
//! pass, and `dst` read back. Each particle falls for `dt` = 0.5 s: `dst = src + (0, -9.8 × dt,
//! 0, 0)`. Prints the frame's counters and, on a real device, `dst[i]: [x, y, z, w]` per
//! particle.
//!
//! ```text
//! cargo run --example by_example_s11_compute
//! ```

use vgpu::{ComputeDesc, Gpu, value};

/// One invocation per particle.
const SIM: &str = r#"
struct Sim { dt: f32 }
@group(0) @binding(0) var<uniform> sim: Sim;
@group(0) @binding(1) var<storage, read> src: array<vec4f>;
@group(0) @binding(2) var<storage, read_write> dst: array<vec4f>;
@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) id: vec3u) {
    dst[id.x] = src[id.x] + vec4f(0.0, -9.8 * sim.dt, 0.0, 0.0);
}
"#;

/// The particles' starting positions (`vec4f` each).
const PARTICLES: [[f32; 4]; 2] = [[1.0, 2.0, 3.0, 4.0], [-1.0, 10.0, 0.5, 1.0]];

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

    let storage = wgpu::BufferUsages::STORAGE;
    let src = gpu.buffer_init("src", bytemuck::cast_slice(&PARTICLES), storage)?;
    let dst = gpu.buffer(&vgpu::BufferDesc {
        label: "dst".into(),
        size: src.size(),
        usage: storage,
    })?;

    let shader = gpu.shader("sim", SIM)?;
    let sim = gpu.compute(
        &shader,
        ComputeDesc {
            label: "sim".into(),
            ..Default::default()
        },
    )?;
    sim.set("sim", value! { dt: 0.5 })?;
    sim.set("src", &src)?;
    sim.set("dst", &dst)?;

    let count = PARTICLES.len() as u32;
    let report = gpu.frame(|f| f.compute_pass(|c| c.dispatch(&sim, count, 1, 1)))?;
    println!("{}", vgpu_examples::counter_line("frame 1", &report.stats));

    vgpu_examples::fail_on_uncaptured_errors(&gpu)?;
    if gpu.is_noop() {
        println!("nothing was computed (the noop device executes no GPU work)");
        return Ok(());
    }
    let bytes = dst.read_blocking()?;
    let out: Vec<[f32; 4]> = bytemuck::pod_collect_to_vec(&bytes);
    for (i, p) in out.iter().enumerate() {
        println!("dst[{i}]: {p:?}");
    }
    Ok(())
}
