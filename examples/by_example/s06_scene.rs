//! by-example §6, a lit box (upstream: `examples/by-example-s06-scene`).
//!
//! A cube from `vgpu::geometry::cuboid`, uploaded as a mesh (`Gpu::mesh`): its `position` and
//! `normal` attributes feed the vertex stage's inputs of those names, at whatever locations the
//! shader gives them — no vertex layout is written. A perspective camera (45° vertical field of
//! view, eye at (2, 2, 3), looking at the origin) and one directional light are plain uniform
//! values; the 32×32 target has depth. Writes `by_example_s06_scene.png` and prints the frame's
//! counters, the mesh's attributes and the vertex inputs they fed.
//!
//! ```text
//! cargo run --example by_example_s06_scene
//! ```

use glam::{Mat4, Vec3};
use vgpu::{DrawDesc, Gpu, PassDesc, TargetDesc, geometry};

/// Width and height of the target in pixels.
const SIZE: u32 = 32;

/// The camera: where it is, what it looks at, its vertical field of view.
const EYE: [f32; 3] = [2.0, 2.0, 3.0];
const FOV_Y_DEGREES: f32 = 45.0;

/// Lambert lighting of a fixed blue, at least 0.15 of it in shadow.
const LIT: &str = r#"
struct Camera { view_projection: mat4x4f }
struct Model { model: mat4x4f }
struct Light { direction: vec3f, intensity: f32 }
@group(0) @binding(0) var<uniform> camera: Camera;
@group(0) @binding(1) var<uniform> model: Model;
@group(0) @binding(2) var<uniform> light: Light;

struct VertexOut { @builtin(position) position: vec4f, @location(0) normal: vec3f }

@vertex fn vs_main(@location(0) position: vec3f, @location(1) normal: vec3f) -> VertexOut {
    var out: VertexOut;
    out.position = camera.view_projection * model.model * vec4f(position, 1.0);
    out.normal = normal;
    return out;
}

@fragment fn fs_main(@location(0) normal: vec3f) -> @location(0) vec4f {
    let n = normalize(normal);
    let l = max(dot(n, normalize(-light.direction)), 0.15) * light.intensity;
    return vec4f(vec3f(0.2, 0.5, 1.0) * l, 1.0);
}
"#;

#[derive(Clone, Copy, vgpu::Uniform)]
struct Camera {
    view_projection: Mat4,
}

#[derive(Clone, Copy, vgpu::Uniform)]
struct Model {
    model: Mat4,
}

#[derive(Clone, Copy, vgpu::Uniform)]
struct Light {
    direction: Vec3,
    intensity: f32,
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

    let target = gpu.target_with(
        &TargetDesc::new(SIZE, SIZE)
            .depth(wgpu::TextureFormat::Depth32Float)
            .label("scene"),
    )?;
    let cube = gpu.mesh(&geometry::cuboid([1.0, 1.0, 1.0])?)?;
    let shader = gpu.shader("lit", LIT)?;
    let draw = gpu.draw(
        &shader,
        DrawDesc {
            label: "cube".into(),
            mesh: Some(cube.clone()),
            ..Default::default()
        },
    )?;
    let attributes: Vec<String> = cube
        .attributes()
        .map(|(name, format)| format!("{name} {format:?}"))
        .collect();
    println!("mesh attributes: {}", attributes.join(", "));
    let inputs: Vec<String> = shader
        .reflection()
        .entry_points()
        .iter()
        .flat_map(|e| &e.vertex_inputs)
        .map(|i| format!("{}@{}", i.name, i.location))
        .collect();
    println!("vertex inputs: {}", inputs.join(", "));

    draw.set(
        "camera",
        &Camera {
            view_projection: view_projection(),
        },
    )?;
    draw.set(
        "model",
        &Model {
            model: Mat4::IDENTITY,
        },
    )?;
    draw.set(
        "light",
        &Light {
            direction: Vec3::new(-1.0, -1.0, -1.0),
            intensity: 1.0,
        },
    )?;

    let report = gpu.frame(|f| {
        f.pass(PassDesc::new(&target).clear([0.05, 0.05, 0.08, 1.0]), |p| {
            p.draw(&draw)
        })
    })?;
    println!("{}", vgpu_examples::counter_line("frame 1", &report.stats));

    vgpu_examples::fail_on_uncaptured_errors(&gpu)?;
    if gpu.is_noop() {
        println!("nothing was rendered (the noop device executes no GPU work): no PNG was written");
        return Ok(());
    }
    let image = target.read_rgba8()?;
    image.save_png("by_example_s06_scene.png")?;
    println!("wrote by_example_s06_scene.png");
    Ok(())
}

/// The camera's projection times its view (wgpu's depth range, right-handed, Y up).
fn view_projection() -> Mat4 {
    let projection = Mat4::perspective_rh(FOV_Y_DEGREES.to_radians(), 1.0, 0.1, 100.0);
    let view = Mat4::look_at_rh(Vec3::from(EYE), Vec3::ZERO, Vec3::Y);
    projection * view
}
