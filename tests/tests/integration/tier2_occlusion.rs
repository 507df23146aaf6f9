//! Occlusion queries on a real device (tier 2: vulkan and gl): a quad in front counts samples,
//! a quad behind the depth written first counts none, an unused query reads 0; results arrive
//! through `latest()` without blocking (frame N's while frame N+1 records) and through
//! `read_async()`. WebGPU promises only zero vs non-zero (GL reports 0 or 1), so that is what is
//! asserted.

use vgpu::{DrawDesc, FrameReport, Gpu, OcclusionQueries, OcclusionResults, PassDesc, Target};
use vgpu_tests::real_gpu;

/// A fullscreen triangle at depth `z`, red.
fn quad_at(gpu: &Gpu, label: &str, z: f32) -> vgpu::Draw {
    let wgsl = format!(
        "@vertex fn vs_main(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {{
            let p = vec2f(f32((i << 1u) & 2u), f32(i & 2u));
            return vec4f(p * 2.0 - 1.0, {z:?}, 1.0);
        }}
        @fragment fn fs_main() -> @location(0) vec4f {{ return vec4f(1.0, 0.0, 0.0, 1.0); }}"
    );
    let shader = gpu.shader(label, &wgsl).unwrap();
    gpu.draw(
        &shader,
        DrawDesc {
            label: label.to_owned(),
            ..Default::default()
        },
    )
    .unwrap()
}

struct Scene {
    target: Target,
    queries: OcclusionQueries,
    front: vgpu::Draw,
    behind: vgpu::Draw,
}

fn scene(gpu: &Gpu) -> Scene {
    let target = gpu
        .target_with(&vgpu::TargetDesc {
            depth: Some(wgpu::TextureFormat::Depth32Float),
            ..vgpu::TargetDesc::new(8, 8)
        })
        .unwrap();
    Scene {
        target,
        queries: gpu.occlusion_queries("visibility", 3).unwrap(),
        front: quad_at(gpu, "front", 0.25),
        behind: quad_at(gpu, "behind", 0.75),
    }
}

/// One frame: depth cleared to 1; query 0 wraps the front quad (passes, writes 0.25), query 1
/// the quad behind it (fails the `Less` test everywhere), query 2 is not used.
fn frame(gpu: &Gpu, s: &Scene) -> FrameReport {
    gpu.frame(|f| {
        f.pass(PassDesc::new(&s.target).occlusion(&s.queries), |p| {
            p.occlusion_query(0, |p| p.draw(&s.front))?;
            p.occlusion_query(1, |p| p.draw(&s.behind))
        })
    })
    .unwrap()
}

#[track_caller]
fn assert_visibility(results: &OcclusionResults) {
    assert_eq!(results.samples.len(), 3);
    assert!(results.visible(0), "the front quad passed: {results:?}");
    assert_eq!(
        results.samples(1),
        0,
        "the quad behind is hidden: {results:?}"
    );
    assert_eq!(
        results.samples(2),
        0,
        "query 2 was not written: {results:?}"
    );
}

#[test]
fn queries_count_the_quad_in_front_and_not_the_one_behind() {
    let Some(gpu) = real_gpu() else {
        return;
    };
    let s = scene(&gpu);
    for _ in 0..3 {
        frame(&gpu, &s);
    }
    // The GPU done with those: the fourth frame finds a free read-back buffer.
    gpu.wait_idle().unwrap();
    let last = frame(&gpu, &s);
    // The newest completed read-back, without blocking: some frame of the four (or none yet).
    if let Some(early) = s.queries.latest() {
        assert!(early.frame_index <= last.index);
        assert_visibility(&early);
    }
    let read = pollster::block_on(s.queries.read_async()).unwrap();
    assert_eq!(read.frame_index, last.index);
    assert_visibility(&read);
    // After the wait the newest is also what `latest()` returns.
    assert_eq!(s.queries.latest().as_ref(), Some(&read));
    // The pixels agree: the front quad is red.
    let image = s.target.read_rgba8().unwrap();
    assert_eq!(image.pixel(3, 3).unwrap(), [255, 0, 0, 255]);
    let errors = gpu.take_uncaptured_errors();
    assert!(errors.is_empty(), "uncaptured wgpu errors: {errors:?}");
}

#[test]
fn results_of_frame_n_arrive_while_frame_n_plus_1_records() {
    let Some(gpu) = real_gpu() else {
        return;
    };
    let s = scene(&gpu);
    let n = frame(&gpu, &s);
    gpu.wait_idle().unwrap();
    let next = gpu
        .frame(|f| {
            // Frame N+1 is open: N's results are there, before and after a pass into the set.
            let results = s.queries.latest().expect("frame N's results");
            assert_eq!(results.frame_index, n.index);
            assert_visibility(&results);
            f.pass(PassDesc::new(&s.target).occlusion(&s.queries), |p| {
                p.occlusion_query(1, |p| p.draw(&s.behind))
            })?;
            assert_eq!(s.queries.latest(), Some(results));
            Ok(())
        })
        .unwrap();
    assert_eq!(next.index, n.index + 1);
    // Frame N+1: query 1 wrapped the quad behind (depth cleared to 1: it passes); 0 and 2 were
    // not written in that frame and read 0 (query 0 counted samples in frame N: not kept).
    let results = pollster::block_on(s.queries.read_async()).unwrap();
    assert_eq!(results.frame_index, next.index);
    assert!(results.visible(1), "{results:?}");
    assert_eq!(
        (results.samples(0), results.samples(2)),
        (0, 0),
        "{results:?}"
    );
}

#[test]
fn frames_far_ahead_of_the_gpu_never_block_and_later_results_still_arrive() {
    let Some(gpu) = real_gpu() else {
        return;
    };
    let s = scene(&gpu);
    // More frames than read-back buffers without collecting: frames whose buffer is still in
    // flight skip their read-back instead of waiting.
    let mut last = None;
    for _ in 0..8 {
        last = Some(frame(&gpu, &s));
    }
    let read = pollster::block_on(s.queries.read_async()).unwrap();
    assert!(read.frame_index <= last.unwrap().index);
    assert_visibility(&read);
    let results = pollster::block_on(async {
        frame(&gpu, &s);
        s.queries.read_async().await
    })
    .unwrap();
    assert_visibility(&results);
}
