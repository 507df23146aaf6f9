//! Tier 2 (real device; the pipeline counts also on noop): WGSL `override` constants set per
//! compute (`ComputeDesc::constants`) and per draw (`DrawDesc::constants`). Values read back
//! from a storage buffer and from pixels; computes of one shader with equal constants share a
//! pipeline, other constants make another pipeline of the same shader module.

#![allow(clippy::unwrap_used, reason = "an unwrap in a test is an assertion")]

use vgpu::{BufferDesc, Compute, ComputeDesc, DrawDesc, Gpu};

/// Writes `scale * i + offset` to `out[i]`; `offset` has an `@id`, so wgpu needs its key as
/// `"5"` whichever key the caller used.
const SCALED: &str = "
override scale: f32 = 1.0;
@id(5) override offset: f32 = 0.0;
@group(0) @binding(0) var<storage, read_write> out: array<f32>;
@compute @workgroup_size(8) fn cs_main(@builtin(global_invocation_id) id: vec3u) {
    if id.x < arrayLength(&out) {
        out[id.x] = scale * f32(id.x) + offset;
    }
}
";

/// Values written by each compute.
const N: u32 = 16;

fn scaled(gpu: &Gpu, shader: &vgpu::Shader, label: &str, constants: &[(&str, f64)]) -> Compute {
    gpu.compute(
        shader,
        ComputeDesc {
            label: label.into(),
            constants: constants.iter().map(|(k, v)| ((*k).into(), *v)).collect(),
            ..Default::default()
        },
    )
    .unwrap()
}

fn storage(gpu: &Gpu, label: &str) -> vgpu::Buffer {
    gpu.buffer(&BufferDesc {
        label: label.into(),
        size: u64::from(N) * 4,
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
    })
    .unwrap()
}

fn read_f32s(buffer: &vgpu::Buffer) -> Vec<f32> {
    bytemuck::pod_collect_to_vec(&buffer.read_blocking().unwrap())
}

/// Two computes of one shader with other constants write their own values, from one shader
/// module and two pipelines; computes whose constants equal an earlier one's (by name or by
/// `@id`, in any order) create no pipeline.
#[test]
fn computes_with_other_constants_get_their_own_pipeline_of_one_module() {
    vgpu_tests::each_gpu(|gpu| {
        let shader = gpu.shader("scaled", SCALED).unwrap();
        let doubled = scaled(gpu, &shader, "doubled", &[("scale", 2.0)]);
        let tripled = scaled(gpu, &shader, "tripled", &[("scale", 3.0), ("offset", 10.0)]);
        let (a, b) = (storage(gpu, "a"), storage(gpu, "b"));
        doubled.set("out", &a).unwrap();
        tripled.set("out", &b).unwrap();
        let before = gpu.stats();
        gpu.frame(|f| {
            f.compute_pass(|c| {
                c.dispatch(&doubled, N / 8, 1, 1)?;
                c.dispatch(&tripled, N / 8, 1, 1)
            })
        })
        .unwrap();
        let after = gpu.stats();
        assert_eq!(after.pipelines_created - before.pipelines_created, 2);
        assert_eq!(
            after.shader_modules_created - before.shader_modules_created,
            1
        );
        if !gpu.is_noop() {
            let expect = |s: f32, o: f32| (0..N).map(|i| s * i as f32 + o).collect::<Vec<_>>();
            assert_eq!(read_f32s(&a), expect(2.0, 0.0), "scale 2");
            assert_eq!(
                read_f32s(&b),
                expect(3.0, 10.0),
                "scale 3, offset 10 (by name)"
            );
        }

        // The same sets again: by name, and by `@id` in another order.
        let again = scaled(gpu, &shader, "doubled again", &[("scale", 2.0)]);
        let by_id = scaled(
            gpu,
            &shader,
            "tripled by id",
            &[("5", 10.0), ("scale", 3.0)],
        );
        let (c, d) = (storage(gpu, "c"), storage(gpu, "d"));
        again.set("out", &c).unwrap();
        by_id.set("out", &d).unwrap();
        let before = gpu.stats();
        gpu.frame(|f| {
            f.compute_pass(|p| {
                p.dispatch(&again, N / 8, 1, 1)?;
                p.dispatch(&by_id, N / 8, 1, 1)
            })
        })
        .unwrap();
        assert_eq!(gpu.stats().pipelines_created, before.pipelines_created);
        if !gpu.is_noop() {
            assert_eq!(read_f32s(&c), read_f32s(&a));
            assert_eq!(read_f32s(&d), read_f32s(&b));
        }
    });
}

/// A workgroup size given by an override follows the compute's constants: `workgroup_size()`
/// says it, and a dispatch of `N / size` workgroups covers exactly `N` invocations.
#[test]
fn an_override_workgroup_size_follows_the_constants() {
    const SRC: &str = "
        override wg: u32 = 2u;
        @group(0) @binding(0) var<storage, read_write> out: array<u32>;
        @compute @workgroup_size(wg) fn cs_main(@builtin(global_invocation_id) id: vec3u) {
            out[id.x] = id.x + 1u;
        }";
    vgpu_tests::each_gpu(|gpu| {
        let shader = gpu.shader("wg", SRC).unwrap();
        let default = scaled(gpu, &shader, "default size", &[]);
        let wide = scaled(gpu, &shader, "wide", &[("wg", 8.0)]);
        assert_eq!(default.workgroup_size(), [2, 1, 1]);
        assert_eq!(wide.workgroup_size(), [8, 1, 1]);
        let out = storage(gpu, "out");
        wide.set("out", &out).unwrap();
        let groups = N / wide.workgroup_size()[0];
        gpu.frame(|f| f.compute_pass(|c| c.dispatch(&wide, groups, 1, 1)))
            .unwrap();
        if !gpu.is_noop() {
            let words: Vec<u32> = bytemuck::pod_collect_to_vec(&out.read_blocking().unwrap());
            assert_eq!(words, (1..=N).collect::<Vec<_>>());
        }
    });
}

/// A draw's constants reach its fragment stage: `tint` 0.5 colors the target half red.
#[test]
fn a_draw_override_colors_the_pixels() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    let shader = gpu
        .shader(
            "tint",
            &format!(
                "override tint: f32 = 1.0;
                 @fragment fn fs_main() -> @location(0) vec4f {{ return vec4f(tint, 0.0, 0.0, 1.0); }}
                 {}",
                vgpu_tests::FULLSCREEN_VS
            ),
        )
        .unwrap();
    let draw = |label: &str, constants: Vec<(String, f64)>| {
        gpu.draw(
            &shader,
            DrawDesc {
                label: label.into(),
                constants,
                ..Default::default()
            },
        )
        .unwrap()
    };
    let half = draw("half", vec![("tint".into(), 0.5)]);
    let full = draw("full", Vec::new());
    let (t_half, t_full) = (gpu.target(2, 2).unwrap(), gpu.target(2, 2).unwrap());
    gpu.frame(|f| {
        f.pass(&t_half, |p| p.draw(&half))?;
        f.pass(&t_full, |p| p.draw(&full))
    })
    .unwrap();
    let red = t_half.read_rgba8().unwrap().pixel(0, 0).unwrap()[0];
    assert!((127..=128).contains(&red), "tint 0.5: red {red}");
    vgpu_tests::assert_all_pixels(
        &t_full.read_rgba8().unwrap(),
        [255, 0, 0, 255],
        "default tint",
    );
}
