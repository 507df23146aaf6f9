//! Tier 1 (noop device, then the `VGPU_BACKEND` device where it says so): the frame advisor
//! (`Gpu::advisor`, `vgpu::Advisor`) gives each piece of advice when its evidence is there and
//! not otherwise, and following the bundle advice lowers what a frame records.
//!
//! Scenes are built through the public API; the counter-based advice is checked on real frames.
//! GPU-bound frames cannot be made on demand (the noop device measures no GPU time), so the
//! verdict and the GPU-side advice are checked on constructed reports fed to an `Advisor`.

#![allow(clippy::unwrap_used, reason = "an unwrap in a test is an assertion")]

use std::time::Duration;

use vgpu::{
    Advice, Advisor, Bound, Draw, DrawDesc, FrameReport, Gpu, SharedUniforms, Target, Texture,
    TextureDesc, Uniform, Verdict, value,
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
}

fn has(advice: &[Advice], pick: fn(&Advice) -> bool) -> bool {
    advice.iter().any(pick)
}

fn is_bundle(a: &Advice) -> bool {
    matches!(a, Advice::RecordBundle { .. })
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
fn a_static_scene_is_advised_to_record_a_bundle_after_enough_frames() {
    let s = scene(Gpu::noop(), 64);
    // The first frame creates the pipeline and the bind groups; the advice needs MIN_FRAMES
    // frames recorded the same way after it.
    s.frames(Advisor::MIN_FRAMES);
    let early = s.gpu.advisor();
    assert_eq!(early.frames, Advisor::MIN_FRAMES);
    assert!(early.advice.is_empty(), "{early}");
    s.frames(1);
    let report = s.gpu.advisor();
    let bundle = report
        .advice
        .iter()
        .find(|a| is_bundle(a))
        .unwrap_or_else(|| {
            panic!("{report}");
        });
    let Advice::RecordBundle {
        draws,
        frames,
        encode_per_draw,
        estimated_saving,
    } = bundle
    else {
        unreachable!()
    };
    assert_eq!((*draws, *frames), (64, Advisor::MIN_FRAMES));
    assert_eq!(*estimated_saving, *encode_per_draw * 64);
    assert!(bundle.to_string().contains("64 draws"), "{bundle}");
    // Nothing else applies: values are not re-set, no bind group is created, 64 draws are
    // too few for instancing.
    assert_eq!(report.advice.len(), 1, "{report}");
    assert!(
        report.top_line().starts_with("bound unknown"),
        "{}",
        report.top_line()
    );
}

#[test]
fn following_the_bundle_advice_lowers_what_a_frame_records() {
    let s = scene(Gpu::noop(), 64);
    s.frames(10);
    assert!(has(&s.gpu.advisor().advice, is_bundle));
    let before = s.frame(64).stats;
    assert_eq!(before.operations_recorded, 64);
    assert_eq!(before.bundle_draws_replayed, 0);
    assert!(before.set_bind_group_calls >= 64, "{before:?}");

    let bundle = s
        .gpu
        .bundle("static scene", s.target.signature(), |b| {
            for d in &s.draws {
                b.draw(d)?;
            }
            Ok(())
        })
        .unwrap();
    s.gpu.set_advisor_frames(Advisor::DEFAULT_FRAMES);
    for _ in 0..10 {
        s.gpu
            .frame(|f| f.pass(&s.target, |p| p.execute(&bundle)))
            .unwrap();
    }
    let after = s
        .gpu
        .frame(|f| f.pass(&s.target, |p| p.execute(&bundle)))
        .unwrap()
        .stats;
    // The same 64 draws reach the GPU, none is recorded draw by draw any more.
    assert_eq!(after.operations_recorded, 64);
    assert_eq!(after.bundle_draws_replayed, 64);
    assert_eq!(after.set_bind_group_calls, 0, "{after:?}");
    assert_eq!(after.set_pipeline_calls, 0, "{after:?}");
    let report = s.gpu.advisor();
    assert!(!has(&report.advice, is_bundle), "{report}");
}

#[test]
fn draws_that_change_from_frame_to_frame_get_no_bundle_advice() {
    let s = scene(Gpu::noop(), 65);
    for i in 0..12 {
        s.frame(64 + i % 2);
    }
    let report = s.gpu.advisor();
    assert!(!has(&report.advice, is_bundle), "{report}");
    // Too few draws: no advice either.
    let small = scene(Gpu::noop(), Advisor::BUNDLE_MIN_DRAWS as usize - 1);
    small.frames(12);
    assert!(small.gpu.advisor().advice.is_empty());
}

#[test]
fn many_draws_of_one_pipeline_with_their_own_values_are_advised_to_instance() {
    let s = scene(Gpu::noop(), 300);
    s.frames(10);
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

/// A report with the counters of a static frame of `draws` draws and the given times.
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

#[test]
fn gpu_bound_frames_name_the_pass_that_dominates_and_get_no_draw_call_advice() {
    let ms = Duration::from_millis;
    let mut advisor = Advisor::new(30);
    for _ in 0..12 {
        advisor.push(&constructed(
            500,
            ms(1),
            &[("shadow", ms(6)), ("main", ms(2))],
        ));
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
        advisor.push(&constructed(
            500,
            ms(9),
            &[("shadow", ms(6)), ("main", ms(2))],
        ));
    }
    let report = advisor.report();
    assert_eq!(report.verdict.bound, Bound::Cpu);
    assert!(has(&report.advice, is_bundle), "{report}");
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
fn the_window_keeps_the_last_frames_only() {
    let ms = Duration::from_millis;
    let mut advisor = Advisor::new(10);
    for _ in 0..10 {
        advisor.push(&constructed(64, ms(9), &[("main", ms(1))]));
    }
    assert!(has(&advisor.report().advice, is_bundle));
    // Ten frames of another shape push the old ones out: steady again, on the new count.
    for _ in 0..10 {
        advisor.push(&constructed(80, ms(9), &[("main", ms(1))]));
    }
    let report = advisor.report();
    assert_eq!(report.frames, 10);
    assert!(
        report
            .advice
            .iter()
            .any(|a| matches!(a, Advice::RecordBundle { draws: 80, .. })),
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
    let reports: Vec<FrameReport> = (0..12).map(|_| s.frame(64)).collect();
    let report = s.gpu.advisor();
    assert_eq!(report.frames, 12);
    if timestamps {
        assert!(report.verdict.gpu.is_some(), "{report}");
    }
    // The measured verdict depends on the machine: either side, the advice follows it.
    assert_eq!(
        has(&report.advice, is_bundle),
        report.verdict.bound != Bound::Gpu,
        "{report}"
    );
    // The device's frames with their times fixed CPU-bound (9 ms recording, 1 ms on the GPU):
    // the bundle advice from the counters this device reported, whatever its speed.
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
        fixed
            .advice
            .iter()
            .any(|a| matches!(a, Advice::RecordBundle { draws: 64, .. })),
        "{fixed}"
    );
    assert!(s.gpu.take_uncaptured_errors().is_empty());
}
