//! Tier 1 (noop device, then the `VGPU_BACKEND` device where it says so): the frame advisor
//! (`Gpu::advisor`, `vgpu::Advisor`) gives each piece of advice when its evidence is there and
//! not otherwise: a steady pass is auto-bundled and gets no advice, a pass recorded directly in
//! most frames is named with the most frequent reason, and following that advice lets the pass
//! be replayed.
//!
//! Scenes are built through the public API; the counter-based advice is checked on real frames.
//! GPU-bound frames cannot be made on demand (the noop device measures no GPU time), so the
//! verdict and the GPU-side advice are checked on constructed reports fed to an `Advisor`.

#![allow(clippy::unwrap_used, reason = "an unwrap in a test is an assertion")]

use std::time::Duration;

use vgpu::{
    Advice, Advisor, Bound, DirectPass, DirectReason, Draw, DrawDesc, FrameReport, Gpu, PassDesc,
    SharedUniforms, Target, Texture, TextureDesc, Uniform, Verdict, value,
};

const SHADER: &str = "
struct Camera { view_projection: mat4x4f }
struct Object { world: mat4x4f, color: vec4f }
@group(0) @binding(0) var<uniform> camera: Camera;
@group(1) @binding(0) var<uniform> object: Object;
@vertex fn vs_main(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
    let p = vec4f(f32(i & 1u), f32(i >> 1u), 0.0, 1.0);
    return camera.view_projection * object.world * p;
}
@fragment fn fs_main() -> @location(0) vec4f { return object.color; }
";

const TEXTURED: &str = "
@group(0) @binding(0) var image: texture_2d<f32>;
@vertex fn vs_main(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
    return vec4f(f32(i & 1u), f32(i >> 1u), 0.0, 1.0);
}
@fragment fn fs_main() -> @location(0) vec4f { return textureLoad(image, vec2u(0u, 0u), 0); }
";

#[derive(Clone, Copy, Uniform)]
struct Object {
    world: [[f32; 4]; 4],
    color: [f32; 4],
}

fn identity() -> [[f32; 4]; 4] {
    [
        [1.0, 0.0, 0.0, 0.0],
        [0.0, 1.0, 0.0, 0.0],
        [0.0, 0.0, 1.0, 0.0],
        [0.0, 0.0, 0.0, 1.0],
    ]
}

fn object(i: usize) -> Object {
    Object {
        world: identity(),
        color: [i as f32 / 1000.0, 0.5, 0.25, 1.0],
    }
}

struct Scene {
    gpu: Gpu,
    target: Target,
    _camera: SharedUniforms,
    draws: Vec<Draw>,
}

/// `n` draws of one pipeline, each with its own object, sharing one camera.
fn scene(gpu: Gpu, n: usize) -> Scene {
    let shader = gpu.shader("advisor.wgsl", SHADER).unwrap();
    let camera = gpu
        .uniforms(value! { view_projection: identity() })
        .unwrap();
    let draws = (0..n)
        .map(|i| {
            let draw = gpu
                .draw(
                    &shader,
                    DrawDesc {
                        label: format!("object {i}"),
                        ..Default::default()
                    },
                )
                .unwrap();
            draw.set("camera", &camera).unwrap();
            draw.set("object", &object(i)).unwrap();
            draw
        })
        .collect();
    let target = gpu.target(8, 8).unwrap();
    Scene {
        gpu,
        target,
        _camera: camera,
        draws,
    }
}

impl Scene {
    /// One frame drawing the first `n` draws.
    fn frame(&self, n: usize) -> FrameReport {
        self.gpu
            .frame(|f| {
                f.pass(&self.target, |p| {
                    for d in &self.draws[..n] {
                        p.draw(d)?;
                    }
                    Ok(())
                })
            })
            .unwrap()
    }

    fn frames(&self, count: usize) {
        for _ in 0..count {
            self.frame(self.draws.len());
        }
    }

    /// One frame drawing every draw in a pass labeled "main", the order rotated by `by`.
    fn frame_rotated(&self, by: usize) -> FrameReport {
        let n = self.draws.len();
        self.gpu
            .frame(|f| {
                f.pass(PassDesc::new(&self.target).label("main"), |p| {
                    for i in 0..n {
                        p.draw(&self.draws[(i + by) % n])?;
                    }
                    Ok(())
                })
            })
            .unwrap()
    }
}

fn has(advice: &[Advice], pick: fn(&Advice) -> bool) -> bool {
    advice.iter().any(pick)
}

fn is_not_bundled(a: &Advice) -> bool {
    matches!(a, Advice::PassNotBundled { .. })
}
fn is_instancing(a: &Advice) -> bool {
    matches!(a, Advice::StorageInstancing { .. })
}
fn is_unchanged(a: &Advice) -> bool {
    matches!(a, Advice::UnchangedSets { .. })
}
fn is_bind_groups(a: &Advice) -> bool {
    matches!(a, Advice::BindGroupsInSteadyFrames { .. })
}
fn is_gpu_pass(a: &Advice) -> bool {
    matches!(a, Advice::GpuPassDominates { .. })
}

#[test]
fn a_frame_verdict_compares_cpu_recording_with_gpu_pass_time() {
    let ms = Duration::from_millis;
    let report = |encode, passes: Option<Vec<(&str, Duration)>>| FrameReport {
        encode,
        gpu_passes: passes.map(|p| p.into_iter().map(|(l, d)| (l.to_owned(), d)).collect()),
        ..Default::default()
    };
    let cpu = report(ms(4), Some(vec![("shadow", ms(1)), ("main", ms(1))])).verdict();
    assert_eq!(cpu.bound, Bound::Cpu);
    assert_eq!(cpu.gpu, Some(ms(2)));
    assert!((cpu.ratio.unwrap() - 2.0).abs() < 1e-9, "{cpu:?}");
    assert_eq!(
        cpu.to_string(),
        "CPU-bound: CPU 4.00 ms vs GPU 2.00 ms (2.0x)"
    );
    let gpu = report(ms(1), Some(vec![("main", ms(3))])).verdict();
    assert_eq!(gpu.bound, Bound::Gpu);
    assert!((gpu.ratio.unwrap() - 3.0).abs() < 1e-9, "{gpu:?}");
    let unknown = report(ms(1), None).verdict();
    assert_eq!(
        unknown,
        Verdict {
            bound: Bound::Unknown,
            cpu: ms(1),
            gpu: None,
            ratio: None
        }
    );
    // A real frame of the noop device measures no GPU time.
    let s = scene(Gpu::noop(), 4);
    let frame = s.frame(4);
    assert_eq!(frame.verdict().bound, Bound::Unknown);
    assert_eq!(frame.verdict().cpu, frame.encode);
}

#[test]
fn a_static_scene_is_auto_bundled_and_gets_no_advice() {
    let s = scene(Gpu::noop(), 64);
    // Two frames with the same draws record the bundle; the frames after replay it.
    s.frames(Advisor::MIN_FRAMES + 1);
    let last = s.frame(64);
    assert_eq!(last.stats.operations_recorded, 64);
    assert_eq!(last.stats.auto_bundle_draws, 64, "{:?}", last.stats);
    assert_eq!(last.stats.set_bind_group_calls, 0, "{:?}", last.stats);
    assert!(last.direct_passes.is_empty(), "{:?}", last.direct_passes);
    let report = s.gpu.advisor();
    assert_eq!(report.frames, Advisor::MIN_FRAMES + 2);
    // Recorded directly in the 2 warm-up frames only: nothing to say (values are not re-set,
    // no bind group is created, 64 draws are too few for instancing).
    assert!(report.advice.is_empty(), "{report}");
    assert!(
        report.top_line().starts_with("bound unknown"),
        "{}",
        report.top_line()
    );
    // Auto-bundles turned off: recorded directly in every frame, as the program chose; the
    // advisor does not report it.
    let off = scene(Gpu::noop(), 64);
    off.gpu.set_auto_bundles(false);
    off.frames(11);
    let frame = off.frame(64);
    assert_eq!(frame.stats.auto_bundle_draws, 0);
    assert_eq!(
        frame.direct_passes.first().map(|p| &p.reason),
        Some(&DirectReason::Disabled)
    );
    let report = off.gpu.advisor();
    assert!(report.advice.is_empty(), "{report}");
}

#[test]
fn a_pass_whose_draw_order_changes_is_named_and_a_stable_order_is_replayed() {
    let s = scene(Gpu::noop(), 64);
    for by in 0..12 {
        let frame = s.frame_rotated(by);
        assert_eq!(frame.stats.auto_bundle_draws, 0);
        let expected = match by {
            0 => DirectReason::Warming { frames: 2 },
            _ => DirectReason::DrawOrderChanged,
        };
        assert_eq!(
            *frame.direct_passes,
            [DirectPass {
                label: "main".into(),
                index: 0,
                reason: expected
            }]
        );
    }
    let report = s.gpu.advisor();
    let found = report.advice.iter().find(|a| is_not_bundled(a));
    assert_eq!(
        found,
        Some(&Advice::PassNotBundled {
            pass: "main".into(),
            index: 0,
            reason: "draw order changed",
            latest: DirectReason::DrawOrderChanged,
            frames: 11,
            direct: 12,
            of: 12,
            draws: 64,
        }),
        "{report}"
    );
    let found = found.unwrap();
    assert_eq!(
        found.headline(),
        "pass main: draw order changed in 11 of 12 frames"
    );
    assert_eq!(
        report.top_line(),
        "bound unknown (no GPU time measured); pass main: draw order changed in 11 of 12 frames"
    );
    let sentence = found.to_string();
    assert!(sentence.contains("pass main (#0)"), "{sentence}");
    assert!(sentence.contains("same order every frame"), "{sentence}");
    // Following it: the same order every frame. The pass is replayed from its auto-bundle:
    // the same 64 draws reach the GPU, none is recorded draw by draw.
    s.gpu.set_advisor_frames(Advisor::DEFAULT_FRAMES);
    for _ in 0..10 {
        s.frame_rotated(0);
    }
    let after = s.frame_rotated(0);
    assert_eq!(after.stats.operations_recorded, 64);
    assert_eq!(after.stats.auto_bundle_draws, 64);
    assert_eq!(after.stats.set_bind_group_calls, 0, "{:?}", after.stats);
    assert_eq!(after.stats.set_pipeline_calls, 0, "{:?}", after.stats);
    assert!(after.direct_passes.is_empty(), "{:?}", after.direct_passes);
    let report = s.gpu.advisor();
    assert!(!has(&report.advice, is_not_bundled), "{report}");
}

#[test]
fn draws_that_come_and_go_are_named_and_too_few_draws_are_not() {
    // Culling: one draw fewer each frame.
    let s = scene(Gpu::noop(), 64);
    for i in 0..12 {
        s.frame(64 - i);
    }
    let report = s.gpu.advisor();
    let found = report.advice.iter().find(|a| is_not_bundled(a));
    assert_eq!(
        found,
        Some(&Advice::PassNotBundled {
            pass: "pass".into(),
            index: 0,
            reason: "draws removed",
            latest: DirectReason::DrawsRemoved,
            frames: 11,
            direct: 12,
            of: 12,
            // The median of 64, 63, ..., 53 draws.
            draws: 59,
        }),
        "{report}"
    );
    assert!(found.unwrap().to_string().contains("come and go"));
    // Too few draws to matter: the same reason, no advice.
    let small = scene(Gpu::noop(), Advisor::BUNDLE_MIN_DRAWS as usize - 1);
    for by in 0..12 {
        assert_eq!(small.frame_rotated(by).direct_passes.len(), 1);
    }
    let report = small.gpu.advisor();
    assert!(report.advice.is_empty(), "{report}");
}

#[test]
fn many_draws_of_one_pipeline_with_their_own_values_are_advised_to_instance() {
    let s = scene(Gpu::noop(), 300);
    s.frames(9);
    // The frames after the first two are replayed from the pass's auto-bundle: they issue no
    // pipeline switch or bind-group change, and their draws keep the shape they were
    // recorded with.
    let last = s.frame(300);
    assert_eq!(last.stats.auto_bundle_draws, 300);
    assert_eq!(last.stats.set_bind_group_calls, 0, "{:?}", last.stats);
    let report = s.gpu.advisor();
    let found = report.advice.iter().find(|a| is_instancing(a));
    assert_eq!(
        found,
        Some(&Advice::StorageInstancing {
            draws: 300,
            pipelines: 1,
            frames: 10
        }),
        "{report}"
    );
    assert!(found.unwrap().to_string().contains("instancing_storage"));
    // The same draws sharing one value (no bind-group change per draw): no instancing advice.
    let shared = scene(Gpu::noop(), 300);
    let one = shared
        .gpu
        .uniforms_labeled("one object", &object(0))
        .unwrap();
    for d in &shared.draws {
        d.set("object", &one).unwrap();
    }
    shared.frames(10);
    let report = shared.gpu.advisor();
    assert!(!has(&report.advice, is_instancing), "{report}");
    // Fewer draws than the threshold: none.
    let few = scene(Gpu::noop(), 100);
    few.frames(10);
    assert!(!has(&few.gpu.advisor().advice, is_instancing));
}

#[test]
fn values_re_set_to_the_bytes_they_hold_are_reported_and_changed_ones_are_not() {
    let s = scene(Gpu::noop(), 40);
    for frame in 0..10 {
        for (i, d) in s.draws.iter().enumerate() {
            d.set("object", &object(i)).unwrap();
        }
        let report = s.frame(40);
        assert_eq!(report.stats.values_set_unchanged, 40);
        if frame > 0 {
            assert_eq!(report.stats.bytes_uploaded, 0);
        }
    }
    let report = s.gpu.advisor();
    assert!(
        report.advice.contains(&Advice::UnchangedSets {
            per_frame: 40,
            frames: 10
        }),
        "{report}"
    );
    // Values that change each frame are not "unchanged sets".
    let changing = scene(Gpu::noop(), 40);
    for frame in 0..10 {
        for (i, d) in changing.draws.iter().enumerate() {
            d.set("object", &object(i + frame + 1)).unwrap();
        }
        assert_eq!(changing.frame(40).stats.values_set_unchanged, 0);
    }
    assert!(!has(&changing.gpu.advisor().advice, is_unchanged));
}

#[test]
fn bind_groups_created_in_steady_frames_name_the_draw_that_made_them() {
    let gpu = Gpu::noop();
    let shader = gpu.shader("textured.wgsl", TEXTURED).unwrap();
    let draw = gpu
        .draw(
            &shader,
            DrawDesc {
                label: "picture".into(),
                ..Default::default()
            },
        )
        .unwrap();
    let target = gpu.target(8, 8).unwrap();
    let texture = |i: usize| -> Texture {
        gpu.texture(&TextureDesc {
            label: format!("frame texture {i}"),
            width: 4,
            height: 4,
            ..Default::default()
        })
        .unwrap()
    };
    // A new texture every frame: a new bind group every frame.
    for i in 0..10 {
        let t = texture(i);
        draw.set("image", &t).unwrap();
        let report = gpu.frame(|f| f.pass(&target, |p| p.draw(&draw))).unwrap();
        assert_eq!(report.stats.bind_groups_created, 1);
        assert_eq!(report.bind_group_creator.as_deref(), Some("picture"));
    }
    let report = gpu.advisor();
    let found = report.advice.iter().find(|a| is_bind_groups(a));
    assert_eq!(
        found,
        Some(&Advice::BindGroupsInSteadyFrames {
            per_frame: 1,
            frames: 9,
            first_creator: Some("picture".into())
        }),
        "{report}"
    );
    assert!(found.unwrap().to_string().contains("\"picture\""));
    // One texture kept: the group is created once, then steady frames create none.
    let kept = texture(99);
    draw.set("image", &kept).unwrap();
    gpu.set_advisor_frames(20);
    for frame in 0..10 {
        let report = gpu.frame(|f| f.pass(&target, |p| p.draw(&draw))).unwrap();
        assert_eq!(report.stats.bind_groups_created, u64::from(frame == 0));
        assert_eq!(report.bind_group_creator.is_some(), frame == 0);
    }
    let report = gpu.advisor();
    assert!(!has(&report.advice, is_bind_groups), "{report}");
}

/// A report with the counters of a frame of `draws` draws recorded directly and the given
/// times.
fn constructed(draws: u64, encode: Duration, passes: &[(&str, Duration)]) -> FrameReport {
    let mut report = FrameReport {
        encode,
        gpu_passes: Some(passes.iter().map(|(l, d)| ((*l).to_owned(), *d)).collect()),
        ..Default::default()
    };
    report.stats.operations_recorded = draws;
    report.stats.set_pipeline_calls = 1;
    report.stats.set_bind_group_calls = draws + 1;
    report
}

/// `report` with pass `label` (at `index`) recorded directly for `reason`.
fn direct(mut report: FrameReport, label: &str, index: u32, reason: DirectReason) -> FrameReport {
    report.direct_passes.push(DirectPass {
        label: label.into(),
        index,
        reason,
    });
    report.stats.passes_recorded_directly += 1;
    report
}

#[test]
fn gpu_bound_frames_name_the_pass_that_dominates_and_get_no_draw_call_advice() {
    let ms = Duration::from_millis;
    let frame = |encode| {
        direct(
            constructed(500, encode, &[("shadow", ms(6)), ("main", ms(2))]),
            "main",
            1,
            DirectReason::DrawOrderChanged,
        )
    };
    let mut advisor = Advisor::new(30);
    for _ in 0..12 {
        advisor.push(&frame(ms(1)));
    }
    let report = advisor.report();
    assert_eq!(report.verdict.bound, Bound::Gpu);
    assert_eq!(report.verdict.gpu, Some(ms(8)));
    assert_eq!(
        report.advice,
        vec![Advice::GpuPassDominates {
            pass: "shadow".into(),
            share: 0.75,
            gpu: ms(6),
            frames: 12
        }],
        "no bundle or instancing advice when the GPU is the limit"
    );
    assert_eq!(
        report.top_line(),
        "GPU-bound; pass \"shadow\" takes 75% of GPU time"
    );
    // The same frames, CPU-bound: the draw-call advice, no pass advice.
    let mut advisor = Advisor::new(30);
    for _ in 0..12 {
        advisor.push(&frame(ms(9)));
    }
    let report = advisor.report();
    assert_eq!(report.verdict.bound, Bound::Cpu);
    assert!(has(&report.advice, is_not_bundled), "{report}");
    assert!(has(&report.advice, is_instancing), "{report}");
    assert!(!has(&report.advice, is_gpu_pass), "{report}");
    // Balanced passes: no pass dominates.
    let mut advisor = Advisor::new(30);
    for _ in 0..12 {
        advisor.push(&constructed(10, ms(1), &[("a", ms(2)), ("b", ms(2))]));
    }
    assert!(advisor.report().advice.is_empty());
}

#[test]
fn passes_not_bundled_are_counted_per_pass_and_named_by_their_most_frequent_reason() {
    let ms = Duration::from_millis;
    let mut advisor = Advisor::new(12);
    for i in 0..12 {
        let mut report = constructed(500, ms(9), &[("main", ms(1))]);
        // "main" #0: a draw changed every 4th frame; in between the pass waits for its bundle
        // (the hysteresis): recorded directly in every frame.
        report = direct(
            report,
            "main",
            0,
            match i % 4 {
                0 => DirectReason::DrawChanged {
                    draw: format!("tree {i}").as_str().into(),
                },
                _ => DirectReason::Warming { frames: 8 },
            },
        );
        // "ui" #1: auto-bundles off for it.
        report = direct(report, "ui", 1, DirectReason::Disabled);
        // "shadow" #2: draws added in 5 frames, replayed in the others: not most frames.
        if i < 5 {
            report = direct(report, "shadow", 2, DirectReason::DrawsAdded);
        }
        // "main" #3 (another pass of that label): the order in 7 frames, a value in 2.
        match i {
            0..7 => report = direct(report, "main", 3, DirectReason::DrawOrderChanged),
            7..9 => {
                let value = "camera".into();
                report = direct(report, "main", 3, DirectReason::ValueMoved { value });
            }
            _ => {}
        }
        advisor.push(&report);
    }
    let report = advisor.report();
    let found: Vec<&Advice> = report.advice.iter().filter(|a| is_not_bundled(a)).collect();
    let tree = DirectReason::DrawChanged {
        draw: "tree 8".into(),
    };
    assert_eq!(
        found,
        [
            &Advice::PassNotBundled {
                pass: "main".into(),
                index: 3,
                reason: "draw order changed",
                latest: DirectReason::DrawOrderChanged,
                frames: 7,
                direct: 9,
                of: 12,
                draws: 500,
            },
            &Advice::PassNotBundled {
                pass: "main".into(),
                index: 0,
                reason: "a draw changed",
                latest: tree,
                frames: 3,
                direct: 12,
                of: 12,
                draws: 500,
            },
        ],
        "{report}"
    );
    let sentence = found[1].to_string();
    assert!(
        sentence.starts_with(
            "pass main (#0) is not auto-bundled: a draw changed in 3 of 12 frames (latest: \
             draw \"tree 8\" changed); recorded directly in 12 frames, 500 draws per frame"
        ),
        "{sentence}"
    );
    assert!(sentence.contains("keep the resource"), "{sentence}");
    assert_eq!(
        found[1].headline(),
        "pass main: a draw changed in 3 of 12 frames"
    );
}

#[test]
fn the_window_keeps_the_last_frames_only() {
    let ms = Duration::from_millis;
    let frame = |reason| {
        direct(
            constructed(64, ms(9), &[("main", ms(1))]),
            "main",
            0,
            reason,
        )
    };
    let mut advisor = Advisor::new(10);
    for _ in 0..10 {
        // Three passes recorded directly per frame (one turned off, not kept).
        let report = frame(DirectReason::DrawOrderChanged);
        let report = direct(report, "shadow", 1, DirectReason::DrawsAdded);
        advisor.push(&direct(report, "ui", 2, DirectReason::Disabled));
    }
    let report = advisor.report();
    assert_eq!(
        report
            .advice
            .iter()
            .filter(|a| is_not_bundled(a))
            .map(Advice::headline)
            .collect::<Vec<_>>(),
        [
            "pass main: draw order changed in 10 of 10 frames",
            "pass shadow: draws added in 10 of 10 frames"
        ],
        "{report}"
    );
    // Ten frames of one pass and another reason push the old ones out.
    for _ in 0..10 {
        advisor.push(&frame(DirectReason::DrawsAdded));
    }
    let report = advisor.report();
    assert_eq!(report.frames, 10);
    let found: Vec<&Advice> = report.advice.iter().filter(|a| is_not_bundled(a)).collect();
    assert!(
        matches!(
            found.as_slice(),
            [Advice::PassNotBundled {
                reason: "draws added",
                frames: 10,
                of: 10,
                ..
            }]
        ),
        "{report}"
    );
    advisor.clear();
    assert_eq!(advisor.report().frames, 0);
}

#[test]
fn the_advisor_works_on_the_env_device() {
    // The counter-based advice does not depend on the device; on a device with timestamp
    // queries the verdict has GPU figures once they were read back.
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    let timestamps = gpu.has_timestamps();
    let s = scene(gpu, 64);
    // The draw order changes every frame: recorded directly in each.
    let reports: Vec<FrameReport> = (0..12).map(|by| s.frame_rotated(by)).collect();
    let report = s.gpu.advisor();
    assert_eq!(report.frames, 12);
    if timestamps {
        assert!(report.verdict.gpu.is_some(), "{report}");
    }
    // The measured verdict depends on the machine: either side, the advice follows it.
    assert_eq!(
        has(&report.advice, is_not_bundled),
        report.verdict.bound != Bound::Gpu,
        "{report}"
    );
    // The device's frames with their times fixed CPU-bound (9 ms recording, 1 ms on the GPU):
    // the advice from the counters and passes this device reported, whatever its speed.
    let mut advisor = Advisor::new(30);
    for device_report in &reports {
        advisor.push(&FrameReport {
            encode: Duration::from_millis(9),
            gpu_passes: Some(vec![("main".to_owned(), Duration::from_millis(1))]),
            ..device_report.clone()
        });
    }
    let fixed = advisor.report();
    assert_eq!(fixed.verdict.bound, Bound::Cpu, "{fixed}");
    assert!(
        fixed.advice.iter().any(|a| matches!(
            a,
            Advice::PassNotBundled {
                reason: "draw order changed",
                frames: 11,
                draws: 64,
                ..
            }
        )),
        "{fixed}"
    );
    // The same order every frame: replayed from the pass's auto-bundle on this device too.
    let steady: Vec<FrameReport> = (0..4).map(|_| s.frame_rotated(0)).collect();
    assert_eq!(
        steady[3].stats.auto_bundle_draws, 64,
        "{:?}",
        steady[3].stats
    );
    assert!(steady[3].direct_passes.is_empty());
    assert!(s.gpu.take_uncaptured_errors().is_empty());
}
