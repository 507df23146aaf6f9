//! What the primitives share: a [`Builder`] of vertices and triangles, and the parametrisation
//! around the Y axis.

use std::f64::consts::TAU;

use super::{Geometry, NORMAL, POSITION, TANGENT, UV};

/// Vertices (position, normal, uv, tangent) and triangles under construction, computed in `f64`
/// and stored in `f32`.
pub(super) struct Builder {
    positions: Vec<[f32; 3]>,
    normals: Vec<[f32; 3]>,
    uvs: Vec<[f32; 2]>,
    tangents: Vec<[f32; 4]>,
    indices: Vec<u32>,
}

/// `v` in `f32`. The cast rounds to the nearest `f32` (it truncates nothing): the values are
/// sizes of at most `MAX_SIZE` times small factors, far below `f32::MAX`, so none becomes
/// infinite.
pub(super) fn f32_of(v: f64) -> f32 {
    v as f32
}

/// `[x, y, z]` in `f32`.
pub(super) fn vec3(v: [f64; 3]) -> [f32; 3] {
    v.map(f32_of)
}

/// `i / n` (both at most a few million: exact in `f64`).
pub(super) fn ratio(i: u32, n: u32) -> f64 {
    f64::from(i) / f64::from(n)
}

/// The horizontal unit vector at `u` around the Y axis, `(x, z)`: `u` = 0.5 faces +Z, `u` = 0
/// and 1 face −Z (the seam), and `u` grows counter-clockwise seen from above, so to the right
/// seen from outside.
pub(super) fn around(u: f64) -> (f64, f64) {
    let (sin, cos) = (TAU * u).sin_cos();
    (-sin, -cos)
}

/// The unit tangent at `u` around the Y axis (the direction of increasing `u`), handedness 1.
pub(super) fn tangent_around(u: f64) -> [f32; 4] {
    let (sin, cos) = (TAU * u).sin_cos();
    [f32_of(-cos), 0.0, f32_of(sin), 1.0]
}

/// `v` scaled to unit length.
pub(super) fn normalize(v: [f64; 3]) -> [f64; 3] {
    let len = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
    if len > 0.0 { v.map(|c| c / len) } else { v }
}

impl Builder {
    /// Room for `vertices` and `indices` (both checked against the limits by the caller).
    pub(super) fn new(vertices: u64, indices: u64) -> Builder {
        let vertices = usize::try_from(vertices).unwrap_or(0);
        let indices = usize::try_from(indices).unwrap_or(0);
        Builder {
            positions: Vec::with_capacity(vertices),
            normals: Vec::with_capacity(vertices),
            uvs: Vec::with_capacity(vertices),
            tangents: Vec::with_capacity(vertices),
            indices: Vec::with_capacity(indices),
        }
    }

    /// The index the next vertex gets.
    pub(super) fn next(&self) -> u32 {
        // At most MAX_VERTICES (checked before building).
        u32::try_from(self.positions.len()).unwrap_or(u32::MAX)
    }

    /// Adds a vertex; returns its index.
    pub(super) fn vertex(
        &mut self,
        position: [f64; 3],
        normal: [f64; 3],
        uv: [f64; 2],
        tangent: [f32; 4],
    ) -> u32 {
        let index = self.next();
        self.positions.push(vec3(position));
        self.normals.push(vec3(normal));
        self.uvs.push(uv.map(f32_of));
        self.tangents.push(tangent);
        index
    }

    /// Adds a triangle (counter-clockwise seen from outside).
    pub(super) fn triangle(&mut self, a: u32, b: u32, c: u32) {
        self.indices.extend_from_slice(&[a, b, c]);
    }

    /// Adds the two triangles of the quad whose corners are `top_left`, `top_right`,
    /// `bottom_left`, `bottom_right` seen from outside (`u` to the right, `v` down).
    pub(super) fn quad(
        &mut self,
        top_left: u32,
        top_right: u32,
        bottom_left: u32,
        bottom_right: u32,
    ) {
        self.triangle(top_left, bottom_left, bottom_right);
        self.triangle(top_left, bottom_right, top_right);
    }

    /// Adds the triangles of a grid of `rows` × `columns` quads whose vertices start at `first`,
    /// row after row (top row first), `columns + 1` per row.
    pub(super) fn grid(&mut self, first: u32, rows: u32, columns: u32) {
        let stride = columns + 1;
        for i in 0..rows {
            for j in 0..columns {
                let top_left = first + i * stride + j;
                let bottom_left = top_left + stride;
                self.quad(top_left, top_left + 1, bottom_left, bottom_left + 1);
            }
        }
    }

    /// The geometry, labelled `label`.
    pub(super) fn finish(self, label: &str) -> Geometry {
        Geometry {
            label: label.to_owned(),
            attributes: vec![
                (POSITION.to_owned(), self.positions.into()),
                (NORMAL.to_owned(), self.normals.into()),
                (UV.to_owned(), self.uvs.into()),
                (TANGENT.to_owned(), self.tangents.into()),
            ],
            indices: Some(self.indices),
        }
    }
}
