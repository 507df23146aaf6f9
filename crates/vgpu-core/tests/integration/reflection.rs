//! Tier 0 (pure CPU): reflection of entry points and bindings, layout descriptions and shader
//! errors.

#![allow(clippy::unwrap_used, reason = "an unwrap in a test is an assertion")]

use vgpu_core::{BindingKind, ErrorCode, SetError, Shader, ShaderError, Stage};

const SCENE: &str = r#"
struct Camera { view_projection: mat4x4<f32> }
struct Object { world: mat4x4<f32>, color: vec4<f32> }
struct Material { color: vec4<f32>, roughness: f32 }

@group(0) @binding(0) var<uniform> camera: Camera;
@group(1) @binding(0) var<uniform> object: Object;
@group(1) @binding(1) var<uniform> material: Material;
@group(1) @binding(2) var albedo: texture_2d<f32>;
@group(1) @binding(3) var albedo_sampler: sampler;
@group(1) @binding(4) var shadow: texture_depth_2d;
@group(1) @binding(5) var shadow_sampler: sampler_comparison;

struct VsIn {
    @location(0) position: vec3<f32>,
    @location(2) uv: vec2<f32>,
    @builtin(vertex_index) index: u32,
}
struct VsOut { @builtin(position) pos: vec4<f32>, @location(0) uv: vec2<f32> }

@vertex
fn vs_main(v: VsIn, @location(1) normal: vec3<f32>, @location(3) id: u32) -> VsOut {
    var o: VsOut;
    o.pos = camera.view_projection * object.world * vec4<f32>(v.position + normal * 0.0, 1.0);
    o.uv = v.uv + vec2<f32>(f32(id), 0.0) * 0.0;
    return o;
}

struct FsOut { @location(0) color: vec4<f32>, @location(1) extra: vec2<u32> }

@fragment
fn fs_main(i: VsOut) -> FsOut {
    var o: FsOut;
    let lit = textureSampleCompare(shadow, shadow_sampler, i.uv, 0.5);
    o.color = textureSample(albedo, albedo_sampler, i.uv) * material.color * object.color * lit;
    o.extra = vec2<u32>(1u, 2u);
    return o;
}
"#;

#[test]
fn entry_points_stages_inputs_and_outputs() {
    let s = Shader::new("scene.wgsl", SCENE).unwrap();
    assert_eq!(s.entry_points().len(), 2);
    let vs = s.entry_point(Stage::Vertex, None).unwrap();
    assert_eq!(vs.name, "vs_main");
    let inputs: Vec<_> = vs
        .vertex_inputs
        .iter()
        .map(|i| (i.name.as_str(), i.location, i.format))
        .collect();
    assert_eq!(
        inputs,
        [
            ("position", 0, wgpu::VertexFormat::Float32x3),
            ("normal", 1, wgpu::VertexFormat::Float32x3),
            ("uv", 2, wgpu::VertexFormat::Float32x2),
            ("id", 3, wgpu::VertexFormat::Uint32),
        ]
    );
    let fs = s.entry_point(Stage::Fragment, None).unwrap();
    let outs: Vec<_> = fs
        .fragment_outputs
        .iter()
        .map(|o| (o.name.as_str(), o.location, o.scalar, o.components))
        .collect();
    assert_eq!(
        outs,
        [
            ("color", 0, vgpu_core::ScalarType::F32, 4),
            ("extra", 1, vgpu_core::ScalarType::U32, 2)
        ]
    );
    assert!(vs.fragment_outputs.is_empty() && fs.vertex_inputs.is_empty());
}

#[test]
fn bindings_used_per_entry_point_and_visibility() {
    let s = Shader::new("scene.wgsl", SCENE).unwrap();
    let vs = s.entry_point(Stage::Vertex, None).unwrap();
    let fs = s.entry_point(Stage::Fragment, None).unwrap();
    let names = |e| {
        s.entry_point_bindings(e)
            .map(|b| b.name.as_str())
            .collect::<Vec<_>>()
    };
    assert_eq!(names(vs), ["camera", "object"]);
    assert_eq!(
        names(fs),
        [
            "object",
            "material",
            "albedo",
            "albedo_sampler",
            "shadow",
            "shadow_sampler"
        ]
    );
    use wgpu::ShaderStages as S;
    assert_eq!(s.binding("camera").unwrap().visibility, S::VERTEX);
    assert_eq!(s.binding("object").unwrap().visibility, S::VERTEX_FRAGMENT);
    assert_eq!(s.binding("material").unwrap().visibility, S::FRAGMENT);

    let albedo = s.binding("albedo").unwrap();
    assert_eq!((albedo.group, albedo.binding), (1, 2));
    assert_eq!(
        albedo.kind,
        BindingKind::Texture {
            sample_type: wgpu::TextureSampleType::Float { filterable: true },
            view_dimension: wgpu::TextureViewDimension::D2,
            multisampled: false
        }
    );
    assert!(albedo.layout.is_none() && albedo.plan.is_none());
    assert_eq!(
        s.binding("shadow").unwrap().kind,
        BindingKind::Texture {
            sample_type: wgpu::TextureSampleType::Depth,
            view_dimension: wgpu::TextureViewDimension::D2,
            multisampled: false
        }
    );
    assert_eq!(
        s.binding("albedo_sampler").unwrap().kind,
        BindingKind::Sampler(wgpu::SamplerBindingType::Filtering)
    );
    assert_eq!(
        s.binding("shadow_sampler").unwrap().kind,
        BindingKind::Sampler(wgpu::SamplerBindingType::Comparison)
    );
    let object = s.binding("object").unwrap();
    assert_eq!(object.kind, BindingKind::UniformBuffer);
    assert_eq!(object.min_binding_size().map(|n| n.get()), Some(80));
    assert_eq!(object.type_name, "Object");
    // Both Object and Material are distinct types; Camera is a third: three plans.
    assert_eq!(s.plans_compiled(), 3);
}

#[test]
fn pipeline_layout_merges_vertex_and_fragment_bindings() {
    let s = Shader::new("scene.wgsl", SCENE).unwrap();
    let vs = s.entry_point(Stage::Vertex, None).unwrap();
    let fs = s.entry_point(Stage::Fragment, None).unwrap();
    let pl = s
        .pipeline_layout(&[vs, fs], |b| b.name == "object")
        .unwrap();
    assert_eq!(pl.groups.len(), 2);
    let g1 = pl.group(1).unwrap();
    assert_eq!(
        g1.entries.iter().map(|e| e.binding).collect::<Vec<_>>(),
        [0, 1, 2, 3, 4, 5]
    );
    let object = g1.entry_named("object").unwrap();
    assert_eq!(object.visibility, wgpu::ShaderStages::VERTEX_FRAGMENT);
    assert_eq!(g1.dynamic_offset_count(), 1);
    let wgpu_entries = pl.wgpu_entries();
    assert_eq!(
        wgpu_entries[1][0],
        wgpu::BindGroupLayoutEntry {
            binding: 0,
            visibility: wgpu::ShaderStages::VERTEX_FRAGMENT,
            ty: wgpu::BindingType::Buffer {
                ty: wgpu::BufferBindingType::Uniform,
                has_dynamic_offset: true,
                min_binding_size: wgpu::BufferSize::new(80),
            },
            count: None,
        }
    );
    assert_eq!(wgpu_entries[0][0].visibility, wgpu::ShaderStages::VERTEX);
    // Only the fragment stage: camera (group 0) is unused, so group 0 is a gap.
    let err = s.pipeline_layout(&[fs], |_| false).unwrap_err();
    assert_eq!(err.code(), "VGPU-SHADER-LAYOUT-GAP");
    let ShaderError::LayoutGap { missing, used, .. } = &err else {
        panic!("{err}")
    };
    assert_eq!((*missing, used.as_slice()), (0, &[1][..]));
}

#[test]
fn conflicting_declarations_of_one_binding_are_rejected() {
    let src = r#"
        @group(0) @binding(0) var<uniform> a: vec4<f32>;
        @group(0) @binding(0) var t: texture_2d<f32>;
        @vertex fn vs_main() -> @builtin(position) vec4<f32> { return a; }
        @fragment fn fs_main() -> @location(0) vec4<f32> { return textureLoad(t, vec2<i32>(0), 0); }
    "#;
    let s = Shader::new("conflict", src).unwrap();
    let vs = s.entry_point(Stage::Vertex, None).unwrap();
    let fs = s.entry_point(Stage::Fragment, None).unwrap();
    // Each alone is fine.
    assert!(s.pipeline_layout(&[vs], |_| false).is_ok());
    assert!(s.pipeline_layout(&[fs], |_| false).is_ok());
    let err = s.pipeline_layout(&[vs, fs], |_| false).unwrap_err();
    assert_eq!(err.code(), "VGPU-SHADER-LAYOUT-CONFLICT");
    let ShaderError::LayoutConflict {
        group,
        binding,
        first,
        second,
        ..
    } = &err
    else {
        panic!("{err}")
    };
    assert_eq!((*group, *binding), (0, 0));
    assert!(first.contains("`a: vec4<f32>`"), "{first}");
    assert!(second.contains("`t: texture_2d"), "{second}");
}

#[test]
fn storage_textures_buffers_and_compute_workgroup_size() {
    let src = r#"
        struct Particles { count: u32, data: array<vec4<f32>> }
        @group(0) @binding(0) var<storage, read> input: Particles;
        @group(0) @binding(1) var<storage, read_write> output: array<vec4<f32>>;
        @group(0) @binding(2) var img: texture_storage_2d<rgba8unorm, write>;
        @group(0) @binding(3) var ms: texture_multisampled_2d<f32>;
        @group(0) @binding(4) var arr: texture_2d_array<i32>;
        @group(0) @binding(5) var cube: texture_cube<f32>;
        @group(0) @binding(6) var rw: texture_storage_2d<r32float, read_write>;
        @compute @workgroup_size(8, 4, 2)
        fn main(@builtin(global_invocation_id) id: vec3<u32>) {
            output[id.x] = input.data[id.x] + vec4<f32>(f32(input.count));
            textureStore(img, vec2<i32>(0), vec4<f32>(0.0));
            _ = textureLoad(ms, vec2<i32>(0), 0);
            _ = textureLoad(arr, vec2<i32>(0), 0, 0);
            _ = textureDimensions(cube);
            textureStore(rw, vec2<i32>(0), textureLoad(rw, vec2<i32>(0)));
        }
    "#;
    let s = Shader::new("compute", src).unwrap();
    let cs = s.entry_point(Stage::Compute, None).unwrap();
    assert_eq!(cs.name, "main");
    assert_eq!(cs.workgroup_size, [8, 4, 2]);
    assert_eq!(cs.bindings.len(), 7);
    assert_eq!(
        s.binding("input").unwrap().kind,
        BindingKind::StorageBuffer { read_only: true }
    );
    assert_eq!(
        s.binding("output").unwrap().kind,
        BindingKind::StorageBuffer { read_only: false }
    );
    // Runtime-sized: fixed part 16 + one element of 16.
    assert_eq!(
        s.binding("input")
            .unwrap()
            .min_binding_size()
            .map(|n| n.get()),
        Some(32)
    );
    assert_eq!(
        s.binding("output")
            .unwrap()
            .min_binding_size()
            .map(|n| n.get()),
        Some(16)
    );
    assert_eq!(
        s.binding("img").unwrap().kind,
        BindingKind::StorageTexture {
            format: wgpu::TextureFormat::Rgba8Unorm,
            access: wgpu::StorageTextureAccess::WriteOnly,
            view_dimension: wgpu::TextureViewDimension::D2
        }
    );
    assert_eq!(
        s.binding("rw").unwrap().kind,
        BindingKind::StorageTexture {
            format: wgpu::TextureFormat::R32Float,
            access: wgpu::StorageTextureAccess::ReadWrite,
            view_dimension: wgpu::TextureViewDimension::D2
        }
    );
    assert_eq!(
        s.binding("ms").unwrap().kind,
        BindingKind::Texture {
            sample_type: wgpu::TextureSampleType::Float { filterable: false },
            view_dimension: wgpu::TextureViewDimension::D2,
            multisampled: true
        }
    );
    assert_eq!(
        s.binding("arr").unwrap().kind,
        BindingKind::Texture {
            sample_type: wgpu::TextureSampleType::Sint,
            view_dimension: wgpu::TextureViewDimension::D2Array,
            multisampled: false
        }
    );
    assert!(matches!(
        s.binding("cube").unwrap().kind,
        BindingKind::Texture {
            view_dimension: wgpu::TextureViewDimension::Cube,
            ..
        }
    ));
    assert!(
        s.bindings()
            .iter()
            .all(|b| b.visibility == wgpu::ShaderStages::COMPUTE)
    );
    let pl = s.pipeline_layout(&[cs], |_| false).unwrap();
    assert_eq!(pl.groups[0].entries.len(), 7);
}

#[test]
fn unused_bindings_are_reflected_but_not_in_entry_points() {
    let src = r#"
        @group(0) @binding(0) var<uniform> used: vec4<f32>;
        @group(0) @binding(1) var<uniform> unused: vec4<f32>;
        @compute @workgroup_size(1) fn cs_main() { _ = used; }
    "#;
    let s = Shader::new("unused", src).unwrap();
    assert_eq!(s.bindings().len(), 2);
    assert_eq!(
        s.binding("unused").unwrap().visibility,
        wgpu::ShaderStages::NONE
    );
    let cs = s.entry_point(Stage::Compute, None).unwrap();
    assert_eq!(
        s.entry_point_bindings(cs)
            .map(|b| b.name.as_str())
            .collect::<Vec<_>>(),
        ["used"]
    );
}

#[test]
fn entry_point_selection_errors() {
    let src = r#"
        @vertex fn a() -> @builtin(position) vec4<f32> { return vec4<f32>(0.0); }
        @vertex fn b() -> @builtin(position) vec4<f32> { return vec4<f32>(1.0); }
        @fragment fn fs_main() -> @location(0) vec4<f32> { return vec4<f32>(1.0); }
    "#;
    let s = Shader::new("eps", src).unwrap();
    // Two vertex entry points and none called vs_main: ambiguous.
    let err = s.entry_point(Stage::Vertex, None).unwrap_err();
    assert_eq!(err.code(), "VGPU-SHADER-ENTRY-POINT");
    let ShaderError::EntryPoint {
        expected,
        actual,
        available,
        ..
    } = &err
    else {
        panic!("{err}")
    };
    assert_eq!(expected, "one vertex entry point, or one named `vs_main`");
    assert_eq!(actual, "several: a, b");
    assert_eq!(
        available,
        &["a (vertex)", "b (vertex)", "fs_main (fragment)"]
    );
    assert_eq!(s.entry_point(Stage::Vertex, Some("b")).unwrap().name, "b");
    let err = s.entry_point(Stage::Vertex, Some("fs_main")).unwrap_err();
    let ShaderError::EntryPoint { actual, .. } = &err else {
        panic!("{err}")
    };
    assert_eq!(actual, "`fs_main` is a fragment entry point");
    let err = s.entry_point(Stage::Compute, None).unwrap_err();
    let ShaderError::EntryPoint { actual, .. } = &err else {
        panic!("{err}")
    };
    assert_eq!(actual, "no compute entry point");
    let err = s.entry_point(Stage::Fragment, Some("nope")).unwrap_err();
    assert!(
        err.to_string().contains("no entry point named `nope`"),
        "{err}"
    );
}

#[test]
fn parse_errors_carry_the_rendered_diagnostic() {
    let src = "struct S { a: f32 }\n@group(0) @binding(0) var<uniform> u: S;\nfn f() -> f32 { return u.a +; }\n";
    let err = Shader::new("broken.wgsl", src).unwrap_err();
    assert_eq!(err.code(), "VGPU-SHADER-PARSE");
    let ShaderError::Parse {
        label,
        line,
        column,
        diagnostic,
        message,
    } = &err
    else {
        panic!("{err}")
    };
    assert_eq!(label, "broken.wgsl");
    assert_eq!(*line, 3);
    assert_eq!(*column, 29);
    assert!(!message.is_empty());
    assert!(diagnostic.contains("broken.wgsl:3:29"), "{diagnostic}");
    assert!(diagnostic.contains("return u.a +;"), "{diagnostic}");
    let shown = err.to_string();
    assert!(
        shown.starts_with("VGPU-SHADER-PARSE: shader \"broken.wgsl\""),
        "{shown}"
    );
}

#[test]
fn validation_errors_carry_the_rendered_diagnostic() {
    let src = "@group(0) @binding(0) var<uniform> u: vec4<f32>;\n@fragment fn fs_main() -> @location(0) vec4<f32> { u = vec4<f32>(1.0); return u; }\n";
    let err = Shader::new("invalid.wgsl", src).unwrap_err();
    assert!(
        matches!(
            err,
            ShaderError::Validation { .. } | ShaderError::Parse { .. }
        ),
        "{err}"
    );
    let (ShaderError::Validation { diagnostic, .. } | ShaderError::Parse { diagnostic, .. }) = &err
    else {
        unreachable!()
    };
    assert!(diagnostic.contains("invalid.wgsl:2:"), "{diagnostic}");

    // A validation-only failure: a uniform array whose stride is not a multiple of 16.
    let src = "struct S { a: array<f32, 4> }\n@group(0) @binding(0) var<uniform> u: S;\n@compute @workgroup_size(1) fn cs_main() { _ = u.a[0]; }\n";
    let err = Shader::new("stride.wgsl", src).unwrap_err();
    assert_eq!(err.code(), "VGPU-SHADER-VALIDATION", "{err}");
    let ShaderError::Validation {
        diagnostic,
        message,
        ..
    } = &err
    else {
        panic!("{err}")
    };
    assert!(diagnostic.contains("stride.wgsl:2:23"), "{diagnostic}");
    assert!(
        message.contains("The array stride 4 is not a multiple of the required alignment 16"),
        "{message}"
    );
}

#[test]
fn bool_in_a_buffer_is_rejected_with_a_hint() {
    let src = "struct Flags { on: u32, inner: array<Inner, 2> }\nstruct Inner { enabled: bool }\n@group(0) @binding(0) var<uniform> flags: Flags;\n";
    // Declaration order does not matter in WGSL; put Inner first for naga's benefit.
    let src = src.replace(
        "struct Flags { on: u32, inner: array<Inner, 2> }\nstruct Inner { enabled: bool }",
        "struct Inner { enabled: bool }\nstruct Flags { on: u32, inner: array<Inner, 2> }",
    );
    let err = Shader::new("flags", &src).unwrap_err();
    assert_eq!(err.code(), "VGPU-SHADER-HOST-SHAREABLE", "{err}");
    let ShaderError::HostShareable {
        binding,
        path,
        actual,
        hint,
        ..
    } = &err
    else {
        panic!("{err}")
    };
    assert_eq!(binding, "flags");
    assert_eq!(path, "$.inner[i].enabled");
    assert_eq!(actual, "bool");
    assert!(hint.contains("use u32"), "{hint}");
}

#[test]
fn member_shorthand_resolves_unique_members_and_names_ambiguity() {
    let s = Shader::new("scene.wgsl", SCENE).unwrap();
    let m = s.resolve_member("world", "draw#1").unwrap();
    assert_eq!(m.binding.name, "object");
    assert_eq!((m.member_index, m.member.offset), (0, 0));
    let m = s.resolve_member("roughness", "draw#1").unwrap();
    assert_eq!((m.binding.name.as_str(), m.member.offset), ("material", 16));

    let err = s.resolve_member("color", "draw#1").unwrap_err();
    assert_eq!(err.code(), "VGPU-SET-MEMBER-AMBIGUOUS");
    let SetError::MemberAmbiguous {
        label,
        member,
        candidates,
    } = &err
    else {
        panic!("{err}")
    };
    assert_eq!((&**label, &**member), ("draw#1", "color"));
    let mut c: Vec<&str> = candidates.iter().map(|c| &**c).collect();
    c.sort_unstable();
    assert_eq!(c, ["material.color", "object.color"]);

    let err = s.resolve_member("wrold", "draw#1").unwrap_err();
    assert_eq!(err.code(), "VGPU-SET-BINDING-UNKNOWN");
    let SetError::BindingUnknown {
        name,
        available,
        hint,
        ..
    } = &err
    else {
        panic!("{err}")
    };
    assert_eq!(&**name, "wrold");
    assert_eq!(available.len(), 7);
    assert!(available.iter().any(|a| &**a == "camera (uniform buffer)"));
    assert_eq!(hint.as_deref(), Some("did you mean `world`?"));

    let err = s.binding_or_err("objet", "draw#2").unwrap_err();
    assert_eq!(err.code(), "VGPU-SET-BINDING-UNKNOWN");
    assert!(err.to_string().contains("did you mean `object`?"), "{err}");
    assert!(s.binding_or_err("object", "draw#2").is_ok());
}

#[test]
fn for_context_counts_plans_and_uses_device_features() {
    let ctx = vgpu_core::GpuContext::noop();
    let before = ctx.stats().snapshot();
    let s = Shader::for_context(&ctx, "scene.wgsl", SCENE).unwrap();
    let d = ctx.stats().snapshot() - before;
    assert_eq!(d.plans_compiled, 3);
    assert_eq!(s.features(), ctx.features());
    // What validates depends on the device's features: f16 only where it has SHADER_F16.
    let f16 = "enable f16;\n@group(0) @binding(0) var<uniform> h: vec4<f16>;\n";
    let err = Shader::with_features("f16", f16, wgpu::Features::empty())
        .expect_err("f16 without SHADER_F16");
    assert_eq!(err.code(), "VGPU-SHADER-PARSE", "{err}");
    assert!(err.to_string().contains("f16"), "{err}");
    assert_eq!(
        Shader::for_context(&ctx, "f16", f16).is_ok(),
        ctx.features().contains(wgpu::Features::SHADER_F16),
        "f16 follows the device"
    );
    // The same type bound twice shares one plan.
    let src = "struct T { x: vec4<f32> }\n@group(0) @binding(0) var<uniform> a: T;\n@group(0) @binding(1) var<uniform> b: T;\n";
    let s = Shader::new("shared", src).unwrap();
    assert_eq!(s.plans_compiled(), 1);
    let (a, b) = (s.binding("a").unwrap(), s.binding("b").unwrap());
    assert!(std::sync::Arc::ptr_eq(
        a.plan.as_ref().unwrap(),
        b.plan.as_ref().unwrap()
    ));
}

#[test]
fn pipeline_layout_rejects_huge_group_numbers_without_allocating() {
    let src = "@group(4000000000) @binding(0) var<uniform> u: vec4<f32>;\n@compute @workgroup_size(1) fn cs_main() { _ = u; }\n";
    let s = Shader::new("huge-group", src).unwrap();
    let cs = s.entry_point(Stage::Compute, None).unwrap();
    let err = s.pipeline_layout(&[cs], |_| false).unwrap_err();
    assert_eq!(err.code(), "VGPU-SHADER-LIMIT");
}
