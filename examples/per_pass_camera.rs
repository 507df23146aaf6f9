//! Three passes in one frame, one shared camera block set to a different value before each pass,
//! each pass into its own target; writes `per_pass_camera_<camera>.png` (one per camera) and
//! prints the counters of every frame.
//!
//! Every pass sees the camera as it was when the pass was recorded (the capture contract,
//! docs/design.md §3.2). From the second frame on, the three camera values are resident in retained
//! slots: a steady frame creates no bind group and uploads no byte (§3.4, §3.7).
//!
//! ```text
//! cargo run --release --example per_pass_camera
//! ```

use glam::{Mat4, Vec2, Vec3};
use vgpu::{DrawDesc, Gpu, PassDesc, TargetDesc, value};

/// Width and height of each target in pixels (one clip-space unit is `SIZE / 2` pixels).
const SIZE: u32 = 256;
/// Clear color of every pass (0, 0, 0, 255 in 8-bit unorm).
const CLEAR: [f64; 4] = [0.0, 0.0, 0.0, 1.0];
/// Frames rendered: the first uploads everything, the others are steady.
const FRAMES: usize = 3;

/// A square of the scene, in world units (clip space under the identity camera).
struct Object {
    /// Name (the draw's label).
    name: &'static str,
    center: Vec2,
    half_size: f32,
    /// 8-bit RGBA (exactly representable, so the PNG holds exactly this).
    color: [u8; 4],
}

/// The scene: three squares that never overlap under any of the cameras.
const OBJECTS: [Object; 3] = [
    Object {
        name: "red",
        center: Vec2::new(-0.5, -0.5),
        half_size: 0.25,
        color: [255, 0, 0, 255],
    },
    Object {
        name: "green",
        center: Vec2::new(0.5, -0.5),
        half_size: 0.25,
        color: [0, 255, 0, 255],
    },
    Object {
        name: "blue",
        center: Vec2::new(0.0, 0.5),
        half_size: 0.25,
        color: [0, 0, 255, 255],
    },
];

/// A 2D camera: clip = world × `scale` + `offset`.
struct Camera {
    /// Name (the pass label and the PNG name).
    name: &'static str,
    offset: Vec2,
    scale: f32,
}

/// One camera per pass and target. All edges land on pixel boundaries at `SIZE`.
const CAMERAS: [Camera; 3] = [
    Camera {
        name: "front",
        offset: Vec2::new(0.0, 0.0),
        scale: 1.0,
    },
    Camera {
        name: "shifted",
        offset: Vec2::new(0.25, 0.25),
        scale: 1.0,
    },
    Camera {
        name: "zoomed_out",
        offset: Vec2::new(0.0, 0.0),
        scale: 0.5,
    },
];

/// A camera shared by every draw (group 0) and a value per object (group 1).
const SHADER: &str = r#"
struct Camera { view_projection: mat4x4f }
struct Object { world: mat4x4f, color: vec4f }
@group(0) @binding(0) var<uniform> camera: Camera;
@group(1) @binding(0) var<uniform> object: Object;

@vertex
fn vs_main(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
    var corners = array<vec2f, 6>(
        vec2f(-1.0, -1.0), vec2f(1.0, -1.0), vec2f(1.0, 1.0),
        vec2f(-1.0, -1.0), vec2f(1.0, 1.0), vec2f(-1.0, 1.0),
    );
    return camera.view_projection * object.world * vec4f(corners[i], 0.0, 1.0);
}

@fragment
fn fs_main() -> @location(0) vec4f {
    return object.color;
}
"#;

/// The matrix that scales x and y by `scale`, then translates by `offset` (glam matrices are
/// column-major, as WGSL's `mat4x4f`).
fn scale_translate(scale: f32, offset: Vec2) -> Mat4 {
    Mat4::from_translation(offset.extend(0.0)) * Mat4::from_scale(Vec3::new(scale, scale, 1.0))
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

    let shader = gpu.shader("per_pass_camera.wgsl", SHADER)?;
    // One camera block, shared by every draw: setting it once changes what all of them see.
    let camera = gpu.uniforms_labeled("camera", value! { view_projection: Mat4::IDENTITY })?;
    let mut draws = Vec::new();
    for o in &OBJECTS {
        let draw = gpu.draw(
            &shader,
            DrawDesc {
                label: o.name.into(),
                vertex_count: Some(6),
                ..Default::default()
            },
        )?;
        draw.set("camera", &camera)?;
        draw.set(
            "object",
            value! {
                world: scale_translate(o.half_size, o.center),
                color: o.color.map(|c| f32::from(c) / 255.0),
            },
        )?;
        draws.push(draw);
    }
    let mut targets = Vec::new();
    for c in &CAMERAS {
        targets.push(gpu.target_with(&TargetDesc::new(SIZE, SIZE).label(c.name))?);
    }

    for frame in 1..=FRAMES {
        let report = gpu.frame(|f| {
            for (c, target) in CAMERAS.iter().zip(&targets) {
                // The pass recorded before this set keeps the value it saw.
                camera.set(value! { view_projection: scale_translate(c.scale, c.offset) })?;
                f.pass(PassDesc::new(target).clear(CLEAR).label(c.name), |p| {
                    for d in &draws {
                        p.draw(d)?;
                    }
                    Ok(())
                })?;
            }
            Ok(())
        })?;
        let what = format!("frame {frame}");
        println!("{}", vgpu_examples::counter_line(&what, &report.stats));
    }

    vgpu_examples::fail_on_uncaptured_errors(&gpu)?;
    if gpu.is_noop() {
        println!("nothing was rendered (the noop device executes no GPU work): no PNG was written");
        return Ok(());
    }
    for (c, target) in CAMERAS.iter().zip(&targets) {
        let path = format!("per_pass_camera_{}.png", c.name);
        target.save_png(&path)?;
        println!("wrote {path}");
    }
    Ok(())
}
