//! The per-pass camera example: one [`SharedUniforms`](vgpu::SharedUniforms) camera set to a
//! different value before each of three passes of one frame, each pass into its own target.
//!
//! Every pass sees the camera as it was when the pass was recorded (the capture contract,
//! DESIGN §3.2). From the second frame on, the three camera values are resident in retained
//! slots: a steady frame creates no bind group and uploads no byte (§3.4, §3.7).

use vgpu::{FrameReport, Gpu, PassDesc, Result, Target, TargetDesc, value};

/// Width and height of each target in pixels (one clip-space unit is `SIZE / 2` pixels).
pub const SIZE: u32 = 32;
/// Clear color of every pass (0, 0, 0, 255 in 8-bit unorm).
pub const CLEAR: [f64; 4] = [0.0, 0.0, 0.0, 1.0];

/// A square of the scene, in world units (clip space under the identity camera).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Object {
    /// Name (the draw's label).
    pub name: &'static str,
    /// Center.
    pub center: [f32; 2],
    /// Half the side length.
    pub half_size: f32,
    /// Color as 8-bit RGBA (drawn exactly).
    pub color: [u8; 4],
}

/// The scene: three squares that never overlap under any of the [`CAMERAS`].
pub const OBJECTS: [Object; 3] = [
    Object {
        name: "red",
        center: [-0.5, -0.5],
        half_size: 0.25,
        color: [255, 0, 0, 255],
    },
    Object {
        name: "green",
        center: [0.5, -0.5],
        half_size: 0.25,
        color: [0, 255, 0, 255],
    },
    Object {
        name: "blue",
        center: [0.0, 0.5],
        half_size: 0.25,
        color: [0, 0, 255, 255],
    },
];

/// A 2D camera: clip = world × `scale` + `offset`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Camera {
    /// Name (the pass label and the PNG name).
    pub name: &'static str,
    /// Translation after scaling.
    pub offset: [f32; 2],
    /// Uniform scale.
    pub scale: f32,
}

impl Camera {
    /// The camera as a column-major 4×4 `view_projection` matrix.
    pub fn matrix(&self) -> [f32; 16] {
        let s = self.scale;
        let [x, y] = self.offset;
        [
            s, 0.0, 0.0, 0.0, //
            0.0, s, 0.0, 0.0, //
            0.0, 0.0, 1.0, 0.0, //
            x, y, 0.0, 1.0,
        ]
    }
}

/// One camera per pass and target. All edges land on pixel boundaries at [`SIZE`].
pub const CAMERAS: [Camera; 3] = [
    Camera {
        name: "front",
        offset: [0.0, 0.0],
        scale: 1.0,
    },
    Camera {
        name: "shifted",
        offset: [0.25, 0.25],
        scale: 1.0,
    },
    Camera {
        name: "zoomed_out",
        offset: [0.0, 0.0],
        scale: 0.5,
    },
];

/// WGSL: a camera shared by every draw (group 0) and a value per object (group 1).
pub const SHADER: &str = r#"
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

/// What [`render`] produced.
#[derive(Debug)]
pub struct Output {
    /// One target per camera, in [`CAMERAS`] order, holding the last frame.
    pub targets: Vec<Target>,
    /// One report per frame; from the second on, frames are steady.
    pub reports: Vec<FrameReport>,
}

fn world(o: &Object) -> [f32; 16] {
    let h = o.half_size;
    let [x, y] = o.center;
    [
        h, 0.0, 0.0, 0.0, //
        0.0, h, 0.0, 0.0, //
        0.0, 0.0, 1.0, 0.0, //
        x, y, 0.0, 1.0,
    ]
}

fn unorm(c: [u8; 4]) -> [f32; 4] {
    c.map(|v| f32::from(v) / 255.0)
}

/// Renders `frames` frames (at least one); each frame has one pass per camera, the camera block
/// set to that camera's matrix just before its pass.
pub fn render(gpu: &Gpu, frames: usize) -> Result<Output> {
    let shader = gpu.shader("per_pass_camera", SHADER)?;
    let camera = gpu.uniforms_labeled("camera", value! { view_projection: CAMERAS[0].matrix() })?;
    let mut draws = Vec::with_capacity(OBJECTS.len());
    for o in &OBJECTS {
        let draw = gpu.draw(
            &shader,
            vgpu::DrawDesc {
                label: o.name.into(),
                vertex_count: Some(6),
                ..Default::default()
            },
        )?;
        draw.set("camera", &camera)?;
        draw.set("object", value! { world: world(o), color: unorm(o.color) })?;
        draws.push(draw);
    }
    let mut targets = Vec::with_capacity(CAMERAS.len());
    for c in &CAMERAS {
        targets.push(gpu.target_with(&TargetDesc::new(SIZE, SIZE).label(c.name))?);
    }
    let mut reports = Vec::with_capacity(frames);
    for _ in 0..frames.max(1) {
        reports.push(gpu.frame(|f| {
            for (c, target) in CAMERAS.iter().zip(&targets) {
                // Recorded passes keep the value they saw: this set does not affect them.
                camera.set(value! { view_projection: c.matrix() })?;
                f.pass(PassDesc::new(target).clear(CLEAR).label(c.name), |p| {
                    for d in &draws {
                        p.draw(d)?;
                    }
                    Ok(())
                })?;
            }
            Ok(())
        })?);
    }
    Ok(Output { targets, reports })
}

/// Writes `per_pass_camera_<camera>.png` for each target into `dir`; returns the paths in
/// [`CAMERAS`] order.
pub fn save_pngs(out: &Output, dir: &std::path::Path) -> Result<Vec<std::path::PathBuf>> {
    let mut paths = Vec::with_capacity(out.targets.len());
    for (c, target) in CAMERAS.iter().zip(&out.targets) {
        let path = dir.join(format!("per_pass_camera_{}.png", c.name));
        target.save_png(&path)?;
        paths.push(path);
    }
    Ok(paths)
}
