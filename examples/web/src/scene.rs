//! What the page draws, the same on every target: three views side by side in one
//! [`WIDTH`]×[`HEIGHT`] canvas, one pass per view. One [`SharedUniforms`] camera is set to the
//! view's value just before its pass (each pass keeps the value it saw), and three draws carry
//! their own object values. The cameras wobble for the first [`ANIMATED`] frames, then stay
//! still: frames from `ANIMATED + 1` on are steady (no bind group created, no byte uploaded).

use vgpu::{Draw, FrameReport, Gpu, PassDesc, PassTarget, Result, SharedUniforms, value};

/// Width and height of one view in pixels (one clip-space unit is `VIEW / 2` pixels).
pub const VIEW: u32 = 64;
/// Canvas width: three views side by side.
pub const WIDTH: u32 = 3 * VIEW;
/// Canvas height.
pub const HEIGHT: u32 = VIEW;
/// Frames rendered into the canvas.
pub const FRAMES: u32 = 60;
/// Frames during which the cameras move (frame indices `0..ANIMATED`).
pub const ANIMATED: u32 = 40;
/// The last frames whose counters are summed and must be zero (all after `ANIMATED + 1`).
pub const CHECKED: u32 = 10;
/// Steady frames rendered after the first [`FRAMES`] with auto-bundles on, then as many with
/// them off (`Gpu::set_auto_bundles(false)`): the page reports the draws replayed from
/// auto-bundles and the median encode time of each mode.
pub const TIMED: u32 = 30;
/// Steady frames rendered after auto-bundles are turned on again, before the page reads back
/// and screenshots: more than the frames a pass needs before its bundle replays, so the frames
/// whose pixels are checked are replayed ones.
pub const REWARM: u32 = 5;
/// Draws of one frame (three passes of [`OBJECTS`]`.len()` draws): what a steady frame replays
/// from its auto-bundles.
pub const DRAWS_PER_FRAME: u64 = (CAMERAS.len() * OBJECTS.len()) as u64;
/// Clear colour (0, 0, 0, 255 in 8-bit unorm).
pub const CLEAR: [f64; 4] = [0.0, 0.0, 0.0, 1.0];

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

/// Squares `(name, center, half size, colour)` in world units. Colours are 0 or 255 per channel,
/// so an sRGB or linear canvas shows the same bytes.
pub const OBJECTS: [(&str, [f32; 2], f32, [u8; 4]); 3] = [
    ("red", [-0.5, -0.5], 0.25, [255, 0, 0, 255]),
    ("green", [0.5, -0.5], 0.25, [0, 255, 0, 255]),
    ("blue", [0.0, 0.5], 0.25, [0, 0, 255, 255]),
];

/// Cameras `(name, offset, scale)` of the three views (clip = world × scale + offset), at rest.
pub const CAMERAS: [(&str, [f32; 2], f32); 3] = [
    ("front", [0.0, 0.0], 1.0),
    ("shifted", [0.25, 0.25], 1.0),
    ("zoomed_out", [0.0, 0.0], 0.5),
];

/// Known pixels of a steady frame `(x, y, rgba)` in canvas coordinates (y down), all at least
/// 4 pixels from any edge: inside each square of each view, and background.
pub const PROBES: [(u32, u32, [u8; 4]); 12] = [
    // front: identity camera.
    (16, 48, [255, 0, 0, 255]),
    (48, 48, [0, 255, 0, 255]),
    (32, 16, [0, 0, 255, 255]),
    (4, 4, [0, 0, 0, 255]),
    // shifted by (+0.25, +0.25): a quarter view right and up.
    (64 + 24, 40, [255, 0, 0, 255]),
    (64 + 56, 40, [0, 255, 0, 255]),
    (64 + 40, 8, [0, 0, 255, 255]),
    (64 + 16, 48, [0, 0, 0, 255]),
    // zoomed out by 2: everything half as large, towards the centre.
    (128 + 24, 40, [255, 0, 0, 255]),
    (128 + 40, 40, [0, 255, 0, 255]),
    (128 + 32, 24, [0, 0, 255, 255]),
    (128 + 16, 48, [0, 0, 0, 255]),
];

/// The camera matrix (column-major) of view `view` at frame `frame`: at rest from
/// [`ANIMATED`] on, wobbling (less and less) before.
pub fn camera(view: usize, frame: u32) -> [f32; 16] {
    let (_, [mut x, mut y], s) = CAMERAS[view];
    if frame < ANIMATED {
        let fade = 1.0 - frame as f32 / ANIMATED as f32;
        let phase = frame as f32 * 0.3 + view as f32;
        x += 0.3 * fade * phase.sin();
        y += 0.3 * fade * phase.cos();
    }
    [
        s, 0.0, 0.0, 0.0, //
        0.0, s, 0.0, 0.0, //
        0.0, 0.0, 1.0, 0.0, //
        x, y, 0.0, 1.0,
    ]
}

/// The shader, the shared camera and one draw per object.
#[derive(Debug)]
pub struct Scene {
    camera: SharedUniforms,
    draws: Vec<Draw>,
}

impl Scene {
    /// Creates the scene's shader, camera and draws on `gpu`.
    pub fn new(gpu: &Gpu) -> Result<Scene> {
        let shader = gpu.shader("web_per_pass_camera", SHADER)?;
        let camera = gpu.uniforms_labeled("camera", value! { view_projection: camera(0, 0) })?;
        let mut draws = Vec::with_capacity(OBJECTS.len());
        for (name, [x, y], h, color) in OBJECTS {
            let draw = gpu.draw(
                &shader,
                vgpu::DrawDesc {
                    label: name.into(),
                    vertex_count: Some(6),
                    ..Default::default()
                },
            )?;
            draw.set("camera", &camera)?;
            let world = [
                h, 0.0, 0.0, 0.0, //
                0.0, h, 0.0, 0.0, //
                0.0, 0.0, 1.0, 0.0, //
                x, y, 0.0, 1.0,
            ];
            let color = color.map(|c| f32::from(c) / 255.0);
            draw.set("object", value! { world: world, color: color })?;
            draws.push(draw);
        }
        Ok(Scene { camera, draws })
    }

    /// Renders frame `frame` into `target` (a canvas surface or a [`WIDTH`]×[`HEIGHT`] target):
    /// one pass per view, the first clearing, each with its viewport and its camera value.
    pub fn frame<'t>(
        &self,
        gpu: &Gpu,
        target: impl Into<PassTarget<'t>> + Copy,
        frame: u32,
    ) -> Result<FrameReport> {
        gpu.frame(|f| {
            for (view, (name, _, _)) in CAMERAS.iter().enumerate() {
                self.camera
                    .set(value! { view_projection: camera(view, frame) })?;
                let x = (view as u32 * VIEW) as f32;
                let desc =
                    PassDesc::new(target)
                        .label(name)
                        .viewport(x, 0.0, VIEW as f32, VIEW as f32);
                let desc = if view == 0 {
                    desc.clear(CLEAR)
                } else {
                    desc.load()
                };
                f.pass(desc, |p| {
                    for d in &self.draws {
                        p.draw(d)?;
                    }
                    Ok(())
                })?;
            }
            Ok(())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The page's checks, natively: the probes hold on a steady frame, and steady frames create
    /// no bind group, upload no byte and replay every draw from auto-bundles (the probes are
    /// skipped on the noop backend, which draws nothing).
    #[test]
    fn probes_and_steady_counters_hold_natively() {
        let gpu = Gpu::from_env().expect("a Gpu (VGPU_BACKEND)");
        let target = gpu.target(WIDTH, HEIGHT).unwrap();
        let scene = Scene::new(&gpu).unwrap();
        let mut reports = Vec::new();
        for frame in 0..FRAMES {
            reports.push(scene.frame(&gpu, &target, frame).unwrap());
        }
        for r in &reports[(FRAMES - CHECKED) as usize..] {
            assert_eq!(r.stats.bind_groups_created, 0, "frame {}", r.index);
            assert_eq!(r.stats.bytes_uploaded, 0, "frame {}", r.index);
            // The page's `checked.auto_bundle_draws`: steady, so replayed from auto-bundles.
            assert_eq!(
                r.stats.auto_bundle_draws, DRAWS_PER_FRAME,
                "frame {}",
                r.index
            );
        }
        if gpu.is_noop() {
            return;
        }
        let image = target.read_rgba8().unwrap();
        for (x, y, rgba) in PROBES {
            assert_eq!(image.pixel(x, y), Some(rgba), "pixel ({x}, {y})");
        }
    }

    /// The page's auto-bundle phase, natively: after the first frames, steady frames replay
    /// every draw from auto-bundles (no pass recorded directly); with auto-bundles off none
    /// does, each pass saying why; turned on again, the passes replay after warming, and a
    /// replayed frame shows the probes (skipped on noop, which draws nothing) with the steady
    /// counters still 0.
    #[test]
    fn steady_frames_replay_from_auto_bundles_natively() {
        let gpu = Gpu::from_env().expect("a Gpu (VGPU_BACKEND)");
        let target = gpu.target(WIDTH, HEIGHT).unwrap();
        let scene = Scene::new(&gpu).unwrap();
        for frame in 0..FRAMES {
            scene.frame(&gpu, &target, frame).unwrap();
        }
        let steady = FRAMES - 1;
        for _ in 0..TIMED {
            let r = scene.frame(&gpu, &target, steady).unwrap();
            assert_eq!(
                r.stats.auto_bundle_draws, DRAWS_PER_FRAME,
                "frame {}",
                r.index
            );
            assert!(r.direct_passes.is_empty(), "{:?}", r.direct_passes);
            assert_eq!(r.stats.bind_groups_created, 0, "frame {}", r.index);
            assert_eq!(r.stats.bytes_uploaded, 0, "frame {}", r.index);
        }
        gpu.set_auto_bundles(false);
        for _ in 0..TIMED {
            let r = scene.frame(&gpu, &target, steady).unwrap();
            assert_eq!(r.stats.auto_bundle_draws, 0, "frame {}", r.index);
            assert_eq!(r.direct_passes.len(), CAMERAS.len(), "frame {}", r.index);
            for p in &r.direct_passes {
                assert_eq!(p.reason, vgpu::DirectReason::Disabled, "{p}");
            }
        }
        gpu.set_auto_bundles(true);
        let mut last = None;
        for _ in 0..REWARM {
            last = Some(scene.frame(&gpu, &target, steady).unwrap());
        }
        let last = last.expect("REWARM > 0");
        assert_eq!(
            last.stats.auto_bundle_draws, DRAWS_PER_FRAME,
            "{:?}",
            last.direct_passes
        );
        assert_eq!(last.stats.bind_groups_created, 0);
        assert_eq!(last.stats.bytes_uploaded, 0);
        if gpu.is_noop() {
            return;
        }
        let image = target.read_rgba8().unwrap();
        for (x, y, rgba) in PROBES {
            assert_eq!(
                image.pixel(x, y),
                Some(rgba),
                "pixel ({x}, {y}) of a replayed frame"
            );
        }
    }
}
