//! A shared block set before each pass (a per-pass camera), bound at group 0 by draws of two
//! layouts interleaved in one pass: draws find the block's group bound by an earlier draw only
//! when it is their own bind group (same layout, same page), so each draw reads its pass's
//! camera through a group its pipeline accepts. Tier 2 reads each draw's quarter of the targets
//! back over several steady frames (the fast records, their value tokens and the pass's notes
//! of bound blocks at work); the noop device runs the same frames and checks the counters.

#![allow(clippy::unwrap_used, reason = "an unwrap in a test is an assertion")]

use vgpu::{
    Draw, DrawDesc, Gpu, Shader, SharedUniforms, StatsSnapshot, Target, Texture, TextureDesc,
    Uniform,
};
use vgpu_tests::each_gpu;

/// The bindings and vertex stage both shaders share: a quad over
/// `object.rect.x..object.rect.y` (clip space), the camera at group 0 and the object at group 1.
const COMMON_WGSL: &str = "
struct Camera { tint: vec4f }
@group(0) @binding(0) var<uniform> camera: Camera;
struct Object { rect: vec4f }
@group(1) @binding(0) var<uniform> object: Object;
@vertex fn vs_main(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
    var xs = array<f32, 6>(0.0, 1.0, 0.0, 1.0, 1.0, 0.0);
    var ys = array<f32, 6>(0.0, 0.0, 1.0, 0.0, 1.0, 1.0);
    return vec4f(mix(object.rect.x, object.rect.y, xs[i]), mix(-1.0, 1.0, ys[i]), 0.0, 1.0);
}
";

/// [`COMMON_WGSL`] drawn in `camera.tint / 255`.
fn plain_wgsl() -> String {
    format!(
        "{COMMON_WGSL}@fragment fn fs_main() -> @location(0) vec4f {{ return camera.tint / 255.0; }}\n"
    )
}

/// The same with a texture in group 0 next to the camera: another layout for the group, whose
/// single value (and only dynamic offset) is still the camera, so its draws take the fast record
/// too.
fn extra_wgsl() -> String {
    format!(
        "{COMMON_WGSL}@group(0) @binding(1) var extra: texture_2d<f32>;
@fragment fn fs_main() -> @location(0) vec4f {{
    return camera.tint / 255.0 + textureLoad(extra, vec2i(0, 0), 0);
}}
"
    )
}

#[derive(Clone, Copy, Uniform)]
struct Camera {
    tint: [f32; 4],
}

#[derive(Clone, Copy, Uniform)]
struct Object {
    rect: [f32; 4],
}

/// The texel the extra texture holds (`Rgba8Unorm`: it adds these 1/255ths).
const ADD: [u8; 4] = [1, 2, 3, 0];
const TINTS: [[f32; 4]; 2] = [[10.0, 20.0, 30.0, 255.0], [40.0, 50.0, 60.0, 255.0]];

/// Quarter `q` of the target's width, in clip space.
fn quarter(q: usize) -> [f32; 4] {
    let x0 = -1.0 + 0.5 * q as f32;
    [x0, x0 + 0.5, 0.0, 0.0]
}

fn expected(tint: [f32; 4], extra: bool) -> [u8; 4] {
    let add = if extra { ADD } else { [0; 4] };
    [0, 1, 2, 3].map(|i| tint[i] as u8 + add[i])
}

/// Checks each quarter of `target`: `tint`, plus the texel where `extra_layout(q)`.
fn check(target: &Target, tint: [f32; 4], extra_layout: impl Fn(usize) -> bool, what: &str) {
    let image = target.read_rgba8().unwrap();
    for x in 0..8u32 {
        let q = (x / 2) as usize;
        let want = expected(tint, extra_layout(q));
        for y in 0..2 {
            assert_eq!(
                image.pixel(x, y),
                Some(want),
                "{what}: pixel ({x},{y}), quarter {q}"
            );
        }
    }
}

/// One draw per quarter, each bound to `camera` and its own quarter; `shader(q)` picks its
/// shader and `extra` (bound where that shader has it) its texture.
fn quarter_draws<'s>(
    gpu: &Gpu,
    camera: &SharedUniforms,
    shader: impl Fn(usize) -> (&'s Shader, Option<&'s Texture>),
) -> Vec<Draw> {
    (0..4)
        .map(|q| {
            let (shader, extra) = shader(q);
            let draw = gpu
                .draw(
                    shader,
                    DrawDesc {
                        label: format!("quarter {q}"),
                        vertex_count: Some(6),
                        ..Default::default()
                    },
                )
                .unwrap();
            draw.set("camera", camera).unwrap();
            draw.set("object", &Object { rect: quarter(q) }).unwrap();
            if let Some(extra) = extra {
                draw.set("extra", extra).unwrap();
            }
            draw
        })
        .collect()
}

/// One frame of two passes drawing `draws` into `targets`, the camera set to `TINTS[i]` before
/// pass `i` when `per_pass`; returns the frame's counters.
fn frame(
    gpu: &Gpu,
    camera: &SharedUniforms,
    draws: &[Draw],
    targets: &[Target; 2],
    per_pass: bool,
) -> StatsSnapshot {
    let before = gpu.stats();
    gpu.frame(|f| {
        for (target, tint) in targets.iter().zip(TINTS) {
            if per_pass {
                camera.set(&Camera { tint })?;
            }
            f.pass(target, |p| draws.iter().try_for_each(|d| p.draw(d)))?;
        }
        Ok(())
    })
    .unwrap();
    gpu.stats() - before
}

#[test]
fn a_per_pass_camera_reaches_draws_of_two_layouts_interleaved() {
    each_gpu(|gpu: &Gpu| {
        // The direct path's sets are counted: auto-bundles (which would replay them) are off.
        gpu.set_auto_bundles(false);
        let plain = gpu.shader("plain", &plain_wgsl()).unwrap();
        let with_extra = gpu.shader("extra", &extra_wgsl()).unwrap();
        let camera = gpu.uniforms(&Camera { tint: TINTS[0] }).unwrap();
        let extra = gpu
            .texture_with_data(
                &TextureDesc {
                    label: "extra".into(),
                    width: 1,
                    height: 1,
                    format: wgpu::TextureFormat::Rgba8Unorm,
                    ..Default::default()
                },
                &ADD,
            )
            .unwrap();
        // Quarters 0 and 2 with the plain layout, 1 and 3 with the extra binding: recorded in
        // that order, so the layouts alternate at group 0.
        let extra_layout = |q: usize| q % 2 == 1;
        let draws = quarter_draws(gpu, &camera, |q| {
            if extra_layout(q) {
                (&with_extra, Some(&extra))
            } else {
                (&plain, None)
            }
        });
        let targets = [gpu.target(8, 2).unwrap(), gpu.target(8, 2).unwrap()];
        // Frames with the camera set before each pass, and static frames in between (where the
        // draws' records are checked and their tokens taken): a per-pass frame after a static one
        // finds each draw's token holding and the camera's group noted as bound by the draw
        // before it, which has the other layout.
        for (i, per_pass) in [true, false, false, true, false, true, true]
            .into_iter()
            .enumerate()
        {
            let d = frame(gpu, &camera, &draws, &targets, per_pass);
            if i > 0 {
                assert_eq!(d.bind_groups_created, 0, "frame {i}: {d:?}");
                // Each draw binds both groups: its group 0 layout differs from the draw
                // before it, and its object is its own.
                assert_eq!(d.set_bind_group_calls, 16, "frame {i}: {d:?}");
            }
            if !gpu.is_noop() {
                let first = if per_pass { TINTS[0] } else { TINTS[1] };
                check(
                    &targets[0],
                    first,
                    extra_layout,
                    &format!("frame {i}, first pass"),
                );
                check(
                    &targets[1],
                    TINTS[1],
                    extra_layout,
                    &format!("frame {i}, second pass"),
                );
            }
        }
    });
}

#[test]
fn draws_of_one_layout_find_the_per_pass_camera_bound() {
    // The same frames with one layout: after the first draw of each pass binds the camera's
    // new slot, the others find it bound (one group-0 set per pass, counted).
    each_gpu(|gpu: &Gpu| {
        // The direct path's sets are counted: auto-bundles (which would replay them) are off.
        gpu.set_auto_bundles(false);
        let plain = gpu.shader("plain", &plain_wgsl()).unwrap();
        let camera = gpu.uniforms(&Camera { tint: TINTS[0] }).unwrap();
        let draws = quarter_draws(gpu, &camera, |_| (&plain, None));
        let targets = [gpu.target(8, 2).unwrap(), gpu.target(8, 2).unwrap()];
        for i in 0..4 {
            let d = frame(gpu, &camera, &draws, &targets, true);
            if i > 0 {
                // Per pass: the camera once, each object once.
                assert_eq!(d.set_bind_group_calls, 2 * (1 + 4), "frame {i}: {d:?}");
                assert_eq!(d.set_bind_group_skipped, 2 * 3, "frame {i}: {d:?}");
            }
            if !gpu.is_noop() {
                check(
                    &targets[0],
                    TINTS[0],
                    |_| false,
                    &format!("frame {i}, first pass"),
                );
                check(
                    &targets[1],
                    TINTS[1],
                    |_| false,
                    &format!("frame {i}, second pass"),
                );
            }
        }
    });
}
