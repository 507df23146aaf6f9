//! [`cylinder`] and [`cone`]: capped solids around the Y axis.

use super::builder::{Builder, around, normalize, ratio, tangent_around};
use crate::error::Result;

/// A disc cap at height `y` facing `up` (+Y when true, −Y when false): a centre vertex and
/// `segments` rim vertices, `segments` triangles. UVs map the disc onto `[0, 1]²` (`u` along
/// +X, `v` down seen from outside), tangents +X.
fn cap(b: &mut Builder, radius: f64, y: f64, segments: u32, up: bool) {
    let sign = if up { 1.0 } else { -1.0 };
    let normal = [0.0, sign, 0.0];
    let tangent = [1.0, 0.0, 0.0, 1.0];
    let centre = b.vertex([0.0, y, 0.0], normal, [0.5, 0.5], tangent);
    let rim = b.next();
    for j in 0..segments {
        let (x, z) = around(ratio(j, segments));
        b.vertex(
            [x * radius, y, z * radius],
            normal,
            [0.5 + x / 2.0, 0.5 + sign * z / 2.0],
            tangent,
        );
    }
    for j in 0..segments {
        let (a, c) = (rim + j, rim + (j + 1) % segments);
        // `u` grows counter-clockwise seen from above.
        if up {
            b.triangle(centre, a, c);
        } else {
            b.triangle(centre, c, a);
        }
    }
}

/// A cylinder of `radius` and `height` along Y, capped at both ends: `radial_segments` around,
/// `height_segments` along its side. `(radial_segments + 1) * (height_segments + 3)` vertices
/// (the side's grid, its seam column twice, then each cap's centre and rim) and
/// `6 * radial_segments * (height_segments + 1)` indices. The side's `u` goes around (0.5 faces
/// +Z) and its `v` from 0 at the top to 1 at the bottom; each cap maps the disc onto `[0, 1]²`.
///
/// `VGPU-GEOMETRY-SEGMENTS` unless `radial_segments` is in `3..=`[`MAX_SEGMENTS`](super::MAX_SEGMENTS)
/// and `height_segments` in `1..=MAX_SEGMENTS`, `VGPU-GEOMETRY-VERTICES` past
/// [`MAX_VERTICES`](super::MAX_VERTICES), `VGPU-GEOMETRY-SIZE` unless both sizes are finite,
/// positive and at most [`MAX_SIZE`](super::MAX_SIZE).
///
/// ```
/// let can = vgpu::geometry::cylinder(0.5, 2.0, 24, 1)?;
/// assert_eq!(can.vertex_count(), 25 * 4);
/// # Ok::<(), vgpu::Error>(())
/// ```
pub fn cylinder(
    radius: f32,
    height: f32,
    radial_segments: u32,
    height_segments: u32,
) -> Result<super::Geometry> {
    let r = super::size("cylinder", "radius", radius)?;
    let h = super::size("cylinder", "height", height)?;
    let around_n = super::segments("cylinder", "radial_segments", radial_segments, 3)?;
    let along = super::segments("cylinder", "height_segments", height_segments, 1)?;
    let vertices = u64::from(around_n + 1) * u64::from(along + 3);
    super::vertex_limit("cylinder", vertices)?;
    let mut b = Builder::new(vertices, 6 * u64::from(around_n) * u64::from(along + 1));
    for i in 0..=along {
        let v = ratio(i, along);
        for j in 0..=around_n {
            let u = ratio(j, around_n);
            let (x, z) = around(u);
            b.vertex(
                [x * r, (0.5 - v) * h, z * r],
                [x, 0.0, z],
                [u, v],
                tangent_around(u),
            );
        }
    }
    b.grid(0, along, around_n);
    cap(&mut b, r, h / 2.0, around_n, true);
    cap(&mut b, r, -h / 2.0, around_n, false);
    Ok(b.finish("cylinder"))
}

/// A cone of base `radius` and `height` along Y, apex up, its base capped: `radial_segments`
/// around. `3 * radial_segments + 2` vertices (one apex vertex per side triangle, at the middle
/// `u` of its segment, so that none is degenerate; the base ring with its seam vertex twice;
/// the cap's centre and rim) and `6 * radial_segments` indices. The side's normals are those of
/// the smooth surface (the apex's, per triangle, that of its segment's middle); its `u` goes
/// around (0.5 faces +Z), its `v` from 0 at the apex to 1 at the base.
///
/// `VGPU-GEOMETRY-SEGMENTS` unless `radial_segments` is in `3..=`[`MAX_SEGMENTS`](super::MAX_SEGMENTS),
/// `VGPU-GEOMETRY-SIZE` unless both sizes are finite, positive and at most
/// [`MAX_SIZE`](super::MAX_SIZE).
///
/// ```
/// let cone = vgpu::geometry::cone(0.5, 1.0, 32)?;
/// assert_eq!(cone.vertex_count(), 3 * 32 + 2);
/// # Ok::<(), vgpu::Error>(())
/// ```
pub fn cone(radius: f32, height: f32, radial_segments: u32) -> Result<super::Geometry> {
    let r = super::size("cone", "radius", radius)?;
    let h = super::size("cone", "height", height)?;
    let n = super::segments("cone", "radial_segments", radial_segments, 3)?;
    let vertices = 3 * u64::from(n) + 2;
    super::vertex_limit("cone", vertices)?;
    let mut b = Builder::new(vertices, 6 * u64::from(n));
    // The side's outward normal at `u`: the slope's, (h · radial, r) normalised.
    let normal = |u: f64| {
        let (x, z) = around(u);
        normalize([x * h, r, z * h])
    };
    let apex = b.next();
    for j in 0..n {
        let u = (f64::from(j) + 0.5) / f64::from(n);
        b.vertex([0.0, h / 2.0, 0.0], normal(u), [u, 0.0], tangent_around(u));
    }
    let base = b.next();
    for j in 0..=n {
        let u = ratio(j, n);
        let (x, z) = around(u);
        b.vertex(
            [x * r, -h / 2.0, z * r],
            normal(u),
            [u, 1.0],
            tangent_around(u),
        );
    }
    for j in 0..n {
        b.triangle(apex + j, base + j, base + j + 1);
    }
    cap(&mut b, r, -h / 2.0, n, false);
    Ok(b.finish("cone"))
}
