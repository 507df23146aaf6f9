//! Bind groups on the device in change-frequency order (`state/group_order.rs`): a program whose
//! groups of library-owned values come before a group of textures or user buffers has its value
//! groups moved after it on the device (wgpu re-emits every group after the lowest changed one
//! before each draw, so per-object values before a texture group cost two group sets a draw),
//! while users keep their WGSL numbers.
//!
//! Tier 2 (vulkan and gl): draws of a scene-like shader (`@group(0)` a shared block, `@group(1)`
//! per-draw values read by both stages, `@group(2)` a value beside a texture, the texture
//! switched between draws) paint each quadrant with its own color, across the frames that
//! record a pass directly, log it and replay it from an auto-bundle, and after an in-place set;
//! an unused entry point's bindings in the moved groups do not collide; a compute whose value
//! group precedes its storage group writes what it was given; claiming a group afterwards (which
//! keeps the WGSL order) still draws right. Every device (noop included): the binding inspector
//! names the WGSL group numbers.

use vgpu::{DrawDesc, Gpu, PassDesc, RgbaImage, Texture, TextureDesc, value};

const SHADER: &str = "
struct Object { rect: vec4f, color: vec4f }
struct Tint { color: vec4f }
@group(0) @binding(0) var<uniform> tint: Tint;
@group(1) @binding(0) var<uniform> object: Object;
@group(2) @binding(0) var<uniform> gain: f32;
@group(2) @binding(1) var tex: texture_2d<f32>;
@group(1) @binding(1) var unused_tex: texture_2d<f32>;
@group(0) @binding(1) var<uniform> unused_value: vec4f;

@vertex fn vs_main(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
    let corner = vec2f(f32(i & 1u), f32((i >> 1u) & 1u));
    let p = object.rect.xy + corner * object.rect.zw;
    return vec4f(p, 0.0, 1.0);
}

@fragment fn fs_main() -> @location(0) vec4f {
    let texel = textureLoad(tex, vec2i(0, 0), 0);
    return vec4f(object.color.rgb * texel.rgb * gain + tint.color.rgb, 1.0);
}

// Not drawn: its bindings sit at (1, 1) and (0, 1), which the renumbering moves with their
// groups without colliding with the used ones.
@fragment fn fs_other() -> @location(0) vec4f {
    return textureLoad(unused_tex, vec2i(0, 0), 0) + unused_value;
}
";

/// A 1×1 `Rgba8Unorm` texture of `texel`.
fn texel_texture(gpu: &Gpu, texel: [u8; 4]) -> Texture {
    gpu.texture_with_data(
        &TextureDesc::new(1, 1, wgpu::TextureFormat::Rgba8Unorm),
        &texel,
    )
    .unwrap()
}

/// Quadrant `q` (0 top-left, 1 top-right, 2 bottom-left, 3 bottom-right) in clip space.
fn quadrant(q: usize) -> [f32; 4] {
    let x = if q.is_multiple_of(2) { -1.0 } else { 0.0 };
    let y = if q < 2 { 0.0 } else { -1.0 };
    [x, y, 1.0, 1.0]
}

/// Asserts each quadrant of the 8×8 `image` is `colors[q]` (quadrant order as [`quadrant`]).
#[track_caller]
fn assert_quadrants(image: &RgbaImage, colors: [[u8; 4]; 4], what: &str) {
    for y in 0..8 {
        for x in 0..8 {
            let q = usize::from(x >= 4) + 2 * usize::from(y >= 4);
            assert_eq!(
                image.pixel(x, y),
                Some(colors[q]),
                "{what}: pixel ({x},{y}) of quadrant {q}"
            );
        }
    }
}

/// Four draws, one per quadrant, over three groups whose values precede the texture group
/// (reordered on the device), textures alternating between draws, over five frames (direct,
/// logged, replayed from an auto-bundle) and an in-place set: each quadrant shows its draw's
/// color times its texture times the gain, plus the shared tint.
#[test]
fn reordered_groups_draw_each_value_and_texture_across_frames() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    let shader = gpu.shader("scene-like", SHADER).unwrap();
    let white = texel_texture(&gpu, [255, 255, 255, 255]);
    let red = texel_texture(&gpu, [255, 0, 0, 255]);
    let tint = gpu
        .uniforms(value! { color: [0.0, 0.0, 0.0, 0.0] })
        .unwrap();
    let colors = [
        [1.0, 0.0, 0.0, 1.0],
        [0.0, 1.0, 0.0, 1.0],
        [1.0, 1.0, 0.0, 1.0],
        [1.0, 0.0, 1.0, 1.0],
    ];
    let draws: Vec<_> = (0..4)
        .map(|q| {
            let draw = gpu
                .draw(
                    &shader,
                    DrawDesc {
                        label: format!("quadrant {q}"),
                        vertex_count: Some(4),
                        topology: wgpu::PrimitiveTopology::TriangleStrip,
                        ..Default::default()
                    },
                )
                .unwrap();
            draw.set("tint", &tint).unwrap();
            draw.set("object", value! { rect: quadrant(q), color: colors[q] })
                .unwrap();
            draw.set("gain", vgpu::Value::from(1.0f32)).unwrap();
            draw.set("tex", if q.is_multiple_of(2) { &white } else { &red })
                .unwrap();
            draw
        })
        .collect();
    let target = gpu.target(8, 8).unwrap();
    let frame = || {
        gpu.frame(|f| {
            f.pass(PassDesc::new(&target).clear([0.0, 0.0, 0.0, 1.0]), |p| {
                for d in &draws {
                    p.draw(d)?;
                }
                Ok(())
            })
        })
        .unwrap()
    };
    // white × red, red × green = black, white × yellow, red × magenta = red
    let expected = [
        [255, 0, 0, 255],
        [0, 0, 0, 255],
        [255, 255, 0, 255],
        [255, 0, 0, 255],
    ];
    let mut replayed = 0;
    for n in 0..5 {
        replayed += frame().stats.auto_bundle_draws;
        assert_quadrants(
            &target.read_rgba8().unwrap(),
            expected,
            &format!("frame {n}"),
        );
    }
    assert!(
        replayed > 0,
        "the steady frames replay an auto-bundle (so the bundle path is covered too)"
    );
    // In place: the tint (group 0, moved to slot 1) and one draw's gain (group 2, slot 0).
    tint.set(value! { color: [0.0, 0.0, 1.0, 0.0] }).unwrap();
    draws[2].set("gain", vgpu::Value::from(0.0f32)).unwrap();
    for n in 0..3 {
        frame();
        let blue = [0, 0, 255, 255];
        assert_quadrants(
            &target.read_rgba8().unwrap(),
            [[255, 0, 255, 255], blue, blue, [255, 0, 255, 255]],
            &format!("after the sets, frame {n}"),
        );
    }
    assert!(gpu.take_uncaptured_errors().is_empty());
}

/// A compute whose value group (0) precedes its storage group (1): each of two dispatches
/// writes its own value where it was told to.
#[test]
fn a_compute_with_a_value_group_first_writes_what_it_was_given() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    let shader = gpu
        .shader(
            "compute order",
            "struct Params { index: u32, value: f32 }
             @group(0) @binding(0) var<uniform> params: Params;
             @group(1) @binding(0) var<storage, read_write> out: array<f32>;
             @compute @workgroup_size(1) fn cs_main() { out[params.index] = params.value; }",
        )
        .unwrap();
    let out = gpu
        .buffer(&vgpu::BufferDesc {
            label: "out".into(),
            size: 16,
            usage: wgpu::BufferUsages::STORAGE,
        })
        .unwrap();
    let computes: Vec<_> = [(1u32, 7.0f32), (3, 9.0)]
        .iter()
        .map(|&(index, v)| {
            let k = gpu.compute(&shader, vgpu::ComputeDesc::default()).unwrap();
            k.set("params", value! { index: index, value: v }).unwrap();
            k.set("out", &out).unwrap();
            k
        })
        .collect();
    gpu.frame(|f| {
        f.compute_pass(|c| {
            for k in &computes {
                c.dispatch(k, 1, 1, 1)?;
            }
            Ok(())
        })
    })
    .unwrap();
    let words: Vec<f32> = bytemuck::pod_collect_to_vec(&out.read_blocking().unwrap());
    assert_eq!(words, [0.0, 7.0, 0.0, 9.0]);
}

/// A draw of the reordered shader claims its value group 1 afterwards (a claimed program keeps
/// the WGSL order): the caller's bind group at WGSL group 1 and vgpu's groups 0 and 2 still
/// draw the caller's color.
#[test]
fn claiming_a_group_of_a_reordered_program_still_draws() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    let shader = gpu.shader("scene-like", SHADER).unwrap();
    let draw = gpu
        .draw(
            &shader,
            DrawDesc {
                label: "claimed".into(),
                vertex_count: Some(4),
                topology: wgpu::PrimitiveTopology::TriangleStrip,
                ..Default::default()
            },
        )
        .unwrap();
    let tint = gpu
        .uniforms(value! { color: [0.0, 0.0, 0.0, 0.0] })
        .unwrap();
    draw.set("tint", &tint).unwrap();
    draw.set("gain", vgpu::Value::from(1.0f32)).unwrap();
    draw.set("tex", &texel_texture(&gpu, [255, 255, 255, 255]))
        .unwrap();
    draw.set(
        "object",
        value! { rect: [-1.0, -1.0, 2.0, 2.0], color: [1.0, 0.0, 0.0, 1.0] },
    )
    .unwrap();
    let target = gpu.target(8, 8).unwrap();
    let frame = || {
        gpu.frame(|f| f.pass(PassDesc::new(&target), |p| p.draw(&draw)))
            .unwrap();
        target.read_rgba8().unwrap()
    };
    vgpu_tests::assert_all_pixels(&frame(), [255, 0, 0, 255], "before the claim: red");

    let layout = draw.claim_group(1, false).unwrap();
    let object: [f32; 8] = [-1.0, -1.0, 2.0, 2.0, 0.0, 1.0, 0.0, 1.0];
    let buffer = gpu.device().create_buffer(&wgpu::BufferDescriptor {
        label: Some("caller object"),
        size: 32,
        usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    gpu.queue()
        .write_buffer(&buffer, 0, bytemuck::cast_slice(&object));
    let group = gpu.device().create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("caller group 1"),
        layout: &layout,
        entries: &[wgpu::BindGroupEntry {
            binding: 0,
            resource: buffer.as_entire_binding(),
        }],
    });
    draw.set_group(1, &group).unwrap();
    vgpu_tests::assert_all_pixels(&frame(), [0, 255, 0, 255], "the caller's green");
    assert!(gpu.take_uncaptured_errors().is_empty());
}

/// The binding inspector logs the WGSL group numbers of a reordered program (`object` in group
/// 1, `gain` in group 2), not the device slots.
#[test]
fn the_inspector_names_wgsl_groups() {
    vgpu_tests::each_gpu(|gpu| {
        gpu.inspect_bindings(true);
        let shader = gpu.shader("scene-like", SHADER).unwrap();
        let draw = gpu
            .draw(
                &shader,
                DrawDesc {
                    label: "inspected".into(),
                    vertex_count: Some(4),
                    ..Default::default()
                },
            )
            .unwrap();
        draw.set(
            "tint",
            &gpu.uniforms(value! { color: [0.0, 0.0, 0.0, 0.0] })
                .unwrap(),
        )
        .unwrap();
        draw.set(
            "object",
            value! { rect: [0.0, 0.0, 1.0, 1.0], color: [1.0, 1.0, 1.0, 1.0] },
        )
        .unwrap();
        draw.set("gain", vgpu::Value::from(1.0f32)).unwrap();
        draw.set("tex", &texel_texture(gpu, [255; 4])).unwrap();
        let target = gpu.target(4, 4).unwrap();
        gpu.frame(|f| f.pass(&target, |p| p.draw(&draw))).unwrap();
        let log = gpu.take_inspected();
        let group_of = |name: &str| {
            log.iter()
                .find(|b| &*b.name == name)
                .map(|b| b.group)
                .unwrap_or_else(|| panic!("{name} logged: {log:?}"))
        };
        assert_eq!(
            (group_of("tint"), group_of("object"), group_of("gain")),
            (0, 1, 2)
        );
    });
}
