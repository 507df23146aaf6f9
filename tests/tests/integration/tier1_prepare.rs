//! Tier 1 (noop): pre-warm's errors (a draw whose fragment stage has no output for the target's
//! color attachment, a draw of another `Gpu`) leave nothing cached; the advisor names the draws
//! whose pipelines were created in frames after warm-up and says to call `prepare`.

use vgpu::{Advice, Advisor, FrameReport, Gpu, Label, TargetDesc};
use vgpu_tests::fullscreen;

const RED: &str =
    "@fragment fn fs_main() -> @location(0) vec4f { return vec4f(1.0, 0.0, 0.0, 1.0); }";

#[test]
fn preparing_a_draw_without_a_color_output_for_a_color_target_fails_and_caches_nothing() {
    let gpu = Gpu::noop();
    let target = gpu.target(4, 4).unwrap();
    let mute = fullscreen(&gpu, "mute", "@fragment fn fs_main() {}");
    let before = gpu.stats();
    let e = mute
        .prepare(target.signature())
        .expect_err("no @location(0) output");
    let msg = e.to_string();
    assert_eq!(e.code(), "VGPU-DRAW-COLOR-OUTPUT", "{msg}");
    assert!(msg.contains("\"mute\""), "the error names the draw: {msg}");
    assert!(msg.contains("@location(0)"), "{msg}");
    assert_eq!((gpu.stats() - before).pipelines_created, 0);
    // Nothing was cached: preparing again, or drawing, fails the same way.
    let again = mute
        .prepare(target.signature())
        .expect_err("still no output");
    assert_eq!(again.code(), e.code());
    let in_frame = gpu
        .frame(|f| f.pass(&target, |p| p.draw(&mute)))
        .expect_err("the frame's record fails as prepare did");
    assert_eq!(in_frame.code(), e.code());
    // Through `Gpu::prepare`: the draws before the failing one stay prepared.
    let red = fullscreen(&gpu, "red", RED);
    let e = gpu
        .prepare([&red, &mute], target.signature())
        .expect_err("mute fails");
    assert!(e.to_string().contains("\"mute\""), "{e}");
    let report = gpu.frame(|f| f.pass(&target, |p| p.draw(&red))).unwrap();
    assert_eq!(report.stats.pipelines_created, 0);
    // A depth-only target needs no color output: the same draw prepares.
    let shadow = gpu
        .target_with(&TargetDesc::depth_only(
            4,
            4,
            wgpu::TextureFormat::Depth32Float,
        ))
        .unwrap();
    let before = gpu.stats();
    mute.prepare(shadow.signature()).unwrap();
    assert_eq!((gpu.stats() - before).pipelines_created, 1);
}

#[test]
fn preparing_a_draw_of_another_gpu_is_refused() {
    let gpu = Gpu::noop();
    let other = Gpu::noop();
    let target = gpu.target(4, 4).unwrap();
    let theirs = fullscreen(&other, "theirs", RED);
    let before = (gpu.stats(), other.stats());
    let e = gpu
        .prepare([&theirs], target.signature())
        .expect_err("a draw of another Gpu");
    assert_eq!(e.code(), "VGPU-FOREIGN-GPU", "{e}");
    assert!(e.to_string().contains("theirs"), "{e}");
    assert_eq!((gpu.stats() - before.0).pipelines_created, 0);
    assert_eq!((other.stats() - before.1).pipelines_created, 0);
    // `Draw::prepare` itself prepares on the draw's own `Gpu` (a signature is only formats).
    theirs.prepare(target.signature()).unwrap();
    assert_eq!((other.stats() - before.1).pipelines_created, 1);
}

/// `frames` frames of `gpu` drawing `draws` into `target`, returning the last report.
fn frames(gpu: &Gpu, target: &vgpu::Target, draws: &[&vgpu::Draw], frames: usize) -> FrameReport {
    let mut last = FrameReport::default();
    for _ in 0..frames {
        last = gpu
            .frame(|f| {
                f.pass(target, |p| {
                    for d in draws {
                        p.draw(d)?;
                    }
                    Ok(())
                })
            })
            .unwrap();
    }
    last
}

fn pipeline_advice(gpu: &Gpu) -> Option<Advice> {
    gpu.advisor()
        .advice
        .into_iter()
        .find(|a| matches!(a, Advice::PipelinesCreatedInFrames { .. }))
}

#[test]
fn the_advisor_names_draws_whose_pipelines_were_created_after_warm_up() {
    let gpu = Gpu::noop();
    let target = gpu.target(4, 4).unwrap();
    let first = fullscreen(&gpu, "first", RED);
    // Warm-up: the first frames create pipelines without advice.
    let report = frames(&gpu, &target, &[&first], 1);
    assert_eq!(report.pipelines_created_by, vec![Label::new("first")]);
    frames(&gpu, &target, &[&first], 3);
    assert_eq!(pipeline_advice(&gpu), None);
    // A draw first recorded in frame 5 creates its pipeline there.
    let late = fullscreen(
        &gpu,
        "late",
        "@fragment fn fs_main() -> @location(0) vec4f { return vec4f(0.5); }",
    );
    let report = frames(&gpu, &target, &[&first, &late], 1);
    assert_eq!(report.pipelines_created_by, vec![Label::new("late")]);
    let advice = pipeline_advice(&gpu).expect("advice after warm-up");
    assert_eq!(
        advice,
        Advice::PipelinesCreatedInFrames {
            pipelines: 1,
            frames: 1,
            draws: vec!["late".to_owned()],
        }
    );
    let text = advice.to_string();
    assert!(
        text.contains("\"late\"") && text.contains("prepare"),
        "{text}"
    );
    assert_eq!(advice.headline(), "prepare 1 pipeline(s) (draw \"late\"…)");

    // The same frames with `late` prepared first: no pipeline inside a frame, no advice.
    let gpu = Gpu::noop();
    let target = gpu.target(4, 4).unwrap();
    let first = fullscreen(&gpu, "first", RED);
    let late = fullscreen(
        &gpu,
        "late",
        "@fragment fn fs_main() -> @location(0) vec4f { return vec4f(0.5); }",
    );
    gpu.prepare([&first, &late], target.signature()).unwrap();
    frames(&gpu, &target, &[&first], 4);
    let report = frames(&gpu, &target, &[&first, &late], 1);
    assert_eq!(report.stats.pipelines_created, 0);
    assert!(report.pipelines_created_by.is_empty());
    assert_eq!(pipeline_advice(&gpu), None);
}

#[test]
fn the_pipeline_advice_text_names_each_draw_once() {
    let mut advisor = Advisor::new(16);
    let frame = |index: u64, labels: &[&str]| {
        let mut report = FrameReport {
            index,
            pipelines_created_by: labels.iter().map(|l| Label::new(l)).collect(),
            ..Default::default()
        };
        report.stats.pipelines_created = labels.len() as u64;
        report
    };
    // Frames 1 and 2 are warm-up; 3 and 5 create pipelines ("shadow" twice: two signatures).
    for report in [
        frame(1, &["sky", "ground"]),
        frame(2, &["hud"]),
        frame(3, &["shadow", "glow"]),
        frame(4, &[]),
        frame(5, &["shadow"]),
    ] {
        advisor.push(&report);
    }
    let report = advisor.report();
    let advice = report
        .advice
        .iter()
        .find(|a| matches!(a, Advice::PipelinesCreatedInFrames { .. }))
        .expect("advice");
    assert_eq!(
        advice.to_string(),
        "prepare pipelines ahead: 3 pipeline(s) were created while 2 frame(s) after warm-up were \
         recorded (by draw \"shadow\", \"glow\"); creating a pipeline compiles its shaders inside \
         the frame (a hitch): call `prepare` at load time (draw.prepare(target.signature()), \
         gpu.prepare(draws, signature), compute.prepare())"
    );
    assert_eq!(Advisor::WARMUP_FRAMES, 2);
}

/// A compute whose pipeline is created inside a frame is named in the frame's report; after
/// `Compute::prepare` a frame names nothing.
#[test]
fn a_frame_names_computes_whose_pipelines_it_created() {
    let gpu = Gpu::noop();
    let shader = gpu
        .shader(
            "fill",
            "@group(0) @binding(0) var<storage, read_write> out: array<u32>;
             @compute @workgroup_size(1) fn cs_main() { out[0] = 1u; }",
        )
        .expect("shader");
    let buffer = gpu
        .buffer(&vgpu::BufferDesc {
            label: "out".into(),
            size: 16,
            usage: wgpu::BufferUsages::STORAGE,
        })
        .expect("buffer");
    let make = |label: &str| {
        let c = gpu
            .compute(
                &shader,
                vgpu::ComputeDesc {
                    label: label.into(),
                    ..Default::default()
                },
            )
            .expect("compute");
        c.set("out", &buffer).expect("set");
        c
    };
    let late = make("late kernel");
    let report = gpu
        .frame(|f| f.compute_pass(|p| p.dispatch(&late, 1, 1, 1)))
        .expect("frame");
    let named: Vec<&str> = report.pipelines_created_by.iter().map(|l| &**l).collect();
    assert_eq!(named, ["late kernel"]);

    let prepared = make("prepared kernel");
    // The same shader with the same constants shares the cached pipeline: prepare finds it.
    prepared.prepare().expect("prepare");
    let report = gpu
        .frame(|f| f.compute_pass(|p| p.dispatch(&prepared, 1, 1, 1)))
        .expect("frame");
    assert!(
        report.pipelines_created_by.is_empty(),
        "{:?}",
        report.pipelines_created_by
    );
    assert_eq!(report.stats.pipelines_created, 0);
}
