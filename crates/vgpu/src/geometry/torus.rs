//! [`torus`]: a ring around the Y axis.

use std::f64::consts::{FRAC_PI_2, TAU};

use super::builder::{Builder, around, ratio, tangent_around};
use crate::error::Result;
use crate::geometry_error::GeometryError;

/// A torus lying in the XZ plane around the Y axis: `radius` from the centre to the middle of
/// the tube, `tube` the tube's radius; `radial_segments` around the tube's cross-section and
/// `tubular_segments` around the ring (three.js's names). `(radial_segments + 1) *
/// (tubular_segments + 1)` vertices (the seams doubled) and
/// `6 * radial_segments * tubular_segments` indices. `u` goes around the ring (0.5 faces +Z),
/// `v` around the tube: 0 at its top, 0.25 outside, 0.5 at its bottom, 0.75 inside.
///
/// `VGPU-GEOMETRY-SEGMENTS` unless both segment counts are in
/// `3..=`[`MAX_SEGMENTS`](super::MAX_SEGMENTS), `VGPU-GEOMETRY-VERTICES` past
/// [`MAX_VERTICES`](super::MAX_VERTICES), `VGPU-GEOMETRY-SIZE` unless both sizes are finite,
/// positive and at most [`MAX_SIZE`](super::MAX_SIZE) and `tube < radius` (a thicker tube
/// passes through the axis and through itself).
///
/// ```
/// let ring = vgpu::geometry::torus(1.0, 0.25, 12, 48)?;
/// assert_eq!(ring.vertex_count(), 13 * 49);
/// # Ok::<(), vgpu::Error>(())
/// ```
pub fn torus(
    radius: f32,
    tube: f32,
    radial_segments: u32,
    tubular_segments: u32,
) -> Result<super::Geometry> {
    let big = super::size("torus", "radius", radius)?;
    let small = super::size("torus", "tube", tube)?;
    if small >= big {
        return Err(GeometryError::Size {
            primitive: "torus",
            parameter: "tube",
            value: tube,
            expected: format!("less than the radius {radius}"),
        }
        .into());
    }
    let radial = super::segments("torus", "radial_segments", radial_segments, 3)?;
    let tubular = super::segments("torus", "tubular_segments", tubular_segments, 3)?;
    let vertices = u64::from(radial + 1) * u64::from(tubular + 1);
    super::vertex_limit("torus", vertices)?;
    let mut b = Builder::new(vertices, 6 * u64::from(radial) * u64::from(tubular));
    for i in 0..=radial {
        let v = ratio(i, radial);
        // From the top of the tube (v = 0), outward and down.
        let (sin, cos) = (FRAC_PI_2 - TAU * v).sin_cos();
        for j in 0..=tubular {
            let u = ratio(j, tubular);
            let (x, z) = around(u);
            let reach = big + small * cos;
            b.vertex(
                [x * reach, small * sin, z * reach],
                [x * cos, sin, z * cos],
                [u, v],
                tangent_around(u),
            );
        }
    }
    b.grid(0, radial, tubular);
    Ok(b.finish("torus"))
}
