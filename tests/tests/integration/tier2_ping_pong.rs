//! Ping-pong pairs (issue 32, item 6): `Gpu::ping_pong` (targets) and `Gpu::ping_pong_buffers`.
//!
//! Tier 2 (vulkan and gl): ten frames of an accumulating effect (each reads `read`, writes
//! `write` = read + 1/255, then swaps) give 10/255 everywhere, with the effect's binding set once
//! (it follows each swap) and no bind group created after the second frame; a compute over a
//! buffer pair does the same (`follow_read` / `follow_write`), read back as `i + 10`.
//!
//! Tier 1 (every device): the sides' labels, the parity, `swaps`, `reset`, and that a binding
//! given the read side holds the other target after a swap (`Draw::inspect` by label).

use vgpu::{BufferDesc, ComputeDesc, Gpu, PassDesc, TargetDesc};

/// `write = read + 1/255` on every channel.
const ACCUMULATE: &str = "
@group(0) @binding(0) var src: texture_2d<f32>;
@fragment fn main(@builtin(position) pos: vec4f) -> @location(0) vec4f {
    return textureLoad(src, vec2u(pos.xy), 0) + vec4f(1.0 / 255.0);
}";

/// `dst[i] = src[i] + 1`.
const INCREMENT: &str = "
@group(0) @binding(0) var<storage, read> src: array<u32, 16>;
@group(0) @binding(1) var<storage, read_write> dst: array<u32, 16>;
@compute @workgroup_size(16) fn main(@builtin(global_invocation_id) id: vec3u) {
    dst[id.x] = src[id.x] + 1u;
}";

/// Ten steps of [`ACCUMULATE`] through a target pair, the binding set once before the first.
#[test]
fn ten_swaps_accumulate_with_no_new_bind_group_after_two_frames() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    let mut pp = gpu.ping_pong(&TargetDesc::new(8, 8).label("acc")).unwrap();
    let step = gpu.effect("accumulate", ACCUMULATE).unwrap();
    step.set("src", pp.reading()).unwrap();
    for frame in 1..=10 {
        let report = gpu
            .frame(|f| f.pass(PassDesc::new(pp.write()).label("step"), |p| p.draw(&step)))
            .unwrap();
        pp.swap().unwrap();
        if frame > 2 {
            assert_eq!(
                report.stats.bind_groups_created, 0,
                "frame {frame}: bind groups created"
            );
        }
    }
    assert_eq!(pp.swaps(), 10);
    assert_eq!(pp.parity(), 0);
    let image = pp.read().read_rgba8().unwrap();
    vgpu_tests::assert_all_pixels(&image, [10, 10, 10, 10], "after 10 swaps");
    // The other side holds step 9.
    let image = pp.write().read_rgba8().unwrap();
    vgpu_tests::assert_all_pixels(&image, [9, 9, 9, 9], "the write side");
    let errors = gpu.take_uncaptured_errors();
    assert!(errors.is_empty(), "uncaptured wgpu errors: {errors:?}");
}

/// Ten dispatches of [`INCREMENT`] through a buffer pair whose bindings follow the swaps:
/// `read` ends at `i + 10`; no bind group after the second frame.
#[test]
fn buffer_pair_feeds_a_compute_through_ten_swaps() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    let desc = BufferDesc {
        label: "cells".to_owned(),
        size: 64,
        usage: wgpu::BufferUsages::STORAGE,
    };
    let mut cells = gpu.ping_pong_buffers(&desc).unwrap();
    let seed: Vec<u32> = (0..16).collect();
    cells.read().write(0, bytemuck::cast_slice(&seed)).unwrap();
    let shader = gpu.shader("increment", INCREMENT).unwrap();
    let step = gpu.compute(&shader, ComputeDesc::default()).unwrap();
    cells.follow_read(&step.binding("src").unwrap()).unwrap();
    cells.follow_write(&step.binding("dst").unwrap()).unwrap();
    for frame in 1..=10 {
        let report = gpu
            .frame(|f| f.compute_pass(|c| c.dispatch(&step, 1, 1, 1)))
            .unwrap();
        cells.swap().unwrap();
        if frame > 2 {
            assert_eq!(
                report.stats.bind_groups_created, 0,
                "frame {frame}: bind groups created"
            );
        }
    }
    let bytes = cells.read().read_blocking().unwrap();
    let got: &[u32] = bytemuck::cast_slice(&bytes);
    let want: Vec<u32> = (10..26).collect();
    assert_eq!(got, want.as_slice(), "read side after 10 swaps");
    let errors = gpu.take_uncaptured_errors();
    assert!(errors.is_empty(), "uncaptured wgpu errors: {errors:?}");
}

/// Labels, parity, `swaps`, `reset`; a binding given the read side follows the swap: a bundle
/// recorded with its draw before the swap reports stale, naming the pair and the binding.
#[test]
fn sides_parity_reset_and_followers() {
    vgpu_tests::each_gpu(|gpu: &Gpu| {
        let mut pp = gpu.ping_pong(&TargetDesc::new(4, 4).label("sim")).unwrap();
        assert_eq!(pp.label(), "sim");
        assert_eq!(
            (pp.read().label(), pp.write().label()),
            ("sim.ping", "sim.pong")
        );
        let out = gpu.target(4, 4).unwrap();
        let step = gpu.effect("accumulate", ACCUMULATE).unwrap();
        step.set("src", pp.reading()).unwrap();
        let bundle = gpu
            .bundle("step bundle", out.signature(), |b| b.draw(&step))
            .unwrap();
        gpu.frame(|f| f.pass(&out, |p| p.execute(&bundle))).unwrap();
        pp.swap().unwrap();
        assert_eq!((pp.parity(), pp.swaps()), (1, 1));
        assert_eq!(pp.read().label(), "sim.pong");
        let err = gpu
            .frame(|f| f.pass(&out, |p| p.execute(&bundle)))
            .expect_err("stale: the binding followed the swap");
        assert_eq!(err.code(), "VGPU-BUNDLE-STALE", "{err}");
        let message = err.to_string();
        assert!(
            message.contains("ping-pong \"sim\"") && message.contains("`src`"),
            "{message}"
        );
        pp.reset().unwrap();
        assert_eq!((pp.parity(), pp.swaps()), (0, 0));
        assert_eq!(pp.read().label(), "sim.ping");
        let unnamed = gpu.ping_pong(&TargetDesc::new(4, 4)).unwrap();
        assert!(
            unnamed.read().label().ends_with(".ping"),
            "{}",
            unnamed.read().label()
        );
    });
}
