// vgpu::math: constants, rotations (matrices and quaternions) and remapping.
//
// Angles are in radians. Rotations are right-handed and counter-clockwise when the axis points
// at the viewer (rotating +X by PI/2 about +Z gives +Y). Matrices are WGSL's column-major
// `matNxMf`, applied as `m * v`. Quaternions are `vec4f(x, y, z, w)` with w the scalar part;
// rotations take unit quaternions.
//
// Clamping to [0, 1] is WGSL's built-in `saturate` (f32 and vectors): this module does not
// redefine it (a module-scope `fn saturate(x: f32)` would shadow the built-in for the whole
// shader, vectors included).

// Pi, the ratio of a circle's circumference to its diameter (half a turn, in radians).
const PI: f32 = 3.14159265358979323846;
// Tau = 2 pi (a full turn, in radians).
const TAU: f32 = 6.28318530717958647692;
// Pi / 2 (a quarter turn, in radians).
const HALF_PI: f32 = 1.57079632679489661923;
// 1 / pi (the normalization of a Lambertian BRDF, per steradian).
const INV_PI: f32 = 0.31830988618379067154;
// Euler's number e, the base of the natural logarithm.
const E: f32 = 2.71828182845904523536;

// The 2D rotation by `angle` radians, counter-clockwise: `rotate2(a) * v`. Orthonormal.
fn rotate2(angle: f32) -> mat2x2f {
    let c = cos(angle);
    let s = sin(angle);
    return mat2x2f(c, s, -s, c);
}

// The 3D rotation by `angle` radians about +X (+Y towards +Z). Orthonormal.
fn rotate_x(angle: f32) -> mat3x3f {
    let c = cos(angle);
    let s = sin(angle);
    return mat3x3f(1.0, 0.0, 0.0, 0.0, c, s, 0.0, -s, c);
}

// The 3D rotation by `angle` radians about +Y (+Z towards +X). Orthonormal.
fn rotate_y(angle: f32) -> mat3x3f {
    let c = cos(angle);
    let s = sin(angle);
    return mat3x3f(c, 0.0, -s, 0.0, 1.0, 0.0, s, 0.0, c);
}

// The 3D rotation by `angle` radians about +Z (+X towards +Y). Orthonormal.
fn rotate_z(angle: f32) -> mat3x3f {
    let c = cos(angle);
    let s = sin(angle);
    return mat3x3f(c, s, 0.0, -s, c, 0.0, 0.0, 0.0, 1.0);
}

// The 3D rotation by `angle` radians about the unit vector `axis` (Rodrigues' formula),
// counter-clockwise when `axis` points at the viewer. Orthonormal for a unit `axis`.
fn rotate_axis(axis: vec3f, angle: f32) -> mat3x3f {
    let c = cos(angle);
    let s = sin(angle);
    let t = 1.0 - c;
    let a = axis;
    return mat3x3f(
        t * a.x * a.x + c, t * a.x * a.y + s * a.z, t * a.x * a.z - s * a.y,
        t * a.x * a.y - s * a.z, t * a.y * a.y + c, t * a.y * a.z + s * a.x,
        t * a.x * a.z + s * a.y, t * a.y * a.z - s * a.x, t * a.z * a.z + c,
    );
}

// The unit quaternion of the rotation by `angle` radians about the unit vector `axis`:
// (axis sin(angle / 2), cos(angle / 2)).
fn quat_from_axis_angle(axis: vec3f, angle: f32) -> vec4f {
    let half = 0.5 * angle;
    return vec4f(axis * sin(half), cos(half));
}

// The Hamilton product a b: the rotation b, then a (for unit quaternions). Not commutative.
fn quat_mul(a: vec4f, b: vec4f) -> vec4f {
    return vec4f(
        a.w * b.xyz + b.w * a.xyz + cross(a.xyz, b.xyz),
        a.w * b.w - dot(a.xyz, b.xyz),
    );
}

// The conjugate of `q`: (-x, -y, -z, w), the inverse rotation of a unit quaternion.
fn quat_conjugate(q: vec4f) -> vec4f {
    return vec4f(-q.xyz, q.w);
}

// `v` rotated by the unit quaternion `q` (q v q*), in the units of `v`.
fn quat_rotate(q: vec4f, v: vec3f) -> vec3f {
    let t = 2.0 * cross(q.xyz, v);
    return v + q.w * t + cross(q.xyz, t);
}

// `x` mapped linearly from [from_lo, from_hi] to [to_lo, to_hi], not clamped (values outside
// the first range extrapolate). `from_lo` must differ from `from_hi`.
fn remap(x: f32, from_lo: f32, from_hi: f32, to_lo: f32, to_hi: f32) -> f32 {
    return to_lo + (x - from_lo) * (to_hi - to_lo) / (from_hi - from_lo);
}

// `remap`, clamped to [to_lo, to_hi] (either order).
fn remap_clamped(x: f32, from_lo: f32, from_hi: f32, to_lo: f32, to_hi: f32) -> f32 {
    let t = saturate((x - from_lo) / (from_hi - from_lo));
    return mix(to_lo, to_hi, t);
}
