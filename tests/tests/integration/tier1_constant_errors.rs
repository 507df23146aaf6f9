//! Tier 1 (noop; one test also dispatches on the real device): `ComputeDesc::constants` checked against the shader's `override`s at
//! `Gpu::compute`, before wgpu sees them — each `VGPU-CONSTANT-…` code, naming the compute, and
//! a rejected compute creates nothing (every counter unchanged).

#![allow(clippy::unwrap_used, reason = "an unwrap in a test is an assertion")]

use vgpu::{ComputeDesc, Gpu};

const SRC: &str = "
override scale: f32 = 1.0;
@id(7) override count: u32;
override flag: bool = false;
@group(0) @binding(0) var<storage, read_write> out: array<f32>;
@compute @workgroup_size(1) fn cs_main(@builtin(global_invocation_id) id: vec3u) {
    if flag { out[id.x] = scale * f32(count); }
}
";

/// The error `Gpu::compute` returns for `constants`; asserts it named the compute and changed
/// no counter.
fn rejected(gpu: &Gpu, constants: &[(&str, f64)]) -> vgpu::Error {
    let shader = gpu.shader("constants.wgsl", SRC).unwrap();
    let before = gpu.stats();
    let e = gpu
        .compute(
            &shader,
            ComputeDesc {
                label: "my kernel".into(),
                constants: constants.iter().map(|(k, v)| ((*k).into(), *v)).collect(),
                ..Default::default()
            },
        )
        .unwrap_err();
    assert_eq!(
        gpu.stats(),
        before,
        "a rejected compute created something: {e}"
    );
    assert!(e.to_string().contains("\"my kernel\""), "{e}");
    assert!(e.as_shader().is_some(), "{e:?}");
    e
}

#[test]
fn an_unknown_constant_is_refused_with_a_suggestion() {
    let gpu = Gpu::noop();
    let e = rejected(&gpu, &[("count", 1.0), ("scael", 2.0)]);
    assert_eq!(e.code(), "VGPU-CONSTANT-UNKNOWN");
    assert!(e.to_string().contains("did you mean `scale`?"), "{e}");
    // An id no override has.
    let e = rejected(&gpu, &[("count", 1.0), ("8", 2.0)]);
    assert_eq!(e.code(), "VGPU-CONSTANT-UNKNOWN");
}

#[test]
fn a_constant_its_type_cannot_hold_is_refused() {
    let gpu = Gpu::noop();
    for (key, value) in [
        ("count", -1.0),
        ("count", 2.5),
        ("flag", 0.5),
        ("scale", f64::NAN),
    ] {
        let mut constants = vec![(key, value)];
        if key != "count" {
            constants.push(("count", 1.0));
        }
        let e = rejected(&gpu, &constants);
        assert_eq!(e.code(), "VGPU-CONSTANT-TYPE");
        assert!(e.to_string().contains(&format!("`{key}`")), "{e}");
    }
}

#[test]
fn a_required_override_without_value_is_refused() {
    let gpu = Gpu::noop();
    let e = rejected(&gpu, &[("scale", 2.0)]);
    assert_eq!(e.code(), "VGPU-CONSTANT-MISSING");
    assert!(e.to_string().contains("`count`"), "{e}");
}

#[test]
fn one_override_given_twice_is_refused() {
    let gpu = Gpu::noop();
    let e = rejected(&gpu, &[("count", 1.0), ("7", 1.0)]);
    assert_eq!(e.code(), "VGPU-CONSTANT-DUPLICATE");
    let e = rejected(&gpu, &[("scale", 1.0), ("count", 1.0), ("scale", 2.0)]);
    assert_eq!(e.code(), "VGPU-CONSTANT-DUPLICATE");
}

/// The same constants, valid, make a compute that dispatches.
#[test]
fn valid_constants_make_a_compute() {
    let gpu = Gpu::noop();
    let shader = gpu.shader("constants.wgsl", SRC).unwrap();
    let k = gpu
        .compute(
            &shader,
            ComputeDesc {
                constants: vec![("7".into(), 3.0), ("flag".into(), 1.0)],
                ..Default::default()
            },
        )
        .unwrap();
    let out = gpu
        .buffer(&vgpu::BufferDesc {
            label: "out".into(),
            size: 16,
            usage: wgpu::BufferUsages::STORAGE,
        })
        .unwrap();
    k.set("out", &out).unwrap();
    let before = gpu.stats();
    gpu.frame(|f| f.compute_pass(|c| c.dispatch(&k, 1, 1, 1)))
        .unwrap();
    assert_eq!(gpu.stats().pipelines_created - before.pipelines_created, 1);
    assert!(gpu.take_uncaptured_errors().is_empty());
}

/// A required override that only another entry point of the module uses needs no value (WebGPU's
/// rule), and the compute dispatches without a wgpu error.
#[test]
fn a_required_override_of_another_kernel_is_not_needed() {
    vgpu_tests::each_gpu(|gpu| {
        let shader = gpu
            .shader(
                "two kernels",
                "override a: u32;
             override b: u32;
             @compute @workgroup_size(1) fn first() { _ = a; }
             @compute @workgroup_size(1) fn second() { _ = b; }",
            )
            .unwrap();
        let k = gpu
            .compute(
                &shader,
                ComputeDesc {
                    entry_point: Some("first".into()),
                    constants: vec![("a".into(), 1.0)],
                    ..Default::default()
                },
            )
            .unwrap();
        gpu.frame(|f| f.compute_pass(|c| c.dispatch(&k, 1, 1, 1)))
            .unwrap();
        assert!(gpu.take_uncaptured_errors().is_empty());
        let e = gpu
            .compute(
                &shader,
                ComputeDesc {
                    entry_point: Some("second".into()),
                    constants: vec![("a".into(), 1.0)],
                    ..Default::default()
                },
            )
            .unwrap_err();
        assert_eq!(e.code(), "VGPU-CONSTANT-MISSING");
        assert!(e.to_string().contains("`b`"), "{e}");
    });
}
