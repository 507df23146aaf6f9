//! Tier 1 (noop, then the real device unless `VGPU_BACKEND=noop`): public API that returns
//! information rather than pixels — `Error::as_target` / `as_buffer` / `as_shader` /
//! `as_binding`, `Shader::reflection`, and two `Gpu`s over one context
//! (`Gpu::from_context`) sharing its counters.

use vgpu::{BufferDesc, DrawDesc, Error, Gpu, PassDesc, TargetDesc};
use vgpu_core::{BindingKind, Stage};

/// Which of the four kind accessors return `Some`, in the order target, buffer, shader,
/// binding; the others of `Error` (device, set, frame, foreign GPU) must say `None` for these
/// four kinds.
fn kinds(e: &Error) -> [bool; 4] {
    assert!(
        e.as_device().is_none()
            && e.as_set().is_none()
            && e.as_frame().is_none()
            && e.as_foreign_gpu().is_none(),
        "{e:?}"
    );
    [
        e.as_target().is_some(),
        e.as_buffer().is_some(),
        e.as_shader().is_some(),
        e.as_binding().is_some(),
    ]
}

/// Each accessor returns `Some` for an error of its kind (the variant the operation produced)
/// and `None` for the other kinds.
#[test]
fn error_kind_accessors_return_some_only_for_their_kind() {
    vgpu_tests::each_gpu(|gpu| {
        // A target: asked for with a zero size.
        let e = gpu
            .target_with(&TargetDesc::new(0, 4))
            .expect_err("a zero-sized target");
        assert_eq!(e.code(), "VGPU-TARGET-SIZE", "{e}");
        assert_eq!(kinds(&e), [true, false, false, false], "{e:?}");
        assert!(
            matches!(e.as_target(), Some(vgpu::TargetError::Size { actual, .. }) if *actual == (0, 4)),
            "{e:#?}"
        );

        // A buffer: a misaligned write.
        let buffer = gpu
            .buffer(&BufferDesc {
                label: "aligned".into(),
                size: 16,
                usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::UNIFORM,
            })
            .expect("buffer");
        let e = buffer.write(2, &[0; 4]).expect_err("a misaligned write");
        assert_eq!(e.code(), "VGPU-BUFFER-RANGE", "{e}");
        assert_eq!(kinds(&e), [false, true, false, false], "{e:?}");
        assert!(
            matches!(e.as_buffer(), Some(vgpu::BufferError::Range { label, .. }) if label == "aligned"),
            "{e:#?}"
        );

        // A shader: WGSL that does not parse.
        let e = gpu
            .shader("broken", "fn (")
            .expect_err("a shader that does not parse");
        assert_eq!(e.code(), "VGPU-SHADER-PARSE", "{e}");
        assert_eq!(kinds(&e), [false, false, true, false], "{e:?}");
        assert!(
            matches!(e.as_shader(), Some(vgpu::ShaderError::Parse { label, .. }) if label == "broken"),
            "{e:#?}"
        );

        // A binding: a sampler given to a storage buffer.
        let shader = gpu
            .shader(
                "storage",
                &format!(
                    "@group(0) @binding(0) var<storage, read> data: array<vec4f>;
                     @fragment fn fs_main() -> @location(0) vec4f {{ return data[0]; }}
                     {}",
                    vgpu_tests::FULLSCREEN_VS
                ),
            )
            .expect("shader");
        let draw = gpu
            .draw(
                &shader,
                DrawDesc {
                    label: "storage".into(),
                    ..Default::default()
                },
            )
            .expect("draw");
        let sampler = gpu.sampler(&Default::default()).expect("sampler");
        let e = draw
            .set("data", &sampler)
            .expect_err("a sampler for a storage buffer");
        assert_eq!(e.code(), "VGPU-SET-KIND", "{e}");
        assert_eq!(kinds(&e), [false, false, false, true], "{e:?}");
        assert!(
            matches!(e.as_binding(), Some(vgpu::BindingError::Kind { binding, .. }) if binding == "data"),
            "{e:#?}"
        );
    });
}

const REFLECTED: &str = "
struct Params { tint: vec4f, scale: f32 }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var color_map: texture_2d<f32>;
@group(0) @binding(2) var color_sampler: sampler;
@group(1) @binding(0) var<storage, read_write> counts: array<u32>;

struct VertexOut { @builtin(position) position: vec4f, @location(0) uv: vec2f }

@vertex fn vs_main(@location(0) corner: vec2f, @location(3) lift: f32) -> VertexOut {
    return VertexOut(vec4f(corner * params.scale, lift, 1.0), corner);
}
@fragment fn fs_main(v: VertexOut) -> @location(0) vec4f {
    return params.tint * textureSample(color_map, color_sampler, v.uv);
}
@compute @workgroup_size(8, 4, 1) fn cs_count(@builtin(global_invocation_id) id: vec3u) {
    counts[id.x] = id.y;
}
";

/// `Shader::reflection` lists the bindings of a known WGSL (name, group, binding, kind, the
/// stages that use each, type) and its entry points (stage, workgroup size, vertex inputs,
/// fragment outputs, the bindings each uses).
#[test]
fn shader_reflection_lists_the_bindings_and_entry_points_of_a_known_shader() {
    vgpu_tests::each_gpu(|gpu| {
        let shader = gpu.shader("reflected", REFLECTED).expect("shader");
        let r = shader.reflection();
        assert_eq!(r.label(), "reflected");
        let bindings: Vec<_> = r
            .bindings()
            .iter()
            .map(|b| (b.name.as_str(), b.group, b.binding, b.visibility))
            .collect();
        let (vf, f, c) = (
            wgpu::ShaderStages::VERTEX | wgpu::ShaderStages::FRAGMENT,
            wgpu::ShaderStages::FRAGMENT,
            wgpu::ShaderStages::COMPUTE,
        );
        assert_eq!(
            bindings,
            [
                ("params", 0, 0, vf),
                ("color_map", 0, 1, f),
                ("color_sampler", 0, 2, f),
                ("counts", 1, 0, c),
            ]
        );
        let params = r.binding("params").expect("params");
        assert_eq!(params.kind, BindingKind::UniformBuffer);
        assert_eq!(params.type_name, "Params");
        // vec4f at 0, f32 at 16, rounded up to the struct's 16-byte alignment.
        assert_eq!(params.min_binding_size().map(|s| s.get()), Some(32));
        assert!(matches!(
            r.binding("color_map").expect("color_map").kind,
            BindingKind::Texture {
                sample_type: wgpu::TextureSampleType::Float { filterable: true },
                view_dimension: wgpu::TextureViewDimension::D2,
                multisampled: false,
            }
        ));
        assert_eq!(
            r.binding("color_sampler").expect("sampler").kind,
            BindingKind::Sampler(wgpu::SamplerBindingType::Filtering)
        );
        assert_eq!(
            r.binding("counts").expect("counts").kind,
            BindingKind::StorageBuffer { read_only: false }
        );
        assert!(r.binding("missing").is_none());

        let entries: Vec<_> = r
            .entry_points()
            .iter()
            .map(|e| {
                (
                    e.name.as_str(),
                    e.stage,
                    e.workgroup_size,
                    e.bindings.clone(),
                )
            })
            .collect();
        assert_eq!(
            entries,
            [
                ("vs_main", Stage::Vertex, [0, 0, 0], vec![0]),
                ("fs_main", Stage::Fragment, [0, 0, 0], vec![0, 1, 2]),
                ("cs_count", Stage::Compute, [8, 4, 1], vec![3]),
            ]
        );
        let vs = r.entry_point_named("vs_main").expect("vs_main");
        let inputs: Vec<_> = vs
            .vertex_inputs
            .iter()
            .map(|i| (i.name.as_str(), i.location, i.format))
            .collect();
        assert_eq!(
            inputs,
            [
                ("corner", 0, wgpu::VertexFormat::Float32x2),
                ("lift", 3, wgpu::VertexFormat::Float32),
            ]
        );
        let fs = r.entry_point(Stage::Fragment, None).expect("fs_main");
        let outputs: Vec<_> = fs
            .fragment_outputs
            .iter()
            .map(|o| (o.location, o.components))
            .collect();
        assert_eq!(outputs, [(0, 4)]);
        assert_eq!(
            r.entry_point(Stage::Compute, None)
                .expect("the only compute")
                .name,
            "cs_count"
        );
    });
}

/// Two `Gpu`s over one context (`Gpu::from_context`) share its counters, as documented: what
/// either creates, records or submits shows in both `stats()`, which stay equal. Everything
/// else is each `Gpu`'s own: its frame numbers, its handles (the other refuses them with
/// `VGPU-FOREIGN-GPU`), and both render.
#[test]
fn gpus_over_one_context_share_its_counters() {
    vgpu_tests::each_gpu(|a| {
        let b = Gpu::from_context(a.context().clone());
        assert!(std::sync::Arc::ptr_eq(a.context(), b.context()));
        let first = a.frame(|_| Ok(())).expect("a frame of a");
        let start = a.stats();
        assert_eq!(b.stats(), start, "one set of counters");

        let draw = vgpu_tests::fullscreen(
            &b,
            "b's draw",
            "@fragment fn fs_main() -> @location(0) vec4f { return vec4f(0.0, 1.0, 0.0, 1.0); }",
        );
        let target = b.target(4, 4).expect("b's target");
        let report = b
            .frame(|f| f.pass(&target, |p| p.draw(&draw)))
            .expect("a frame of b");
        // b's first frame, whatever a numbered before it.
        assert_eq!(report.index, 1, "frame numbers are per Gpu");
        assert!(first.index >= 1);
        let seen_by_a = a.stats() - start;
        assert_eq!(b.stats() - start, seen_by_a);
        assert_eq!(
            seen_by_a.operations_recorded, 1,
            "b's draw, counted for a: {seen_by_a:?}"
        );
        assert_eq!(seen_by_a.shader_modules_created, 1, "{seen_by_a:?}");
        assert_eq!(seen_by_a.pipelines_created, 1, "{seen_by_a:?}");
        assert!(seen_by_a.textures_created >= 1, "b's target: {seen_by_a:?}");
        assert!(seen_by_a.submissions >= 1, "b's frame: {seen_by_a:?}");

        // And the other way: a's frame shows in b's counters.
        let before = b.stats();
        let a_target = a.target(4, 4).expect("a's target");
        a.frame(|f| {
            f.pass(PassDesc::new(&a_target).clear([1.0, 0.0, 0.0, 1.0]), |_| {
                Ok(())
            })
        })
        .expect("a frame of a");
        let seen_by_b = b.stats() - before;
        assert!(seen_by_b.submissions >= 1, "a's frame: {seen_by_b:?}");
        assert!(seen_by_b.textures_created >= 1, "a's target: {seen_by_b:?}");
        assert_eq!(a.stats(), b.stats());

        // Handles stay their Gpu's own.
        let e = a
            .frame(|f| f.pass(&target, |_| Ok(())))
            .expect_err("b's target in a's frame");
        assert_eq!(e.code(), "VGPU-FOREIGN-GPU", "{e}");

        if !a.is_noop() {
            let image = target.read_rgba8().expect("b's pixels");
            vgpu_tests::assert_all_pixels(&image, [0, 255, 0, 255], "b's frame");
            let image = a_target.read_rgba8().expect("a's pixels");
            vgpu_tests::assert_all_pixels(&image, [255, 0, 0, 255], "a's frame");
        }
        assert!(b.take_uncaptured_errors().is_empty());
    });
}
