//! Tier 2 (real device; the calls also run on noop, where wgpu still validates them): indirect
//! draws and base vertex — `IndexBuffer::base_vertex`, `Pass::draw_indirect` (plain and indexed),
//! `Pass::multi_draw_indirect`, `Pass::multi_draw_indirect_count` (where the adapter has
//! `MULTI_DRAW_INDIRECT_COUNT`; else its `VGPU-FEATURE-MISSING`), `BundleRecorder::draw_indirect`,
//! and arguments written by a compute pass of the same frame.
//!
//! Every draw here draws whole-pixel-column quads into an 8×2 target: quad `q` covers column `q`,
//! and instance `i` moves it `i` columns to the right. Which columns are white says exactly which
//! quads (vertices, base vertex) and instances were drawn.

#![allow(clippy::unwrap_used, reason = "an unwrap in a test is an assertion")]

use vgpu::{
    BufferDesc, ComputeDesc, DrawDesc, DrawRange, Gpu, GpuOptions, IndexBuffer, PassDesc,
    VertexBuffer,
};

const COLUMNS: u32 = 8;
const ROWS: u32 = 2;
const WHITE: [u8; 4] = [255; 4];
const BLACK: [u8; 4] = [0, 0, 0, 255];

/// Positions in clip space; instance `i` moves the quad `i` columns (0.25 each) to the right.
const QUADS: &str = "
@vertex fn vs_main(@location(0) p: vec2f, @builtin(instance_index) i: u32)
    -> @builtin(position) vec4f {
    return vec4f(p.x + f32(i) * 0.25, p.y, 0.0, 1.0);
}
@fragment fn fs_main() -> @location(0) vec4f { return vec4f(1.0); }
";

/// The left and right clip-space x of column `c`.
fn column_x(c: u32) -> (f32, f32) {
    let x = |c: u32| c as f32 / COLUMNS as f32 * 2.0 - 1.0;
    (x(c), x(c + 1))
}

/// The `VertexBuffer` of `positions` (`vec2f` each).
fn vertex_buffer(gpu: &Gpu, label: &str, positions: &[[f32; 2]]) -> VertexBuffer {
    let buffer = gpu
        .buffer_init(
            label,
            bytemuck::cast_slice(positions),
            wgpu::BufferUsages::VERTEX,
        )
        .unwrap();
    VertexBuffer {
        buffer,
        offset: 0,
        stride: 8,
        step_mode: wgpu::VertexStepMode::Vertex,
        attributes: vec![wgpu::VertexAttribute {
            format: wgpu::VertexFormat::Float32x2,
            offset: 0,
            shader_location: 0,
        }],
    }
}

/// A non-indexed draw of quads: vertices `6q..6q + 6` are quad `q` (a triangle list). Its own
/// count is 6 vertices (column 0), 1 instance.
fn list_draw(gpu: &Gpu) -> vgpu::Draw {
    let positions: Vec<[f32; 2]> = (0..COLUMNS)
        .flat_map(|c| {
            let (x0, x1) = column_x(c);
            [
                [x0, -1.0],
                [x1, -1.0],
                [x0, 1.0],
                [x0, 1.0],
                [x1, -1.0],
                [x1, 1.0],
            ]
        })
        .collect();
    let shader = gpu.shader("quads", QUADS).unwrap();
    let desc = DrawDesc {
        label: "list quads".into(),
        vertex_count: Some(6),
        vertex_buffers: vec![vertex_buffer(gpu, "list quads", &positions)],
        ..Default::default()
    };
    gpu.draw(&shader, desc).unwrap()
}

/// An indexed draw of quads: vertices `4q..4q + 4` are the corners of quad `q`; its 6 indices
/// name corners 0..4, so its base vertex picks the quad.
fn indexed_draw(gpu: &Gpu, base_vertex: i32) -> vgpu::Draw {
    let corners: Vec<[f32; 2]> = (0..COLUMNS)
        .flat_map(|c| {
            let (x0, x1) = column_x(c);
            [[x0, -1.0], [x1, -1.0], [x0, 1.0], [x1, 1.0]]
        })
        .collect();
    let indices: [u16; 6] = [0, 1, 2, 2, 1, 3];
    let index = gpu
        .buffer_init(
            "quad indices",
            bytemuck::cast_slice(&indices),
            wgpu::BufferUsages::INDEX,
        )
        .unwrap();
    let shader = gpu.shader("quads", QUADS).unwrap();
    let desc = DrawDesc {
        label: "indexed quads".into(),
        vertex_buffers: vec![vertex_buffer(gpu, "quad corners", &corners)],
        index_buffer: Some(IndexBuffer {
            base_vertex,
            ..IndexBuffer::new(&index, wgpu::IndexFormat::Uint16, 6)
        }),
        ..Default::default()
    };
    gpu.draw(&shader, desc).unwrap()
}

/// An `INDIRECT` buffer holding `words`.
fn args_buffer(gpu: &Gpu, words: &[u32]) -> vgpu::Buffer {
    gpu.buffer_init(
        "indirect args",
        bytemuck::cast_slice(words),
        wgpu::BufferUsages::INDIRECT,
    )
    .unwrap()
}

/// Renders one frame of `record` into a fresh black 8×2 target; returns the white columns
/// (every row of a column must agree; a pixel neither white nor black fails), or `None` on
/// noop.
fn white_columns(
    gpu: &Gpu,
    record: impl FnOnce(&mut vgpu::Pass<'_>) -> vgpu::Result<()>,
) -> Option<Vec<u32>> {
    let target = gpu.target(COLUMNS, ROWS).unwrap();
    gpu.frame(|f| f.pass(PassDesc::new(&target).clear([0.0, 0.0, 0.0, 1.0]), record))
        .unwrap();
    if gpu.is_noop() {
        return None;
    }
    let image = target.read_rgba8().unwrap();
    let mut white = Vec::new();
    for x in 0..COLUMNS {
        let column: Vec<_> = (0..ROWS).map(|y| image.pixel(x, y)).collect();
        match column[0] {
            Some(WHITE) => white.push(x),
            Some(BLACK) => {}
            other => panic!("column {x}: {other:?}"),
        }
        assert!(
            column.iter().all(|p| *p == column[0]),
            "column {x}: {column:?}"
        );
    }
    Some(white)
}

/// Asserts the white columns, where there are pixels.
#[track_caller]
fn assert_columns(white: Option<Vec<u32>>, expected: &[u32], what: &str) {
    if let Some(white) = white {
        assert_eq!(white, expected, "{what}");
    }
}

/// An indexed draw adds its `IndexBuffer::base_vertex` to each index: base vertex 8 draws quad
/// 2, through `Pass::draw` (twice: the full path, then the fast path's frame), `draw_with`
/// (explicit ranges) and a bundle.
#[test]
fn indexed_draws_add_the_base_vertex() {
    vgpu_tests::each_gpu(|gpu| {
        let draw = indexed_draw(gpu, 8);
        for frame in 0..2 {
            let white = white_columns(gpu, |p| p.draw(&draw));
            assert_columns(white, &[2], &format!("Pass::draw, frame {frame}"));
        }
        let range = DrawRange {
            vertices: 0..6,
            instances: 0..2,
        };
        let white = white_columns(gpu, |p| p.draw_with(&draw, range.clone()));
        assert_columns(white, &[2, 3], "Pass::draw_with, two instances");
        let target = gpu.target(COLUMNS, ROWS).unwrap();
        let bundle = gpu
            .bundle("base vertex", target.signature(), |b| b.draw(&draw))
            .unwrap();
        let white = white_columns(gpu, |p| p.execute(&bundle));
        assert_columns(white, &[2], "a bundle");
    });
}

/// `draw_indirect` reads vertex count, instance count and first vertex (16 bytes) at the offset
/// given, or index count, instance count, first index and base vertex (20 bytes) for an indexed
/// draw; the draw's own counts, used by its plain draws before and after (its fast record),
/// are unchanged. A bundle's `draw_indirect` reads them the same way.
#[test]
fn draw_indirect_reads_its_arguments() {
    vgpu_tests::each_gpu(|gpu| {
        let list = list_draw(gpu);
        // (6 vertices, 2 instances, first vertex 18: quad 3), then (6, 1, 42: quad 7).
        let args = args_buffer(gpu, &[6, 2, 18, 0, 6, 1, 42, 0]);
        let white = white_columns(gpu, |p| p.draw_indirect(&list, &args, 0));
        assert_columns(white, &[3, 4], "offset 0");
        let white = white_columns(gpu, |p| {
            p.draw(&list)?;
            p.draw_indirect(&list, &args, 16)?;
            p.draw_indirect(&list, &args, 0)?;
            p.draw(&list)
        });
        assert_columns(white, &[0, 3, 4, 7], "plain draws around indirect ones");
        for frame in 0..2 {
            let white = white_columns(gpu, |p| p.draw(&list));
            assert_columns(white, &[0], &format!("plain draw after, frame {frame}"));
        }

        // Indexed: (6 indices, 2 instances, first index 0, base vertex 20: quad 5).
        let indexed = indexed_draw(gpu, 0);
        let args = args_buffer(gpu, &[0, 6, 2, 0, 20, 0]);
        let white = white_columns(gpu, |p| p.draw_indirect(&indexed, &args, 4));
        assert_columns(white, &[5, 6], "indexed, base vertex in the arguments");

        let target = gpu.target(COLUMNS, ROWS).unwrap();
        let bundle = gpu
            .bundle("indirect", target.signature(), |b| {
                b.draw_indirect(&indexed, &args, 4)
            })
            .unwrap();
        let white = white_columns(gpu, |p| p.execute(&bundle));
        assert_columns(white, &[5, 6], "a bundle's indirect draw");
    });
}

/// `multi_draw_indirect` draws each of `count` packed argument structs: two structs, two quads.
#[test]
fn multi_draw_indirect_draws_each_struct() {
    vgpu_tests::each_gpu(|gpu| {
        let list = list_draw(gpu);
        let args = args_buffer(gpu, &[6, 1, 6, 0, 6, 1, 36, 0]);
        let white = white_columns(gpu, |p| p.multi_draw_indirect(&list, &args, 0, 2));
        assert_columns(white, &[1, 6], "two draws");
        let white = white_columns(gpu, |p| p.multi_draw_indirect(&list, &args, 0, 1));
        assert_columns(white, &[1], "count 1");

        let indexed = indexed_draw(gpu, 0);
        let args = args_buffer(gpu, &[6, 1, 0, 12, 0, 6, 1, 0, 28, 0]);
        let white = white_columns(gpu, |p| p.multi_draw_indirect(&indexed, &args, 0, 2));
        assert_columns(white, &[3, 7], "two indexed draws");
    });
}

/// `multi_draw_indirect_count` draws as many structs as the count buffer says, at most
/// `max_count`, on a device created with `MULTI_DRAW_INDIRECT_COUNT` where the adapter has it;
/// elsewhere (GL, lavapipe) the call is `VGPU-FEATURE-MISSING` and records nothing.
#[test]
fn multi_draw_indirect_count_reads_the_count() {
    let Some(plain) = vgpu_tests::real_gpu() else {
        return;
    };
    let feature = wgpu::Features::MULTI_DRAW_INDIRECT_COUNT;
    if !plain.context().adapter().features().contains(feature) {
        let list = list_draw(&plain);
        let args = args_buffer(&plain, &[6, 1, 6, 0]);
        let count = args_buffer(&plain, &[1]);
        let target = plain.target(COLUMNS, ROWS).unwrap();
        let mut error = None;
        let report = plain
            .frame(|f| {
                f.pass(&target, |p| {
                    error = p
                        .multi_draw_indirect_count(&list, &args, 0, &count, 0, 1)
                        .err();
                    Ok(())
                })
            })
            .unwrap();
        assert_eq!(error.unwrap().code(), "VGPU-FEATURE-MISSING");
        assert_eq!(report.stats.operations_recorded, 0);
        vgpu_tests::skip(
            "multi_draw_indirect_count",
            "the adapter lacks MULTI_DRAW_INDIRECT_COUNT: checked VGPU-FEATURE-MISSING instead",
        );
        return;
    }
    let options = GpuOptions {
        required_features: feature,
        ..GpuOptions::from_env().unwrap()
    };
    let gpu = Gpu::new(&options).unwrap();
    let list = list_draw(&gpu);
    let args = args_buffer(&gpu, &[6, 1, 6, 0, 6, 1, 36, 0]);
    // Counts 1, 2 and 5 (clamped to max_count 2).
    let count = args_buffer(&gpu, &[1, 2, 5]);
    let white = white_columns(&gpu, |p| {
        p.multi_draw_indirect_count(&list, &args, 0, &count, 0, 2)
    });
    assert_columns(white, &[1], "count 1");
    let white = white_columns(&gpu, |p| {
        p.multi_draw_indirect_count(&list, &args, 0, &count, 4, 2)
    });
    assert_columns(white, &[1, 6], "count 2");
    let white = white_columns(&gpu, |p| {
        p.multi_draw_indirect_count(&list, &args, 0, &count, 8, 2)
    });
    assert_columns(white, &[1, 6], "count 5, max 2");
    let errors = gpu.take_uncaptured_errors();
    assert!(errors.is_empty(), "uncaptured wgpu errors: {errors:?}");
}

/// Writes (6 vertices, 2 instances, first vertex 30: quad 5, first instance 0).
const WRITE_ARGS: &str = "
@group(0) @binding(0) var<storage, read_write> args: array<u32, 4>;
@compute @workgroup_size(1) fn cs_main() {
    args[0] = 6u;
    args[1] = 2u;
    args[2] = 30u;
    args[3] = 0u;
}
";

/// A compute pass writes the arguments into a `STORAGE | INDIRECT` buffer and a render pass of
/// the same frame draws from them, without any barrier from the user.
#[test]
fn compute_written_arguments_draw_in_the_same_frame() {
    vgpu_tests::each_gpu(|gpu| {
        let needed = wgpu::DownlevelFlags::COMPUTE_SHADERS;
        let flags = gpu.context().adapter().get_downlevel_capabilities().flags;
        if !flags.contains(needed) {
            vgpu_tests::skip("compute", &format!("no compute shaders ({flags:?})"));
            return;
        }
        let args = gpu
            .buffer(&BufferDesc {
                label: "gpu args".into(),
                size: 16,
                usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::INDIRECT,
            })
            .unwrap();
        let shader = gpu.shader("write args", WRITE_ARGS).unwrap();
        let writer = gpu
            .compute(
                &shader,
                ComputeDesc {
                    label: "write args".into(),
                    ..Default::default()
                },
            )
            .unwrap();
        writer.set("args", &args).unwrap();
        let list = list_draw(gpu);
        let target = gpu.target(COLUMNS, ROWS).unwrap();
        let report = gpu
            .frame(|f| {
                f.compute_pass(|c| c.dispatch(&writer, 1, 1, 1))?;
                f.pass(PassDesc::new(&target).clear([0.0, 0.0, 0.0, 1.0]), |p| {
                    p.draw_indirect(&list, &args, 0)
                })
            })
            .unwrap();
        assert_eq!(report.stats.operations_recorded, 2);
        if gpu.is_noop() {
            return;
        }
        let image = target.read_rgba8().unwrap();
        let white: Vec<u32> = (0..COLUMNS)
            .filter(|&x| image.pixel(x, 0) == Some(WHITE))
            .collect();
        assert_eq!(white, [5, 6], "the arguments the compute pass wrote");
    });
}

/// The quads, white times a uniform color.
const COLORED_QUADS: &str = "
struct Params { color: vec4f }
@group(0) @binding(0) var<uniform> params: Params;
@vertex fn vs_main(@location(0) p: vec2f, @builtin(instance_index) i: u32)
    -> @builtin(position) vec4f {
    return vec4f(p.x + f32(i) * 0.25, p.y, 0.0, 1.0);
}
@fragment fn fs_main() -> @location(0) vec4f { return params.color; }
";

/// With the binding inspector on, an indirect draw records through the inspector's recorder
/// (its bindings logged, full path) and draws what it draws with the inspector off.
#[test]
fn indirect_draws_are_inspected() {
    vgpu_tests::each_gpu(|gpu| {
        let shader = gpu.shader("colored quads", COLORED_QUADS).unwrap();
        let positions: Vec<[f32; 2]> = (0..COLUMNS)
            .flat_map(|c| {
                let (x0, x1) = column_x(c);
                [
                    [x0, -1.0],
                    [x1, -1.0],
                    [x0, 1.0],
                    [x0, 1.0],
                    [x1, -1.0],
                    [x1, 1.0],
                ]
            })
            .collect();
        let desc = DrawDesc {
            label: "colored quads".into(),
            vertex_buffers: vec![vertex_buffer(gpu, "colored quads", &positions)],
            ..Default::default()
        };
        let draw = gpu.draw(&shader, desc).unwrap();
        let white = gpu
            .buffer_init(
                "white",
                &vgpu_tests::f32_bytes(&[1.0; 4]),
                wgpu::BufferUsages::UNIFORM,
            )
            .unwrap();
        draw.set("params", &white).unwrap();
        let args = args_buffer(gpu, &[6, 1, 12, 0]);
        for inspected in [true, false] {
            gpu.inspect_bindings(inspected);
            let white = white_columns(gpu, |p| p.draw_indirect(&draw, &args, 0));
            let logged: Vec<_> = gpu.take_inspected();
            gpu.inspect_bindings(false);
            assert_columns(white, &[2], &format!("inspector on: {inspected}"));
            let paths: Vec<_> = logged
                .iter()
                .map(|b| (b.draw.to_string(), b.path))
                .collect();
            let expected = match inspected {
                true => vec![("colored quads".to_owned(), vgpu::inspect::RecordPath::Full)],
                false => vec![],
            };
            assert_eq!(paths, expected, "inspector on: {inspected}");
        }
    });
}
