//! The upstream bug report
//! ([vercel-labs/vgpu#483](https://github.com/vercel-labs/vgpu/issues/483) and its rc.1
//! follow-up) as regression tests, one file per regression; this module holds the seed's shaders and scene that several share.
//!
//! Counters come from wgpu's noop device (tier 1: everything validates and counts, nothing
//! executes); pixels come from a real device (tier 2: `VGPU_BACKEND=vulkan` or `=gl`; the tier-2
//! tests return early on `noop`).
//!
//! | upstream claim | file | tests |
//! |---|---|---|
//! | (a) struct mode rebuilds every bind group every frame | `bind_groups_rebuilt_every_frame.rs` | `a_*` |
//! | (b) unchanged values are re-copied and re-uploaded every frame (250 KB/frame) | `unchanged_values_reuploaded.rs` | `b_*` |
//! | (c) a shared block set between two passes: each pass sees its own value | `shared_block_between_passes.rs` | `c_*` |
//! | (d) frame-end eviction is O(captures × cache entries) | `frame_end_eviction_cost.rs` | `d_*` |
//! | (e) `{ buffer: gpuBuffer }` for `var<uniform>` | `raw_buffers_for_uniforms.rs` | `e_*` |
//! | (f) bundles keep captured buffers alive; replays see live values | `bundle_lifetime_and_live_values.rs` | `f_*` |
//! | (g) a warm unchanged frame does no extra work | `warm_frame_extra_work.rs` | `g_*` |

mod bind_groups_rebuilt_every_frame;
mod bundle_lifetime_and_live_values;
mod frame_end_eviction_cost;
mod raw_buffers_for_uniforms;
mod shared_block_between_passes;
mod unchanged_values_reuploaded;
mod warm_frame_extra_work;

use glam::{Mat4, Vec3};
use vgpu::{Draw, DrawDesc, FrameReport, Gpu, SharedUniforms, StatsSnapshot, Target, value};

/// The seed's shader, verbatim but for the `snake_case` member name.
const SEED_SHADER: &str = "
struct Frame { view_projection: mat4x4f }
struct Object { world: mat4x4f }
@group(0) @binding(0) var<uniform> frame: Frame;
@group(1) @binding(0) var<uniform> object: Object;
@vertex fn vs_main() -> @builtin(position) vec4f {
    return frame.view_projection * object.world * vec4f(0.0, 0.0, 0.0, 1.0);
}
@fragment fn fs_main() -> @location(0) vec4f { return vec4f(1.0); }
";

/// The seed's shader with a visible triangle: a small triangle around the origin, moved by the
/// camera (`frame`) and the object's world matrix; white.
const TRIANGLE_SHADER: &str = "
struct Frame { view_projection: mat4x4f }
struct Object { world: mat4x4f }
@group(0) @binding(0) var<uniform> frame: Frame;
@group(1) @binding(0) var<uniform> object: Object;
@vertex fn vs_main(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
    var p = array<vec2f, 3>(vec2f(-0.25, -0.25), vec2f(0.25, -0.25), vec2f(0.0, 0.25));
    return frame.view_projection * object.world * vec4f(p[i], 0.0, 1.0);
}
@fragment fn fs_main() -> @location(0) vec4f { return vec4f(1.0); }
";

const WHITE: [u8; 4] = [255, 255, 255, 255];
const CLEAR: [u8; 4] = [0, 0, 0, 0];

/// A distinct world matrix per object (a translation, so every object packs differently).
fn world(i: usize) -> Mat4 {
    Mat4::from_translation(Vec3::new(i as f32 * 0.001, 0.0, 0.0))
}

/// Two distinct cameras (shadow / main pass).
fn pass_camera(pass: usize) -> Mat4 {
    Mat4::from_translation(Vec3::new(0.0, pass as f32 * 0.25, 0.0))
}

/// How a frame of the seed scene changes values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Scenario {
    /// Nothing is set.
    Static,
    /// The seed's repro: identical values re-set every frame (camera before each pass, object
    /// before each draw, inside the pass).
    ResetIdentical,
    /// The camera set to a different value before each pass, the same values every frame.
    PerPassCamera,
    /// One object's matrix changes per frame.
    OneChanges,
    /// Every object's matrix changes every frame.
    AllChange,
}

/// The seed's scene in struct mode: one shared camera block, `n` draws with their own `object`
/// struct value, `passes` passes into one 8×8 target.
struct SeedScene {
    gpu: Gpu,
    camera: SharedUniforms,
    draws: Vec<Draw>,
    target: Target,
    passes: usize,
    frames: u64,
}

impl SeedScene {
    fn new(gpu: &Gpu, wgsl: &str, n: usize, passes: usize) -> SeedScene {
        let shader = gpu.shader("seed.wgsl", wgsl).expect("shader");
        let camera = gpu
            .uniforms_labeled("camera", value! { view_projection: Mat4::IDENTITY })
            .expect("camera");
        let draws = (0..n)
            .map(|i| {
                let d = gpu
                    .draw(
                        &shader,
                        DrawDesc {
                            label: format!("object {i}"),
                            ..Default::default()
                        },
                    )
                    .expect("draw");
                d.set("frame", &camera).expect("frame");
                d.set("object", value! { world: world(i) }).expect("object");
                d
            })
            .collect();
        SeedScene {
            gpu: gpu.clone(),
            camera,
            draws,
            target: gpu.target(8, 8).expect("target"),
            passes,
            frames: 0,
        }
    }

    fn frame(&mut self, scenario: Scenario) -> FrameReport {
        self.frames += 1;
        let k = self.frames as usize;
        let (camera, draws, target, passes) =
            (&self.camera, &self.draws, &self.target, self.passes);
        let report = self
            .gpu
            .frame(|f| {
                match scenario {
                    Scenario::OneChanges => {
                        let i = k % draws.len();
                        draws[i].set("object", value! { world: world(i) * Mat4::from_scale(Vec3::new(1.0, 1.0, k as f32)) })?;
                    }
                    Scenario::AllChange => {
                        for (i, d) in draws.iter().enumerate() {
                            d.set("object", value! { world: world(i) * Mat4::from_scale(Vec3::new(1.0, 1.0, k as f32)) })?;
                        }
                    }
                    _ => {}
                }
                for pass in 0..passes {
                    match scenario {
                        Scenario::PerPassCamera => {
                            camera.set(value! { view_projection: pass_camera(pass) })?
                        }
                        Scenario::ResetIdentical => {
                            camera.set(value! { view_projection: Mat4::IDENTITY })?
                        }
                        _ => {}
                    }
                    f.pass(target, |p| {
                        for (i, d) in draws.iter().enumerate() {
                            if scenario == Scenario::ResetIdentical {
                                d.set("object", value! { world: world(i) })?;
                            }
                            p.draw(d)?;
                        }
                        Ok(())
                    })?;
                }
                Ok(())
            })
            .expect("frame");
        self.gpu.wait_idle().expect("wait");
        report
    }

    /// Runs `warmup` frames, then returns the reports of `frames` more.
    fn steady(&mut self, scenario: Scenario, warmup: usize, frames: usize) -> Vec<FrameReport> {
        for _ in 0..warmup {
            self.frame(scenario);
        }
        (0..frames).map(|_| self.frame(scenario)).collect()
    }
}

/// The counters that measure per-frame work (no gauges, no timings).
fn work(s: &StatsSnapshot) -> [(&'static str, u64); 12] {
    [
        ("bind_groups_created", s.bind_groups_created),
        ("bind_group_layouts_created", s.bind_group_layouts_created),
        ("buffers_created", s.buffers_created),
        ("textures_created", s.textures_created),
        ("samplers_created", s.samplers_created),
        ("shader_modules_created", s.shader_modules_created),
        ("pipelines_created", s.pipelines_created),
        ("write_calls", s.write_calls),
        ("bytes_uploaded", s.bytes_uploaded),
        ("slots_captured", s.slots_captured),
        ("pages_created", s.pages_created),
        ("plans_compiled", s.plans_compiled),
    ]
}

/// Asserts every per-frame work counter is 0, plus no cache miss or eviction.
fn assert_zero_work(s: &StatsSnapshot, what: &str) {
    for (name, v) in work(s) {
        assert_eq!(v, 0, "{what}: {name} = {v}, expected 0 ({s:?})");
    }
    assert_eq!(s.cache_misses, 0, "{what}: cache misses");
    assert_eq!(s.cache_evictions, 0, "{what}: cache evictions");
    assert_eq!(s.cache_eviction_visits, 0, "{what}: eviction visits");
}

/// 32×32 pixels: a triangle moved to x = −0.5 covers pixel (8, 17); moved to +0.5, (24, 17).
const LEFT: (u32, u32) = (8, 17);
const RIGHT: (u32, u32) = (24, 17);

fn assert_pixel(target: &Target, at: (u32, u32), want: [u8; 4], what: &str) {
    let image = target.read_rgba8().expect("read back");
    assert_eq!(image.pixel(at.0, at.1), Some(want), "{what} at {at:?}");
}

fn raw_uniform(gpu: &Gpu, size: u64) -> wgpu::Buffer {
    gpu.device().create_buffer(&wgpu::BufferDescriptor {
        label: Some("raw uniform"),
        size,
        usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    })
}
