//! Tier 1 (noop): every error of claimed groups (`Draw::claim_group`, `set_group`,
//! `set_group_offsets`, `create_group`, `Pass::draw_with_offsets`, and the same on `Compute`) is
//! a typed `VGPU-GROUP-…` code naming the draw and the group, returned before wgpu sees the
//! call; a rejected call changes nothing (the claim, the offsets, the bind groups created, the
//! bindings vgpu still manages), and wgpu reports no error.

#![allow(clippy::unwrap_used, reason = "an unwrap in a test is an assertion")]

use std::num::NonZeroU64;

use vgpu::{ComputeDesc, Draw, Gpu, value};

/// Group 0 vgpu's; group 1 (a uniform and a storage buffer) the one claimed.
const SHADER: &str = "
struct Style { scale: f32 }
@group(0) @binding(0) var<uniform> style: Style;
struct Params { color: vec4f }
@group(1) @binding(0) var<uniform> params: Params;
@group(1) @binding(1) var<storage, read> weights: array<f32>;
@fragment fn fs_main() -> @location(0) vec4f { return params.color * style.scale * weights[0]; }
";

fn draw(gpu: &Gpu) -> Draw {
    let draw = vgpu_tests::fullscreen(gpu, "claiming", SHADER);
    draw.set("style", value! { scale: 1.0 }).unwrap();
    draw
}

/// Asserts `result` failed with `code` and that its message names the draw; returns the message.
fn assert_code<T: std::fmt::Debug>(result: vgpu::Result<T>, code: &str) -> String {
    let e = result.expect_err(code);
    assert_eq!(e.code(), code, "{e}");
    let message = e.to_string();
    assert!(message.starts_with(code), "{message}");
    assert!(message.contains("claiming"), "names the draw: {message}");
    message
}

fn buffer(gpu: &Gpu, size: u64, usage: wgpu::BufferUsages) -> wgpu::Buffer {
    gpu.device().create_buffer(&wgpu::BufferDescriptor {
        label: Some("caller buffer"),
        size,
        usage,
        mapped_at_creation: false,
    })
}

fn entry(binding: u32, buffer: &wgpu::Buffer, size: u64) -> wgpu::BindGroupEntry<'_> {
    wgpu::BindGroupEntry {
        binding,
        resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
            buffer,
            offset: 0,
            size: NonZeroU64::new(size),
        }),
    }
}

/// The caller's buffers for group 1: `params` (16 bytes) and `weights` (one f32).
fn group_buffers(gpu: &Gpu) -> (wgpu::Buffer, wgpu::Buffer) {
    (
        buffer(gpu, 256, wgpu::BufferUsages::UNIFORM),
        buffer(gpu, 256, wgpu::BufferUsages::STORAGE),
    )
}

/// Records `draw` once into a small target.
fn record(gpu: &Gpu, draw: &Draw) -> vgpu::Result<vgpu::FrameReport> {
    let target = gpu.target(4, 4).unwrap();
    gpu.frame(|f| f.pass(&target, |p| p.draw(draw)))
}

#[test]
fn claiming_a_group_the_shader_does_not_use_is_group_unknown_and_changes_nothing() {
    let gpu = Gpu::noop();
    let draw = draw(&gpu);
    assert_code(draw.claim_group(2, false), "VGPU-GROUP-UNKNOWN");
    let message = assert_code(draw.claim_group(40, true), "VGPU-GROUP-UNKNOWN");
    assert!(message.contains("groups 0..2"), "{message}");
    // Nothing was claimed: vgpu still sets group 1, and the draw records.
    draw.set("params", value! { color: [1.0, 1.0, 1.0, 1.0] })
        .unwrap();
    draw.set("weights", &gpu_buffer(&gpu)).unwrap();
    let report = record(&gpu, &draw).unwrap();
    assert_eq!(report.stats.operations_recorded, 1);
    assert!(gpu.take_uncaptured_errors().is_empty());
}

/// A vgpu storage buffer for `weights` while group 1 is vgpu's.
fn gpu_buffer(gpu: &Gpu) -> vgpu::Buffer {
    gpu.buffer(&vgpu::BufferDesc {
        label: "weights".into(),
        size: 16,
        usage: wgpu::BufferUsages::STORAGE,
    })
    .unwrap()
}

#[test]
fn setting_a_binding_of_a_claimed_group_is_group_claimed() {
    let gpu = Gpu::noop();
    let draw = draw(&gpu);
    let weights = draw.binding("weights").unwrap();
    draw.set("params", value! { color: [1.0, 0.0, 0.0, 1.0] })
        .unwrap();
    draw.claim_group(1, false).unwrap();
    let message = assert_code(
        draw.set("params", value! { color: [1.0, 1.0, 1.0, 1.0] }),
        "VGPU-GROUP-CLAIMED",
    );
    assert!(
        message.contains("`params`") && message.contains("group 1"),
        "{message}"
    );
    // By member shorthand, through a binding resolved before the claim, and in a `set_all`.
    assert_code(
        draw.set("color", vgpu::Value::from([0.0, 1.0, 0.0, 1.0])),
        "VGPU-GROUP-CLAIMED",
    );
    assert_code(weights.set(&gpu_buffer(&gpu)), "VGPU-GROUP-CLAIMED");
    assert_code(
        draw.set_all([
            ("style", value! { scale: 2.0 }.into()),
            ("params", value! { color: [1.0, 1.0, 1.0, 1.0] }.into()),
        ]),
        "VGPU-GROUP-CLAIMED",
    );
    // vgpu's group is still vgpu's; with the caller's group attached the draw records (the
    // rolled-back `set_all` left no binding counted as unset).
    draw.set("style", value! { scale: 0.5 }).unwrap();
    let (params, storage) = group_buffers(&gpu);
    let group = draw
        .create_group(1, &[entry(0, &params, 16), entry(1, &storage, 4)])
        .unwrap();
    draw.set_group(1, &group).unwrap();
    assert_eq!(record(&gpu, &draw).unwrap().stats.operations_recorded, 1);
    assert!(gpu.take_uncaptured_errors().is_empty());
}

#[test]
fn recording_a_claimed_group_without_a_bind_group_is_group_unset() {
    let gpu = Gpu::noop();
    // A binding vgpu manages that was never set is named, not one of the claimed group.
    let unset = vgpu_tests::fullscreen(&gpu, "claiming", SHADER);
    unset.claim_group(0, false).unwrap();
    let message = assert_code(record(&gpu, &unset), "VGPU-DRAW-UNSET-BINDING");
    assert!(message.contains("`params`"), "{message}");

    let draw = draw(&gpu);
    draw.claim_group(1, true).unwrap();
    let message = assert_code(record(&gpu, &draw), "VGPU-GROUP-UNSET");
    assert!(message.contains("group 1"), "{message}");
    let (params, storage) = group_buffers(&gpu);
    let group = draw
        .create_group(1, &[entry(0, &params, 16), entry(1, &storage, 4)])
        .unwrap();
    draw.set_group(1, &group).unwrap();
    assert_eq!(record(&gpu, &draw).unwrap().stats.operations_recorded, 1);

    // Claiming again with the other offsets drops the bind group (made from the other layout).
    draw.claim_group(1, false).unwrap();
    assert_code(record(&gpu, &draw), "VGPU-GROUP-UNSET");

    // A compute's too.
    let shader = gpu
        .shader(
            "claiming compute",
            "@group(0) @binding(0) var<storage, read_write> out: array<u32>;
             @compute @workgroup_size(1) fn cs_main() { out[0] = 1u; }",
        )
        .unwrap();
    let compute = gpu
        .compute(
            &shader,
            ComputeDesc {
                label: "claiming compute".into(),
                ..Default::default()
            },
        )
        .unwrap();
    compute.claim_group(0, false).unwrap();
    let dispatch = || gpu.frame(|f| f.compute_pass(|c| c.dispatch(&compute, 1, 1, 1)));
    assert_code_any(dispatch(), "VGPU-GROUP-UNSET");
    let out = buffer(&gpu, 16, wgpu::BufferUsages::STORAGE);
    let group = compute.create_group(0, &[entry(0, &out, 4)]).unwrap();
    compute.set_group(0, &group).unwrap();
    assert_eq!(dispatch().unwrap().stats.operations_recorded, 1);
    assert!(gpu.take_uncaptured_errors().is_empty());
}

/// [`assert_code`] for an operation that is not the draw `claiming`.
fn assert_code_any<T: std::fmt::Debug>(result: vgpu::Result<T>, code: &str) {
    let e = result.expect_err(code);
    assert_eq!(e.code(), code, "{e}");
}

#[test]
fn claimed_group_calls_on_a_group_vgpu_manages_are_group_not_claimed() {
    let gpu = Gpu::noop();
    let draw = draw(&gpu);
    let layout = gpu
        .device()
        .create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: None,
            entries: &[],
        });
    let empty = gpu.device().create_bind_group(&wgpu::BindGroupDescriptor {
        label: None,
        layout: &layout,
        entries: &[],
    });
    let message = assert_code(draw.set_group(0, &empty), "VGPU-GROUP-NOT-CLAIMED");
    assert!(message.contains("set_group on group 0"), "{message}");
    assert_code(draw.set_group_offsets(1, &[]), "VGPU-GROUP-NOT-CLAIMED");
    assert_code(draw.create_group(1, &[]), "VGPU-GROUP-NOT-CLAIMED");
    assert_code(draw.set_group(3, &empty), "VGPU-GROUP-UNKNOWN");
    let target = gpu.target(4, 4).unwrap();
    assert_code(
        gpu.frame(|f| f.pass(&target, |p| p.draw_with_offsets(&draw, 0, &[0]))),
        "VGPU-GROUP-NOT-CLAIMED",
    );
    assert!(gpu.take_uncaptured_errors().is_empty());
}

#[test]
fn offsets_of_another_count_or_misaligned_are_group_offsets() {
    let gpu = Gpu::noop();
    let draw = draw(&gpu);
    draw.claim_group(1, true).unwrap();
    let align = gpu.device().limits().min_uniform_buffer_offset_alignment;
    let message = assert_code(draw.set_group_offsets(1, &[0]), "VGPU-GROUP-OFFSETS");
    assert!(message.contains("takes 2 dynamic offsets"), "{message}");
    let message = assert_code(draw.set_group_offsets(1, &[0, 4]), "VGPU-GROUP-OFFSETS");
    assert!(message.contains("not a multiple of"), "{message}");
    draw.set_group_offsets(1, &[align, 0]).unwrap();
    // In a pass: the refused draw records nothing.
    let (params, storage) = group_buffers(&gpu);
    let group = draw
        .create_group(1, &[entry(0, &params, 16), entry(1, &storage, 4)])
        .unwrap();
    draw.set_group(1, &group).unwrap();
    let target = gpu.target(4, 4).unwrap();
    let before = gpu.stats().operations_recorded;
    assert_code(
        gpu.frame(|f| f.pass(&target, |p| p.draw_with_offsets(&draw, 1, &[1, 0]))),
        "VGPU-GROUP-OFFSETS",
    );
    assert_eq!(gpu.stats().operations_recorded, before);
    // A refused claim keeps the claim as it was (dynamic: two offsets still taken).
    assert_code(draw.claim_group(5, false), "VGPU-GROUP-UNKNOWN");
    draw.set_group_offsets(1, &[0, align]).unwrap();
    // Claimed without dynamic offsets, the group takes none.
    draw.claim_group(1, false).unwrap();
    let message = assert_code(draw.set_group_offsets(1, &[0, 0]), "VGPU-GROUP-OFFSETS");
    assert!(message.contains("without dynamic offsets"), "{message}");
    draw.set_group_offsets(1, &[]).unwrap();
    assert!(gpu.take_uncaptured_errors().is_empty());
}

#[test]
fn bind_group_entries_unlike_the_layout_are_group_layout_and_create_nothing() {
    let gpu = Gpu::noop();
    let draw = draw(&gpu);
    draw.claim_group(1, false).unwrap();
    let (params, storage) = group_buffers(&gpu);
    let storage_only = buffer(&gpu, 256, wgpu::BufferUsages::STORAGE);
    let sampler = gpu
        .device()
        .create_sampler(&wgpu::SamplerDescriptor::default());
    let sampler_entry = wgpu::BindGroupEntry {
        binding: 0,
        resource: wgpu::BindingResource::Sampler(&sampler),
    };
    let before = gpu.stats().bind_groups_created;
    let cases: Vec<(Vec<wgpu::BindGroupEntry<'_>>, &str)> = vec![
        (vec![entry(0, &params, 16)], "`weights` has no entry"),
        (
            vec![
                entry(0, &params, 16),
                entry(1, &storage, 4),
                entry(5, &storage, 4),
            ],
            "@binding(5) is not in the shader's layout",
        ),
        (
            vec![entry(0, &params, 16), entry(0, &params, 16)],
            "given twice",
        ),
        (
            vec![sampler_entry, entry(1, &storage, 4)],
            "takes a buffer, the entry gives a sampler",
        ),
        (
            vec![entry(0, &storage_only, 16), entry(1, &storage, 4)],
            "without the UNIFORM usage",
        ),
        (
            vec![entry(0, &params, 8), entry(1, &storage, 4)],
            "binds 8 bytes of the buffer; the WGSL type takes 16",
        ),
    ];
    for (entries, expected) in &cases {
        let message = assert_code(draw.create_group(1, entries), "VGPU-GROUP-LAYOUT");
        assert!(message.contains(expected), "{expected}: {message}");
    }
    assert_eq!(gpu.stats().bind_groups_created, before, "nothing created");
    assert!(gpu.take_uncaptured_errors().is_empty(), "wgpu saw none");
    draw.create_group(1, &[entry(1, &storage, 4), entry(0, &params, 16)])
        .unwrap();
    assert_eq!(gpu.stats().bind_groups_created, before + 1);
}

#[test]
fn a_dynamic_claim_past_the_devices_dynamic_buffer_limit_is_group_layout() {
    let limits = wgpu::Limits {
        max_dynamic_storage_buffers_per_pipeline_layout: 0,
        ..wgpu::Limits::default()
    };
    let gpu = Gpu::from_context(vgpu::low_level::GpuContext::noop_with_limits(limits).unwrap());
    let draw = draw(&gpu);
    let message = assert_code(draw.claim_group(1, true), "VGPU-GROUP-LAYOUT");
    assert!(message.contains("1 dynamic storage buffers"), "{message}");
    // Nothing was claimed; without dynamic offsets the claim fits.
    draw.set("params", value! { color: [1.0, 1.0, 1.0, 1.0] })
        .unwrap();
    draw.claim_group(1, false).unwrap();
    assert!(gpu.take_uncaptured_errors().is_empty());
}

/// A bundle records the caller's bind group and offsets as they were: attaching another bind
/// group afterwards makes it `VGPU-BUNDLE-STALE`; the same group again, or new offsets, do not.
#[test]
fn a_bundle_of_a_claimed_draw_is_stale_once_another_bind_group_is_attached() {
    let gpu = Gpu::noop();
    let draw = draw(&gpu);
    draw.claim_group(1, false).unwrap();
    let (params, storage) = group_buffers(&gpu);
    let entries = [entry(0, &params, 16), entry(1, &storage, 4)];
    let first = draw.create_group(1, &entries).unwrap();
    draw.set_group(1, &first).unwrap();
    let target = gpu.target(4, 4).unwrap();
    let bundle = gpu
        .bundle("claimed", target.signature(), |b| b.draw(&draw))
        .unwrap();
    let replay = || gpu.frame(|f| f.pass(&target, |p| p.execute(&bundle)));
    replay().unwrap();
    draw.set_group(1, &first).unwrap();
    draw.set_group_offsets(1, &[]).unwrap();
    replay().unwrap();
    let second = draw.create_group(1, &entries).unwrap();
    draw.set_group(1, &second).unwrap();
    let e = replay().unwrap_err();
    assert_eq!(e.code(), "VGPU-BUNDLE-STALE");
    assert!(gpu.take_uncaptured_errors().is_empty());
}
