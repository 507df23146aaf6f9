//! [`plane`]: a flat grid facing +Y.

use super::builder::{Builder, ratio};
use crate::error::Result;

/// A `width` (x) × `depth` (z) grid in the plane y = 0, facing +Y, of `segments_x` ×
/// `segments_z` quads: `(segments_x + 1) * (segments_z + 1)` vertices and
/// `6 * segments_x * segments_z` indices. `u` grows with x and `v` with z (seen from above with
/// −Z up, as a camera looking down the −Z axis tilted down sees it), tangents +X.
///
/// `VGPU-GEOMETRY-SEGMENTS` unless each segment count is in `1..=`[`MAX_SEGMENTS`](super::MAX_SEGMENTS),
/// `VGPU-GEOMETRY-VERTICES` past [`MAX_VERTICES`](super::MAX_VERTICES), `VGPU-GEOMETRY-SIZE`
/// unless both sizes are finite, positive and at most [`MAX_SIZE`](super::MAX_SIZE).
///
/// ```
/// let floor = vgpu::geometry::plane(10.0, 10.0, 4, 2)?;
/// assert_eq!(floor.vertex_count(), 5 * 3);
/// assert!(floor.normals().unwrap().iter().all(|n| *n == [0.0, 1.0, 0.0]));
/// # Ok::<(), vgpu::Error>(())
/// ```
pub fn plane(width: f32, depth: f32, segments_x: u32, segments_z: u32) -> Result<super::Geometry> {
    let width = super::size("plane", "width", width)?;
    let depth = super::size("plane", "depth", depth)?;
    let sx = super::segments("plane", "segments_x", segments_x, 1)?;
    let sz = super::segments("plane", "segments_z", segments_z, 1)?;
    let vertices = u64::from(sx + 1) * u64::from(sz + 1);
    super::vertex_limit("plane", vertices)?;
    let mut b = Builder::new(vertices, 6 * u64::from(sx) * u64::from(sz));
    for i in 0..=sz {
        let v = ratio(i, sz);
        for j in 0..=sx {
            let u = ratio(j, sx);
            b.vertex(
                [(u - 0.5) * width, 0.0, (v - 0.5) * depth],
                [0.0, 1.0, 0.0],
                [u, v],
                [1.0, 0.0, 0.0, 1.0],
            );
        }
    }
    b.grid(0, sz, sx);
    Ok(b.finish("plane"))
}
