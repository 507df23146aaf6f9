//! The render-bundle example: a static scene of 1 024 draws (each with its own uniform value)
//! recorded once into a bundle and replayed every frame while a shared camera block moves.
//!
//! This is the case where all three conditions for render bundles hold
//! ([WebGPU render bundle best practices](https://toji.dev/webgpu-best-practices/render-bundles)):
//! many draws, a command list that never changes, and the only per-frame change is the *contents* of a uniform buffer (the
//! camera), not the commands. Values bound by bundle draws are live (DESIGN §3.9): each replay
//! sees the latest camera, and a steady frame uploads exactly the camera's 64 bytes, creates no
//! bind group and issues no `set_bind_group` outside the bundle.

use vgpu::{FrameReport, Gpu, PassDesc, Result, RgbaImage, StatsSnapshot, Target, value};

/// Objects per row and per column.
pub const GRID: u32 = 32;
/// Draws in the bundle.
pub const DRAWS: u32 = GRID * GRID;
/// Pixels between object centers.
pub const CELL: u32 = 4;
/// Target width and height in pixels.
pub const SIZE: u32 = GRID * CELL;
/// Side of each square in pixels.
pub const SQUARE: u32 = 2;
/// Camera motion per frame in pixels: right and down.
pub const PAN_PER_FRAME: (u32, u32) = (3, 1);
/// Clear color (0, 0, 0, 255): no object has blue 0.
pub const CLEAR: [f64; 4] = [0.0, 0.0, 0.0, 1.0];
/// Bytes of the camera block (one `mat4x4f`).
pub const CAMERA_BYTES: u64 = 64;

/// WGSL: camera in group 0 (shared, changes every frame), object in group 1 (static).
pub const SHADER: &str = r#"
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
pub fn color_of(column: u32, row: u32) -> [u8; 4] {
    [(column * 8) as u8, (row * 8) as u8, 200, 255]
}

/// The top-left pixel of the object at `(column, row)` in frame `frame` (0-based), before
/// clipping to the target: the camera pans by [`PAN_PER_FRAME`] each frame.
pub fn top_left(column: u32, row: u32, frame: u32) -> (u32, u32) {
    let margin = (CELL - SQUARE) / 2;
    (
        column * CELL + margin + frame * PAN_PER_FRAME.0,
        row * CELL + margin + frame * PAN_PER_FRAME.1,
    )
}

/// The camera of frame `frame` as a column-major `view_projection` (a clip-space translation).
pub fn camera_matrix(frame: u32) -> [f32; 16] {
    let px = 2.0 / SIZE as f32;
    let x = (frame * PAN_PER_FRAME.0) as f32 * px;
    let y = -((frame * PAN_PER_FRAME.1) as f32) * px;
    [
        1.0, 0.0, 0.0, 0.0, //
        0.0, 1.0, 0.0, 0.0, //
        0.0, 0.0, 1.0, 0.0, //
        x, y, 0.0, 1.0,
    ]
}

/// What [`render`] produced.
#[derive(Debug)]
pub struct Output {
    /// The target, holding the last frame.
    pub target: Target,
    /// Draws recorded in the bundle.
    pub bundle_draws: usize,
    /// Counter deltas of recording the bundle (once).
    pub record: StatsSnapshot,
    /// The image after the first frame (camera of frame 0).
    pub first: RgbaImage,
    /// The image after the last frame.
    pub last: RgbaImage,
    /// One report per frame; from the second on, only the camera changes.
    pub reports: Vec<FrameReport>,
}

/// Builds the scene, records it once into a bundle, then renders `frames` frames (at least two),
/// moving the camera before each and replaying the bundle.
pub fn render(gpu: &Gpu, frames: u32) -> Result<Output> {
    let frames = frames.max(2);
    let shader = gpu.shader("bundle_static_scene", SHADER)?;
    let camera = gpu.uniforms_labeled("camera", value! { view_projection: camera_matrix(0) })?;
    let px = 2.0 / SIZE as f32;
    let mut draws = Vec::with_capacity(DRAWS as usize);
    for row in 0..GRID {
        for column in 0..GRID {
            let draw = gpu.draw(
                &shader,
                vgpu::DrawDesc {
                    label: "object".into(),
                    vertex_count: Some(6),
                    ..Default::default()
                },
            )?;
            let (x, y) = top_left(column, row, 0);
            let half = SQUARE as f32 / 2.0;
            draw.set("camera", &camera)?;
            draw.set(
                "object",
                value! {
                    color: color_of(column, row).map(|c| f32::from(c) / 255.0),
                    center: [(x as f32 + half) * px - 1.0, 1.0 - (y as f32 + half) * px],
                    half_size: half * px,
                },
            )?;
            draws.push(draw);
        }
    }
    let target = gpu.target(SIZE, SIZE)?;
    let before = gpu.stats();
    let bundle = gpu.bundle("static scene", target.signature(), |b| {
        for d in &draws {
            b.draw(d)?;
        }
        Ok(())
    })?;
    let record = gpu.stats() - before;
    let mut reports = Vec::with_capacity(frames as usize);
    let mut first = None;
    for frame in 0..frames {
        reports.push(gpu.frame(|f| {
            // A content change of a uniform buffer, not of the commands: the bundle stays valid.
            camera.set(value! { view_projection: camera_matrix(frame) })?;
            f.pass(PassDesc::new(&target).clear(CLEAR).label("scene"), |p| {
                p.execute(&bundle)
            })
        })?);
        if frame == 0 {
            first = Some(target.read_rgba8()?);
        }
    }
    let last = target.read_rgba8()?;
    Ok(Output {
        bundle_draws: bundle.len(),
        record,
        first: first.unwrap_or_else(|| last.clone()),
        last,
        target,
        reports,
    })
}
