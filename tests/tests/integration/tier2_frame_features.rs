//! Tier 1 and 2: MSAA targets, GPU pass timings in `FrameReport`, and uniform bindings past the
//! device's dynamic-offset limit (static bind groups per slot, still cached).

use vgpu::{DrawDesc, Gpu, TargetDesc, value};

const TRIANGLE: &str = "
struct Style { color: vec4f }
@group(0) @binding(0) var<uniform> style: Style;
@vertex fn vs_main(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
    var p = array<vec2f, 3>(vec2f(-1.0, -1.0), vec2f(1.0, -1.0), vec2f(-1.0, 1.0));
    return vec4f(p[i], 0.0, 1.0);
}
@fragment fn fs_main() -> @location(0) vec4f { return style.color; }
";

#[test]
fn msaa_target_resolves_edges_and_keeps_interiors_exact() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    let target = gpu
        .target_with(&TargetDesc::new(16, 16).samples(4))
        .expect("msaa target");
    assert_eq!(target.signature().samples, 4);
    let shader = gpu.shader("msaa", TRIANGLE).expect("shader");
    let draw = gpu.draw(&shader, DrawDesc::default()).expect("draw");
    draw.set("style", value! { color: [1.0, 1.0, 1.0, 1.0] })
        .expect("set");
    gpu.frame(|f| {
        f.pass(
            vgpu::PassDesc::new(&target).clear([0.0, 0.0, 0.0, 1.0]),
            |p| p.draw(&draw),
        )
    })
    .expect("frame");
    let image = target.read_rgba8().expect("read");
    // The triangle covers the lower-left half: (0,15) is inside, (15,0) outside.
    assert_eq!(image.pixel(1, 14), Some([255, 255, 255, 255]));
    assert_eq!(image.pixel(14, 1), Some([0, 0, 0, 255]));
    // Pixels on the hypotenuse (x == y) are partly covered: the resolve averages samples.
    let partial = (0..16)
        .filter_map(|i| image.pixel(i, i))
        .filter(|p| p[0] > 0 && p[0] < 255)
        .count();
    assert!(
        partial > 0,
        "the diagonal shows resolved (blended) coverage"
    );
}

#[test]
fn gpu_pass_times_arrive_a_frame_or_two_late_where_timestamps_exist() {
    let noop = Gpu::noop();
    let t = noop.target(4, 4).expect("target");
    for _ in 0..3 {
        let r = noop.frame(|f| f.pass(&t, |_| Ok(()))).expect("frame");
        assert!(r.gpu_passes.is_none(), "the noop device measures nothing");
    }

    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    let target = gpu.target(8, 8).expect("target");
    // (frame index, index of the frame its times belong to) of each report that has times.
    let mut timed = Vec::new();
    let mut first = None;
    for _ in 0..6 {
        let report = gpu
            .frame(|f| {
                f.pass(vgpu::PassDesc::new(&target).label("first"), |_| Ok(()))?;
                f.pass(vgpu::PassDesc::new(&target).label("second"), |_| Ok(()))
            })
            .expect("frame");
        gpu.wait_idle().expect("idle");
        first.get_or_insert(report.index);
        match (&report.gpu_passes, report.gpu_frame_index) {
            (Some(passes), Some(of)) => {
                let labels: Vec<&str> = passes.iter().map(|(l, _)| l.as_str()).collect();
                assert_eq!(labels, ["first", "second"]);
                timed.push((report.index, of));
            }
            (None, None) => {}
            (passes, of) => panic!("times {passes:?} of frame {of:?}"),
        }
    }
    if !gpu.has_timestamps() {
        assert_eq!(timed, [], "timings reported without timestamp support");
        vgpu_tests::skip("timestamps", "the adapter has no timestamp queries");
        return;
    }
    // A frame or two late: each report times a frame one or two before it, and the times of
    // every frame but the last two arrive (within two frames).
    for &(index, of) in &timed {
        assert!(
            index > of && index - of <= 2,
            "frame {index} reports the times of frame {of}: {timed:?}"
        );
    }
    let first = first.expect("frames ran");
    for frame in first..first + 4 {
        assert!(
            timed
                .iter()
                .any(|&(index, of)| of == frame && index <= frame + 2),
            "the times of frame {frame} did not arrive within two frames: {timed:?}"
        );
    }
}

/// Pass labels are kept from frame to frame (their `String`s reused): the labels a report
/// gives are those of the frame it timed, whatever the frames before used (other labels, longer
/// or shorter, more or fewer passes, a cancelled frame in between).
#[test]
fn gpu_pass_labels_are_those_of_the_frame_they_time() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    if !gpu.has_timestamps() {
        vgpu_tests::skip("timestamps", "the adapter has no timestamp queries");
        return;
    }
    let target = gpu.target(8, 8).expect("target");
    let labels_of = |i: u64| -> Vec<String> {
        let passes = 1 + (i % 3) as usize;
        (0..passes)
            .map(|k| format!("{}{k}", "x".repeat((i % 4) as usize)))
            .collect()
    };
    let mut labels_by_frame = std::collections::HashMap::new();
    let mut checked = 0;
    for i in 0..12u64 {
        if i == 5 {
            gpu.begin_frame().expect("frame").cancel();
        }
        let labels = labels_of(i);
        let report = gpu
            .frame(|f| {
                for label in &labels {
                    f.pass(vgpu::PassDesc::new(&target).label(label), |_| Ok(()))?;
                }
                Ok(())
            })
            .expect("frame");
        gpu.wait_idle().expect("idle");
        labels_by_frame.insert(report.index, labels);
        if let (Some(passes), Some(timed)) = (&report.gpu_passes, report.gpu_frame_index) {
            let got: Vec<&str> = passes.iter().map(|(l, _)| l.as_str()).collect();
            assert_eq!(
                got, labels_by_frame[&timed],
                "frame {} reports {timed}",
                report.index
            );
            checked += 1;
        }
    }
    assert!(checked > 0, "no timings reported");
    eprintln!(
        "checked {checked} timed frames on {}",
        gpu.adapter_info().name
    );
}

/// A group with more uniform bindings than `max_dynamic_uniform_buffers_per_pipeline_layout`:
/// those past the limit bind static groups per slot, still cached (0 bind groups when steady).
#[test]
fn uniform_bindings_past_the_dynamic_limit_use_cached_static_groups() {
    let check = |gpu: &Gpu| {
        let limit = gpu
            .context()
            .limits()
            .max_dynamic_uniform_buffers_per_pipeline_layout;
        let n = (limit + 2).min(gpu.context().limits().max_uniform_buffers_per_shader_stage);
        assert!(n > limit, "{n} uniform buffers, {limit} dynamic");
        let mut decl = String::new();
        let mut sum = String::from("0.0");
        for i in 0..n {
            decl += &format!(
                "struct U{i} {{ v: vec4f }}\n@group(0) @binding({i}) var<uniform> u{i}: U{i};\n"
            );
            sum += &format!(" + u{i}.v.x");
        }
        let wgsl = format!(
            "{decl}
            @vertex fn vs_main(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {{
                var p = array<vec2f, 3>(vec2f(-1.0, -1.0), vec2f(3.0, -1.0), vec2f(-1.0, 3.0));
                return vec4f(p[i], 0.0, 1.0);
            }}
            @fragment fn fs_main() -> @location(0) vec4f {{ return vec4f({sum}, 0.0, 0.0, 1.0); }}"
        );
        let shader = gpu.shader("many uniforms", &wgsl).expect("shader");
        let draw = gpu.draw(&shader, DrawDesc::default()).expect("draw");
        for i in 0..n {
            draw.set(&format!("u{i}"), value! { v: [1.0 / 255.0, 0.0, 0.0, 0.0] })
                .expect("set");
        }
        let target = gpu.target(4, 4).expect("target");
        for _ in 0..2 {
            gpu.frame(|f| f.pass(&target, |p| p.draw(&draw)))
                .expect("frame");
        }
        let steady = gpu
            .frame(|f| f.pass(&target, |p| p.draw(&draw)))
            .expect("frame");
        assert_eq!(steady.stats.bind_groups_created, 0, "{:?}", steady.stats);
        assert_eq!(steady.stats.bytes_uploaded, 0);
        // A change of one value past the limit between two draws of one pass moves it to
        // another slot: two draws (left and right half), two values, both seen.
        gpu.frame(|f| {
            f.pass(&target, |p| {
                p.set_viewport(0.0, 0.0, 2.0, 4.0);
                p.draw(&draw)?;
                draw.set(
                    &format!("u{}", n - 1),
                    value! { v: [2.0 / 255.0, 0.0, 0.0, 0.0] },
                )?;
                p.set_viewport(2.0, 0.0, 2.0, 4.0);
                p.draw(&draw)
            })
        })
        .expect("frame");
        if !gpu.is_noop() {
            let image = target.read_rgba8().expect("read");
            let red = |x| u32::from(image.pixel(x, 1).expect("pixel")[0]);
            assert_eq!(red(0), n, "first draw: every binding read its value");
            assert_eq!(
                red(3),
                n + 1,
                "second draw: the changed binding read its new value"
            );
        }
    };
    check(&Gpu::noop());
    if let Some(gpu) = vgpu_tests::real_gpu() {
        // lavapipe and llvmpipe allow as many dynamic uniform buffers as uniform buffers: ask
        // the device for fewer dynamic ones, so some bindings lie past the limit.
        let limits = wgpu::Limits {
            max_dynamic_uniform_buffers_per_pipeline_layout: 4,
            ..gpu.context().limits()
        };
        let low = Gpu::new(&vgpu::GpuOptions {
            required_limits: Some(limits),
            ..vgpu::GpuOptions::from_env().expect("options")
        })
        .expect("device with fewer dynamic uniform buffers");
        check(&low);
    }
}

/// On GL, wgpu reads members after an `@size` gap from the wrong offset (gfx-rs/wgpu#4374):
/// vgpu refuses such a binding there with a clear error, and renders it everywhere else.
#[test]
fn gl_layout_hazards_are_refused_on_gl_and_rendered_elsewhere() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    let shader = gpu
        .shader(
            "gapped",
            "
            struct Style { @size(32) pad: f32, color: vec4f }
            @group(0) @binding(0) var<uniform> style: Style;
            @vertex fn vs_main(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
                var p = array<vec2f, 3>(vec2f(-1.0, -1.0), vec2f(3.0, -1.0), vec2f(-1.0, 3.0));
                return vec4f(p[i], 0.0, 1.0);
            }
            @fragment fn fs_main() -> @location(0) vec4f { return style.color; }",
        )
        .expect("valid WGSL");
    let result = gpu.draw(&shader, DrawDesc::default());
    if gpu.adapter_info().backend == wgpu::Backend::Gl {
        let e = result.expect_err("refused on GL");
        assert_eq!(e.code(), "VGPU-SHADER-GL-LAYOUT");
        assert!(
            e.to_string().contains("style") && e.to_string().contains("$.color"),
            "{e}"
        );
    } else {
        let draw = result.expect("accepted off GL");
        draw.set("style", value! { pad: 0.0, color: [0.0, 1.0, 0.0, 1.0] })
            .expect("set");
        let target = gpu.target(4, 4).expect("target");
        gpu.frame(|f| f.pass(&target, |p| p.draw(&draw)))
            .expect("frame");
        assert_eq!(
            target.read_rgba8().expect("read").pixel(1, 1),
            Some([0, 255, 0, 255])
        );
    }
}
