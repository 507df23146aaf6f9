//! Tier 2 (real device; the counts and counters also on noop): the public draw-shaping API that
//! only pixels can check — `Draw::set_counts`, `Pass::draw_with` ranges, `PassDesc::scissor` and
//! `Pass::set_scissor`.
//!
//! The draws here use no vertex buffer: vertex `v` of instance `i` is corner `v % 6` of quad
//! `v / 6`, and quad `q` of instance `i` covers column `q + QUADS * i` of a `COLUMNS`-wide target
//! (whole pixel columns, so every pixel center is strictly inside or outside). Which columns are
//! white then says exactly which vertices and instances were drawn.

use vgpu::{DrawDesc, DrawRange, Gpu, PassDesc};

/// Quads per instance, and columns of the target (two instances' worth).
const QUADS: u32 = 4;
const COLUMNS: u32 = 2 * QUADS;
const ROWS: u32 = 2;
const WHITE: [u8; 4] = [255; 4];
const BLACK: [u8; 4] = [0, 0, 0, 255];

const COLUMN_QUADS: &str = "
@vertex fn vs_main(@builtin(vertex_index) v: u32, @builtin(instance_index) i: u32)
    -> @builtin(position) vec4f {
    let column = f32(v / 6u + 4u * i);
    // Corners of the two triangles of a unit square.
    var xs = array<f32, 6>(0.0, 1.0, 0.0, 0.0, 1.0, 1.0);
    var ys = array<f32, 6>(0.0, 0.0, 1.0, 1.0, 0.0, 1.0);
    let x = (column + xs[v % 6u]) / 8.0 * 2.0 - 1.0;
    return vec4f(x, ys[v % 6u] * 2.0 - 1.0, 0.0, 1.0);
}
@fragment fn fs_main() -> @location(0) vec4f { return vec4f(1.0); }
";

/// A draw of the column quads with `vertex_count` vertices and `instance_count` instances.
fn columns_draw(gpu: &Gpu, vertex_count: u32, instance_count: u32) -> vgpu::Draw {
    let shader = gpu.shader("column quads", COLUMN_QUADS).expect("shader");
    gpu.draw(
        &shader,
        DrawDesc {
            label: "column quads".into(),
            vertex_count: Some(vertex_count),
            instance_count,
            ..Default::default()
        },
    )
    .expect("draw")
}

/// The columns `vertices` × `instances` cover.
fn covered(vertices: std::ops::Range<u32>, instances: std::ops::Range<u32>) -> Vec<u32> {
    let mut columns: Vec<u32> = instances
        .flat_map(|i| vertices.clone().step_by(6).map(move |v| v / 6 + QUADS * i))
        .collect();
    columns.sort_unstable();
    columns
}

/// Renders one frame of `record` into a fresh black target; returns the white columns (every
/// row of a column must agree; a pixel neither white nor black fails), or `None` on noop.
fn white_columns(
    gpu: &Gpu,
    record: impl FnOnce(&mut vgpu::Pass<'_>) -> vgpu::Result<()>,
) -> Option<Vec<u32>> {
    let target = gpu.target(COLUMNS, ROWS).expect("target");
    gpu.frame(|f| f.pass(PassDesc::new(&target).clear([0.0, 0.0, 0.0, 1.0]), record))
        .expect("frame");
    if gpu.is_noop() {
        return None;
    }
    let image = target.read_rgba8().expect("read back");
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

/// `Draw::set_counts` changes what the next recording of the draw draws — more vertices, more
/// instances, then fewer again — and `counts()` reports it.
#[test]
fn set_counts_changes_the_vertices_and_instances_drawn() {
    vgpu_tests::each_gpu(|gpu| {
        let draw = columns_draw(gpu, 6, 1);
        assert_eq!(draw.counts(), (6, 1));
        // The desc's counts, then each set_counts in turn: the same draw recorded every frame,
        // so a pipeline or memo kept from the previous frame must not keep the old counts.
        for (vertices, instances) in [(6, 1), (12, 2), (24, 2), (18, 1), (6, 1), (0, 2)] {
            draw.set_counts(vertices, instances);
            assert_eq!(draw.counts(), (vertices, instances));
            let before = gpu.stats();
            let white = white_columns(gpu, |p| p.draw(&draw));
            assert_eq!(
                (gpu.stats() - before).operations_recorded,
                1,
                "one draw recorded"
            );
            if let Some(white) = white {
                assert_eq!(
                    white,
                    covered(0..vertices, 0..instances),
                    "set_counts({vertices}, {instances})"
                );
            }
        }
    });
}

/// On an indexed draw the index buffer gives the count (`DrawDesc::vertex_count` and the first
/// argument of `set_counts` do not apply; `counts()` reports the index count): `set_counts`
/// changes the instances drawn.
#[test]
fn set_counts_on_an_indexed_draw_changes_the_instances() {
    vgpu_tests::each_gpu(|gpu| {
        let shader = gpu.shader("column quads", COLUMN_QUADS).expect("shader");
        // Quad 1 (vertices 6..12), through the index buffer.
        let indices: [u32; 6] = [6, 7, 8, 9, 10, 11];
        let index_buffer = vgpu::IndexBuffer {
            buffer: gpu
                .buffer_init(
                    "indices",
                    bytemuck::cast_slice(&indices),
                    wgpu::BufferUsages::INDEX,
                )
                .expect("index buffer"),
            offset: 0,
            format: wgpu::IndexFormat::Uint32,
            count: 6,
            base_vertex: 0,
        };
        let draw = gpu
            .draw(
                &shader,
                DrawDesc {
                    label: "indexed quads".into(),
                    index_buffer: Some(index_buffer),
                    ..Default::default()
                },
            )
            .expect("draw");
        assert_eq!(draw.counts(), (6, 1));
        for (instances, columns) in [(1, vec![1]), (2, vec![1, 5]), (1, vec![1])] {
            draw.set_counts(3, instances);
            assert_eq!(draw.counts(), (6, instances), "the index count stays");
            if let Some(white) = white_columns(gpu, |p| p.draw(&draw)) {
                assert_eq!(white, columns, "{instances} instances");
            }
        }
    });
}

/// `Pass::draw_with` draws exactly the vertex and instance ranges it is given (not the draw's
/// own counts), and leaves the draw's counts as they were for the next plain `draw`.
#[test]
fn draw_with_draws_exactly_its_vertex_and_instance_ranges() {
    vgpu_tests::each_gpu(|gpu| {
        let draw = columns_draw(gpu, 6, 1);
        let cases = [
            (0..6, 0..1),
            (6..12, 1..2),
            (0..12, 0..1),
            (18..24, 0..2),
            (6..18, 1..2),
            (0..24, 0..2),
            (12..12, 0..2),
        ];
        for (vertices, instances) in cases {
            let range = DrawRange {
                vertices: vertices.clone(),
                instances: instances.clone(),
            };
            if let Some(white) = white_columns(gpu, |p| p.draw_with(&draw, range)) {
                assert_eq!(
                    white,
                    covered(vertices.clone(), instances.clone()),
                    "draw_with({vertices:?}, {instances:?})"
                );
            }
        }
        // Ranges are per recording: the draw still draws its own counts, also after a
        // draw_with in the same pass.
        assert_eq!(draw.counts(), (6, 1));
        let range = DrawRange {
            vertices: 18..24,
            instances: 1..2,
        };
        if let Some(white) = white_columns(gpu, |p| {
            p.draw_with(&draw, range)?;
            p.draw(&draw)
        }) {
            assert_eq!(white, [0, 7], "draw_with then draw");
        }
    });
}

/// A fullscreen draw of one constant color.
fn solid(gpu: &Gpu, label: &str, rgb: &str) -> vgpu::Draw {
    vgpu_tests::fullscreen(
        gpu,
        label,
        &format!("@fragment fn fs_main() -> @location(0) vec4f {{ return vec4f({rgb}, 1.0); }}"),
    )
}

/// Whether pixel `(x, y)` is inside the rectangle `[x, y, w, h]`.
fn inside(rect: [u32; 4], x: u32, y: u32) -> bool {
    (rect[0]..rect[0] + rect[2]).contains(&x) && (rect[1]..rect[1] + rect[3]).contains(&y)
}

/// `PassDesc::scissor` confines the pass's draws to its rectangle: pixels outside keep the
/// clear color; a pass without one draws everywhere.
#[test]
fn pass_desc_scissor_keeps_the_clear_color_outside_its_rectangle() {
    vgpu_tests::each_gpu(|gpu| {
        let white = solid(gpu, "white", "1.0, 1.0, 1.0");
        let target = gpu.target(8, 6).expect("target");
        let clear = PassDesc::new(&target).clear([0.0, 0.0, 0.0, 1.0]);
        let rect = [2, 1, 3, 4];
        gpu.frame(|f| {
            f.pass(
                clear.clone().scissor(rect[0], rect[1], rect[2], rect[3]),
                |p| p.draw(&white),
            )
        })
        .expect("frame");
        if !gpu.is_noop() {
            let image = target.read_rgba8().expect("read back");
            for y in 0..6 {
                for x in 0..8 {
                    let expected = if inside(rect, x, y) { WHITE } else { BLACK };
                    assert_eq!(image.pixel(x, y), Some(expected), "({x},{y})");
                }
            }
        }
        // Control: the same pass without a scissor covers the target.
        gpu.frame(|f| f.pass(clear, |p| p.draw(&white)))
            .expect("frame");
        if !gpu.is_noop() {
            let image = target.read_rgba8().expect("read back");
            vgpu_tests::assert_all_pixels(&image, WHITE, "no scissor");
        }
    });
}

/// `Pass::set_scissor` confines the draws recorded after it, and a later `set_scissor` in the
/// same pass moves it: each draw colors exactly its own rectangle, the rest keeps the clear
/// color.
#[test]
fn set_scissor_confines_each_following_draw_to_its_rectangle() {
    vgpu_tests::each_gpu(|gpu| {
        let red = solid(gpu, "red", "1.0, 0.0, 0.0");
        let green = solid(gpu, "green", "0.0, 1.0, 0.0");
        let target = gpu.target(8, 6).expect("target");
        let (a, b) = ([0, 0, 2, 6], [5, 2, 3, 3]);
        gpu.frame(|f| {
            f.pass(PassDesc::new(&target).clear([0.0, 0.0, 0.0, 1.0]), |p| {
                p.set_scissor(a[0], a[1], a[2], a[3]);
                p.draw(&red)?;
                p.set_scissor(b[0], b[1], b[2], b[3]);
                p.draw(&green)
            })
        })
        .expect("frame");
        if gpu.is_noop() {
            return;
        }
        let image = target.read_rgba8().expect("read back");
        for y in 0..6 {
            for x in 0..8 {
                let expected = if inside(b, x, y) {
                    [0, 255, 0, 255]
                } else if inside(a, x, y) {
                    [255, 0, 0, 255]
                } else {
                    BLACK
                };
                assert_eq!(image.pixel(x, y), Some(expected), "({x},{y})");
            }
        }
    });
}

/// A scissor rectangle reaching outside the target is refused with a typed error (wgpu's
/// validation, at the frame's submit), for the pass description's and for `set_scissor`'s; the
/// `Gpu` then renders the next frame as usual.
#[test]
fn a_scissor_outside_the_target_fails_the_frame_and_the_gpu_goes_on() {
    vgpu_tests::each_gpu(|gpu| {
        let white = solid(gpu, "white", "1.0, 1.0, 1.0");
        let target = gpu.target(8, 6).expect("target");
        let e = gpu
            .frame(|f| {
                f.pass(PassDesc::new(&target).scissor(6, 0, 4, 4), |p| {
                    p.draw(&white)
                })
            })
            .expect_err("a PassDesc scissor past the right edge");
        assert_eq!(e.code(), "VGPU-DEVICE-VALIDATION", "{e}");
        assert!(e.to_string().contains("set_scissor_rect"), "{e}");
        let e = gpu
            .frame(|f| {
                f.pass(&target, |p| {
                    p.set_scissor(0, 5, 2, 2);
                    p.draw(&white)
                })
            })
            .expect_err("a set_scissor past the bottom edge");
        assert_eq!(e.code(), "VGPU-DEVICE-VALIDATION", "{e}");
        assert!(e.to_string().contains("set_scissor_rect"), "{e}");
        gpu.frame(|f| f.pass(&target, |p| p.draw(&white)))
            .expect("the next frame");
        if !gpu.is_noop() {
            let image = target.read_rgba8().expect("read back");
            vgpu_tests::assert_all_pixels(&image, WHITE, "the next frame");
        }
    });
}
