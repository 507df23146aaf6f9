//! Tier 1 (CPU, and the noop device for meshes): every geometry primitive at several segment
//! counts has unit outward normals, in-range indices of whole triangles, triangles
//! counter-clockwise seen from outside (none degenerate), UVs in `[0, 1]`, unit tangents
//! orthogonal to the normals and along increasing `u`, the documented vertex and index counts,
//! and the volume of the solid it approximates; out-of-range segment counts and sizes are typed
//! errors, refused before anything sized by the request is allocated. Meshes: attribute
//! lengths, index ranges, index formats, and the draw-time errors of matching inputs by name.

#![allow(clippy::unwrap_used, reason = "an unwrap in a test is an assertion")]

use std::f64::consts::PI;

use vgpu::geometry::{self, Geometry};
use vgpu::{DrawDesc, Gpu, IndexBuffer, VertexBuffer};

type V3 = [f64; 3];

fn v3(p: [f32; 3]) -> V3 {
    p.map(f64::from)
}
fn sub(a: V3, b: V3) -> V3 {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}
fn add(a: V3, b: V3) -> V3 {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}
fn scale(a: V3, s: f64) -> V3 {
    a.map(|c| c * s)
}
fn dot(a: V3, b: V3) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}
fn cross(a: V3, b: V3) -> V3 {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}
fn len(a: V3) -> f64 {
    dot(a, a).sqrt()
}

/// How each primitive's "outward" is measured at a point.
#[derive(Clone, Copy)]
enum Outward {
    /// From the centre (the origin).
    Centre,
    /// From the nearest point of the circle of this radius in the XZ plane (a torus's tube).
    Ring(f64),
    /// +Y.
    Up,
}

impl Outward {
    fn at(self, p: V3) -> V3 {
        match self {
            Outward::Centre => p,
            Outward::Ring(radius) => {
                let r = (p[0] * p[0] + p[2] * p[2]).sqrt();
                sub(p, [p[0] / r * radius, 0.0, p[2] / r * radius])
            }
            Outward::Up => [0.0, 1.0, 0.0],
        }
    }
}

/// Checks every property of the module's contract on `g`, with its documented counts and, for a
/// closed solid, the volume it should enclose (within `tolerance`, relative).
#[track_caller]
fn check(
    what: &str,
    g: &Geometry,
    outward: Outward,
    counts: (u64, u64),
    volume: Option<(f64, f64)>,
) {
    let positions = g.positions().expect("positions");
    let normals = g.normals().expect("normals");
    let uvs = g.uvs().expect("uvs");
    let tangents = g.tangents().expect("tangents");
    let indices = g.indices().expect("indices");
    let n = positions.len();
    assert_eq!(
        (n as u64, indices.len() as u64),
        counts,
        "{what}: vertex and index counts as documented"
    );
    assert_eq!(g.vertex_count(), n);
    assert_eq!(
        (normals.len(), uvs.len(), tangents.len()),
        (n, n, n),
        "{what}: one of each attribute per vertex"
    );
    let names: Vec<&str> = g.attributes().map(|(name, _)| name).collect();
    assert_eq!(names, ["position", "normal", "uv", "tangent"], "{what}");
    for i in 0..n {
        let (p, nrm, t) = (v3(positions[i]), v3(normals[i]), tangents[i]);
        assert!(
            (len(nrm) - 1.0).abs() < 1e-4,
            "{what}: normal {i} {nrm:?} is not unit"
        );
        assert!(
            dot(nrm, outward.at(p)) > 0.0,
            "{what}: normal {i} {nrm:?} at {p:?} points inward"
        );
        let uv = uvs[i];
        assert!(
            uv.iter().all(|c| (0.0..=1.0).contains(c)),
            "{what}: uv {i} {uv:?} outside [0, 1]"
        );
        let txyz = [t[0], t[1], t[2]].map(f64::from);
        assert!(
            (len(txyz) - 1.0).abs() < 1e-4,
            "{what}: tangent {i} {t:?} is not unit"
        );
        assert!(
            dot(txyz, nrm).abs() < 1e-4,
            "{what}: tangent {i} {t:?} is not orthogonal to normal {nrm:?}"
        );
        assert_eq!(t[3], 1.0, "{what}: tangent {i} handedness");
    }
    assert_eq!(indices.len() % 3, 0, "{what}: whole triangles");
    assert!(
        indices.iter().all(|&i| (i as usize) < n),
        "{what}: an index is out of range"
    );
    let mut enclosed = 0.0;
    for (k, tri) in indices.chunks_exact(3).enumerate() {
        let [a, b, c] = [0, 1, 2].map(|j| v3(positions[tri[j] as usize]));
        let face = cross(sub(b, a), sub(c, a));
        assert!(
            len(face) > 0.0,
            "{what}: triangle {k} {tri:?} is degenerate"
        );
        // Outward at the triangle: the sum of its corners' (unit) outward directions (the
        // centroid of a coarse torus's triangle can lie nearer another part of the ring).
        let unit = |p: V3| scale(outward.at(p), 1.0 / len(outward.at(p)));
        let out = add(add(unit(a), unit(b)), unit(c));
        assert!(
            dot(face, out) > 0.0,
            "{what}: triangle {k} {tri:?} ({a:?}, {b:?}, {c:?}) is clockwise seen from outside"
        );
        let normals_sum = [0, 1, 2]
            .map(|j| v3(normals[tri[j] as usize]))
            .into_iter()
            .fold([0.0; 3], add);
        assert!(
            dot(face, normals_sum) > 0.0,
            "{what}: triangle {k} {tri:?} faces away from its normals"
        );
        // The tangent of the triangle's UV mapping (the direction of increasing u) and its
        // bitangent (increasing v): each corner's tangent points along the first, and
        // cross(normal, tangent) * w toward decreasing v (glTF's convention).
        let [ua, ub, uc] = [0, 1, 2].map(|j| uvs[tri[j] as usize].map(f64::from));
        let (e1, e2) = (sub(b, a), sub(c, a));
        let (du1, dv1, du2, dv2) = (ub[0] - ua[0], ub[1] - ua[1], uc[0] - ua[0], uc[1] - ua[1]);
        let det = du1 * dv2 - du2 * dv1;
        assert!(
            det.abs() > 0.0,
            "{what}: triangle {k} {tri:?} has degenerate UVs"
        );
        let dpdu = scale(sub(scale(e1, dv2), scale(e2, dv1)), 1.0 / det);
        let dpdv = scale(sub(scale(e2, du1), scale(e1, du2)), 1.0 / det);
        // Only where the flat triangle approximates the surface (its corners' normals within
        // 60° of each other): a triangle of a 3-segment torus spans 120° and its linear UV
        // frame says little about the surface's.
        let corner_normals = [0, 1, 2].map(|j| v3(normals[tri[j] as usize]));
        let flat_enough =
            (0..3).all(|j| dot(corner_normals[j], corner_normals[(j + 1) % 3]) >= 0.5);
        for &i in tri.iter().filter(|_| flat_enough) {
            let t = tangents[i as usize];
            let txyz = [t[0], t[1], t[2]].map(f64::from);
            assert!(
                dot(txyz, dpdu) > 0.0,
                "{what}: tangent {i} {t:?} does not point along increasing u {dpdu:?} (triangle {k})"
            );
            let bitangent = scale(cross(v3(normals[i as usize]), txyz), f64::from(t[3]));
            assert!(
                dot(bitangent, dpdv) < 0.0,
                "{what}: vertex {i}: cross(normal, tangent) * w does not point toward decreasing v"
            );
        }
        enclosed += dot(a, cross(b, c)) / 6.0;
    }
    if let Some((expected, tolerance)) = volume {
        assert!(
            ((enclosed - expected) / expected).abs() < tolerance,
            "{what}: encloses {enclosed}, expected {expected}"
        );
    }
}

#[test]
fn cuboids_have_four_vertices_per_face_and_enclose_their_volume() {
    for size in [[1.0, 1.0, 1.0], [2.0, 0.5, 3.0], [0.01, 10.0, 0.2]] {
        let g = geometry::cuboid(size).unwrap();
        let [w, h, d] = size.map(f64::from);
        check(
            &format!("cuboid {size:?}"),
            &g,
            Outward::Centre,
            (24, 36),
            Some((w * h * d, 1e-6)),
        );
        // Each face's four vertices share its normal, and the corners are the box's.
        let positions = g.positions().unwrap();
        let normals = g.normals().unwrap();
        for face in 0..6 {
            let n = normals[face * 4];
            assert!(normals[face * 4..face * 4 + 4].iter().all(|m| *m == n));
        }
        for p in positions {
            for (k, c) in p.iter().enumerate() {
                assert_eq!(c.abs(), size[k] / 2.0, "corner {p:?}");
            }
        }
    }
}

#[test]
fn planes_face_up_with_their_grid_counts() {
    for (sx, sz) in [(1, 1), (2, 3), (7, 1), (16, 16)] {
        let g = geometry::plane(3.0, 2.0, sx, sz).unwrap();
        let (x, z) = (u64::from(sx), u64::from(sz));
        check(
            &format!("plane {sx}x{sz}"),
            &g,
            Outward::Up,
            ((x + 1) * (z + 1), 6 * x * z),
            None,
        );
        let positions = g.positions().unwrap();
        assert!(positions.iter().all(|p| p[1] == 0.0));
        let area: f64 = g
            .indices()
            .unwrap()
            .chunks_exact(3)
            .map(|t| {
                let [a, b, c] = [0, 1, 2].map(|j| v3(positions[t[j] as usize]));
                len(cross(sub(b, a), sub(c, a))) / 2.0
            })
            .sum();
        assert!((area - 6.0).abs() < 1e-9, "plane area {area}");
        // u grows with x, v with z.
        let uvs = g.uvs().unwrap();
        for (p, uv) in positions.iter().zip(uvs) {
            assert!((f64::from(uv[0]) - (f64::from(p[0]) / 3.0 + 0.5)).abs() < 1e-6);
            assert!((f64::from(uv[1]) - (f64::from(p[2]) / 2.0 + 0.5)).abs() < 1e-6);
        }
    }
}

#[test]
fn uv_spheres_are_closed_outward_and_have_no_degenerate_pole_triangles() {
    for (w, h) in [(3, 2), (4, 3), (8, 5), (32, 16), (64, 48)] {
        let g = geometry::sphere(2.0, w, h).unwrap();
        let (w64, h64) = (u64::from(w), u64::from(h));
        let volume = (w >= 32).then_some((4.0 / 3.0 * PI * 8.0, 0.02));
        check(
            &format!("sphere {w}x{h}"),
            &g,
            Outward::Centre,
            ((w64 + 1) * (h64 - 1) + 2 * w64, 6 * w64 * (h64 - 1)),
            volume,
        );
        for p in g.positions().unwrap() {
            assert!((len(v3(*p)) - 2.0).abs() < 1e-5, "{p:?} on the sphere");
        }
    }
}

#[test]
fn icospheres_cut_their_seam_and_keep_uvs_in_range() {
    for s in [0, 1, 2, 3, 4, 7, 12] {
        let g = geometry::icosphere(1.5, s).unwrap();
        let n = u64::from(s) + 1;
        let volume = (s >= 7).then_some((4.0 / 3.0 * PI * 1.5_f64.powi(3), 0.02));
        check(
            &format!("icosphere {s}"),
            &g,
            Outward::Centre,
            (10 * n * n + 4 * n + 10, 60 * n * n + 6 * n),
            volume,
        );
        for p in g.positions().unwrap() {
            assert!((len(v3(*p)) - 1.5).abs() < 1e-5, "{p:?} on the sphere");
        }
        // No triangle spans the seam: its u values are within half a turn of each other.
        let uvs = g.uvs().unwrap();
        for t in g.indices().unwrap().chunks_exact(3) {
            let us = [0, 1, 2].map(|j| uvs[t[j] as usize][0]);
            let spread = us.iter().copied().fold(f32::MIN, f32::max)
                - us.iter().copied().fold(f32::MAX, f32::min);
            assert!(spread < 0.5, "triangle {t:?} spans the seam: u {us:?}");
        }
    }
}

#[test]
fn tori_point_away_from_their_tube_centre() {
    for (radial, tubular) in [(3, 3), (4, 6), (12, 48), (32, 64)] {
        let g = geometry::torus(1.0, 0.25, radial, tubular).unwrap();
        let (r, t) = (u64::from(radial), u64::from(tubular));
        let volume = (radial >= 32).then_some((2.0 * PI * PI * 1.0 * 0.0625, 0.02));
        check(
            &format!("torus {radial}x{tubular}"),
            &g,
            Outward::Ring(1.0),
            ((r + 1) * (t + 1), 6 * r * t),
            volume,
        );
    }
}

#[test]
fn cylinders_and_cones_are_capped() {
    for (radial, along) in [(3, 1), (5, 2), (16, 4), (96, 1)] {
        let g = geometry::cylinder(0.5, 2.0, radial, along).unwrap();
        let (r, h) = (u64::from(radial), u64::from(along));
        let volume = (radial >= 96).then_some((PI * 0.25 * 2.0, 0.01));
        check(
            &format!("cylinder {radial}x{along}"),
            &g,
            Outward::Centre,
            ((r + 1) * (h + 3), 6 * r * (h + 1)),
            volume,
        );
    }
    for radial in [3, 4, 17, 96] {
        let g = geometry::cone(0.5, 1.5, radial).unwrap();
        let r = u64::from(radial);
        let volume = (radial >= 96).then_some((PI * 0.25 * 1.5 / 3.0, 0.01));
        check(
            &format!("cone {radial}"),
            &g,
            Outward::Centre,
            (3 * r + 2, 6 * r),
            volume,
        );
    }
}

#[test]
fn capsules_join_two_hemispheres_and_a_cylinder() {
    for (caps, radial) in [(1, 3), (2, 5), (8, 16), (24, 64)] {
        let g = geometry::capsule(0.5, 1.0, caps, radial).unwrap();
        let (c, r) = (u64::from(caps), u64::from(radial));
        let volume = (caps >= 24).then_some((PI * 0.25 * 1.0 + 4.0 / 3.0 * PI * 0.125, 0.01));
        check(
            &format!("capsule {caps}x{radial}"),
            &g,
            Outward::Centre,
            (2 * c * (r + 1) + 2 * r, 12 * r * c),
            volume,
        );
        let ys: Vec<f32> = g.positions().unwrap().iter().map(|p| p[1]).collect();
        let top = ys.iter().copied().fold(f32::MIN, f32::max);
        assert_eq!(top, 1.0, "length / 2 + radius");
    }
}

/// `result` is the geometry error `code`, whose message contains each of `words`.
#[track_caller]
fn assert_geometry_error<T: std::fmt::Debug>(result: vgpu::Result<T>, code: &str, words: &[&str]) {
    let e = result.expect_err("refused");
    assert_eq!(e.code(), code, "{e}");
    assert!(e.as_geometry().is_some(), "{e:?}");
    let message = e.to_string();
    assert!(message.starts_with(code), "{message}");
    for word in words {
        assert!(message.contains(word), "{message} should name {word}");
    }
}

#[test]
fn zero_and_absurd_segment_counts_are_refused_with_the_range() {
    for bad in [0, u32::MAX] {
        let v = bad.to_string();
        let v = v.as_str();
        assert_geometry_error(
            geometry::plane(1.0, 1.0, bad, 1),
            "VGPU-GEOMETRY-SEGMENTS",
            &["plane", "segments_x", v, "1..=4096"],
        );
        assert_geometry_error(
            geometry::plane(1.0, 1.0, 1, bad),
            "VGPU-GEOMETRY-SEGMENTS",
            &["plane", "segments_z", v],
        );
        assert_geometry_error(
            geometry::sphere(1.0, bad, 8),
            "VGPU-GEOMETRY-SEGMENTS",
            &["sphere", "width_segments", v, "3..=4096"],
        );
        assert_geometry_error(
            geometry::sphere(1.0, 8, bad),
            "VGPU-GEOMETRY-SEGMENTS",
            &["sphere", "height_segments", v, "2..=4096"],
        );
        assert_geometry_error(
            geometry::torus(1.0, 0.5, bad, 8),
            "VGPU-GEOMETRY-SEGMENTS",
            &["torus", "radial_segments", v],
        );
        assert_geometry_error(
            geometry::torus(1.0, 0.5, 8, bad),
            "VGPU-GEOMETRY-SEGMENTS",
            &["torus", "tubular_segments", v],
        );
        assert_geometry_error(
            geometry::cylinder(1.0, 1.0, bad, 1),
            "VGPU-GEOMETRY-SEGMENTS",
            &["cylinder", "radial_segments", v],
        );
        assert_geometry_error(
            geometry::cylinder(1.0, 1.0, 8, bad),
            "VGPU-GEOMETRY-SEGMENTS",
            &["cylinder", "height_segments", v, "1..=4096"],
        );
        assert_geometry_error(
            geometry::cone(1.0, 1.0, bad),
            "VGPU-GEOMETRY-SEGMENTS",
            &["cone", "radial_segments", v],
        );
        assert_geometry_error(
            geometry::capsule(1.0, 1.0, bad, 8),
            "VGPU-GEOMETRY-SEGMENTS",
            &["capsule", "cap_segments", v],
        );
        assert_geometry_error(
            geometry::capsule(1.0, 1.0, 4, bad),
            "VGPU-GEOMETRY-SEGMENTS",
            &["capsule", "radial_segments", v],
        );
    }
    // Below the minimum around an axis; the icosahedron itself is 0 subdivisions.
    assert_geometry_error(
        geometry::sphere(1.0, 2, 8),
        "VGPU-GEOMETRY-SEGMENTS",
        &["width_segments = 2"],
    );
    assert_geometry_error(
        geometry::icosphere(1.0, u32::MAX),
        "VGPU-GEOMETRY-SEGMENTS",
        &["icosphere", "subdivisions", "0..=4096"],
    );
    assert_eq!(geometry::icosphere(1.0, 0).unwrap().vertex_count(), 24);
    let e = geometry::sphere(1.0, 0, 8).unwrap_err();
    let vgpu::GeometryError::Segments {
        primitive,
        parameter,
        value,
        min,
        max,
        ..
    } = e.as_geometry().unwrap()
    else {
        panic!("{e:?}");
    };
    assert_eq!(
        (*primitive, *parameter, *value, *min, *max),
        ("sphere", "width_segments", 0, 3, geometry::MAX_SEGMENTS)
    );
}

#[test]
fn nan_negative_zero_and_infinite_sizes_are_refused() {
    for bad in [
        f32::NAN,
        -1.0,
        0.0,
        -0.0,
        f32::INFINITY,
        f32::NEG_INFINITY,
        1e30,
    ] {
        let all: [(&str, vgpu::Result<Geometry>); 14] = [
            ("width", geometry::cuboid([bad, 1.0, 1.0])),
            ("depth", geometry::cuboid([1.0, 1.0, bad])),
            ("width", geometry::plane(bad, 1.0, 1, 1)),
            ("depth", geometry::plane(1.0, bad, 1, 1)),
            ("radius", geometry::sphere(bad, 8, 8)),
            ("radius", geometry::icosphere(bad, 1)),
            ("radius", geometry::torus(bad, 0.5, 8, 8)),
            ("tube", geometry::torus(2.0, bad, 8, 8)),
            ("radius", geometry::cylinder(bad, 1.0, 8, 1)),
            ("height", geometry::cylinder(1.0, bad, 8, 1)),
            ("radius", geometry::cone(bad, 1.0, 8)),
            ("height", geometry::cone(1.0, bad, 8)),
            ("radius", geometry::capsule(bad, 1.0, 4, 8)),
            ("length", geometry::capsule(1.0, bad, 4, 8)),
        ];
        for (parameter, result) in all {
            assert_geometry_error(result, "VGPU-GEOMETRY-SIZE", &[parameter]);
        }
    }
    // A tube as thick as the ring passes through the axis.
    assert_geometry_error(
        geometry::torus(1.0, 1.0, 8, 8),
        "VGPU-GEOMETRY-SIZE",
        &["torus", "tube", "less than the radius"],
    );
}

#[test]
fn too_many_vertices_are_refused_before_anything_is_allocated() {
    // Each request is within the per-parameter limit but past MAX_VERTICES.
    type Make = fn() -> vgpu::Result<Geometry>;
    let refused: [(&str, Make); 6] = [
        ("sphere", || geometry::sphere(1.0, 4096, 4096)),
        ("icosphere", || geometry::icosphere(1.0, 647)),
        ("plane", || geometry::plane(1.0, 1.0, 4096, 1024)),
        ("torus", || geometry::torus(1.0, 0.5, 4096, 4096)),
        ("cylinder", || geometry::cylinder(1.0, 1.0, 4096, 4096)),
        ("capsule", || geometry::capsule(1.0, 1.0, 4096, 4096)),
    ];
    for (primitive, make) in refused {
        let (result, allocations) = crate::alloc_count::counted(make);
        assert_geometry_error(result, "VGPU-GEOMETRY-VERTICES", &[primitive, "4194304"]);
        // The error's box and its label: nothing sized by the request.
        assert!(
            allocations <= 2,
            "{primitive}: {allocations} allocations before refusing"
        );
    }
    // The largest icosphere within the limit is one subdivision fewer.
    let n = 647_u64;
    assert!(10 * n * n + 4 * n + 10 <= u64::from(geometry::MAX_VERTICES));
    assert!(10 * (n + 1) * (n + 1) + 4 * (n + 1) + 10 > u64::from(geometry::MAX_VERTICES));
}

#[test]
fn hand_built_geometry_keeps_its_attributes_in_order() {
    let g = Geometry::new(vec![[0.0; 3]; 3])
        .with_attribute("color", vec![[1.0_f32, 0.0, 0.0, 1.0]; 3])
        .with_attribute("id", vec![7_u32; 3])
        .with_uvs(vec![[0.5; 2]; 3])
        .with_attribute("color", vec![[9_u8; 4]; 3])
        .without_attribute("id");
    let formats: Vec<(&str, wgpu::VertexFormat)> =
        g.attributes().map(|(n, a)| (n, a.format())).collect();
    assert_eq!(
        formats,
        [
            ("position", wgpu::VertexFormat::Float32x3),
            ("color", wgpu::VertexFormat::Unorm8x4),
            ("uv", wgpu::VertexFormat::Float32x2),
        ]
    );
    assert_eq!(g.attribute("color").unwrap().as_bytes(), &[9; 12]);
    assert_eq!(g.label(), "geometry");
    assert!(g.normals().is_none() && g.indices().is_none());
    // 2D positions replace the 3D ones (positions() is then not three floats).
    let flat = g.with_attribute("position", vec![[0.0_f32; 2]; 3]);
    assert!(flat.positions().is_none());
    assert_eq!(
        flat.attribute("position").unwrap().format(),
        wgpu::VertexFormat::Float32x2
    );
}

#[test]
fn meshes_refuse_inconsistent_geometry() {
    let gpu = Gpu::noop();
    let tri = || Geometry::new(vec![[0.0; 3]; 3]).with_label("tri");
    assert_geometry_error(
        gpu.mesh(&tri().with_normals(vec![[0.0, 1.0, 0.0]; 2])),
        "VGPU-MESH-ATTRIBUTE-LENGTH",
        &["\"tri\"", "`normal` has 2 values", "expected 3"],
    );
    assert_geometry_error(
        gpu.mesh(&tri().with_indices(vec![0, 1, 3])),
        "VGPU-MESH-INDEX-RANGE",
        &["index 3 (at position 2)", "vertex count 3"],
    );
    assert_geometry_error(
        gpu.mesh(&tri().with_indices(Vec::new())),
        "VGPU-MESH-EMPTY",
        &["an empty index list"],
    );
    assert_geometry_error(
        gpu.mesh(&Geometry::new(Vec::new())),
        "VGPU-MESH-EMPTY",
        &["0 vertices"],
    );
    assert_geometry_error(
        gpu.mesh(&tri().without_attribute("position")),
        "VGPU-MESH-EMPTY",
        &["no attribute"],
    );
}

#[test]
fn meshes_pack_indices_in_u16_when_they_fit() {
    let gpu = Gpu::noop();
    let big = |last: u32| {
        Geometry::new(vec![[0.0; 3]; 70_000]).with_indices(vec![0, 1, last, 2, 3, 4, 5])
    };
    let narrow = gpu.mesh(&big(65_534)).unwrap();
    assert_eq!(narrow.index_format(), Some(wgpu::IndexFormat::Uint16));
    assert_eq!(
        narrow.index_buffer().unwrap().size(),
        16,
        "7 u16, padded to 4"
    );
    // 0xFFFF is Uint16's strip-restart value.
    let wide = gpu.mesh(&big(65_535)).unwrap();
    assert_eq!(wide.index_format(), Some(wgpu::IndexFormat::Uint32));
    assert_eq!(wide.index_buffer().unwrap().size(), 28);
    assert_eq!((wide.vertex_count(), wide.index_count()), (70_000, Some(7)));
    let sphere = gpu.mesh(&geometry::sphere(1.0, 8, 4).unwrap()).unwrap();
    assert_eq!(sphere.label(), "sphere");
    let sizes: Vec<(&str, u64)> = sphere
        .attributes()
        .map(|(name, _)| (name, sphere.attribute_buffer(name).unwrap().size()))
        .collect();
    let n = 9 * 3 + 16;
    assert_eq!(
        sizes,
        [
            ("position", 12 * n),
            ("normal", 12 * n),
            ("uv", 8 * n),
            ("tangent", 16 * n)
        ],
        "tightly packed"
    );
    assert!(
        sphere
            .attribute_buffer("uv")
            .unwrap()
            .usage()
            .contains(wgpu::BufferUsages::VERTEX)
    );
    assert_eq!(sphere.index_count(), Some(6 * 8 * 3));
    let unindexed = gpu.mesh(&Geometry::new(vec![[0.0; 3]; 6])).unwrap();
    assert_eq!(
        (unindexed.index_count(), unindexed.index_format()),
        (None, None)
    );
}

const VS_HEAD: &str = "
struct Out { @builtin(position) clip: vec4f }
@fragment fn fs_main() -> @location(0) vec4f { return vec4f(1.0); }
";

fn draw_with(gpu: &Gpu, vs: &str, desc: DrawDesc) -> vgpu::Result<vgpu::Draw> {
    let shader = gpu.shader("mesh test", &format!("{VS_HEAD}{vs}")).unwrap();
    gpu.draw(&shader, desc)
}

#[test]
fn draws_from_meshes_refuse_missing_and_mistyped_inputs() {
    let gpu = Gpu::noop();
    let mesh = gpu.mesh(&geometry::cuboid([1.0; 3]).unwrap()).unwrap();
    let desc = |label: &str| DrawDesc {
        label: label.into(),
        mesh: Some(mesh.clone()),
        ..Default::default()
    };
    // A struct member's name counts as an input's name.
    let missing = draw_with(
        &gpu,
        "struct In { @location(0) position: vec3f, @location(3) color: vec4f }
         @vertex fn vs_main(v: In) -> Out { return Out(vec4f(v.position, v.color.x)); }",
        desc("missing"),
    );
    assert_geometry_error(
        missing,
        "VGPU-MESH-ATTRIBUTE-MISSING",
        &[
            "\"missing\"",
            "`color` (@location(3))",
            "\"cuboid\"",
            "`position` (Float32x3), `normal` (Float32x3), `uv` (Float32x2), `tangent` (Float32x4)",
        ],
    );
    let mistyped = draw_with(
        &gpu,
        "@vertex fn vs_main(@location(1) position: vec2f) -> Out {
             return Out(vec4f(position, 0.0, 1.0));
         }",
        desc("mistyped"),
    );
    assert_geometry_error(
        mistyped,
        "VGPU-MESH-ATTRIBUTE-TYPE",
        &[
            "\"mistyped\"",
            "`position` (@location(1)) is vec2f (Float32x2)",
            "Float32x3",
        ],
    );
    // A vec3f does not read the Float32x4 tangent (WebGPU would drop w; vgpu refuses).
    let dropped_w = draw_with(
        &gpu,
        "@vertex fn vs_main(@location(0) tangent: vec3f) -> Out { return Out(vec4f(tangent, 1.0)); }",
        desc("w"),
    );
    assert_geometry_error(
        dropped_w,
        "VGPU-MESH-ATTRIBUTE-TYPE",
        &["vec3f (Float32x3)", "Float32x4"],
    );
    // Another scalar kind.
    let kind = draw_with(
        &gpu,
        "@vertex fn vs_main(@location(0) uv: vec2u) -> Out { return Out(vec4f(vec2f(uv), 0.0, 1.0)); }",
        desc("kind"),
    );
    assert_geometry_error(kind, "VGPU-MESH-ATTRIBUTE-TYPE", &["vec2u (Uint32x2)"]);
    // Every input present with its type: accepted, counts from the mesh's indices.
    let ok = draw_with(
        &gpu,
        "@vertex fn vs_main(@location(2) uv: vec2f, @location(0) tangent: vec4f,
                            @location(5) normal: vec3f, @location(1) position: vec3f) -> Out {
             return Out(vec4f(position + normal * uv.x, tangent.w));
         }",
        desc("ok"),
    )
    .unwrap();
    assert_eq!(ok.counts(), (36, 1));
}

#[test]
fn draws_from_meshes_refuse_an_index_buffer_too_many_buffers_and_foreign_meshes() {
    let gpu = Gpu::noop();
    let mesh = gpu.mesh(&geometry::cuboid([1.0; 3]).unwrap()).unwrap();
    let vs = "@vertex fn vs_main(@location(0) position: vec3f) -> Out { return Out(vec4f(position, 1.0)); }";
    let indices = gpu
        .buffer_init("indices", &[0; 12], wgpu::BufferUsages::INDEX)
        .unwrap();
    let both = draw_with(
        &gpu,
        vs,
        DrawDesc {
            label: "both".into(),
            mesh: Some(mesh.clone()),
            index_buffer: Some(IndexBuffer::new(&indices, wgpu::IndexFormat::Uint32, 3)),
            ..Default::default()
        },
    );
    assert_geometry_error(
        both,
        "VGPU-MESH-INDEX-BUFFER",
        &["\"both\"", "\"cuboid\"", "index_buffer"],
    );
    // One buffer per attribute read, plus the caller's, past the device's limit.
    let max = gpu.context().limits().max_vertex_buffers;
    let extra = gpu
        .buffer_init("extra", &[0; 16], wgpu::BufferUsages::VERTEX)
        .unwrap();
    let instance = |location: u32| VertexBuffer {
        buffer: extra.clone(),
        offset: 0,
        stride: 16,
        step_mode: wgpu::VertexStepMode::Instance,
        attributes: vec![wgpu::VertexAttribute {
            format: wgpu::VertexFormat::Float32x4,
            offset: 0,
            shader_location: location,
        }],
    };
    let inputs: Vec<String> = (1..max)
        .map(|l| format!("@location({l}) i{l}: vec4f"))
        .collect();
    let many = draw_with(
        &gpu,
        &format!(
            "@vertex fn vs_main(@location(0) position: vec3f, @location({max}) normal: vec3f, {}) -> Out {{
                 return Out(vec4f(position + normal, 1.0));
             }}",
            inputs.join(", ")
        ),
        DrawDesc {
            label: "many".into(),
            mesh: Some(mesh.clone()),
            vertex_buffers: (1..max).map(instance).collect(),
            ..Default::default()
        },
    );
    assert_geometry_error(
        many,
        "VGPU-MESH-VERTEX-BUFFERS",
        &[
            &format!("needs {} vertex buffers (2 from mesh", max + 1),
            &format!("allows {max}"),
        ],
    );
    let other = Gpu::noop();
    let foreign = other.mesh(&geometry::cuboid([1.0; 3]).unwrap()).unwrap();
    let e = draw_with(
        &gpu,
        vs,
        DrawDesc {
            mesh: Some(foreign),
            ..Default::default()
        },
    )
    .unwrap_err();
    assert_eq!(e.code(), "VGPU-FOREIGN-GPU");
    assert_eq!(e.as_foreign_gpu().unwrap().kind, "mesh");
}
