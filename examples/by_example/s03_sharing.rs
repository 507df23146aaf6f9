//! by-example §3, sharing a resource between draws (upstream: `examples/by-example-s03-sharing`).
//!
//! Mixed ownership in one bind group: a uniform buffer the app owns (`camera`, a vgpu `Buffer`)
//! is bound to two draws, while each draw keeps a value of its own (`params`) that vgpu owns,
//! packs and uploads. The left half of the 16×16 target is the `cube` (red), the right half the
//! `floor` (green); both colors are multiplied by the shared camera's exposure.
//!
//! Updating the shared buffer is explicit (`camera.write`), and one write changes what both
//! draws see: frame 1 renders at exposure 1 (`by_example_s03_sharing.png`), frame 2 at exposure
//! 0.5 (`by_example_s03_sharing_dim.png`). The buffer keeps its identity, so frame 2 creates no
//! bind group. Prints the counters of both frames.
//!
//! ```text
//! cargo run --example by_example_s03_sharing
//! ```

use vgpu::{DrawDesc, Gpu, PassDesc, TargetDesc, value};

/// Width and height of the target in pixels.
const SIZE: u32 = 16;

/// The declarations both shaders share: the app's camera (binding 0), the draw's own params
/// (binding 1), and a fullscreen triangle whose `uv` is 0..1 across the target.
const SHARED_CAMERA: &str = r#"
struct Camera { exposure: f32 }
@group(0) @binding(0) var<uniform> camera: Camera;
struct Params { color: vec4f }
@group(0) @binding(1) var<uniform> params: Params;
struct VertexOut { @builtin(position) position: vec4f, @location(0) uv: vec2f };
@vertex fn vs_main(@builtin(vertex_index) vi: u32) -> VertexOut {
    let pos = array<vec2f, 3>(vec2f(-1.0, -1.0), vec2f(3.0, -1.0), vec2f(-1.0, 3.0));
    let uv = array<vec2f, 3>(vec2f(0.0, 0.0), vec2f(2.0, 0.0), vec2f(0.0, 2.0));
    var out: VertexOut;
    out.position = vec4f(pos[vi], 0.0, 1.0);
    out.uv = uv[vi];
    return out;
}
"#;

/// The cube covers the left half.
const CUBE: &str = r#"
@fragment fn fs_main(@location(0) uv: vec2f) -> @location(0) vec4f {
    if (uv.x >= 0.5) { discard; }
    return vec4f(params.color.rgb * camera.exposure, params.color.a);
}
"#;

/// The floor covers the right half.
const FLOOR: &str = r#"
@fragment fn fs_main(@location(0) uv: vec2f) -> @location(0) vec4f {
    if (uv.x < 0.5) { discard; }
    return vec4f(params.color.rgb * camera.exposure, params.color.a);
}
"#;

/// The exposure of each frame, and the PNG it writes.
const FRAMES: [(f32, &str); 2] = [
    (1.0, "by_example_s03_sharing.png"),
    (0.5, "by_example_s03_sharing_dim.png"),
];

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

    let target = gpu.target_with(&TargetDesc::new(SIZE, SIZE).label("sharing"))?;
    // The app's buffer: vgpu binds it by identity and never writes it.
    let camera = gpu.buffer_init(
        "camera",
        bytemuck::bytes_of(&FRAMES[0].0),
        wgpu::BufferUsages::UNIFORM,
    )?;

    let mut draws = Vec::new();
    for (label, fragment, color) in [
        ("cube", CUBE, [1.0, 0.0, 0.0, 1.0]),
        ("floor", FLOOR, [0.0, 1.0, 0.0, 1.0]),
    ] {
        let shader = gpu.shader(label, &format!("{SHARED_CAMERA}{fragment}"))?;
        let draw = gpu.draw(
            &shader,
            DrawDesc {
                label: label.into(),
                ..Default::default()
            },
        )?;
        // The same buffer for both draws (user-owned), a value of its own for each (lib-owned).
        draw.set("camera", &camera)?;
        draw.set("params", value! { color: color })?;
        draws.push(draw);
    }

    for (i, (exposure, png)) in FRAMES.iter().enumerate() {
        // One explicit write of the shared buffer: both draws see it.
        camera.write(0, bytemuck::bytes_of(exposure))?;
        let report = gpu.frame(|f| {
            f.pass(PassDesc::new(&target).clear([0.0, 0.0, 0.0, 1.0]), |p| {
                draws.iter().try_for_each(|d| p.draw(d))
            })
        })?;
        let what = format!("frame {} (exposure {exposure})", i + 1);
        println!("{}", vgpu_examples::counter_line(&what, &report.stats));
        if !gpu.is_noop() {
            target.save_png(png)?;
            println!("wrote {png}");
        }
    }

    vgpu_examples::fail_on_uncaptured_errors(&gpu)?;
    if gpu.is_noop() {
        println!("nothing was rendered (the noop device executes no GPU work): no PNG was written");
    }
    Ok(())
}
