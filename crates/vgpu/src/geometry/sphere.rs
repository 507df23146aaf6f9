//! [`sphere`]: a UV sphere.

use std::f64::consts::PI;

use super::builder::{Builder, around, ratio, tangent_around};
use crate::error::Result;

/// A UV sphere of `radius`: `width_segments` around the Y axis, `height_segments` from pole to
/// pole. `(width_segments + 1) * (height_segments - 1) + 2 * width_segments` vertices (each
/// inner ring has its seam vertex twice; each pole has one vertex per triangle, at the middle
/// `u` of its segment, so that no triangle is degenerate) and
/// `6 * width_segments * (height_segments - 1)` indices. `u` goes around (0.5 faces +Z), `v`
/// from 0 at the north pole (+Y) to 1 at the south pole.
///
/// `VGPU-GEOMETRY-SEGMENTS` unless `width_segments` is in `3..=`[`MAX_SEGMENTS`](super::MAX_SEGMENTS)
/// and `height_segments` in `2..=MAX_SEGMENTS`, `VGPU-GEOMETRY-VERTICES` past
/// [`MAX_VERTICES`](super::MAX_VERTICES), `VGPU-GEOMETRY-SIZE` unless `radius` is finite,
/// positive and at most [`MAX_SIZE`](super::MAX_SIZE).
///
/// ```
/// let ball = vgpu::geometry::sphere(0.5, 16, 8)?;
/// assert_eq!(ball.vertex_count(), 17 * 7 + 2 * 16);
/// # Ok::<(), vgpu::Error>(())
/// ```
pub fn sphere(radius: f32, width_segments: u32, height_segments: u32) -> Result<super::Geometry> {
    let r = super::size("sphere", "radius", radius)?;
    let w = super::segments("sphere", "width_segments", width_segments, 3)?;
    let h = super::segments("sphere", "height_segments", height_segments, 2)?;
    let vertices = u64::from(w + 1) * u64::from(h - 1) + 2 * u64::from(w);
    super::vertex_limit("sphere", vertices)?;
    let mut b = Builder::new(vertices, 6 * u64::from(w) * u64::from(h - 1));
    // One pole vertex per triangle, at the middle of its segment.
    let pole = |b: &mut Builder, y: f64| {
        let first = b.next();
        for j in 0..w {
            let u = (f64::from(j) + 0.5) / f64::from(w);
            b.vertex(
                [0.0, y * r, 0.0],
                [0.0, y, 0.0],
                [u, (1.0 - y) / 2.0],
                tangent_around(u),
            );
        }
        first
    };
    let north = pole(&mut b, 1.0);
    let rings = b.next();
    for i in 1..h {
        let v = ratio(i, h);
        let (sin, cos) = (PI * v).sin_cos();
        for j in 0..=w {
            let u = ratio(j, w);
            let (x, z) = around(u);
            let normal = [sin * x, cos, sin * z];
            b.vertex(normal.map(|c| c * r), normal, [u, v], tangent_around(u));
        }
    }
    let south = pole(&mut b, -1.0);
    let ring = |i: u32| rings + (i - 1) * (w + 1);
    for j in 0..w {
        b.triangle(north + j, ring(1) + j, ring(1) + j + 1);
    }
    b.grid(rings, h - 2, w);
    for j in 0..w {
        b.triangle(ring(h - 1) + j, south + j, ring(h - 1) + j + 1);
    }
    Ok(b.finish("sphere"))
}
