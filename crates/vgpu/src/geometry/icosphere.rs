//! [`icosphere`]: a subdivided icosahedron, its UV seam cut along edges.

use std::collections::HashMap;
use std::f64::consts::{PI, TAU};

use super::builder::{Builder, around, normalize, ratio, tangent_around};
use crate::error::Result;

/// How far from the seam's plane (x = 0) a unit-sphere point counts as on it. The points the
/// construction puts on the plane are within rounding of it (1e-16); every other point is at
/// least about 1 / (2 · 650) away (the finest subdivision the vertex limit allows).
const ON_PLANE: f64 = 1e-9;

/// The vertex and index counts of an icosphere of `subdivisions`, `n = subdivisions + 1`:
/// the `10n² + 2` points of the subdivided icosahedron, `n` more where the seam cuts a triangle
/// in two, the `3n − 1` seam points doubled (`u` = 0 and 1), the north pole 5 times and the
/// south pole 6 times (one per triangle); `20n² + 2n` triangles.
fn counts(subdivisions: u32) -> (u64, u64) {
    let n = u64::from(subdivisions) + 1;
    (10 * n * n + 4 * n + 10, 3 * (20 * n * n + 2 * n))
}

/// A geodesic sphere of `radius`: an icosahedron (a vertex at each pole) whose every edge is cut
/// into `subdivisions + 1` segments, its points pushed onto the sphere; so its triangles are
/// nearly equal, unlike a UV sphere's. With `n = subdivisions + 1`: `10n² + 4n + 10` vertices
/// and `60n² + 6n` indices (0 subdivisions: the icosahedron, 24 vertices). UVs as
/// [`sphere`](super::sphere)'s (`u` around, 0.5 facing +Z; `v` from 0 at +Y to 1 at −Y): the
/// triangles the seam (−Z) crosses are cut in two along it and its vertices doubled, and each
/// pole has one vertex per triangle, so every `u` lies in `[0, 1]` with no triangle spanning
/// the seam.
///
/// `VGPU-GEOMETRY-SEGMENTS` unless `subdivisions` is at most
/// [`MAX_SEGMENTS`](super::MAX_SEGMENTS) (0 is the icosahedron), `VGPU-GEOMETRY-VERTICES` past
/// [`MAX_VERTICES`](super::MAX_VERTICES) (from 647 subdivisions), `VGPU-GEOMETRY-SIZE` unless
/// `radius` is finite, positive and at most [`MAX_SIZE`](super::MAX_SIZE).
///
/// ```
/// let ball = vgpu::geometry::icosphere(1.0, 3)?;
/// assert_eq!(ball.vertex_count(), 10 * 16 + 4 * 4 + 10);
/// assert_eq!(ball.indices().map(<[u32]>::len), Some(60 * 16 + 6 * 4));
/// # Ok::<(), vgpu::Error>(())
/// ```
pub fn icosphere(radius: f32, subdivisions: u32) -> Result<super::Geometry> {
    let r = super::size("icosphere", "radius", radius)?;
    let s = super::segments("icosphere", "subdivisions", subdivisions, 0)?;
    let (vertices, indices) = counts(s);
    super::vertex_limit("icosphere", vertices)?;
    let n = s + 1;
    let (mut points, triangles) = subdivided(n);
    let triangles = cut_seam(&mut points, triangles);
    let mut b = Builder::new(vertices, indices);
    // The vertex of each point per kind: 0 off the seam, 1 on it with u = 0, 2 with u = 1.
    let mut made = vec![[u32::MAX; 3]; points.len()];
    for triangle in triangles {
        let kinds = triangle.map(|i| Kind::of(points[i as usize]));
        // The side of the seam a triangle touching it lies on: that of its other points.
        let high = kinds.iter().any(|k| matches!(k, Kind::Off(u) if *u > 0.5));
        let u_of = |k: &Kind| match k {
            Kind::Off(u) => Some(*u),
            Kind::Seam => Some(if high { 1.0 } else { 0.0 }),
            Kind::Pole => None,
        };
        let us: Vec<f64> = kinds.iter().filter_map(u_of).collect();
        // A pole takes the mean `u` of the triangle's two other vertices.
        let pole_u = us.iter().sum::<f64>() / 2.0;
        let mut out = [0; 3];
        for (slot, (&i, kind)) in out.iter_mut().zip(triangle.iter().zip(&kinds)) {
            let point = points[i as usize];
            let (u, variant) = match kind {
                Kind::Off(u) => (*u, Some(0)),
                Kind::Seam => (if high { 1.0 } else { 0.0 }, Some(1 + usize::from(high))),
                Kind::Pole => (pole_u, None),
            };
            let existing = variant.map(|v| made[i as usize][v]);
            *slot = match existing {
                Some(index) if index != u32::MAX => index,
                _ => {
                    let v = (point[1].clamp(-1.0, 1.0).acos() / PI).clamp(0.0, 1.0);
                    let index = b.vertex(point.map(|c| c * r), point, [u, v], tangent_around(u));
                    if let Some(variant) = variant {
                        made[i as usize][variant] = index;
                    }
                    index
                }
            };
        }
        b.triangle(out[0], out[1], out[2]);
    }
    Ok(b.finish("icosphere"))
}

/// Where a point of the unit sphere lies with respect to the UV seam.
enum Kind {
    /// Off the seam, with its `u`.
    Off(f64),
    /// On the seam (x = 0, z < 0): `u` is 0 or 1 depending on the triangle.
    Seam,
    /// A pole: `u` is undefined.
    Pole,
}

impl Kind {
    fn of(p: [f64; 3]) -> Kind {
        if p[0].abs() <= ON_PLANE {
            if p[2].abs() <= ON_PLANE {
                return Kind::Pole;
            }
            if p[2] < 0.0 {
                return Kind::Seam;
            }
        }
        // Inverse of `around`: (x, z) = (−sin 2πu, −cos 2πu).
        Kind::Off(((-p[0]).atan2(-p[2]) / TAU).rem_euclid(1.0))
    }
}

/// The 12 unit vertices of an icosahedron with a vertex at each pole (+Y first, −Y last), its
/// upper ring's first vertex on the seam (−Z).
fn icosahedron() -> [[f64; 3]; 12] {
    let y = 1.0 / 5.0_f64.sqrt();
    let ring = 2.0 * y;
    let mut v = [[0.0; 3]; 12];
    v[0] = [0.0, 1.0, 0.0];
    for k in 0..5 {
        let (x, z) = around(ratio(k, 5));
        v[1 + k as usize] = [x * ring, y, z * ring];
        let (x, z) = around((f64::from(k) + 0.5) / 5.0);
        v[6 + k as usize] = [x * ring, -y, z * ring];
    }
    v[11] = [0.0, -1.0, 0.0];
    v
}

/// The points (unit vectors) and triangles (counter-clockwise seen from outside) of the
/// icosahedron with each edge cut into `n` segments.
fn subdivided(n: u32) -> (Vec<[f64; 3]>, Vec<[u32; 3]>) {
    let corners = icosahedron();
    let mut faces = Vec::with_capacity(20);
    for k in 0..5_u32 {
        let (u0, u1) = (1 + k, 1 + (k + 1) % 5);
        let (l0, l1) = (6 + k, 6 + (k + 1) % 5);
        faces.extend([[0, u0, u1], [u0, l0, u1], [l0, l1, u1], [11, l0, l1]]);
    }
    // Each face counter-clockwise seen from outside.
    for f in &mut faces {
        let [a, b, c] = f.map(|i| corners[i as usize]);
        let (ab, ac) = (sub(b, a), sub(c, a));
        let normal = cross(ab, ac);
        let centre = [a[0] + b[0] + c[0], a[1] + b[1] + c[1], a[2] + b[2] + c[2]];
        if dot(normal, centre) < 0.0 {
            f.swap(1, 2);
        }
    }
    let per_face = u64::from(n) * u64::from(n);
    let capacity = usize::try_from(10 * per_face + 2).unwrap_or(0);
    let mut points: Vec<[f64; 3]> = Vec::with_capacity(capacity);
    points.extend(corners);
    let mut triangles = Vec::with_capacity(usize::try_from(20 * per_face).unwrap_or(0));
    // The inner points of each edge, from its lower-numbered corner.
    let mut edges: HashMap<(u32, u32), Vec<u32>> = HashMap::with_capacity(30);
    let mut edge = |points: &mut Vec<[f64; 3]>, a: u32, b: u32| -> Vec<u32> {
        let (lo, hi) = (a.min(b), a.max(b));
        let inner = edges
            .entry((lo, hi))
            .or_insert_with(|| {
                (1..n)
                    .map(|k| {
                        let t = ratio(k, n);
                        let p = lerp(corners[lo as usize], corners[hi as usize], t);
                        push(points, normalize(p))
                    })
                    .collect()
            })
            .clone();
        // From `a` to `b`, corners included.
        let mut line = Vec::with_capacity(inner.len() + 2);
        line.push(a);
        if a == lo {
            line.extend(inner);
        } else {
            line.extend(inner.into_iter().rev());
        }
        line.push(b);
        line
    };
    let stride = n as usize + 1;
    for [a, b, c] in faces {
        let ab = edge(&mut points, a, b);
        let ac = edge(&mut points, a, c);
        let bc = edge(&mut points, b, c);
        // grid[i * stride + j]: the point i steps from a toward b and j toward c (i + j <= n).
        let mut grid = vec![0_u32; stride * stride];
        for i in 0..=n {
            for j in 0..=(n - i) {
                let (iu, ju) = (i as usize, j as usize);
                grid[iu * stride + ju] = if j == 0 {
                    ab[iu]
                } else if i == 0 {
                    ac[ju]
                } else if i + j == n {
                    bc[ju]
                } else {
                    let (pa, pb, pc) = (
                        corners[a as usize],
                        corners[b as usize],
                        corners[c as usize],
                    );
                    let (ti, tj) = (ratio(i, n), ratio(j, n));
                    let p = std::array::from_fn(|k| {
                        pa[k] + (pb[k] - pa[k]) * ti + (pc[k] - pa[k]) * tj
                    });
                    push(&mut points, normalize(p))
                };
            }
        }
        let at = |i: u32, j: u32| grid[i as usize * stride + j as usize];
        for i in 0..n {
            for j in 0..(n - i) {
                triangles.push([at(i, j), at(i + 1, j), at(i, j + 1)]);
                if i + j + 1 < n {
                    triangles.push([at(i + 1, j), at(i + 1, j + 1), at(i, j + 1)]);
                }
            }
        }
    }
    (points, triangles)
}

/// Cuts every triangle the seam (the half-plane x = 0, z < 0) crosses in two or three along it,
/// adding the points where it crosses their edges (on the sphere, shared by both triangles of
/// an edge), so that each triangle lies on one side.
fn cut_seam(points: &mut Vec<[f64; 3]>, triangles: Vec<[u32; 3]>) -> Vec<[u32; 3]> {
    let side = |p: [f64; 3]| {
        if p[0] > ON_PLANE {
            1
        } else if p[0] < -ON_PLANE {
            -1
        } else {
            0
        }
    };
    let mut cuts: HashMap<(u32, u32), u32> = HashMap::new();
    let mut cut = |points: &mut Vec<[f64; 3]>, a: u32, b: u32| -> u32 {
        *cuts.entry((a.min(b), a.max(b))).or_insert_with(|| {
            let (pa, pb) = (points[a as usize], points[b as usize]);
            let t = pa[0] / (pa[0] - pb[0]);
            let mut p = lerp(pa, pb, t);
            p[0] = 0.0;
            push(points, normalize(p))
        })
    };
    let mut out = Vec::with_capacity(triangles.len() + triangles.len() / 8 + 8);
    for t in triangles {
        let s = t.map(|i| side(points[i as usize]));
        // Crosses x = 0 between a point on each side: at the back (the seam) or the front.
        let crossing = (0..3).find_map(|k| {
            let (a, b) = (t[k], t[(k + 1) % 3]);
            let (sa, sb) = (s[k], s[(k + 1) % 3]);
            (sa * sb < 0).then(|| {
                let (pa, pb) = (points[a as usize], points[b as usize]);
                lerp(pa, pb, pa[0] / (pa[0] - pb[0]))[2]
            })
        });
        if crossing.is_none_or(|z| z >= 0.0) {
            out.push(t);
            continue;
        }
        if let Some(k) = (0..3).find(|&k| s[k] == 0) {
            // On the seam at one corner: cut the opposite edge.
            let [a, b, c] = [t[k], t[(k + 1) % 3], t[(k + 2) % 3]];
            let m = cut(points, b, c);
            out.push([a, b, m]);
            out.push([a, m, c]);
        } else {
            // One corner alone on its side: cut its two edges.
            let k = (0..3)
                .find(|&k| s[k] != s[(k + 1) % 3] && s[k] != s[(k + 2) % 3])
                .unwrap_or(0);
            let [a, b, c] = [t[k], t[(k + 1) % 3], t[(k + 2) % 3]];
            let (ab, ca) = (cut(points, a, b), cut(points, c, a));
            out.push([a, ab, ca]);
            out.push([ab, b, c]);
            out.push([ab, c, ca]);
        }
    }
    out
}

fn push(points: &mut Vec<[f64; 3]>, p: [f64; 3]) -> u32 {
    points.push(p);
    // At most MAX_VERTICES points (checked before building).
    u32::try_from(points.len() - 1).unwrap_or(u32::MAX)
}

fn lerp(a: [f64; 3], b: [f64; 3], t: f64) -> [f64; 3] {
    std::array::from_fn(|k| a[k] + (b[k] - a[k]) * t)
}

fn sub(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    std::array::from_fn(|k| a[k] - b[k])
}

fn cross(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

fn dot(a: [f64; 3], b: [f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}
