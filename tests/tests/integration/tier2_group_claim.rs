//! Tier 2 (pixels on a real device; the counters also on noop): claimed groups
//! (`Draw::claim_group`, upstream's "group claim"). A draw hands one bind group to the caller,
//! who fills it from its own uniform buffer; vgpu keeps managing the draw's other group; dynamic
//! offsets given per recorded draw select two colors of one buffer in one pass; and a static
//! frame of a claimed draw creates no bind group.

#![allow(clippy::unwrap_used, reason = "an unwrap in a test is an assertion")]

use vgpu::{Draw, Gpu, value};

/// Group 0: vgpu's (a value set with `set`); group 1: the caller's (`params`).
const TWO_GROUPS: &str = "
struct Style { scale: f32 }
@group(0) @binding(0) var<uniform> style: Style;
struct Params { color: vec4f }
@group(1) @binding(0) var<uniform> params: Params;
@fragment fn fs_main() -> @location(0) vec4f { return vec4f(params.color.rgb * style.scale, 1.0); }
";

/// One group, the caller's.
const CLAIMED: &str = "
struct Params { color: vec4f }
@group(0) @binding(0) var<uniform> params: Params;
@fragment fn fs_main() -> @location(0) vec4f { return params.color; }
";

/// A uniform buffer of the caller holding `colors`, one every `stride` bytes.
fn colors_buffer(gpu: &Gpu, colors: &[[f32; 4]], stride: u64) -> wgpu::Buffer {
    let buffer = gpu.device().create_buffer(&wgpu::BufferDescriptor {
        label: Some("caller colors"),
        size: stride * colors.len() as u64,
        usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    for (i, c) in colors.iter().enumerate() {
        gpu.queue()
            .write_buffer(&buffer, stride * i as u64, bytemuck::cast_slice(c));
    }
    buffer
}

/// The caller's bind group for group `group` of `draw`: 16 bytes of `buffer` from offset 0.
fn caller_group(draw: &Draw, group: u32, buffer: &wgpu::Buffer) -> wgpu::BindGroup {
    draw.create_group(
        group,
        &[wgpu::BindGroupEntry {
            binding: 0,
            resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                buffer,
                offset: 0,
                size: std::num::NonZeroU64::new(16),
            }),
        }],
    )
    .unwrap()
}

/// The caller's uniform buffer provides group 1 through its own bind group; vgpu still sets
/// group 0 from `set`: the pixels show the product of both.
#[test]
fn a_claimed_group_draws_from_the_callers_buffer_beside_a_managed_one() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    let draw = vgpu_tests::fullscreen(&gpu, "two groups", TWO_GROUPS);
    draw.set("style", value! { scale: 0.5 }).unwrap();
    let layout = draw.claim_group(1, false).unwrap();
    let buffer = colors_buffer(&gpu, &[[1.0, 0.0, 1.0, 1.0]], 16);
    // A bind group the caller makes with wgpu alone, from the layout handed out, works too.
    let group = gpu.device().create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("caller group"),
        layout: &layout,
        entries: &[wgpu::BindGroupEntry {
            binding: 0,
            resource: buffer.as_entire_binding(),
        }],
    });
    draw.set_group(1, &group).unwrap();
    let target = gpu.target(8, 8).unwrap();
    gpu.frame(|f| {
        f.pass(
            vgpu::PassDesc::new(&target).clear([0.0, 0.0, 0.0, 1.0]),
            |p| p.draw(&draw),
        )
    })
    .unwrap();
    let image = target.read_rgba8().unwrap();
    let px = image.pixel(3, 3).unwrap();
    assert!(
        px[0].abs_diff(128) <= 1 && px[1] == 0 && px[2].abs_diff(128) <= 1,
        "caller's magenta times vgpu's 0.5: {px:?}"
    );
    vgpu_tests::assert_all_pixels(&image, px, "one color everywhere");

    // The caller writes its buffer: the next frame shows it, with no `set` through vgpu.
    gpu.queue()
        .write_buffer(&buffer, 0, bytemuck::cast_slice(&[0.0f32, 1.0, 0.0, 1.0]));
    draw.set("style", value! { scale: 1.0 }).unwrap();
    gpu.frame(|f| f.pass(&target, |p| p.draw(&draw))).unwrap();
    let image = target.read_rgba8().unwrap();
    vgpu_tests::assert_all_pixels(&image, [0, 255, 0, 255], "the caller's new green");
    assert!(gpu.take_uncaptured_errors().is_empty());
}

/// One draw recorded twice in one pass with other dynamic offsets of its claimed group: the
/// left half shows the color at offset 0, the right half the color one alignment further.
#[test]
fn dynamic_offsets_per_draw_select_two_colors_in_one_pass() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    let draw = vgpu_tests::fullscreen(&gpu, "claimed dynamic", CLAIMED);
    draw.claim_group(0, true).unwrap();
    let align = u64::from(gpu.device().limits().min_uniform_buffer_offset_alignment);
    let buffer = colors_buffer(&gpu, &[[1.0, 0.0, 0.0, 1.0], [0.0, 0.0, 1.0, 1.0]], align);
    draw.set_group(0, &caller_group(&draw, 0, &buffer)).unwrap();
    let target = gpu.target(8, 8).unwrap();
    let report = gpu
        .frame(|f| {
            f.pass(
                vgpu::PassDesc::new(&target).clear([0.0, 0.0, 0.0, 1.0]),
                |p| {
                    p.set_scissor(0, 0, 4, 8);
                    p.draw_with_offsets(&draw, 0, &[0])?;
                    p.set_scissor(4, 0, 4, 8);
                    p.draw_with_offsets(&draw, 0, &[align as u32])
                },
            )
        })
        .unwrap();
    assert_eq!(report.stats.operations_recorded, 2);
    let image = target.read_rgba8().unwrap();
    for y in 0..8 {
        for x in 0..8 {
            let expected = if x < 4 {
                [255, 0, 0, 255]
            } else {
                [0, 0, 255, 255]
            };
            assert_eq!(image.pixel(x, y), Some(expected), "pixel ({x},{y})");
        }
    }
    assert!(gpu.take_uncaptured_errors().is_empty());
}

/// Frames after the first of a draw with a claimed group (and a managed one) create no bind
/// group and no pipeline, and set the caller's group once per pass.
#[test]
fn a_static_frame_with_a_claimed_group_creates_no_bind_groups() {
    vgpu_tests::each_gpu(|gpu| {
        // The direct path's sets are counted: auto-bundles (which would replay them) are off.
        gpu.set_auto_bundles(false);
        let draw = vgpu_tests::fullscreen(gpu, "static claimed", TWO_GROUPS);
        draw.set("style", value! { scale: 1.0 }).unwrap();
        draw.claim_group(1, false).unwrap();
        let buffer = colors_buffer(gpu, &[[0.0, 1.0, 1.0, 1.0]], 16);
        draw.set_group(1, &caller_group(&draw, 1, &buffer)).unwrap();
        let target = gpu.target(4, 4).unwrap();
        let frame = || {
            gpu.frame(|f| {
                f.pass(&target, |p| {
                    p.draw(&draw)?;
                    p.draw(&draw)
                })
            })
            .unwrap()
        };
        frame();
        for _ in 0..3 {
            let report = frame();
            assert_eq!(report.stats.bind_groups_created, 0, "a static frame");
            assert_eq!(report.stats.pipelines_created, 0, "a static frame");
            assert_eq!(report.stats.operations_recorded, 2);
            // Two groups for the first draw; the second finds both bound.
            assert_eq!(report.stats.set_bind_group_calls, 2);
        }
        if !gpu.is_noop() {
            let image = target.read_rgba8().unwrap();
            vgpu_tests::assert_all_pixels(&image, [0, 255, 255, 255], "the caller's cyan");
        }
    });
}

/// A compute claims its storage group with dynamic offsets: two dispatches of one compute write
/// two slices of the caller's buffer, the bytes between them untouched.
#[test]
fn a_compute_writes_two_slices_of_the_callers_buffer_by_offset() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    let shader = gpu
        .shader(
            "claimed compute",
            "@group(0) @binding(0) var<storage, read_write> out: array<u32, 4>;
             @compute @workgroup_size(4) fn cs_main(@builtin(local_invocation_index) i: u32) {
                 out[i] = out[i] + i + 1u;
             }",
        )
        .unwrap();
    let compute = gpu
        .compute(
            &shader,
            vgpu::ComputeDesc {
                label: "claimed compute".into(),
                ..Default::default()
            },
        )
        .unwrap();
    compute.claim_group(0, true).unwrap();
    let align = gpu.device().limits().min_storage_buffer_offset_alignment;
    let out = gpu
        .buffer_init(
            "slices",
            &vec![0u8; 2 * align as usize],
            wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
        )
        .unwrap();
    let group = compute
        .create_group(
            0,
            &[wgpu::BindGroupEntry {
                binding: 0,
                resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                    buffer: out.raw(),
                    offset: 0,
                    size: std::num::NonZeroU64::new(16),
                }),
            }],
        )
        .unwrap();
    compute.set_group(0, &group).unwrap();
    gpu.frame(|f| {
        f.compute_pass(|c| {
            c.dispatch_with_offsets(&compute, 0, &[0], 1, 1, 1)?;
            c.dispatch_with_offsets(&compute, 0, &[align], 1, 1, 1)?;
            // The offset stays for the next dispatch: the second slice again.
            c.dispatch(&compute, 1, 1, 1)
        })
    })
    .unwrap();
    let words: Vec<u32> = bytemuck::pod_collect_to_vec(&out.read_blocking().unwrap());
    let second = align as usize / 4;
    assert_eq!(words[..4], [1, 2, 3, 4], "first slice");
    assert!(words[4..second].iter().all(|w| *w == 0), "between");
    assert_eq!(
        words[second..second + 4],
        [2, 4, 6, 8],
        "second slice, twice"
    );
    assert!(gpu.take_uncaptured_errors().is_empty());
}
