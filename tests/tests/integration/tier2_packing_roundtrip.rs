//! Tier 2 (real device): packed bytes round-trip through the GPU byte for byte.
//!
//! A struct using every type class is packed by `vgpu-core`, bound (as a uniform, or as a
//! storage buffer with a runtime-sized array and atomics), and a compute shader copies it field
//! by field, component by component (`bitcast<u32>`, `atomicLoad`, `pack2x16float` for f16),
//! into a `array<u32>` storage buffer at the byte offsets vgpu reflected. The copy is read back
//! and must equal the packed bytes exactly (padding words included: the packer zeroes them, the
//! shader never writes them, the output buffer starts zeroed).
//!
//! The copy shader reads each leaf by its WGSL name (`u.lights[1].color[2]`), so the GPU
//! interprets the input with its own layout; any disagreement between that layout and vgpu's
//! (offsets, strides, padding) shows up as a mismatched word.
//!
//! The device comes from `VGPU_BACKEND` (`vulkan` → lavapipe, `gl` → llvmpipe); on `noop` the
//! tests return early.

#![allow(clippy::unwrap_used, reason = "an unwrap in a test is an assertion")]

use std::collections::BTreeMap;
use std::sync::Arc;

use vgpu_core::{
    GpuContext, LayoutKind, PackContext, ScalarType, Shader, Stage, TypeLayout, Value, value,
};

fn device() -> Option<Arc<GpuContext>> {
    let ctx = match GpuContext::from_env() {
        Ok(ctx) => ctx,
        Err(e) => panic!("tier-2 test needs a device (set VGPU_BACKEND=vulkan or gl): {e}"),
    };
    if ctx.is_noop() {
        vgpu_tests::skip(
            "device",
            "VGPU_BACKEND=noop: a tier-2 (real device) test (passes do not execute)",
        );
        return None;
    }
    Some(ctx)
}

/// Emits one copy statement per 32-bit word of every leaf of `layout` (read as `expr`, placed
/// at `base`), with `runtime_len` elements for a runtime-sized array.
fn copy_leaves(
    layout: &TypeLayout,
    expr: &str,
    base: u32,
    runtime_len: u32,
    stmts: &mut Vec<String>,
    halves: &mut BTreeMap<u32, [Option<String>; 2]>,
) {
    let mut scalar = |s: ScalarType, e: String, at: u32, atomic: bool| {
        let e = if atomic {
            format!("atomicLoad(&{e})")
        } else {
            e
        };
        match s {
            ScalarType::F32 | ScalarType::I32 | ScalarType::U32 => {
                stmts.push(format!("dst_words[{}] = bitcast<u32>({e});", at / 4));
            }
            ScalarType::F16 => {
                halves.entry(at / 4).or_default()[(at % 4 / 2) as usize] =
                    Some(format!("f32({e})"));
            }
            other => panic!("no round trip for {other:?}"),
        }
    };
    match &layout.kind {
        LayoutKind::Scalar(s) => scalar(*s, expr.to_owned(), base, false),
        LayoutKind::Atomic(s) => scalar(*s, expr.to_owned(), base, true),
        LayoutKind::Vector {
            scalar: s,
            components,
        } => {
            for k in 0..u32::from(*components) {
                scalar(*s, format!("{expr}[{k}]"), base + k * s.width(), false);
            }
        }
        LayoutKind::Matrix {
            scalar: s,
            columns,
            rows,
            column_stride,
        } => {
            for c in 0..u32::from(*columns) {
                for r in 0..u32::from(*rows) {
                    scalar(
                        *s,
                        format!("{expr}[{c}][{r}]"),
                        base + c * column_stride + r * s.width(),
                        false,
                    );
                }
            }
        }
        LayoutKind::Array {
            element,
            length,
            stride,
        } => {
            for i in 0..length.unwrap_or(runtime_len) {
                copy_leaves(
                    element,
                    &format!("{expr}[{i}]"),
                    base + i * stride,
                    runtime_len,
                    stmts,
                    halves,
                );
            }
        }
        LayoutKind::Struct { members } => {
            for m in members.iter() {
                copy_leaves(
                    &m.layout,
                    &format!("{expr}.{}", m.name),
                    base + m.offset,
                    runtime_len,
                    stmts,
                    halves,
                );
            }
        }
        other => panic!("unexpected layout {other:?}"),
    }
}

/// Packs `value` into binding `u` of `decls`, lets the GPU copy it word by word, and asserts
/// the read-back equals the packed bytes.
fn round_trip(
    ctx: &Arc<GpuContext>,
    name: &str,
    decls: &str,
    binding_decl: &str,
    value: &Value,
    runtime_len: u32,
) {
    let input_src = format!("{decls}\n{binding_decl}\n");
    let input = Shader::for_context(ctx, name, &input_src).unwrap_or_else(|e| panic!("{e}"));
    let info = input.binding("u").unwrap();
    if ctx.adapter_info().backend == wgpu::Backend::Gl {
        assert_eq!(
            info.gl_hazards(),
            Vec::<String>::new(),
            "{name}: GL cannot read this type"
        );
    }
    let plan = info.plan.clone().unwrap();
    let layout = info.layout.clone().unwrap();
    let size = layout.size_with_elements(u64::from(runtime_len)) as usize;
    let mut packed = vec![0xEEu8; size];
    let n = plan
        .pack(value, &mut packed, &PackContext::new(name, "u"))
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(n, size);

    let mut stmts = Vec::new();
    let mut halves = BTreeMap::new();
    copy_leaves(&layout, "u", 0, runtime_len, &mut stmts, &mut halves);
    for (word, [lo, hi]) in halves {
        let lo = lo.unwrap_or_else(|| "0.0".to_owned());
        let hi = hi.unwrap_or_else(|| "0.0".to_owned());
        stmts.push(format!(
            "dst_words[{word}] = pack2x16float(vec2<f32>({lo}, {hi}));"
        ));
    }
    let copy_src = format!(
        "{input_src}@group(0) @binding(1) var<storage, read_write> dst_words: array<u32>;\n\
         @compute @workgroup_size(1)\nfn cs_main() {{\n    {}\n}}\n",
        stmts.join("\n    ")
    );
    let copy =
        Shader::for_context(ctx, name, &copy_src).unwrap_or_else(|e| panic!("{e}\n{copy_src}"));
    let cs = copy.entry_point(Stage::Compute, None).unwrap();
    // Explicit layouts from reflection, never wgpu's automatic ones.
    let pl = copy.pipeline_layout(&[cs], |_| false).unwrap();
    assert_eq!(pl.groups.len(), 1);
    let bgl = ctx
        .create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some(name),
            entries: &pl.groups[0].wgpu_entries(),
        })
        .unwrap();
    let pipeline_layout = ctx
        .create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some(name),
            bind_group_layouts: &[Some(&bgl)],
            immediate_size: 0,
        })
        .unwrap();
    let module = ctx
        .create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some(name),
            source: wgpu::ShaderSource::Wgsl(copy_src.as_str().into()),
        })
        .unwrap_or_else(|e| panic!("{e}\n{copy_src}"));
    let pipeline = ctx
        .create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some(name),
            layout: Some(&pipeline_layout),
            module: &module,
            entry_point: Some(&cs.name),
            compilation_options: Default::default(),
            cache: None,
        })
        .unwrap();

    let input_usage = match info.kind {
        vgpu_core::BindingKind::UniformBuffer => wgpu::BufferUsages::UNIFORM,
        _ => wgpu::BufferUsages::STORAGE,
    };
    let input_buf = ctx
        .create_buffer_init(Some("packed"), &packed, input_usage)
        .unwrap();
    let out_size = (size as u64).div_ceil(4) * 4;
    let out_buf = ctx
        .create_buffer(&wgpu::BufferDescriptor {
            label: Some("copied words"),
            size: out_size,
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        })
        .unwrap();
    let staging = ctx
        .create_buffer(&wgpu::BufferDescriptor {
            label: Some("read back"),
            size: out_size,
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        })
        .unwrap();
    let group = ctx
        .create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some(name),
            layout: &bgl,
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: input_buf.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: out_buf.as_entire_binding(),
                },
            ],
        })
        .unwrap();
    let mut encoder = ctx
        .device()
        .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some(name) });
    {
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
            label: Some(name),
            timestamp_writes: None,
        });
        pass.set_pipeline(&pipeline);
        pass.set_bind_group(0, &group, &[]);
        pass.dispatch_workgroups(1, 1, 1);
    }
    encoder.copy_buffer_to_buffer(&out_buf, 0, &staging, 0, out_size);
    ctx.submit([encoder.finish()]);
    let slice = staging.slice(..);
    slice.map_async(wgpu::MapMode::Read, |r| r.unwrap());
    ctx.wait_idle().unwrap();
    let bytes = slice.get_mapped_range().unwrap().to_vec();
    let got = &bytes[..size];
    let backend = ctx.adapter_info().backend;
    let mismatches: Vec<String> = packed
        .chunks(4)
        .zip(got.chunks(4))
        .enumerate()
        .filter(|(_, (a, b))| a != b)
        .map(|(w, (a, b))| format!("word {w} (byte {}): packed {a:02x?}, GPU {b:02x?}", w * 4))
        .collect();
    assert!(
        mismatches.is_empty(),
        "{name} on {backend:?}: {} mismatched words:\n{}",
        mismatches.len(),
        mismatches.join("\n")
    );
    assert_eq!(got, &packed[..], "{name} on {backend:?}");
    assert!(
        ctx.take_uncaptured_errors().is_empty(),
        "{name} on {backend:?}: wgpu errors"
    );
    eprintln!("{name}: {size} bytes round-tripped on {backend:?}");
}

const UNIFORM_BINDING: &str = "@group(0) @binding(0) var<uniform> u: U;";

const UNIFORM_DECLS: &str = r#"
struct Pair { a: vec2<f32>, b: i32 }
struct Inner { v: vec3<f32>, k: u32 }
struct U {
    s_f: f32,
    s_i: i32,
    s_u: u32,
    v2: vec2<f32>,
    v3: vec3<f32>,
    after_v3: u32,
    v4i: vec4<i32>,
    v3u: vec3<u32>,
    v2i: vec2<i32>,
    m4: mat4x4<f32>,
    m3: mat3x3<f32>,
    m2: mat2x2<f32>,
    m23: mat2x3<f32>,
    m32: mat3x2<f32>,
    arr_v4: array<vec4<f32>, 2>,
    arr_v3: array<vec3<f32>, 3>,
    pairs: array<Pair, 2>,
    inner: Inner,
    @align(16) aligned: f32,
    @size(16) sized: vec2<u32>,
    tail: f32,
}
"#;

#[test]
fn uniform_struct_with_every_type_class_round_trips() {
    let Some(ctx) = device() else { return };
    let mut v = value! {
        s_f: -1.25,
        s_i: -7,
        s_u: 4_000_000_000u32,
        v2: [0.5, -0.75],
        v3: [1.0, 2.0, 3.0],
        after_v3: 42u32,
        v4i: [-1, 2, -3, i32::MAX],
        v3u: [7u32, 8, u32::MAX],
        v2i: [i32::MIN, 9],
        m4: [[1.0f32, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0], [13.0, 14.0, 15.0, 16.0]],
        m3: [[0.1f32, 0.2, 0.3], [0.4, 0.5, 0.6], [0.7, 0.8, 0.9]],
        m23: [[1.5f32, 2.5, 3.5], [4.5, 5.5, 6.5]],
        arr_v4: [[1.0f32, 1.5, 2.0, 2.5], [3.0, 3.5, 4.0, 4.5]],
        arr_v3: [[-0.5f32, 0.25, 8.0], [16.0, 32.0, 64.0], [1e-3, 1e3, -1e6]],
        pairs: [value! { a: [9.0, 8.0], b: -100 }, value! { a: [7.0, 6.0], b: 100 }],
        inner: { v: [0.125, 0.25, 0.375], k: 77u32 },
        aligned: 3.75,
        sized: [123u32, 456],
        // Integral numbers are accepted for float fields; this one is f32.
        tail: 99,
    };
    let mut decls = UNIFORM_DECLS.to_owned();
    let full = Shader::new("full", &format!("{decls}\n{UNIFORM_BINDING}")).unwrap();
    let hazards = full.binding("u").unwrap().gl_hazards();
    if ctx.adapter_info().backend == wgpu::Backend::Gl {
        // Upstream: naga's GLSL writer ignores @size/@align gaps (gfx-rs/wgpu#4374) and gives
        // uniform `matCx2` std140's 16-byte column stride (gfx-rs/wgpu#4371). `gl_hazards`
        // names exactly those members; the GL round trip uses the struct without them (the
        // storage test still has a mat2x2: std430 agrees with WGSL there).
        assert!(
            hazards.iter().any(|h| h.starts_with("$.m2:"))
                && hazards.iter().any(|h| h.starts_with("$.m32:"))
                && hazards.iter().any(|h| h.starts_with("$.tail:")),
            "{hazards:#?}"
        );
        vgpu_tests::skip(
            "gl-layout-hazards",
            &format!(
                "GL: leaving out the members gl_hazards reports: {}",
                hazards.join("; ")
            ),
        );
        decls = decls
            .replace("    m2: mat2x2<f32>,\n", "")
            .replace("    m32: mat3x2<f32>,\n", "")
            .replace("@size(16) sized", "sized");
    } else {
        v.set_field("m2", [[-1.0f32, -2.0], [-3.0, -4.0]]);
        v.set_field("m32", [[10.0f32, 20.0], [30.0, 40.0], [50.0, 60.0]]);
    }
    round_trip(&ctx, "uniform-every-class", &decls, UNIFORM_BINDING, &v, 0);
}

#[test]
fn storage_struct_with_runtime_array_and_atomics_round_trips() {
    let Some(ctx) = device() else { return };
    let decls = r#"
struct Particle { pos: vec3<f32>, id: u32, vel: vec2<f32>, flags: vec2<i32>, m: mat2x2<f32> }
struct Particles {
    counter: atomic<u32>,
    hits: array<atomic<i32>, 2>,
    scale: f32,
    origin: vec3<f32>,
    items: array<Particle>,
}
"#;
    let items: Vec<Value> = (0..5)
        .map(|i| {
            let f = i as f32;
            value! {
                pos: [f, f * 2.0, f * -3.0],
                id: i as u32 + 1000,
                vel: [0.5 * f, -0.25],
                flags: [-i, i * 7],
                m: [[f, 1.0], [2.0, -f]],
            }
        })
        .collect();
    let v = value! {
        counter: 5u32,
        hits: [-1, 1],
        scale: 0.5,
        origin: [10.0, 20.0, 30.0],
        items: items,
    };
    round_trip(
        &ctx,
        "storage-runtime-array",
        decls,
        "@group(0) @binding(0) var<storage, read_write> u: Particles;",
        &v,
        5,
    );
}

#[test]
fn f16_struct_round_trips_where_supported() {
    let Some(ctx) = device() else { return };
    if !ctx.features().contains(wgpu::Features::SHADER_F16) {
        vgpu_tests::skip(
            "shader-f16",
            &format!(
                "{:?} has no SHADER_F16: the f16 round trip",
                ctx.adapter_info().backend
            ),
        );
        return;
    }
    let decls = r#"
enable f16;
struct H { a: f16, b: vec3<f16>, c: f16, d: vec2<f16>, m: mat2x2<f16>, x: f32, arr: array<f16, 3> }
"#;
    let v = value! {
        a: 1.0,
        b: [0.5, -2.0, 65504.0],
        c: -0.125,
        d: [3.0, 1024.0],
        m: [[1.0f32, 2.0], [3.0, 4.0]],
        x: 1.5,
        arr: [0.25f32, 0.5, 0.75],
    };
    round_trip(
        &ctx,
        "storage-f16",
        decls,
        "@group(0) @binding(0) var<storage, read> u: H;",
        &v,
        0,
    );
}
