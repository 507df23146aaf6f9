//! [`capsule`]: a cylinder with hemispherical ends.

use std::f64::consts::{FRAC_PI_2, PI};

use super::builder::{Builder, around, ratio, tangent_around};
use crate::error::Result;

/// A capsule along Y: a cylinder of `radius` and `length` (between the centres of its
/// hemispherical ends; the whole is `length + 2 * radius` tall) with a hemisphere of `radius`
/// at each end. `cap_segments` latitude segments per hemisphere, `radial_segments` around.
/// `2 * cap_segments * (radial_segments + 1) + 2 * radial_segments` vertices (each ring with
/// its seam vertex twice; each pole with one vertex per triangle) and
/// `12 * radial_segments * cap_segments` indices. `u` goes around (0.5 faces +Z), `v` from 0 at
/// the top to 1 at the bottom, proportional to the distance along the profile.
///
/// `VGPU-GEOMETRY-SEGMENTS` unless `cap_segments` is in `1..=`[`MAX_SEGMENTS`](super::MAX_SEGMENTS)
/// and `radial_segments` in `3..=MAX_SEGMENTS`, `VGPU-GEOMETRY-VERTICES` past
/// [`MAX_VERTICES`](super::MAX_VERTICES), `VGPU-GEOMETRY-SIZE` unless both sizes are finite,
/// positive and at most [`MAX_SIZE`](super::MAX_SIZE) (a capsule of length 0 is a sphere: use
/// [`sphere`](super::sphere)).
///
/// ```
/// let pill = vgpu::geometry::capsule(0.5, 1.0, 8, 16)?;
/// assert_eq!(pill.vertex_count(), 2 * 8 * 17 + 2 * 16);
/// # Ok::<(), vgpu::Error>(())
/// ```
pub fn capsule(
    radius: f32,
    length: f32,
    cap_segments: u32,
    radial_segments: u32,
) -> Result<super::Geometry> {
    let r = super::size("capsule", "radius", radius)?;
    let l = super::size("capsule", "length", length)?;
    let c = super::segments("capsule", "cap_segments", cap_segments, 1)?;
    let n = super::segments("capsule", "radial_segments", radial_segments, 3)?;
    let vertices = 2 * u64::from(c) * u64::from(n + 1) + 2 * u64::from(n);
    super::vertex_limit("capsule", vertices)?;
    let mut b = Builder::new(vertices, 12 * u64::from(n) * u64::from(c));
    let profile = PI * r + l;
    let pole = |b: &mut Builder, y: f64| {
        let first = b.next();
        for j in 0..n {
            let u = (f64::from(j) + 0.5) / f64::from(n);
            b.vertex(
                [0.0, y * (l / 2.0 + r), 0.0],
                [0.0, y, 0.0],
                [u, (1.0 - y) / 2.0],
                tangent_around(u),
            );
        }
        first
    };
    // A ring at polar angle `theta` (from +Y) of the hemisphere centred at `centre`, at
    // distance `s` along the profile from the top.
    let ring = |b: &mut Builder, theta: f64, centre: f64, s: f64| {
        let (sin, cos) = theta.sin_cos();
        for j in 0..=n {
            let u = ratio(j, n);
            let (x, z) = around(u);
            let normal = [sin * x, cos, sin * z];
            b.vertex(
                [normal[0] * r, centre + normal[1] * r, normal[2] * r],
                normal,
                [u, (s / profile).clamp(0.0, 1.0)],
                tangent_around(u),
            );
        }
    };
    let north = pole(&mut b, 1.0);
    let rings = b.next();
    for k in 1..=c {
        let theta = FRAC_PI_2 * ratio(k, c);
        ring(&mut b, theta, l / 2.0, r * theta);
    }
    for k in 0..c {
        let theta = FRAC_PI_2 * ratio(k, c);
        ring(
            &mut b,
            FRAC_PI_2 + theta,
            -l / 2.0,
            r * FRAC_PI_2 + l + r * theta,
        );
    }
    let south = pole(&mut b, -1.0);
    let last = rings + (2 * c - 1) * (n + 1);
    for j in 0..n {
        b.triangle(north + j, rings + j, rings + j + 1);
    }
    b.grid(rings, 2 * c - 1, n);
    for j in 0..n {
        b.triangle(last + j, south + j, last + j + 1);
    }
    Ok(b.finish("capsule"))
}
