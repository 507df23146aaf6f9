//! The upstream bug report (`seeds/003`, vgpu#483 and its rc.1 follow-up) as regression tests.
//!
//! Counters come from wgpu's noop device (tier 1: everything validates and counts, nothing
//! executes); pixels come from a real device (tier 2: `VGPU_BACKEND=vulkan` or `=gl`; the tier-2
//! tests return early on `noop`).
//!
//! | upstream claim | tests |
//! |---|---|
//! | (a) struct mode rebuilds every bind group every frame | `a_*` |
//! | (b) unchanged values are re-copied and re-uploaded every frame (250 KB/frame) | `b_*` |
//! | (c) a shared block set between two passes: each pass sees its own value | `c_*` |
//! | (d) frame-end eviction is O(captures × cache entries) | `d_*` |
//! | (e) `{ buffer: gpuBuffer }` for `var<uniform>` | `e_*` |
//! | (f) bundles keep captured buffers alive; replays see live values | `f_*` |
//! | (g) a warm unchanged frame does no extra work | `g_*` |

use std::num::NonZeroU64;

use vgpu::{
    Bind, Buffer, BufferDesc, Draw, DrawDesc, FrameReport, Gpu, PassDesc, SharedUniforms,
    StatsSnapshot, Target, TargetDesc, value,
};
use vgpu_examples::mat4::{self, Mat4};

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

/// A full-target triangle painted with a color read from a uniform buffer.
const PAINT_SHADER: &str = "
struct Paint { color: vec4f }
@group(0) @binding(0) var<uniform> paint: Paint;
@vertex fn vs_main(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
    var p = array<vec2f, 3>(vec2f(-1.0, -1.0), vec2f(3.0, -1.0), vec2f(-1.0, 3.0));
    return vec4f(p[i], 0.0, 1.0);
}
@fragment fn fs_main() -> @location(0) vec4f { return paint.color; }
";

/// A square of half-size 0.4 moved by camera and object, painted from a uniform buffer
/// (library-owned or user-owned, per draw).
const QUAD_SHADER: &str = "
struct Frame { view_projection: mat4x4f }
struct Object { world: mat4x4f }
struct Paint { color: vec4f }
@group(0) @binding(0) var<uniform> frame: Frame;
@group(1) @binding(0) var<uniform> object: Object;
@group(1) @binding(1) var<uniform> paint: Paint;
@vertex fn vs_main(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
    var p = array<vec2f, 6>(vec2f(-0.4, -0.4), vec2f(0.4, -0.4), vec2f(0.4, 0.4),
                            vec2f(-0.4, -0.4), vec2f(0.4, 0.4), vec2f(-0.4, 0.4));
    return frame.view_projection * object.world * vec4f(p[i], 0.0, 1.0);
}
@fragment fn fs_main() -> @location(0) vec4f { return paint.color; }
";

const WHITE: [u8; 4] = [255, 255, 255, 255];
const CLEAR: [u8; 4] = [0, 0, 0, 0];

/// A distinct world matrix per object (a translation, so every object packs differently).
fn world(i: usize) -> Mat4 {
    mat4::translate([i as f32 * 0.001, 0.0, 0.0])
}

/// Two distinct cameras (shadow / main pass).
fn pass_camera(pass: usize) -> Mat4 {
    mat4::translate([0.0, pass as f32 * 0.25, 0.0])
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
            .uniforms_labeled("camera", value! { view_projection: mat4::IDENTITY })
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
                        draws[i].set("object", value! { world: mat4::mul(&world(i), &mat4::scale([1.0, 1.0, k as f32])) })?;
                    }
                    Scenario::AllChange => {
                        for (i, d) in draws.iter().enumerate() {
                            d.set("object", value! { world: mat4::mul(&world(i), &mat4::scale([1.0, 1.0, k as f32])) })?;
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
                            camera.set(value! { view_projection: mat4::IDENTITY })?
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

// ---------------------------------------------------------------------------------------------
// (a) idiomatic struct mode: 0 bind groups per steady frame at 1000 draws × 2 passes.
// ---------------------------------------------------------------------------------------------

#[test]
fn a_struct_mode_makes_no_bind_groups_in_steady_frames_at_1000_draws_2_passes() {
    for scenario in [
        Scenario::Static,
        Scenario::ResetIdentical,
        Scenario::PerPassCamera,
        Scenario::OneChanges,
        Scenario::AllChange,
    ] {
        let gpu = Gpu::noop();
        let mut scene = SeedScene::new(&gpu, SEED_SHADER, 1000, 2);
        let first = scene.frame(scenario);
        // Even the first frame makes bind groups per (layout, page), never per draw (the
        // upstream made 2 per draw: 4000 per frame).
        let pages = gpu.uniform_gauges().pages as u64;
        assert!(pages >= 1);
        assert!(
            first.stats.bind_groups_created <= 2 * pages,
            "{scenario:?}: first frame made {} bind groups for {pages} pages",
            first.stats.bind_groups_created
        );
        for (i, r) in scene.steady(scenario, 2, 5).iter().enumerate() {
            assert_eq!(r.stats.operations_recorded, 2000, "{scenario:?}");
            assert_eq!(
                r.stats.bind_groups_created, 0,
                "{scenario:?}: steady frame {i}: {:?}",
                r.stats
            );
            assert_eq!(r.stats.buffers_created, 0, "{scenario:?}: frame {i}");
            assert_eq!(r.stats.cache_misses, 0, "{scenario:?}: frame {i}");
        }
        assert!(gpu.take_uncaptured_errors().is_empty());
    }
}

#[test]
fn a_bind_groups_are_set_once_per_group_change_not_per_draw() {
    // The camera group is identical for every draw of a pass: after the first draw its
    // `set_bind_group` is skipped; the object group changes offset per draw.
    let gpu = Gpu::noop();
    let mut scene = SeedScene::new(&gpu, SEED_SHADER, 1000, 2);
    let r = scene.steady(Scenario::Static, 2, 1).remove(0);
    assert_eq!(r.stats.set_bind_group_calls, 2 * (1 + 1000));
    assert_eq!(r.stats.set_bind_group_skipped, 2 * 999);
    assert_eq!(r.stats.set_pipeline_calls, 2);
}

// ---------------------------------------------------------------------------------------------
// (b) nothing changed: 0 bytes, 0 write calls (also when identical values are re-set).
// ---------------------------------------------------------------------------------------------

#[test]
fn b_unchanged_values_upload_nothing_even_when_reset_every_frame() {
    for scenario in [
        Scenario::Static,
        Scenario::ResetIdentical,
        Scenario::PerPassCamera,
    ] {
        let gpu = Gpu::noop();
        let mut scene = SeedScene::new(&gpu, SEED_SHADER, 1000, 2);
        let first = scene.frame(scenario);
        // The first frame uploads each value once: 1000 objects + the camera value(s), each
        // at most one 256-byte aligned slot; never once per draw per pass.
        let values = 1000
            + if scenario == Scenario::PerPassCamera {
                2
            } else {
                1
            };
        assert!(first.stats.bytes_uploaded >= values * 64, "{first:?}");
        assert!(first.stats.bytes_uploaded <= values * 256, "{first:?}");
        let rev = scene.camera.revision();
        for r in scene.steady(scenario, 2, 5) {
            assert_zero_work(&r.stats, &format!("{scenario:?} steady frame"));
        }
        if scenario != Scenario::PerPassCamera {
            assert_eq!(
                scene.camera.revision(),
                rev,
                "{scenario:?}: identical sets must not bump the revision"
            );
        }
    }
}

#[test]
fn b_one_change_uploads_one_aligned_struct_in_one_write() {
    let gpu = Gpu::noop();
    let mut scene = SeedScene::new(&gpu, SEED_SHADER, 1000, 2);
    for r in scene.steady(Scenario::OneChanges, 2, 5) {
        assert_eq!(r.stats.write_calls, 1, "{:?}", r.stats);
        assert!(
            (64..=256).contains(&r.stats.bytes_uploaded),
            "{:?}",
            r.stats
        );
        assert_eq!(r.stats.bind_groups_created, 0);
        assert_eq!(r.stats.buffers_created, 0);
    }
}

// ---------------------------------------------------------------------------------------------
// (c) a shared block set to A, pass 1, set to B, pass 2: each target shows its own value.
// ---------------------------------------------------------------------------------------------

/// 32×32 pixels: a triangle moved to x = −0.5 covers pixel (8, 17); moved to +0.5, (24, 17).
const LEFT: (u32, u32) = (8, 17);
const RIGHT: (u32, u32) = (24, 17);

fn assert_pixel(target: &Target, at: (u32, u32), want: [u8; 4], what: &str) {
    let image = target.read_rgba8().expect("read back");
    assert_eq!(image.pixel(at.0, at.1), Some(want), "{what} at {at:?}");
}

#[test]
fn c_shared_block_changed_between_passes_each_pass_sees_its_value() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    let shader = gpu.shader("triangle", TRIANGLE_SHADER).expect("shader");
    let camera = gpu
        .uniforms(value! { view_projection: mat4::IDENTITY })
        .expect("camera");
    // Several draws, so each pass binds the block many times at its own value.
    let draws: Vec<Draw> = (0..16)
        .map(|i| {
            let d = gpu
                .draw(
                    &shader,
                    DrawDesc {
                        label: format!("triangle {i}"),
                        ..Default::default()
                    },
                )
                .expect("draw");
            d.set("frame", &camera).expect("frame");
            d.set("object", value! { world: mat4::IDENTITY })
                .expect("object");
            d
        })
        .collect();
    let targets = [
        gpu.target(32, 32).expect("t1"),
        gpu.target(32, 32).expect("t2"),
    ];
    let a = mat4::translate([-0.5, 0.0, 0.0]);
    let b = mat4::translate([0.5, 0.0, 0.0]);
    let render = |first: &Mat4, second: &Mat4| -> FrameReport {
        let r = gpu
            .frame(|f| {
                for (target, vp) in targets.iter().zip([first, second]) {
                    camera.set(value! { view_projection: *vp })?;
                    f.pass(target, |p| {
                        for d in &draws {
                            p.draw(d)?;
                        }
                        Ok(())
                    })?;
                }
                Ok(())
            })
            .expect("frame");
        gpu.wait_idle().expect("wait");
        r
    };
    let check = |first: (u32, u32), second: (u32, u32), what: &str| {
        assert_pixel(&targets[0], first, WHITE, &format!("{what}: pass 1"));
        assert_pixel(&targets[0], second, CLEAR, &format!("{what}: pass 1"));
        assert_pixel(&targets[1], second, WHITE, &format!("{what}: pass 2"));
        assert_pixel(&targets[1], first, CLEAR, &format!("{what}: pass 2"));
    };
    render(&a, &b);
    check(LEFT, RIGHT, "first frame");
    // Steady state: both values resident in retained slots, nothing uploaded, still correct.
    for _ in 0..3 {
        let r = render(&a, &b);
        assert_eq!(r.stats.bytes_uploaded, 0, "{:?}", r.stats);
        assert_eq!(r.stats.bind_groups_created, 0);
    }
    check(LEFT, RIGHT, "steady frame");
    // Swapped order: the first value bound in a frame takes the block's home slot (DESIGN
    // §3.3), so the swap costs at most one upload per value; each pass still sees its own value,
    // and the swapped order settles to no upload again.
    let r = render(&b, &a);
    assert!(r.stats.bytes_uploaded <= 2 * 256, "{:?}", r.stats);
    check(RIGHT, LEFT, "swapped order");
    for _ in 0..2 {
        let r = render(&b, &a);
        assert_eq!(r.stats.bytes_uploaded, 0, "{:?}", r.stats);
    }
    check(RIGHT, LEFT, "swapped order, steady");
    // The block keeps the last value set after the frame.
    let r = render(&a, &a);
    for t in &targets {
        assert_pixel(t, LEFT, WHITE, "same value in both passes");
        assert_pixel(t, RIGHT, CLEAR, "same value in both passes");
    }
    assert_eq!(r.stats.bind_groups_created, 0);
    assert!(gpu.take_uncaptured_errors().is_empty());
}

/// A triangle draw bound to an identity camera block (kept alive by the caller).
fn triangle_draw(gpu: &Gpu) -> (Draw, SharedUniforms) {
    let shader = gpu.shader("triangle", TRIANGLE_SHADER).expect("shader");
    let camera = gpu
        .uniforms(value! { view_projection: mat4::IDENTITY })
        .expect("camera");
    let d = gpu.draw(&shader, DrawDesc::default()).expect("draw");
    d.set("frame", &camera).expect("frame");
    (d, camera)
}

#[test]
fn c_value_set_between_two_draws_of_one_pass_is_seen_per_draw() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    let (d, _camera) = triangle_draw(&gpu);
    let target = gpu.target(32, 32).expect("target");
    for _ in 0..2 {
        gpu.frame(|f| {
            f.pass(&target, |p| {
                d.set(
                    "object",
                    value! { world: mat4::translate([-0.5, 0.0, 0.0]) },
                )?;
                p.draw(&d)?;
                d.set("object", value! { world: mat4::translate([0.5, 0.0, 0.0]) })?;
                p.draw(&d)
            })
        })
        .expect("frame");
    }
    assert_pixel(&target, LEFT, WHITE, "first draw");
    assert_pixel(&target, RIGHT, WHITE, "second draw");
    assert_pixel(&target, (16, 2), CLEAR, "background");
}

/// A draw recorded from its memo (its value unchanged since the last frame: not resolved
/// again), then its value set in the same pass and the draw recorded again: the first draw
/// keeps the old value (the set must not overwrite the slot the memo bound), the second sees
/// the new one. Frames alternate: a static frame (one draw), then such a frame; the value is
/// set back between frames (straight to its home slot).
#[test]
fn c_value_set_after_a_memoized_draw_of_one_pass_is_seen_per_draw() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    let (d, _camera) = triangle_draw(&gpu);
    let left = value! { world: mat4::translate([-0.5, 0.0, 0.0]) };
    let right = value! { world: mat4::translate([0.5, 0.0, 0.0]) };
    d.set("object", &left).expect("object");
    let target = gpu.target(32, 32).expect("target");
    for frame in 0..6 {
        let change = frame % 2 == 1;
        gpu.frame(|f| {
            f.pass(&target, |p| {
                p.draw(&d)?;
                if change {
                    d.set("object", &right)?;
                    p.draw(&d)?;
                }
                Ok(())
            })
        })
        .expect("frame");
        let what = format!("frame {frame}");
        assert_pixel(&target, LEFT, WHITE, &format!("{what}: first draw"));
        let right_pixel = if change { WHITE } else { CLEAR };
        assert_pixel(&target, RIGHT, right_pixel, &format!("{what}: second draw"));
        assert_pixel(&target, (16, 2), CLEAR, &format!("{what}: background"));
        d.set("object", &left).expect("object");
    }
}

// ---------------------------------------------------------------------------------------------
// (d) frame-end work does not grow with cache size × captures.
// ---------------------------------------------------------------------------------------------

/// Per-frame deltas of the seed scene at `n` draws × 2 passes (after warm-up).
fn seed_deltas(n: usize, scenario: Scenario) -> Vec<StatsSnapshot> {
    let gpu = Gpu::noop();
    let mut scene = SeedScene::new(&gpu, SEED_SHADER, n, 2);
    let out = scene
        .steady(scenario, 3, 4)
        .into_iter()
        .map(|r| r.stats)
        .collect();
    assert!(gpu.take_uncaptured_errors().is_empty());
    out
}

/// The per-frame counters that must not depend on the number of draws.
fn frame_end_work(s: &StatsSnapshot) -> [(&'static str, u64); 9] {
    [
        ("bind_groups_created", s.bind_groups_created),
        ("buffers_created", s.buffers_created),
        ("write_calls", s.write_calls),
        ("bytes_uploaded", s.bytes_uploaded),
        ("slots_captured", s.slots_captured),
        ("pages_created", s.pages_created),
        ("cache_misses", s.cache_misses),
        ("cache_evictions", s.cache_evictions),
        ("cache_eviction_visits", s.cache_eviction_visits),
    ]
}

#[test]
fn d_frame_end_work_is_the_same_at_1k_and_3k_draws() {
    for scenario in [
        Scenario::Static,
        Scenario::ResetIdentical,
        Scenario::PerPassCamera,
        Scenario::OneChanges,
    ] {
        let small = seed_deltas(1000, scenario);
        let large = seed_deltas(3000, scenario);
        for (s, l) in small.iter().zip(&large) {
            assert_eq!(s.operations_recorded * 3, l.operations_recorded);
            assert_eq!(s.cache_eviction_visits, 0, "{scenario:?} at 1k: {s:?}");
            assert_eq!(s.cache_evictions, 0, "{scenario:?} at 1k");
            assert_eq!(s.bind_groups_created, 0, "{scenario:?} at 1k");
            assert_eq!(
                frame_end_work(s),
                frame_end_work(l),
                "{scenario:?}: 1k vs 3k draws"
            );
        }
    }
}

#[test]
fn d_all_change_work_is_proportional_to_what_changed() {
    let small = seed_deltas(1000, Scenario::AllChange);
    let large = seed_deltas(3000, Scenario::AllChange);
    for (s, l) in small.iter().zip(&large) {
        assert_eq!(s.bind_groups_created, 0);
        assert_eq!(l.bind_groups_created, 0);
        assert_eq!((s.cache_evictions, s.cache_eviction_visits), (0, 0));
        assert_eq!((l.cache_evictions, l.cache_eviction_visits), (0, 0));
        assert_eq!(
            s.bytes_uploaded * 3,
            l.bytes_uploaded,
            "bytes scale with the number of changed values"
        );
        assert!(s.bytes_uploaded >= 1000 * 64 && s.bytes_uploaded <= 1000 * 256);
        // Coalesced: at most one write per dirty page, never one per value.
        let pages = 1000 * 256 / (64 * 1024) + 1;
        assert!(s.write_calls <= pages as u64, "{s:?}");
        assert!(l.write_calls <= 3 * pages as u64, "{l:?}");
    }
}

/// The buffer-mode scene with one user buffer replaced (and the old one destroyed) per frame:
/// destroying a resource evicts exactly the bind groups that used it.
fn replaced_buffer_deltas(n: usize) -> Vec<StatsSnapshot> {
    let gpu = Gpu::noop();
    let shader = gpu.shader("seed.wgsl", SEED_SHADER).expect("shader");
    let uniform = |label: String, m: &Mat4| -> Buffer {
        gpu.buffer_init(&label, bytemuck::cast_slice(m), wgpu::BufferUsages::UNIFORM)
            .expect("buffer")
    };
    let camera = uniform("camera".into(), &mat4::IDENTITY);
    let mut objects: Vec<Buffer> = (0..n)
        .map(|i| uniform(format!("object {i}"), &world(i)))
        .collect();
    let draws: Vec<Draw> = (0..n)
        .map(|i| {
            let d = gpu.draw(&shader, DrawDesc::default()).expect("draw");
            d.set("frame", &camera).expect("frame");
            d.set("object", &objects[i]).expect("object");
            d
        })
        .collect();
    let target = gpu.target(8, 8).expect("target");
    let mut out = Vec::new();
    for k in 0..7 {
        let before = gpu.stats();
        if k > 0 {
            let i = (k * 7) % n;
            let fresh = uniform(format!("object {i} v{k}"), &world(i));
            draws[i].set("object", &fresh).expect("rebind");
            std::mem::replace(&mut objects[i], fresh).destroy();
        }
        gpu.frame(|f| {
            for _ in 0..2 {
                f.pass(&target, |p| {
                    for d in &draws {
                        p.draw(d)?;
                    }
                    Ok(())
                })?;
            }
            Ok(())
        })
        .expect("frame");
        gpu.wait_idle().expect("wait");
        if k >= 3 {
            out.push(gpu.stats() - before);
        }
    }
    assert!(gpu.take_uncaptured_errors().is_empty());
    out
}

#[test]
fn d_destroying_a_buffer_evicts_only_its_bind_groups_at_1k_and_3k() {
    let small = replaced_buffer_deltas(1000);
    let large = replaced_buffer_deltas(3000);
    for (s, l) in small.iter().zip(&large) {
        // One new buffer bound: one bind group; the old one destroyed: its one entry evicted.
        assert_eq!(s.bind_groups_created, 1, "{s:?}");
        assert_eq!(s.cache_evictions, 1, "{s:?}");
        assert!(s.cache_eviction_visits <= 2, "{s:?}");
        assert_eq!(frame_end_work(s), frame_end_work(l), "1k vs 3k draws");
    }
}

// ---------------------------------------------------------------------------------------------
// (e) raw wgpu buffers and buffer bindings for `var<uniform>`.
// ---------------------------------------------------------------------------------------------

fn raw_uniform(gpu: &Gpu, size: u64) -> wgpu::Buffer {
    gpu.device().create_buffer(&wgpu::BufferDescriptor {
        label: Some("raw uniform"),
        size,
        usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    })
}

fn paint_frame(gpu: &Gpu, pairs: &[(&Draw, &Target)]) {
    gpu.frame(|f| {
        for (d, t) in pairs {
            f.pass(*t, |p| p.draw(d))?;
        }
        Ok(())
    })
    .expect("frame");
}

fn assert_all(target: &Target, want: [u8; 4], what: &str) {
    let image = target.read_rgba8().expect("read back");
    assert!(
        image.data.chunks_exact(4).all(|p| p == want),
        "{what}: expected {want:?}, got {:?} at (0,0)",
        image.pixel(0, 0)
    );
}

#[test]
fn e_raw_buffer_and_buffer_binding_work_for_uniforms_live() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    let shader = gpu.shader("paint", PAINT_SHADER).expect("shader");
    let align = u64::from(gpu.context().limits().min_uniform_buffer_offset_alignment);
    let whole = raw_uniform(&gpu, 16);
    let ranged = raw_uniform(&gpu, 2 * align);
    gpu.queue()
        .write_buffer(&whole, 0, bytemuck::cast_slice(&[1.0f32, 0.0, 0.0, 1.0]));
    gpu.queue()
        .write_buffer(&ranged, 0, bytemuck::cast_slice(&[1.0f32, 1.0, 0.0, 1.0]));
    gpu.queue().write_buffer(
        &ranged,
        align,
        bytemuck::cast_slice(&[0.0f32, 1.0, 0.0, 1.0]),
    );
    let d1 = gpu.draw(&shader, DrawDesc::default()).expect("d1");
    d1.set("paint", &whole).expect("raw buffer");
    let d2 = gpu.draw(&shader, DrawDesc::default()).expect("d2");
    d2.set(
        "paint",
        wgpu::BufferBinding {
            buffer: &ranged,
            offset: align,
            size: NonZeroU64::new(16),
        },
    )
    .expect("buffer binding");
    let (t1, t2) = (gpu.target(8, 8).expect("t1"), gpu.target(8, 8).expect("t2"));
    paint_frame(&gpu, &[(&d1, &t1), (&d2, &t2)]);
    assert_all(&t1, [255, 0, 0, 255], "raw buffer");
    assert_all(&t2, [0, 255, 0, 255], "buffer binding at offset");
    // Bound by identity: writes to the user's buffers are seen by the next frame.
    gpu.queue()
        .write_buffer(&whole, 0, bytemuck::cast_slice(&[0.0f32, 0.0, 1.0, 1.0]));
    gpu.queue().write_buffer(
        &ranged,
        align,
        bytemuck::cast_slice(&[1.0f32, 0.0, 1.0, 1.0]),
    );
    paint_frame(&gpu, &[(&d1, &t1), (&d2, &t2)]);
    assert_all(&t1, [0, 0, 255, 255], "raw buffer after write");
    assert_all(&t2, [255, 0, 255, 255], "buffer binding after write");
    // The user may drop their handle: the binding keeps the buffer alive.
    drop(whole);
    paint_frame(&gpu, &[(&d1, &t1)]);
    assert_all(
        &t1,
        [0, 0, 255, 255],
        "raw buffer after the handle was dropped",
    );
    assert!(gpu.take_uncaptured_errors().is_empty());
}

#[test]
fn e_raw_uniform_buffers_make_no_bind_groups_in_steady_frames() {
    let gpu = Gpu::noop();
    let shader = gpu.shader("paint", PAINT_SHADER).expect("shader");
    let align = u64::from(gpu.context().limits().min_uniform_buffer_offset_alignment);
    let raw = raw_uniform(&gpu, 100 * align);
    let draws: Vec<Draw> = (0..100u64)
        .map(|i| {
            let d = gpu.draw(&shader, DrawDesc::default()).expect("draw");
            d.set(
                "paint",
                wgpu::BufferBinding {
                    buffer: &raw,
                    offset: i * align,
                    size: NonZeroU64::new(16),
                },
            )
            .expect("binding");
            d
        })
        .collect();
    let target = gpu.target(8, 8).expect("target");
    let run = || {
        gpu.frame(|f| {
            f.pass(&target, |p| {
                for d in &draws {
                    p.draw(d)?;
                }
                Ok(())
            })
        })
        .expect("frame")
    };
    let first = run();
    assert_eq!(
        first.stats.bind_groups_created, 100,
        "one per distinct range"
    );
    for _ in 0..3 {
        assert_zero_work(&run().stats, "raw buffer ranges, steady");
    }
    // Setting the same range again is free.
    draws[0]
        .set(
            "paint",
            wgpu::BufferBinding {
                buffer: &raw,
                offset: 0,
                size: NonZeroU64::new(16),
            },
        )
        .expect("same binding");
    assert_zero_work(&run().stats, "same range re-set");
}

#[test]
fn e_invalid_raw_ranges_fail_at_set_with_a_clear_error() {
    let gpu = Gpu::noop();
    let shader = gpu.shader("paint", PAINT_SHADER).expect("shader");
    let d = gpu.draw(&shader, DrawDesc::default()).expect("draw");
    let align = u64::from(gpu.context().limits().min_uniform_buffer_offset_alignment);
    let raw = raw_uniform(&gpu, 2 * align);
    let cases = [
        (4, NonZeroU64::new(16), "offset alignment"),
        (align, NonZeroU64::new(align + 16), "range"),
        (0, NonZeroU64::new(8), "size"),
    ];
    for (offset, size, what) in cases {
        let e = d
            .set(
                "paint",
                wgpu::BufferBinding {
                    buffer: &raw,
                    offset,
                    size,
                },
            )
            .expect_err(what);
        assert_eq!(e.code(), "VGPU-SET-BUFFER-RANGE", "{what}: {e}");
        let text = e.to_string();
        assert!(text.contains("paint") && text.contains(what), "{text}");
    }
    let storage_only = gpu.device().create_buffer(&wgpu::BufferDescriptor {
        label: Some("storage only"),
        size: 16,
        usage: wgpu::BufferUsages::STORAGE,
        mapped_at_creation: false,
    });
    let e = d.set("paint", &storage_only).expect_err("usage");
    assert_eq!(e.code(), "VGPU-SET-BUFFER-RANGE");
    assert!(e.to_string().contains("UNIFORM"), "{e}");
    // Nothing was latched by the rejected sets: a value still binds.
    d.set("paint", value! { color: [1.0, 0.0, 0.0, 1.0] })
        .expect("value after rejected raw sets");
    // ... and a raw buffer on a library-owned binding is an ownership error, not a silent
    // switch (the upstream `ownershipFor` confusion).
    let ok = raw_uniform(&gpu, 16);
    let e = d.set("paint", &ok).expect_err("ownership");
    assert_eq!(e.code(), "VGPU-SET-OWNERSHIP", "{e}");
}

// ---------------------------------------------------------------------------------------------
// (f) bundles keep what they recorded alive; replays see live values.
// ---------------------------------------------------------------------------------------------

/// Quadrant centers (clip space) and the 32×32 pixel at the center of each.
const QUADRANTS: [([f32; 3], (u32, u32)); 4] = [
    ([-0.5, 0.5, 0.0], (8, 8)),
    ([0.5, 0.5, 0.0], (24, 8)),
    ([-0.5, -0.5, 0.0], (8, 24)),
    ([0.5, -0.5, 0.0], (24, 24)),
];
const COLORS: [[f32; 4]; 4] = [
    [1.0, 0.0, 0.0, 1.0],
    [0.0, 1.0, 0.0, 1.0],
    [0.0, 0.0, 1.0, 1.0],
    [1.0, 1.0, 0.0, 1.0],
];

fn rgba8(c: [f32; 4]) -> [u8; 4] {
    c.map(|x| (x * 255.0).round() as u8)
}

/// Four quads, one per quadrant, each painted through a different kind of binding: a vgpu
/// buffer, a raw wgpu buffer, a range of a vgpu buffer, a library-owned value. All bind one
/// shared camera block and their own object value.
struct Quads {
    camera: SharedUniforms,
    draws: Vec<Draw>,
    paint: Buffer,
    raw: wgpu::Buffer,
    ranged: Buffer,
}

fn quads(gpu: &Gpu) -> Quads {
    let shader = gpu.shader("quad", QUAD_SHADER).expect("shader");
    let align = u64::from(gpu.context().limits().min_uniform_buffer_offset_alignment);
    let camera = gpu
        .uniforms(value! { view_projection: mat4::IDENTITY })
        .expect("camera");
    let paint = gpu
        .buffer_init(
            "paint",
            bytemuck::cast_slice(&COLORS[0]),
            wgpu::BufferUsages::UNIFORM,
        )
        .expect("paint");
    let raw = raw_uniform(gpu, 16);
    gpu.queue()
        .write_buffer(&raw, 0, bytemuck::cast_slice(&COLORS[1]));
    let ranged = gpu
        .buffer(&BufferDesc {
            label: "ranged".into(),
            size: 2 * align,
            usage: wgpu::BufferUsages::UNIFORM,
        })
        .expect("ranged");
    ranged
        .write(align, bytemuck::cast_slice(&COLORS[2]))
        .expect("write");
    let draws: Vec<Draw> = QUADRANTS
        .iter()
        .enumerate()
        .map(|(i, (center, _))| {
            let d = gpu
                .draw(
                    &shader,
                    DrawDesc {
                        label: format!("quad {i}"),
                        vertex_count: 6,
                        ..Default::default()
                    },
                )
                .expect("draw");
            d.set("frame", &camera).expect("frame");
            d.set(
                "object",
                value! { world: mat4::mul(&mat4::translate(*center), &mat4::scale([0.5, 0.5, 1.0])) },
            )
            .expect("object");
            let paint_bind = match i {
                0 => Bind::Buffer(&paint),
                1 => Bind::RawBuffer(&raw),
                2 => Bind::BufferRange(&ranged, align, NonZeroU64::new(16)),
                _ => Bind::Value(value! { color: COLORS[3] }),
            };
            d.set("paint", paint_bind).expect("paint");
            d
        })
        .collect();
    Quads {
        camera,
        draws,
        paint,
        raw,
        ranged,
    }
}

fn replay(gpu: &Gpu, target: &Target, bundle: &vgpu::Bundle) -> FrameReport {
    let r = gpu
        .frame(|f| f.pass(target, |p| p.execute(bundle)))
        .expect("replay");
    gpu.wait_idle().expect("wait");
    r
}

fn assert_quadrants(target: &Target, colors: [[f32; 4]; 4], what: &str) {
    let image = target.read_rgba8().expect("read back");
    for (i, (_, (x, y))) in QUADRANTS.iter().enumerate() {
        assert_eq!(
            image.pixel(*x, *y),
            Some(rgba8(colors[i])),
            "{what}: quadrant {i}"
        );
    }
    assert_eq!(image.pixel(16, 16), Some(CLEAR), "{what}: between quads");
}

#[test]
fn f_bundle_keeps_draws_blocks_and_buffers_alive_after_the_user_drops_them() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    let target = gpu.target(32, 32).expect("target");
    let q = quads(&gpu);
    let bundle = gpu
        .bundle("quads", target.signature(), |b| {
            for d in &q.draws {
                b.draw(d)?;
            }
            Ok(())
        })
        .expect("bundle");
    drop(q);
    // Churn: many other values come and go, so unused capture pages get released.
    let shader = gpu.shader("quad", QUAD_SHADER).expect("shader");
    let other = gpu.target(8, 8).expect("other");
    let (pages_before, created_before) = (gpu.uniform_gauges().pages, gpu.stats().pages_created);
    let mut peak = 0;
    for round in 0..3 {
        let camera = gpu
            .uniforms(value! { view_projection: mat4::IDENTITY })
            .expect("camera");
        // Enough objects to need pages of their own at any slot alignment (3 000 × 256 B).
        let temp: Vec<Draw> = (0..3000)
            .map(|i| {
                let d = gpu.draw(&shader, DrawDesc::default()).expect("draw");
                d.set("frame", &camera).expect("frame");
                d.set("object", value! { world: world(i) }).expect("object");
                d.set("paint", value! { color: [round as f32, 0.0, 0.0, 1.0] })
                    .expect("paint");
                d
            })
            .collect();
        gpu.frame(|f| {
            f.pass(&other, |p| {
                for d in &temp {
                    p.draw(d)?;
                }
                Ok(())
            })
        })
        .expect("churn frame");
        peak = peak.max(gpu.uniform_gauges().pages);
        drop(temp);
        for _ in 0..3 {
            gpu.frame(|f| f.pass(&other, |_| Ok(())))
                .expect("empty frame");
        }
    }
    // The churn created pages, and released them again before the replay.
    assert!(
        gpu.stats().pages_created > created_before,
        "churn made pages"
    );
    assert!(peak > pages_before, "churn grew the pool");
    assert!(
        gpu.uniform_gauges().pages < peak,
        "unused pages released: {:?}",
        gpu.uniform_gauges()
    );
    gpu.wait_idle().expect("wait");
    replay(&gpu, &target, &bundle);
    assert_quadrants(&target, COLORS, "replay after the handles were dropped");
    let r = replay(&gpu, &target, &bundle);
    assert_eq!(r.stats.bind_groups_created, 0);
    assert_eq!(r.stats.bytes_uploaded, 0);
    assert_quadrants(&target, COLORS, "second replay");
    assert!(gpu.take_uncaptured_errors().is_empty());
}

#[test]
fn f_bundle_replays_see_values_set_after_recording() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    let target = gpu.target(32, 32).expect("target");
    let q = quads(&gpu);
    let bundle = gpu
        .bundle("quads", target.signature(), |b| {
            for d in &q.draws {
                b.draw(d)?;
            }
            Ok(())
        })
        .expect("bundle");
    replay(&gpu, &target, &bundle);
    assert_quadrants(&target, COLORS, "first replay");
    // New values everywhere: the camera flips the picture vertically, the user buffers are
    // written, the library-owned paint is set.
    let new = [
        [0.0, 1.0, 1.0, 1.0],
        [1.0, 0.0, 1.0, 1.0],
        [1.0, 1.0, 1.0, 1.0],
        [0.0, 0.0, 0.0, 1.0],
    ];
    let flip = mat4::scale([1.0, -1.0, 1.0]);
    q.camera
        .set(value! { view_projection: flip })
        .expect("camera");
    q.paint
        .write(0, bytemuck::cast_slice(&new[0]))
        .expect("paint");
    gpu.queue()
        .write_buffer(&q.raw, 0, bytemuck::cast_slice(&new[1]));
    let align = u64::from(gpu.context().limits().min_uniform_buffer_offset_alignment);
    q.ranged
        .write(align, bytemuck::cast_slice(&new[2]))
        .expect("ranged");
    q.draws[3]
        .set("paint", value! { color: new[3] })
        .expect("value");
    replay(&gpu, &target, &bundle);
    // Flipped vertically: quadrant 0 (top left) now shows quad 2's draw, and so on.
    assert_quadrants(
        &target,
        [new[2], new[3], new[0], new[1]],
        "replay after sets",
    );
    // A value set inside the frame, before the replay, is seen too (bundles read live).
    gpu.frame(|f| {
        q.camera.set(value! { view_projection: mat4::IDENTITY })?;
        q.draws[3].set("paint", value! { color: COLORS[3] })?;
        f.pass(&target, |p| p.execute(&bundle))
    })
    .expect("frame");
    assert_quadrants(&target, [new[0], new[1], new[2], COLORS[3]], "set in frame");
    assert!(gpu.take_uncaptured_errors().is_empty());
}

#[test]
fn f_stale_bundles_fail_instead_of_drawing_garbage() {
    let gpu = Gpu::noop();
    let target = gpu.target(32, 32).expect("target");
    let q = quads(&gpu);
    let record = || {
        gpu.bundle("quads", target.signature(), |b| {
            for d in &q.draws {
                b.draw(d)?;
            }
            Ok(())
        })
        .expect("bundle")
    };
    let bundle = record();
    // Steady replays: no work at all.
    replay(&gpu, &target, &bundle);
    assert_zero_work(&replay(&gpu, &target, &bundle).stats, "bundle replay");
    // Rebinding a draw makes the bundle stale.
    let replacement = gpu
        .buffer_init(
            "replacement",
            bytemuck::cast_slice(&COLORS[1]),
            wgpu::BufferUsages::UNIFORM,
        )
        .expect("buffer");
    q.draws[0].set("paint", &replacement).expect("rebind");
    let e = gpu
        .frame(|f| f.pass(&target, |p| p.execute(&bundle)))
        .expect_err("stale after rebind");
    assert_eq!(e.code(), "VGPU-BUNDLE-STALE", "{e}");
    assert!(e.to_string().contains("quad 0"), "{e}");
    // Re-recorded, it replays; destroying a buffer it uses makes it stale again.
    let bundle = record();
    replay(&gpu, &target, &bundle);
    replacement.destroy();
    let e = gpu
        .frame(|f| f.pass(&target, |p| p.execute(&bundle)))
        .expect_err("stale after destroy");
    assert_eq!(e.code(), "VGPU-BUNDLE-STALE", "{e}");
    assert!(e.to_string().contains("destroyed"), "{e}");
}

#[test]
fn f_block_pinned_by_a_bundle_keeps_per_pass_snapshots_for_other_draws() {
    // A camera block bound both by a bundle's draw (pinned, read live) and by an ordinary draw:
    // set to A, pass 1 draws the ordinary draw; set to B, pass 2 replays the bundle. The
    // ordinary draw was recorded while the block held A and must show A (DESIGN §3.2); the
    // bundle shows the latest value, B. In steady state nothing is uploaded.
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    let shader = gpu.shader("triangle", TRIANGLE_SHADER).expect("shader");
    let camera = gpu
        .uniforms(value! { view_projection: mat4::IDENTITY })
        .expect("camera");
    let make = || {
        let d = gpu.draw(&shader, DrawDesc::default()).expect("draw");
        d.set("frame", &camera).expect("frame");
        d.set("object", value! { world: mat4::IDENTITY })
            .expect("object");
        d
    };
    let (plain, bundled) = (make(), make());
    let targets = [
        gpu.target(32, 32).expect("t1"),
        gpu.target(32, 32).expect("t2"),
    ];
    let bundle = gpu
        .bundle("pinned", targets[1].signature(), |b| b.draw(&bundled))
        .expect("bundle");
    let a = mat4::translate([-0.5, 0.0, 0.0]);
    let b = mat4::translate([0.5, 0.0, 0.0]);
    for frame in 0..4 {
        let r = gpu
            .frame(|f| {
                camera.set(value! { view_projection: a })?;
                f.pass(&targets[0], |p| p.draw(&plain))?;
                camera.set(value! { view_projection: b })?;
                f.pass(&targets[1], |p| p.execute(&bundle))
            })
            .expect("frame");
        assert_pixel(
            &targets[0],
            LEFT,
            WHITE,
            &format!("frame {frame}: ordinary draw, A"),
        );
        assert_pixel(
            &targets[0],
            RIGHT,
            CLEAR,
            &format!("frame {frame}: ordinary draw, A"),
        );
        assert_pixel(
            &targets[1],
            RIGHT,
            WHITE,
            &format!("frame {frame}: bundle, B"),
        );
        if frame >= 2 {
            assert_eq!(r.stats.bytes_uploaded, 0, "frame {frame}: {:?}", r.stats);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// (g) a warm unchanged frame does zero extra work.
// ---------------------------------------------------------------------------------------------

const LIT_SHADER: &str = "
struct Frame { view_projection: mat4x4f }
struct Object { world: mat4x4f, color: vec4f }
@group(0) @binding(0) var<uniform> frame: Frame;
@group(1) @binding(0) var<uniform> object: Object;
@group(2) @binding(0) var shadow: texture_depth_2d;
@group(2) @binding(1) var shadow_sampler: sampler_comparison;
@group(2) @binding(2) var albedo: texture_2d<f32>;
@group(2) @binding(3) var albedo_sampler: sampler;
struct VsOut { @builtin(position) position: vec4f, @location(0) uv: vec2f }
@vertex fn vs_main(@builtin(vertex_index) i: u32) -> VsOut {
    var p = array<vec2f, 3>(vec2f(-0.5, -0.5), vec2f(0.5, -0.5), vec2f(0.0, 0.5));
    var out: VsOut;
    out.position = frame.view_projection * object.world * vec4f(p[i], 0.5, 1.0);
    out.uv = p[i] + vec2f(0.5);
    return out;
}
@fragment fn fs_main(in: VsOut) -> @location(0) vec4f {
    let lit = textureSampleCompare(shadow, shadow_sampler, in.uv, 0.5);
    return object.color * textureSample(albedo, albedo_sampler, in.uv) * (0.5 + 0.5 * lit);
}
";

const DEPTH_SHADER: &str = "
struct Frame { view_projection: mat4x4f }
struct Object { world: mat4x4f, color: vec4f }
@group(0) @binding(0) var<uniform> frame: Frame;
@group(1) @binding(0) var<uniform> object: Object;
@vertex fn vs_main(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
    var p = array<vec2f, 3>(vec2f(-0.5, -0.5), vec2f(0.5, -0.5), vec2f(0.0, 0.5));
    return frame.view_projection * object.world * vec4f(p[i], 0.25, 1.0);
}
";

const POST_EFFECT: &str = "
struct Post { gain: vec4f }
@group(0) @binding(0) var<uniform> post: Post;
@group(0) @binding(1) var scene: texture_2d<f32>;
@group(0) @binding(2) var scene_sampler: sampler;
@fragment fn fs_main(@location(0) uv: vec2f) -> @location(0) vec4f {
    return textureSample(scene, scene_sampler, uv) * post.gain;
}
";

const COMPUTE_SHADER: &str = "
struct Params { scale: f32, count: u32 }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read_write> data: array<f32>;
@compute @workgroup_size(64) fn cs_main(@builtin(global_invocation_id) id: vec3u) {
    if (id.x < params.count) { data[id.x] = f32(id.x) * params.scale; }
}
";

/// A frame that uses every kind of binding: shared blocks re-set per pass (identical values
/// every frame), per-draw values, a depth-only target sampled with a comparison sampler, a
/// texture, an effect reading a target, a compute pass with a storage buffer, a bundle.
struct Everything {
    gpu: Gpu,
    camera: SharedUniforms,
    shadow_draws: Vec<Draw>,
    lit_draws: Vec<Draw>,
    post: vgpu::Effect,
    compute: vgpu::Compute,
    bundle: vgpu::Bundle,
    shadow_map: Target,
    scene: Target,
    out: Target,
}

impl Everything {
    fn new(gpu: &Gpu) -> Everything {
        let camera = gpu
            .uniforms_labeled("camera", value! { view_projection: mat4::IDENTITY })
            .expect("camera");
        let lit = gpu.shader("lit", LIT_SHADER).expect("lit");
        let depth = gpu.shader("depth", DEPTH_SHADER).expect("depth");
        let shadow_map = gpu
            .target_with(&TargetDesc::depth_only(
                16,
                16,
                wgpu::TextureFormat::Depth32Float,
            ))
            .expect("shadow map");
        let scene = gpu
            .target_with(&TargetDesc::new(16, 16).depth(wgpu::TextureFormat::Depth32Float))
            .expect("scene");
        let out = gpu.target(16, 16).expect("out");
        let albedo = gpu
            .texture_with_data(
                &vgpu::TextureDesc {
                    label: "albedo".into(),
                    width: 2,
                    height: 2,
                    ..Default::default()
                },
                &[255; 16],
            )
            .expect("albedo");
        let shadow_sampler = gpu.sampler(&vgpu::SamplerDesc::shadow()).expect("sampler");
        let linear = gpu.sampler(&vgpu::SamplerDesc::default()).expect("sampler");
        let object = |i: usize| value! { world: world(i), color: [1.0, 0.5, 0.25, 1.0] };
        let shadow_draws: Vec<Draw> = (0..50)
            .map(|i| {
                let d = gpu.draw(&depth, DrawDesc::default()).expect("shadow draw");
                d.set("frame", &camera).expect("frame");
                d.set("object", object(i)).expect("object");
                d
            })
            .collect();
        let lit_draws: Vec<Draw> = (0..50)
            .map(|i| {
                let d = gpu.draw(&lit, DrawDesc::default()).expect("lit draw");
                d.set_all([
                    ("frame", Bind::Shared(&camera)),
                    ("object", Bind::Value(object(i))),
                    ("shadow", Bind::TargetDepth(&shadow_map)),
                    ("shadow_sampler", Bind::Sampler(&shadow_sampler)),
                    ("albedo", Bind::Texture(&albedo)),
                    ("albedo_sampler", Bind::Sampler(&linear)),
                ])
                .expect("lit bindings");
                d
            })
            .collect();
        let post = gpu.effect("post", POST_EFFECT).expect("effect");
        post.set("post", value! { gain: [1.0, 1.0, 1.0, 1.0] })
            .expect("gain");
        post.set("scene", &scene).expect("scene");
        post.set("scene_sampler", &linear).expect("sampler");
        let compute = gpu
            .compute(
                &gpu.shader("fill", COMPUTE_SHADER).expect("compute shader"),
                vgpu::ComputeDesc::default(),
            )
            .expect("compute");
        let data = gpu
            .buffer(&BufferDesc {
                label: "data".into(),
                size: 256 * 4,
                usage: wgpu::BufferUsages::STORAGE,
            })
            .expect("data");
        compute
            .set("params", value! { scale: 2.0, count: 256u32 })
            .expect("params");
        compute.set("data", &data).expect("data");
        // The bundle's draws bind the camera too: pinned by the bundle (read live there), it
        // still gives the ordinary draws of each pass their own snapshot.
        let bundle = gpu
            .bundle("lit bundle", scene.signature(), |b| {
                for d in lit_draws.iter().take(10) {
                    b.draw(d)?;
                }
                Ok(())
            })
            .expect("bundle");
        Everything {
            gpu: gpu.clone(),
            camera,
            shadow_draws,
            lit_draws,
            post,
            compute,
            bundle,
            shadow_map,
            scene,
            out,
        }
    }

    fn frame(&self) -> FrameReport {
        let r = self
            .gpu
            .frame(|f| {
                f.compute_pass(|c| c.dispatch(&self.compute, 4, 1, 1))?;
                self.camera
                    .set(value! { view_projection: mat4::scale([0.5, 0.5, 1.0]) })?;
                f.pass(PassDesc::new(&self.shadow_map).label("shadow"), |p| {
                    for d in &self.shadow_draws {
                        p.draw(d)?;
                    }
                    Ok(())
                })?;
                self.camera
                    .set(value! { view_projection: mat4::IDENTITY })?;
                f.pass(PassDesc::new(&self.scene).label("main"), |p| {
                    for d in &self.lit_draws[10..] {
                        p.draw(d)?;
                    }
                    p.execute(&self.bundle)
                })?;
                f.pass(PassDesc::new(&self.out).label("post"), |p| {
                    p.draw(&self.post)
                })
            })
            .expect("frame");
        self.gpu.wait_idle().expect("wait");
        r
    }
}

fn check_warm_frames(gpu: &Gpu) {
    let everything = Everything::new(gpu);
    for _ in 0..4 {
        everything.frame();
    }
    for i in 0..3 {
        let before = gpu.stats();
        let r = everything.frame();
        let around = gpu.stats() - before;
        assert_zero_work(&r.stats, &format!("warm frame {i} (FrameReport)"));
        assert_zero_work(&around, &format!("warm frame {i} (gpu.stats around it)"));
        assert_eq!(r.stats.submissions, 1);
        assert_eq!(r.stats.operations_recorded, 50 + 50 + 1 + 1);
    }
    assert!(gpu.take_uncaptured_errors().is_empty());
}

#[test]
fn g_warm_unchanged_frame_does_zero_extra_work_noop() {
    check_warm_frames(&Gpu::noop());
}

#[test]
fn g_warm_unchanged_frame_does_zero_extra_work_real_device() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    check_warm_frames(&gpu);
}
