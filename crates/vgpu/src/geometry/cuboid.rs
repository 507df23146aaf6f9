//! [`cuboid`]: a box with its own four vertices per face.

use super::builder::Builder;
use crate::error::Result;

/// A box of `size` = `[width (x), height (y), depth (z)]`: 24 vertices (4 per face, so each
/// face has its own normal and its own `[0, 1]` UVs, `u` to the right and `v` down seen from
/// outside, the top face's `v` growing toward +Z) and 36 indices. (three.js calls it a box.)
///
/// `VGPU-GEOMETRY-SIZE` unless each side is finite, positive and at most
/// [`MAX_SIZE`](super::MAX_SIZE).
///
/// ```
/// let cube = vgpu::geometry::cuboid([1.0, 2.0, 3.0])?;
/// assert_eq!(cube.vertex_count(), 24);
/// assert_eq!(cube.indices().map(<[u32]>::len), Some(36));
/// # Ok::<(), vgpu::Error>(())
/// ```
pub fn cuboid(size: [f32; 3]) -> Result<super::Geometry> {
    let half = [
        super::size("cuboid", "size[0] (width)", size[0])? / 2.0,
        super::size("cuboid", "size[1] (height)", size[1])? / 2.0,
        super::size("cuboid", "size[2] (depth)", size[2])? / 2.0,
    ];
    // Each face: its normal, and the axes to the right and up seen from outside
    // (right × up = normal).
    const FACES: [([f64; 3], [f64; 3], [f64; 3]); 6] = [
        ([1.0, 0.0, 0.0], [0.0, 0.0, -1.0], [0.0, 1.0, 0.0]),
        ([-1.0, 0.0, 0.0], [0.0, 0.0, 1.0], [0.0, 1.0, 0.0]),
        ([0.0, 1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, -1.0]),
        ([0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]),
        ([0.0, 0.0, 1.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]),
        ([0.0, 0.0, -1.0], [-1.0, 0.0, 0.0], [0.0, 1.0, 0.0]),
    ];
    let mut b = Builder::new(24, 36);
    for (normal, right, up) in FACES {
        let tangent = [
            super::builder::f32_of(right[0]),
            super::builder::f32_of(right[1]),
            super::builder::f32_of(right[2]),
            1.0,
        ];
        let corner = |x: f64, y: f64| -> [f64; 3] {
            std::array::from_fn(|k| (normal[k] + right[k] * x + up[k] * y) * half[k])
        };
        let top_left = b.vertex(corner(-1.0, 1.0), normal, [0.0, 0.0], tangent);
        let top_right = b.vertex(corner(1.0, 1.0), normal, [1.0, 0.0], tangent);
        let bottom_left = b.vertex(corner(-1.0, -1.0), normal, [0.0, 1.0], tangent);
        let bottom_right = b.vertex(corner(1.0, -1.0), normal, [1.0, 1.0], tangent);
        b.quad(top_left, top_right, bottom_left, bottom_right);
    }
    Ok(b.finish("cuboid"))
}
