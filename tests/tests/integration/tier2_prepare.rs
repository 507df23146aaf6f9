//! Tier 2 (real device, vulkan and gl): pre-warm (`Draw::prepare`, `Gpu::prepare`,
//! `Compute::prepare`): the first frame after a prepare creates no pipeline and draws the right
//! pixels; a frame that creates one names the draw in its report; preparing twice creates one
//! pipeline. One-shot draws (`Gpu::render_once`, `render_once_with`) and `Target::texel_size`.

use vgpu::{BufferDesc, ComputeDesc, Gpu, Label, PassDesc, value};
use vgpu_tests::{assert_all_pixels, fullscreen};

const RED: &str =
    "@fragment fn fs_main() -> @location(0) vec4f { return vec4f(1.0, 0.0, 0.0, 1.0); }";
const GREEN: &str =
    "@fragment fn fs_main() -> @location(0) vec4f { return vec4f(0.0, 1.0, 0.0, 1.0); }";

/// Pipelines the device created since `before`.
fn created_since(gpu: &Gpu, before: vgpu::StatsSnapshot) -> u64 {
    (gpu.stats() - before).pipelines_created
}

#[test]
fn a_prepared_draw_creates_no_pipeline_in_its_first_frame_and_draws() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    let target = gpu.target(8, 8).unwrap();
    let red = fullscreen(&gpu, "red", RED);
    let before = gpu.stats();
    red.prepare(target.signature()).unwrap();
    assert_eq!(
        created_since(&gpu, before),
        1,
        "prepare creates the pipeline"
    );
    let report = gpu.frame(|f| f.pass(&target, |p| p.draw(&red))).unwrap();
    assert_eq!(report.stats.pipelines_created, 0);
    assert!(report.pipelines_created_by.is_empty());
    assert_all_pixels(
        &target.read_rgba8().unwrap(),
        [255, 0, 0, 255],
        "prepared draw",
    );
}

#[test]
fn a_frame_that_creates_a_pipeline_names_the_draw_and_the_next_does_not() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    let target = gpu.target(8, 8).unwrap();
    let green = fullscreen(&gpu, "late green", GREEN);
    let report = gpu.frame(|f| f.pass(&target, |p| p.draw(&green))).unwrap();
    assert_eq!(report.stats.pipelines_created, 1);
    assert_eq!(report.pipelines_created_by, vec![Label::new("late green")]);
    assert_all_pixels(
        &target.read_rgba8().unwrap(),
        [0, 255, 0, 255],
        "unprepared draw",
    );
    let again = gpu.frame(|f| f.pass(&target, |p| p.draw(&green))).unwrap();
    assert_eq!(again.stats.pipelines_created, 0);
    assert!(again.pipelines_created_by.is_empty());
}

#[test]
fn preparing_twice_or_a_draw_of_the_same_shader_creates_one_pipeline() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    let target = gpu.target(8, 8).unwrap();
    let effect = gpu.effect("fx", GREEN).unwrap();
    let clone = effect.clone();
    // Another draw of the same shader and render state shares the cached pipeline.
    let shader = gpu
        .shader("green", &format!("{GREEN}\n{}", vgpu_tests::FULLSCREEN_VS))
        .unwrap();
    let desc = || vgpu::DrawDesc {
        label: "green twin".into(),
        ..Default::default()
    };
    let (one, two) = (
        gpu.draw(&shader, desc()).unwrap(),
        gpu.draw(&shader, desc()).unwrap(),
    );
    let before = gpu.stats();
    gpu.prepare([&effect], target.signature()).unwrap();
    effect.prepare(target.signature()).unwrap();
    gpu.prepare([&clone, &effect], target.signature()).unwrap();
    assert_eq!(created_since(&gpu, before), 1, "an effect and its clone");
    one.prepare(target.signature()).unwrap();
    gpu.prepare([&two, &one], target.signature()).unwrap();
    assert_eq!(created_since(&gpu, before), 2, "two draws of one shader");
    // A target of another signature is another pipeline, made without a frame too.
    let other = gpu
        .target_with(&vgpu::TargetDesc {
            depth: Some(wgpu::TextureFormat::Depth32Float),
            ..vgpu::TargetDesc::new(8, 8)
        })
        .unwrap();
    pollster::block_on(gpu.prepare_async([&effect], other.signature())).unwrap();
    assert_eq!(created_since(&gpu, before), 3);
    let report = gpu
        .frame(|f| {
            f.pass(&other, |p| p.draw(&effect))?;
            f.pass(&target, |p| {
                p.draw(&two)?;
                p.draw(&effect)
            })
        })
        .unwrap();
    assert_eq!(report.stats.pipelines_created, 0);
    assert_all_pixels(
        &target.read_rgba8().unwrap(),
        [0, 255, 0, 255],
        "prepared effect",
    );
    assert_all_pixels(&other.read_rgba8().unwrap(), [0, 255, 0, 255], "with depth");
}

#[test]
fn a_prepared_compute_creates_no_pipeline_in_its_first_dispatch() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    let shader = gpu
        .shader(
            "fill",
            "
            @group(0) @binding(0) var<storage, read_write> data: array<u32>;
            @compute @workgroup_size(4) fn cs_main(@builtin(global_invocation_id) id: vec3u) {
                data[id.x] = id.x * 3u + 1u;
            }",
        )
        .unwrap();
    let fill = gpu
        .compute(
            &shader,
            ComputeDesc {
                label: "fill".into(),
                ..Default::default()
            },
        )
        .unwrap();
    let data = gpu
        .buffer(&BufferDesc {
            label: "data".into(),
            size: 16,
            usage: wgpu::BufferUsages::STORAGE,
        })
        .unwrap();
    fill.set("data", &data).unwrap();
    let before = gpu.stats();
    fill.prepare().unwrap();
    fill.prepare().unwrap();
    assert_eq!(created_since(&gpu, before), 1);
    let report = gpu
        .frame(|f| f.compute_pass(|c| c.dispatch(&fill, 1, 1, 1)))
        .unwrap();
    assert_eq!(report.stats.pipelines_created, 0);
    let words: Vec<u32> = bytemuck::pod_collect_to_vec(&data.read_blocking().unwrap());
    assert_eq!(words, [1, 4, 7, 10]);
}

#[test]
fn render_once_draws_an_effect_or_a_draw_into_a_target_in_its_own_frame() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    let target = gpu.target(8, 8).unwrap();
    let red = gpu.effect("red", RED).unwrap();
    let report = gpu.render_once(&target, &red).unwrap();
    assert_eq!(report.stats.operations_recorded, 1);
    assert_eq!(report.stats.submissions, 1);
    assert_all_pixels(
        &target.read_rgba8().unwrap(),
        [255, 0, 0, 255],
        "render_once",
    );
    // With a pass description: cleared blue, the draw in the left half only.
    let green = fullscreen(&gpu, "green", GREEN);
    let desc = PassDesc::new(&target)
        .clear([0.0, 0.0, 1.0, 1.0])
        .viewport(0.0, 0.0, 4.0, 8.0);
    gpu.render_once_with(desc, &green).unwrap();
    let image = target.read_rgba8().unwrap();
    for (x, y) in [(0, 0), (3, 7), (2, 4)] {
        assert_eq!(image.pixel(x, y), Some([0, 255, 0, 255]), "left ({x},{y})");
    }
    for (x, y) in [(4, 0), (7, 7), (5, 4)] {
        assert_eq!(image.pixel(x, y), Some([0, 0, 255, 255]), "right ({x},{y})");
    }
    // Loading keeps what the target holds.
    let keep = PassDesc::new(&target).load().viewport(4.0, 0.0, 4.0, 8.0);
    gpu.render_once_with(keep, &red).unwrap();
    let image = target.read_rgba8().unwrap();
    assert_eq!(image.pixel(1, 1), Some([0, 255, 0, 255]));
    assert_eq!(image.pixel(6, 1), Some([255, 0, 0, 255]));
}

#[test]
fn texel_size_is_one_over_the_size_and_reads_as_such_in_a_shader() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    let target = gpu.target(4, 8).unwrap();
    assert_eq!(target.texel_size(), [0.25, 0.125]);
    let show = gpu
        .effect(
            "texel",
            "
            struct P { texel: vec2f }
            @group(0) @binding(0) var<uniform> p: P;
            @fragment fn fs_main() -> @location(0) vec4f { return vec4f(p.texel * 4.0, 0.0, 1.0); }",
        )
        .unwrap();
    show.set("p", value! { texel: target.texel_size() })
        .unwrap();
    gpu.render_once(&target, &show).unwrap();
    // (1.0, 0.5) in 8-bit: 255 and 128 (127.5 rounded; either rounding accepted).
    let image = target.read_rgba8().unwrap();
    let px = image.pixel(2, 3).unwrap();
    assert_eq!(px[0], 255);
    assert!((127..=128).contains(&px[1]), "{px:?}");
    assert_eq!((px[2], px[3]), (0, 255));
}
