//! A tiny 4×4 matrix helper for the examples: column-major `[f32; 16]` (column 0 first, as WGSL
//! `mat4x4f` reads it), right-handed view space looking down −z, clip depth in 0..=1 (wgpu).
//!
//! ```
//! use vgpu_examples::mat4;
//! let m = mat4::mul(&mat4::translate([1.0, 2.0, 3.0]), &mat4::scale([2.0, 2.0, 2.0]));
//! assert_eq!(mat4::transform_point(&m, [1.0, 1.0, 1.0]), [3.0, 4.0, 5.0, 1.0]);
//! ```

/// A column-major 4×4 matrix: element (row `r`, column `c`) is at index `c * 4 + r`.
pub type Mat4 = [f32; 16];

/// The identity matrix.
pub const IDENTITY: Mat4 = [
    1.0, 0.0, 0.0, 0.0, //
    0.0, 1.0, 0.0, 0.0, //
    0.0, 0.0, 1.0, 0.0, //
    0.0, 0.0, 0.0, 1.0,
];

/// `m` as its four columns, `[[f32; 4]; 4]`: the same bytes, the form a typed value
/// (`#[derive(vgpu::Uniform)]`) takes for a `mat4x4f` field.
pub fn columns(m: &Mat4) -> [[f32; 4]; 4] {
    bytemuck::cast(*m)
}

/// `a * b` (applies `b` first, then `a`).
pub fn mul(a: &Mat4, b: &Mat4) -> Mat4 {
    let mut out = [0.0; 16];
    for c in 0..4 {
        for r in 0..4 {
            out[c * 4 + r] = (0..4).map(|k| a[k * 4 + r] * b[c * 4 + k]).sum();
        }
    }
    out
}

/// A translation by `t`.
pub fn translate(t: [f32; 3]) -> Mat4 {
    let mut m = IDENTITY;
    m[12] = t[0];
    m[13] = t[1];
    m[14] = t[2];
    m
}

/// A scale by `s` along each axis.
pub fn scale(s: [f32; 3]) -> Mat4 {
    let mut m = IDENTITY;
    m[0] = s[0];
    m[5] = s[1];
    m[10] = s[2];
    m
}

/// A rotation by `angle` radians around +y (counter-clockwise seen from above).
pub fn rotate_y(angle: f32) -> Mat4 {
    let (s, c) = angle.sin_cos();
    let mut m = IDENTITY;
    m[0] = c;
    m[2] = -s;
    m[8] = s;
    m[10] = c;
    m
}

/// A perspective projection: vertical field of view `fov_y` (radians), `aspect` = width /
/// height, depth `near..far` mapped to clip z `0..=1`.
pub fn perspective(fov_y: f32, aspect: f32, near: f32, far: f32) -> Mat4 {
    let f = 1.0 / (fov_y / 2.0).tan();
    let mut m = [0.0; 16];
    m[0] = f / aspect;
    m[5] = f;
    m[10] = far / (near - far);
    m[11] = -1.0;
    m[14] = near * far / (near - far);
    m
}

/// An orthographic projection of the view-space box `left..right`, `bottom..top`, depth
/// `near..far` (distances along −z) onto clip x, y in −1..=1 and z in 0..=1.
pub fn orthographic(left: f32, right: f32, bottom: f32, top: f32, near: f32, far: f32) -> Mat4 {
    let mut m = IDENTITY;
    m[0] = 2.0 / (right - left);
    m[5] = 2.0 / (top - bottom);
    m[10] = 1.0 / (near - far);
    m[12] = -(right + left) / (right - left);
    m[13] = -(top + bottom) / (top - bottom);
    m[14] = near / (near - far);
    m
}

/// A view matrix: camera at `eye` looking at `target`, `up` roughly up.
pub fn look_at(eye: [f32; 3], target: [f32; 3], up: [f32; 3]) -> Mat4 {
    let f = normalize(sub(target, eye));
    let s = normalize(cross(f, up));
    let u = cross(s, f);
    [
        s[0],
        u[0],
        -f[0],
        0.0,
        s[1],
        u[1],
        -f[1],
        0.0,
        s[2],
        u[2],
        -f[2],
        0.0,
        -dot(s, eye),
        -dot(u, eye),
        dot(f, eye),
        1.0,
    ]
}

/// `m * (p, 1)`: the homogeneous image of point `p`.
pub fn transform_point(m: &Mat4, p: [f32; 3]) -> [f32; 4] {
    let mut out = [0.0; 4];
    for (r, o) in out.iter_mut().enumerate() {
        *o = m[r] * p[0] + m[4 + r] * p[1] + m[8 + r] * p[2] + m[12 + r];
    }
    out
}

/// `a − b`.
pub fn sub(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

/// Dot product.
pub fn dot(a: [f32; 3], b: [f32; 3]) -> f32 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

/// Cross product.
pub fn cross(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

/// `v / |v|` (`v` unchanged if it has zero length).
pub fn normalize(v: [f32; 3]) -> [f32; 3] {
    let len = dot(v, v).sqrt();
    if len == 0.0 {
        v
    } else {
        [v[0] / len, v[1] / len, v[2] / len]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: &[f32], b: &[f32]) -> bool {
        a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-5)
    }

    #[test]
    fn multiply_applies_right_then_left() {
        let m = mul(
            &translate([1.0, 0.0, 0.0]),
            &rotate_y(std::f32::consts::FRAC_PI_2),
        );
        // Rotating +x by 90° around +y gives −z; then translate by +x.
        assert!(close(
            &transform_point(&m, [1.0, 0.0, 0.0]),
            &[1.0, 0.0, -1.0, 1.0]
        ));
        assert!(close(&mul(&IDENTITY, &m), &m));
    }

    #[test]
    fn look_at_puts_the_target_on_the_negative_z_axis() {
        let v = look_at([3.0, 4.0, 5.0], [0.0, 0.0, 0.0], [0.0, 1.0, 0.0]);
        let p = transform_point(&v, [0.0, 0.0, 0.0]);
        assert!(close(&p, &[0.0, 0.0, -(50.0f32).sqrt(), 1.0]), "{p:?}");
    }

    #[test]
    fn projections_map_near_and_far_to_zero_and_one() {
        let p = perspective(1.0, 1.5, 0.5, 40.0);
        let near = transform_point(&p, [0.0, 0.0, -0.5]);
        let far = transform_point(&p, [0.0, 0.0, -40.0]);
        assert!((near[2] / near[3]).abs() < 1e-6);
        assert!((far[2] / far[3] - 1.0).abs() < 1e-5);
        let o = orthographic(-2.0, 2.0, -1.0, 1.0, 1.0, 9.0);
        assert!(close(
            &transform_point(&o, [2.0, -1.0, -1.0]),
            &[1.0, -1.0, 0.0, 1.0]
        ));
        assert!(close(
            &transform_point(&o, [-2.0, 1.0, -9.0]),
            &[-1.0, 1.0, 1.0, 1.0]
        ));
    }
}
