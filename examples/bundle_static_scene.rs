//! A static scene of 1 024 draws (each with its own uniform value) recorded once into a render
//! bundle and replayed every frame while a shared camera block moves. Writes
//! `bundle_static_scene_first.png` (the first frame) and `bundle_static_scene.png` (the last),
//! and prints the counters of the recording and of every frame.
//!
//! This is the case where all three conditions for render bundles hold
//! ([WebGPU render bundle best practices](https://toji.dev/webgpu-best-practices/render-bundles)):
//! many draws, a command list that never changes, and the only per-frame change is the
//! *contents* of a uniform buffer (the camera), not the commands. Values bound by bundle draws
//! are live (docs/design.md §3.9): each replay sees the latest camera, and a steady frame uploads exactly
//! the camera's 64 bytes, creates no bind group and issues no `set_bind_group` outside the
//! bundle.
//!
//! ```text
//! cargo run --release --example bundle_static_scene
//! ```

use glam::{Mat4, Vec2, Vec3};
use vgpu::{DrawDesc, Gpu, PassDesc, value};

/// Objects per row and per column.
const GRID: u32 = 32;
/// Pixels between object centers.
const CELL: u32 = 4;
/// Target width and height in pixels.
const SIZE: u32 = GRID * CELL;
/// Side of each square in pixels.
const SQUARE: u32 = 2;
/// Camera motion per frame in pixels: right and down.
const PAN_PER_FRAME: (u32, u32) = (3, 1);
/// Clear color (0, 0, 0, 255): no object has blue 0.
const CLEAR: [f64; 4] = [0.0, 0.0, 0.0, 1.0];
/// Frames rendered, each replaying the bundle.
const FRAMES: u32 = 8;

/// WGSL: camera in group 0 (shared, changes every frame), object in group 1 (static).
const SHADER: &str = r#"
struct Camera { view_projection: mat4x4f }
struct Object { color: vec4f, center: vec2f, half_size: f32 }
@group(0) @binding(0) var<uniform> camera: Camera;
@group(1) @binding(0) var<uniform> object: Object;

@vertex
fn vs_main(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
    var corners = array<vec2f, 6>(
        vec2f(-1.0, -1.0), vec2f(1.0, -1.0), vec2f(1.0, 1.0),
        vec2f(-1.0, -1.0), vec2f(1.0, 1.0), vec2f(-1.0, 1.0),
    );
    let world = object.center + corners[i] * object.half_size;
    return camera.view_projection * vec4f(world, 0.0, 1.0);
}

@fragment
fn fs_main() -> @location(0) vec4f {
    return object.color;
}
"#;

/// The color of the object at grid cell `(column, row)` (row 0 at the top); all differ.
fn color_of(column: u32, row: u32) -> [u8; 4] {
    [(column * 8) as u8, (row * 8) as u8, 200, 255]
}

/// The camera of frame `frame` (0-based) as a `view_projection`: a translation by
/// `frame × PAN_PER_FRAME` pixels (right and down; clip space's y points up).
fn camera_matrix(frame: u32) -> Mat4 {
    let px = 2.0 / SIZE as f32; // one pixel in clip space
    let x = (frame * PAN_PER_FRAME.0) as f32 * px;
    let y = -((frame * PAN_PER_FRAME.1) as f32) * px;
    Mat4::from_translation(Vec3::new(x, y, 0.0))
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

    // The scene: one draw per square, each with its own (static) object value, all sharing one
    // camera block.
    let shader = gpu.shader("bundle_static_scene.wgsl", SHADER)?;
    let camera = gpu.uniforms_labeled("camera", value! { view_projection: camera_matrix(0) })?;
    let px = 2.0 / SIZE as f32;
    let half = SQUARE as f32 / 2.0;
    let margin = (CELL - SQUARE) / 2;
    let mut draws = Vec::new();
    for row in 0..GRID {
        for column in 0..GRID {
            let draw = gpu.draw(
                &shader,
                DrawDesc {
                    label: format!("object {column},{row}"),
                    vertex_count: Some(6),
                    ..Default::default()
                },
            )?;
            // The square's top-left pixel, then its center in clip space.
            let (x, y) = (column * CELL + margin, row * CELL + margin);
            draw.set("camera", &camera)?;
            draw.set(
                "object",
                value! {
                    color: color_of(column, row).map(|c| f32::from(c) / 255.0),
                    center: Vec2::new((x as f32 + half) * px - 1.0, 1.0 - (y as f32 + half) * px),
                    half_size: half * px,
                },
            )?;
            draws.push(draw);
        }
    }
    let target = gpu.target(SIZE, SIZE)?;

    // Record every draw once into a bundle for this target's formats.
    let before = gpu.stats();
    let bundle = gpu.bundle("static scene", target.signature(), |b| {
        for d in &draws {
            b.draw(d)?;
        }
        Ok(())
    })?;
    println!("bundle: {} draws", bundle.len());
    println!(
        "{}",
        vgpu_examples::counter_line("recorded once", &(gpu.stats() - before))
    );

    let mut steady = None;
    for frame in 0..FRAMES {
        let report = gpu.frame(|f| {
            // A content change of a uniform buffer, not of the commands: the bundle stays valid.
            camera.set(value! { view_projection: camera_matrix(frame) })?;
            f.pass(PassDesc::new(&target).clear(CLEAR).label("scene"), |p| {
                p.execute(&bundle)
            })
        })?;
        let what = format!("frame {}", frame + 1);
        println!("{}", vgpu_examples::counter_line(&what, &report.stats));
        if frame == 0 && !gpu.is_noop() {
            // The bundle was recorded with this camera; the last frame shows a later one.
            target.save_png("bundle_static_scene_first.png")?;
            println!("wrote bundle_static_scene_first.png");
        }
        steady = Some(report);
    }
    if let Some(steady) = steady {
        println!(
            "steady frame CPU: encode {:?}, submit {:?}",
            steady.encode, steady.submit
        );
        // What the two times cover, so that a reader of the numbers above knows why replaying
        // shrinks one and not the other.
        println!(
            "  encode = frame start through CommandEncoder::finish(): replaying the bundle is \
             one execute_bundles call instead of {} draws' set_pipeline/set_bind_group/draw, so \
             it stays small",
            bundle.len()
        );
        println!(
            "  submit = uploading the values that changed (here the {}-byte camera, {} \
             write_buffer call) + Queue::submit + the check that wgpu took the submission: a \
             bundle does not shrink it (the driver's submit cost and the upload remain)",
            steady.stats.bytes_uploaded, steady.stats.write_calls
        );
    }

    vgpu_examples::fail_on_uncaptured_errors(&gpu)?;
    if gpu.is_noop() {
        println!("nothing was rendered (the noop device executes no GPU work): no PNG was written");
        return Ok(());
    }
    target.save_png("bundle_static_scene.png")?;
    println!("wrote bundle_static_scene.png");
    Ok(())
}
