//! Tier 2 (real device): draws from meshes match vertex inputs by name, whatever their
//! locations: pixels read back are the same for shaders that declare the same inputs at other
//! locations, and hold the UV-derived colors; missing and mistyped inputs are typed errors; a
//! mesh draws with the caller's per-instance buffer; back faces of the primitives are culled.

#![allow(clippy::unwrap_used, reason = "an unwrap in a test is an assertion")]

use vgpu::geometry::{self, Geometry};
use vgpu::{DrawDesc, Gpu, PassDesc, RgbaImage, VertexBuffer};

const SIZE: u32 = 32;

/// Renders `draw` into a fresh `SIZE`² target cleared to opaque black.
fn render(gpu: &Gpu, draw: &vgpu::Draw) -> RgbaImage {
    let target = gpu.target(SIZE, SIZE).unwrap();
    gpu.frame(|f| {
        f.pass(PassDesc::new(&target).clear([0.0, 0.0, 0.0, 1.0]), |p| {
            p.draw(draw)
        })
    })
    .unwrap();
    target.read_rgba8().unwrap()
}

/// A draw of `mesh` with the vertex stage `vs` (its output `Out` and `fs_main` are given),
/// culling back faces.
fn mesh_draw(gpu: &Gpu, label: &str, vs: &str, mesh: &vgpu::Mesh) -> vgpu::Result<vgpu::Draw> {
    let shader = gpu
        .shader(
            label,
            &format!(
                "struct Out {{ @builtin(position) clip: vec4f, @location(0) color: vec4f }}
                 @fragment fn fs_main(in: Out) -> @location(0) vec4f {{ return in.color; }}
                 {vs}"
            ),
        )
        .unwrap();
    gpu.draw(
        &shader,
        DrawDesc {
            label: label.into(),
            mesh: Some(mesh.clone()),
            cull_mode: Some(wgpu::Face::Back),
            ..Default::default()
        },
    )
}

/// The plane seen from above (+Y), −Z up: x → clip x, z → −clip y, so it covers the viewport
/// with its front face toward the viewer.
const UV_AT_0: &str = "
@vertex fn vs_main(@location(0) uv: vec2f, @location(1) position: vec3f) -> Out {
    return Out(vec4f(position.x, -position.z, 0.0, 1.0), vec4f(uv, 0.0, 1.0));
}";
const POSITION_AT_0: &str = "
@vertex fn vs_main(@location(0) position: vec3f, @location(1) uv: vec2f) -> Out {
    return Out(vec4f(position.x, -position.z, 0.0, 1.0), vec4f(uv, 0.0, 1.0));
}";

#[test]
fn inputs_take_attributes_by_name_at_any_location() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    let mesh = gpu.mesh(&geometry::plane(2.0, 2.0, 3, 5).unwrap()).unwrap();
    let a = render(&gpu, &mesh_draw(&gpu, "uv at 0", UV_AT_0, &mesh).unwrap());
    let b = render(
        &gpu,
        &mesh_draw(&gpu, "position at 0", POSITION_AT_0, &mesh).unwrap(),
    );
    assert_eq!(a.data, b.data, "the same pixels whatever the locations");
    // The plane's UVs are (x / 2 + 0.5, z / 2 + 0.5): at pixel centre (px, py) of the
    // viewport, u = (px + 0.5) / SIZE and v = (py + 0.5) / SIZE (clip y = -z, so v grows down).
    for (px, py) in [(0, 0), (31, 0), (0, 31), (31, 31), (16, 8), (5, 27)] {
        let expect = |c: u32| (f64::from(c) + 0.5) / f64::from(SIZE) * 255.0;
        let pixel = a.pixel(px, py).unwrap();
        assert!(
            (f64::from(pixel[0]) - expect(px)).abs() <= 1.5
                && (f64::from(pixel[1]) - expect(py)).abs() <= 1.5
                && pixel[2..] == [0, 255],
            "pixel ({px},{py}) = {pixel:?}, expected u {:.1} v {:.1}",
            expect(px),
            expect(py)
        );
    }
    assert!(gpu.take_uncaptured_errors().is_empty());
}

#[test]
fn missing_and_mistyped_inputs_are_refused_naming_the_input() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    let mesh = gpu.mesh(&geometry::sphere(1.0, 8, 4).unwrap()).unwrap();
    let e = mesh_draw(
        &gpu,
        "tinted",
        "@vertex fn vs_main(@location(0) position: vec3f, @location(1) tint: vec4f) -> Out {
             return Out(vec4f(position, 1.0), tint);
         }",
        &mesh,
    )
    .unwrap_err();
    assert_eq!(e.code(), "VGPU-MESH-ATTRIBUTE-MISSING");
    let message = e.to_string();
    for part in [
        "\"tinted\"",
        "`tint` (@location(1))",
        "`position` (Float32x3)",
        "`normal` (Float32x3)",
        "`uv` (Float32x2)",
        "`tangent` (Float32x4)",
    ] {
        assert!(message.contains(part), "{message} should contain {part}");
    }
    let e = mesh_draw(
        &gpu,
        "flat",
        "@vertex fn vs_main(@location(0) position: vec2f) -> Out {
             return Out(vec4f(position, 0.0, 1.0), vec4f(1.0));
         }",
        &mesh,
    )
    .unwrap_err();
    assert_eq!(e.code(), "VGPU-MESH-ATTRIBUTE-TYPE");
    let message = e.to_string();
    assert!(
        message.contains("`position` (@location(0)) is vec2f (Float32x2)")
            && message.contains("Float32x3"),
        "{message}"
    );
    assert!(gpu.take_uncaptured_errors().is_empty());
}

#[test]
fn a_mesh_draws_with_a_per_instance_buffer_after_its_slots() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    // The user's own arrays: a quad in the XY plane facing +Z (counter-clockwise seen from
    // +Z), with a color per vertex by a name of its own.
    let quad = Geometry::new(vec![
        [-0.25, -0.25, 0.0],
        [0.25, -0.25, 0.0],
        [0.25, 0.25, 0.0],
        [-0.25, 0.25, 0.0],
    ])
    .with_attribute("tint", vec![[255_u8, 0, 0, 255]; 4])
    .with_indices(vec![0, 1, 2, 0, 2, 3])
    .with_label("quad");
    let mesh = gpu.mesh(&quad).unwrap();
    let offsets = gpu
        .buffer_init(
            "offsets",
            &vgpu_tests::f32_bytes(&[-0.5, 0.0, 0.5, 0.0]),
            wgpu::BufferUsages::VERTEX,
        )
        .unwrap();
    let shader = gpu
        .shader(
            "instances",
            "struct Out { @builtin(position) clip: vec4f, @location(0) color: vec4f }
             @vertex fn vs_main(@location(2) offset: vec2f, @location(0) tint: vec4f,
                                @location(1) position: vec3f) -> Out {
                 return Out(vec4f(position.xy + offset, 0.0, 1.0), tint);
             }
             @fragment fn fs_main(in: Out) -> @location(0) vec4f { return in.color; }",
        )
        .unwrap();
    let draw = gpu
        .draw(
            &shader,
            DrawDesc {
                label: "instances".into(),
                mesh: Some(mesh),
                vertex_buffers: vec![VertexBuffer {
                    buffer: offsets,
                    offset: 0,
                    stride: 8,
                    step_mode: wgpu::VertexStepMode::Instance,
                    attributes: vec![wgpu::VertexAttribute {
                        format: wgpu::VertexFormat::Float32x2,
                        offset: 0,
                        shader_location: 2,
                    }],
                }],
                instance_count: 2,
                cull_mode: Some(wgpu::Face::Back),
                ..Default::default()
            },
        )
        .unwrap();
    assert_eq!(draw.counts(), (6, 2), "the mesh's 6 indices, 2 instances");
    let image = render(&gpu, &draw);
    const RED: [u8; 4] = [255, 0, 0, 255];
    const BLACK: [u8; 4] = [0, 0, 0, 255];
    // Instance 0 covers clip x in [-0.75, -0.25] (pixels 4..12), instance 1 [0.25, 0.75]
    // (pixels 20..28); both clip y in [-0.25, 0.25] (pixels 12..20).
    for (x, y) in [(8, 16), (5, 13), (11, 19), (24, 16), (21, 13), (27, 19)] {
        assert_eq!(
            image.pixel(x, y),
            Some(RED),
            "inside an instance at ({x},{y})"
        );
    }
    for (x, y) in [
        (16, 16),
        (8, 8),
        (24, 24),
        (2, 16),
        (30, 16),
        (13, 16),
        (19, 16),
    ] {
        assert_eq!(image.pixel(x, y), Some(BLACK), "outside at ({x},{y})");
    }
    let red = image.data.chunks_exact(4).filter(|p| *p == RED).count();
    assert_eq!(red, 2 * 8 * 8, "two 8×8 quads");
    assert!(gpu.take_uncaptured_errors().is_empty());
}

/// Every primitive, seen from outside with back faces culled, shows at its middle the near
/// side's outward normal: its triangles face outward on the GPU too (with the winding flipped,
/// the near side would be culled and the far side's inside, whose normals point away, shown).
#[test]
fn primitives_front_faces_point_outward_on_the_gpu() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    let solids = [
        geometry::cuboid([1.0, 1.0, 1.0]).unwrap(),
        geometry::sphere(0.6, 16, 8).unwrap(),
        geometry::icosphere(0.6, 2).unwrap(),
        geometry::torus(0.5, 0.2, 8, 24).unwrap(),
        geometry::cylinder(0.5, 1.0, 16, 2).unwrap(),
        geometry::cone(0.5, 1.0, 16).unwrap(),
        geometry::capsule(0.3, 0.6, 4, 16).unwrap(),
    ];
    // An orthographic view from +Z, normals as colors.
    let vs = "@vertex fn vs_main(@location(0) position: vec3f, @location(1) normal: vec3f) -> Out {
        return Out(vec4f(position.x, position.y, 0.5 - position.z / 4.0, 1.0),
                   vec4f(normal * 0.5 + 0.5, 1.0));
    }";
    for solid in solids {
        let what = solid.label().to_owned();
        let mesh = gpu.mesh(&solid).unwrap();
        let image = render(&gpu, &mesh_draw(&gpu, &what, vs, &mesh).unwrap());
        let covered = image
            .data
            .chunks_exact(4)
            .filter(|p| *p != [0, 0, 0, 255])
            .count();
        assert!(covered > 100, "{what}: {covered} pixels drawn");
        for (x, y) in [(15, 15), (16, 15), (15, 16), (16, 16)] {
            let pixel = image.pixel(x, y).unwrap();
            // The normal's z above 0.7 (blue above 0.85 * 255).
            assert!(
                pixel[2] > 216,
                "{what}: pixel ({x},{y}) {pixel:?} is not a front face"
            );
        }
    }
    assert!(gpu.take_uncaptured_errors().is_empty());
}
