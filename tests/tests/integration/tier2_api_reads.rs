//! Tier 2 (real device; the recording and its counters also on noop): the success path of
//! `ComputePass::dispatch_indirect` (what the indirect dispatch wrote, read back), and the async
//! read-backs `Target::read_f32_async` and `Target::read_depth_async` (known values).

use vgpu::{BufferDesc, ComputeDesc, Gpu, PassDesc, TargetDesc};

/// Whether the adapter runs compute shaders and indirect dispatches (says so when not).
fn has_indirect_compute(gpu: &Gpu) -> bool {
    let needed = wgpu::DownlevelFlags::COMPUTE_SHADERS | wgpu::DownlevelFlags::INDIRECT_EXECUTION;
    let flags = gpu.context().adapter().get_downlevel_capabilities().flags;
    if !flags.contains(needed) {
        vgpu_tests::skip(
            "compute",
            &format!("no compute shaders or indirect execution on this adapter ({flags:?})"),
        );
        return false;
    }
    true
}

/// Each workgroup `(x, y, z)` counts itself in `hits[x + 4y + 16z]`; `cs_args` writes the
/// workgroup counts `(2, 3, 1)` for a later indirect dispatch.
const HITS: &str = "
@group(0) @binding(0) var<storage, read_write> hits: array<atomic<u32>, 32>;
@compute @workgroup_size(1) fn cs_main(@builtin(workgroup_id) id: vec3u) {
    atomicAdd(&hits[id.x + 4u * id.y + 16u * id.z], 1u);
}
";
const ARGS: &str = "
@group(0) @binding(0) var<storage, read_write> args: array<u32, 3>;
@compute @workgroup_size(1) fn cs_main() {
    args = array<u32, 3>(2u, 3u, 1u);
}
";

/// The hits a dispatch of `x × y × z` workgroups leaves.
fn expected_hits(x: u32, y: u32, z: u32) -> Vec<u32> {
    let mut hits = vec![0; 32];
    for k in 0..z {
        for j in 0..y {
            for i in 0..x {
                hits[(i + 4 * j + 16 * k) as usize] += 1;
            }
        }
    }
    hits
}

/// `dispatch_indirect` runs the workgroup counts it finds in the buffer at the offset given —
/// written by the CPU (at offset 12, after other counts) or by an earlier compute pass of the
/// same frame — and each such dispatch counts as one recorded operation.
#[test]
fn dispatch_indirect_runs_the_workgroup_counts_read_from_the_buffer() {
    vgpu_tests::each_gpu(|gpu| {
        if !has_indirect_compute(gpu) {
            return;
        }
        let shader = gpu.shader("hits", HITS).expect("shader");
        let k = gpu
            .compute(
                &shader,
                ComputeDesc {
                    label: "hits".into(),
                    ..Default::default()
                },
            )
            .expect("compute");
        let hits = gpu
            .buffer(&BufferDesc {
                label: "hits".into(),
                size: 32 * 4,
                usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
            })
            .expect("buffer");
        k.set("hits", &hits).expect("set hits");
        // Two sets of counts: (1, 1, 1) at offset 0, (3, 2, 2) at offset 12.
        let counts: [u32; 6] = [1, 1, 1, 3, 2, 2];
        let indirect = gpu
            .buffer_init(
                "indirect counts",
                bytemuck::cast_slice(&counts),
                wgpu::BufferUsages::INDIRECT,
            )
            .expect("indirect buffer");
        let report = gpu
            .frame(|f| f.compute_pass(|c| c.dispatch_indirect(&k, &indirect, 12)))
            .expect("frame");
        assert_eq!(report.stats.operations_recorded, 1);
        if !gpu.is_noop() {
            let words: Vec<u32> = bytemuck::pod_collect_to_vec(&hits.read_blocking().unwrap());
            assert_eq!(words, expected_hits(3, 2, 2), "the counts at offset 12");
        }

        // Counts written on the GPU by one compute pass, dispatched from by the next.
        hits.write(0, &[0; 32 * 4]).expect("clear hits");
        let args = gpu
            .buffer(&BufferDesc {
                label: "gpu args".into(),
                size: 12,
                usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::INDIRECT,
            })
            .expect("args buffer");
        let writer = gpu
            .compute(
                &gpu.shader("args", ARGS).expect("shader"),
                ComputeDesc {
                    label: "args".into(),
                    ..Default::default()
                },
            )
            .expect("compute");
        writer.set("args", &args).expect("set args");
        let report = gpu
            .frame(|f| {
                f.compute_pass(|c| c.dispatch(&writer, 1, 1, 1))?;
                f.compute_pass(|c| c.dispatch_indirect(&k, &args, 0))
            })
            .expect("frame");
        assert_eq!(report.stats.operations_recorded, 2);
        if !gpu.is_noop() {
            let words: Vec<u32> = bytemuck::pod_collect_to_vec(&hits.read_blocking().unwrap());
            assert_eq!(words, expected_hits(2, 3, 1), "the counts the GPU wrote");
        }
    });
}

/// `read_f32_async` reads back the values a pass wrote: exactly, from a float target (values
/// outside 0..=1 too), and as `n / 255` from an 8-bit one; the same as the blocking read.
#[test]
fn read_f32_async_reads_back_known_values() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    let draw = vgpu_tests::fullscreen(
        &gpu,
        "known",
        "@fragment fn fs_main(@builtin(position) p: vec4f) -> @location(0) vec4f {
             return vec4f(0.25 * floor(p.x), -1.5, 3.0, 0.5);
         }",
    );
    // Rgba32Float where it is renderable (not on GL's llvmpipe), Rgba16Float (which holds these
    // values exactly) everywhere.
    let float_targets: Vec<_> = [
        wgpu::TextureFormat::Rgba32Float,
        wgpu::TextureFormat::Rgba16Float,
    ]
    .into_iter()
    .filter(|&format| {
        let renderable = gpu
            .context()
            .format_features(format)
            .allowed_usages
            .contains(wgpu::TextureUsages::RENDER_ATTACHMENT);
        if !renderable {
            vgpu_tests::skip(
                "float-render",
                &format!("{format:?} is not renderable on this adapter: not read back"),
            );
        }
        renderable || format == wgpu::TextureFormat::Rgba16Float
    })
    .map(|format| {
        gpu.target_with(&TargetDesc::new(4, 2).format(format))
            .unwrap_or_else(|e| panic!("an {format:?} target: {e}"))
    })
    .collect();
    let unorm = gpu.target(4, 2).expect("an Rgba8Unorm target");
    gpu.frame(|f| {
        for target in &float_targets {
            f.pass(target, |p| p.draw(&draw))?;
        }
        f.pass(&unorm, |p| p.draw(&draw))
    })
    .expect("frame");

    for target in &float_targets {
        let format = target.format();
        let floats = pollster::block_on(target.read_f32_async()).expect("async read");
        assert_eq!(floats.len(), 8);
        for (i, px) in floats.iter().enumerate() {
            let x = (i % 4) as f32;
            assert_eq!(*px, [0.25 * x, -1.5, 3.0, 0.5], "{format:?} pixel {i}");
        }
        assert_eq!(floats, target.read_f32().expect("blocking read"));
    }

    let eights = pollster::block_on(unorm.read_f32_async()).expect("async read");
    assert_eq!(eights.len(), 8);
    for (i, px) in eights.iter().enumerate() {
        // 0.25 x in 8 bits (x = 0..3), then -1.5 and 3.0 clamped, 0.5 rounded to 128.
        let red = [0.0, 64.0, 128.0, 191.0][i % 4] / 255.0;
        let expected = [red, 0.0, 1.0, 128.0 / 255.0];
        assert!(
            px.iter().zip(expected).all(|(a, b)| (a - b).abs() < 1e-6),
            "unorm pixel {i}: {px:?}, expected {expected:?}"
        );
    }
    assert_eq!(eights, unorm.read_f32().expect("blocking read"));
    assert!(gpu.take_uncaptured_errors().is_empty());
}

/// `read_depth_async` reads back the depth a pass left: the cleared depth where nothing was
/// drawn, the drawn depth where a triangle was, exactly; refused on a target without depth.
#[test]
fn read_depth_async_reads_back_the_cleared_and_the_drawn_depth() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    // The left half of the target, at depth 0.25.
    let shader = gpu
        .shader(
            "left half",
            "@vertex fn vs_main(@builtin(vertex_index) v: u32) -> @builtin(position) vec4f {
                 var xs = array<f32, 6>(-1.0, 0.0, -1.0, -1.0, 0.0, 0.0);
                 var ys = array<f32, 6>(-1.0, -1.0, 1.0, 1.0, -1.0, 1.0);
                 return vec4f(xs[v], ys[v], 0.25, 1.0);
             }
             @fragment fn fs_main() -> @location(0) vec4f { return vec4f(1.0); }",
        )
        .expect("shader");
    let draw = gpu
        .draw(
            &shader,
            vgpu::DrawDesc {
                label: "left half".into(),
                vertex_count: Some(6),
                ..Default::default()
            },
        )
        .expect("draw");
    let target = gpu
        .target_with(&TargetDesc::new(4, 2).depth(wgpu::TextureFormat::Depth32Float))
        .expect("a target with depth");
    gpu.frame(|f| f.pass(PassDesc::new(&target).clear_depth(0.75), |p| p.draw(&draw)))
        .expect("frame");
    // Refused up front on a target without depth.
    let no_depth = gpu.target(4, 2).expect("target");
    let e = pollster::block_on(no_depth.read_depth_async()).expect_err("no depth attachment");
    assert_eq!(e.code(), "VGPU-TARGET-FORMAT", "{e}");
    let read = pollster::block_on(target.read_depth_async());
    let copies_depth = gpu
        .context()
        .adapter()
        .get_downlevel_capabilities()
        .flags
        .contains(wgpu::DownlevelFlags::DEPTH_TEXTURE_AND_BUFFER_COPIES);
    if !copies_depth {
        // GL: wgpu cannot copy a depth texture to a buffer there; the read fails, typed.
        let e = read.expect_err("no depth copies on this adapter");
        assert_eq!(e.code(), "VGPU-DEVICE-VALIDATION", "{e}");
        assert!(
            e.to_string().contains("DEPTH_TEXTURE_AND_BUFFER_COPIES"),
            "{e}"
        );
        vgpu_tests::skip(
            "depth-read-back",
            "this adapter cannot copy depth textures (DEPTH_TEXTURE_AND_BUFFER_COPIES): \
             the refusal checked, not the values",
        );
        return;
    }
    let depth = read.expect("async depth read");
    let expected: Vec<f32> = (0..8)
        .map(|i| if i % 4 < 2 { 0.25 } else { 0.75 })
        .collect();
    assert_eq!(depth, expected);
    assert_eq!(depth, target.read_depth().expect("blocking depth read"));

    assert!(gpu.take_uncaptured_errors().is_empty());
}
