// vgpu::sampling: bicubic texture filtering, a Poisson disk, and cosine-weighted hemisphere
// sampling.
//
// The bicubic filters sample mip level 0 with `textureSampleLevel`, so they work in every
// stage (vertex and compute included). They take the texture and a filtering sampler
// (`mag_filter: Linear`) as parameters and rely on its bilinear filtering to merge taps; the
// sampler's address mode decides what lies outside the texture (ClampToEdge repeats the edge
// texels, as a CPU bicubic with clamped indices does).

// Private: pi.
const SAMPLING_PI: f32 = 3.14159265358979323846;

// Private: 2 pi.
const SAMPLING_TAU: f32 = 6.28318530717958647692;

// The number of points in `POISSON_DISK`.
const POISSON_DISK_SIZE: u32 = 16u;

// 16 points in the unit disk (|p| < 0.97), pairwise at least 0.43 apart: a Poisson-disk pattern
// for shadow-map PCF or blur kernels (scale by the kernel radius).
const POISSON_DISK: array<vec2f, 16> = array<vec2f, 16>(
    vec2f(-0.115048, -0.627344),
    vec2f(-0.014969, 0.437917),
    vec2f(0.341141, -0.069283),
    vec2f(-0.538426, 0.203067),
    vec2f(-0.199172, 0.927626),
    vec2f(0.908583, -0.058101),
    vec2f(-0.579130, -0.267251),
    vec2f(-0.968098, -0.042135),
    vec2f(0.622074, -0.447400),
    vec2f(0.267428, -0.910937),
    vec2f(0.371268, 0.890742),
    vec2f(-0.604883, 0.675946),
    vec2f(-0.149619, -0.086901),
    vec2f(0.422708, 0.387295),
    vec2f(-0.545449, -0.782301),
    vec2f(0.859648, 0.426721),
);

// Bicubic Catmull-Rom filtering of `t` (mip 0) at `uv` (texture coordinates, (0, 0) the top-left
// corner of the texture, texel centers at (i + 0.5) / size), from 9 bilinear taps (the inner
// 2x2 texels of each axis merged into one tap). Interpolating: at a texel center it returns that
// texel exactly. Range: may overshoot the range of the texels around `uv` slightly (the filter
// has negative lobes); clamp the result where that matters.
fn sample_bicubic(t: texture_2d<f32>, s: sampler, uv: vec2f) -> vec4f {
    let size = vec2f(textureDimensions(t, 0));
    let pos = uv * size;
    let center = floor(pos - 0.5) + 0.5;
    let f = pos - center;
    let w0 = f * (-0.5 + f * (1.0 - 0.5 * f));
    let w1 = 1.0 + f * f * (-2.5 + 1.5 * f);
    let w2 = f * (0.5 + f * (2.0 - 1.5 * f));
    let w3 = f * f * (-0.5 + 0.5 * f);
    let w12 = w1 + w2;
    let p0 = (center - 1.0) / size;
    let p12 = (center + w2 / w12) / size;
    let p3 = (center + 2.0) / size;
    var sum = vec4f(0.0);
    sum += textureSampleLevel(t, s, vec2f(p0.x, p0.y), 0.0) * w0.x * w0.y;
    sum += textureSampleLevel(t, s, vec2f(p12.x, p0.y), 0.0) * w12.x * w0.y;
    sum += textureSampleLevel(t, s, vec2f(p3.x, p0.y), 0.0) * w3.x * w0.y;
    sum += textureSampleLevel(t, s, vec2f(p0.x, p12.y), 0.0) * w0.x * w12.y;
    sum += textureSampleLevel(t, s, vec2f(p12.x, p12.y), 0.0) * w12.x * w12.y;
    sum += textureSampleLevel(t, s, vec2f(p3.x, p12.y), 0.0) * w3.x * w12.y;
    sum += textureSampleLevel(t, s, vec2f(p0.x, p3.y), 0.0) * w0.x * w3.y;
    sum += textureSampleLevel(t, s, vec2f(p12.x, p3.y), 0.0) * w12.x * w3.y;
    sum += textureSampleLevel(t, s, vec2f(p3.x, p3.y), 0.0) * w3.x * w3.y;
    return sum;
}

// Bicubic B-spline filtering of `t` (mip 0) at `uv` (as `sample_bicubic`), from 4 bilinear taps
// (Sigg and Hadwiger 2005). Smoothing, not interpolating (a texel center returns a blend of its
// neighbors); never overshoots: the result lies within the range of the 4x4 texels around `uv`.
fn sample_bicubic_bspline(t: texture_2d<f32>, s: sampler, uv: vec2f) -> vec4f {
    let size = vec2f(textureDimensions(t, 0));
    let pos = uv * size;
    let center = floor(pos - 0.5) + 0.5;
    let f = pos - center;
    let g = 1.0 - f;
    let w0 = g * g * g / 6.0;
    let w1 = (4.0 + f * f * (3.0 * f - 6.0)) / 6.0;
    let w3 = f * f * f / 6.0;
    let w2 = 1.0 - w0 - w1 - w3;
    let g0 = w0 + w1;
    let g1 = w2 + w3;
    let p0 = (center - 1.0 + w1 / g0) / size;
    let p1 = (center + 1.0 + w3 / g1) / size;
    return (textureSampleLevel(t, s, vec2f(p0.x, p0.y), 0.0) * g0.x
        + textureSampleLevel(t, s, vec2f(p1.x, p0.y), 0.0) * g1.x) * g0.y
        + (textureSampleLevel(t, s, vec2f(p0.x, p1.y), 0.0) * g0.x
        + textureSampleLevel(t, s, vec2f(p1.x, p1.y), 0.0) * g1.x) * g1.y;
}

// Point `i` (taken modulo `POISSON_DISK_SIZE`) of `POISSON_DISK`, in the unit disk.
fn poisson_disk(i: u32) -> vec2f {
    return POISSON_DISK[i % POISSON_DISK_SIZE];
}

// Point `i` of `POISSON_DISK` rotated counter-clockwise by `angle` radians (e.g. a per-pixel
// random angle, to trade banding for noise). In the unit disk.
fn poisson_disk_rotated(i: u32, angle: f32) -> vec2f {
    let p = POISSON_DISK[i % POISSON_DISK_SIZE];
    let c = cos(angle);
    let s = sin(angle);
    return vec2f(c * p.x - s * p.y, s * p.x + c * p.y);
}

// A direction on the unit hemisphere around +Z, cosine-weighted (density cos(theta) / pi per
// steradian; see `cosine_hemisphere_pdf`), from two uniforms `u` in [0, 1)^2 (Malley's method:
// a uniform point on the unit disk, lifted). Unit length, z >= 0.
fn sample_cosine_hemisphere(u: vec2f) -> vec3f {
    let r = sqrt(u.x);
    // phi = TAU u.y - PI keeps the argument of sin and cos in [-pi, pi] (their accurate range
    // on GPUs); cos(phi + pi) = -cos(phi).
    let phi = SAMPLING_TAU * u.y - SAMPLING_PI;
    return vec3f(-r * cos(phi), -r * sin(phi), sqrt(max(0.0, 1.0 - u.x)));
}

// The density of `sample_cosine_hemisphere` for a direction at `cos_theta` from the pole:
// cos(theta) / pi, per steradian (0 below the horizon).
fn cosine_hemisphere_pdf(cos_theta: f32) -> f32 {
    return max(cos_theta, 0.0) / SAMPLING_PI;
}

// `sample_cosine_hemisphere` around the unit normal `n` instead of +Z (orthonormal basis of
// Duff et al. 2017). Unit length, dot(result, n) >= 0.
fn sample_cosine_hemisphere_around(n: vec3f, u: vec2f) -> vec3f {
    let local = sample_cosine_hemisphere(u);
    let sgn = select(-1.0, 1.0, n.z >= 0.0);
    let a = -1.0 / (sgn + n.z);
    let b = n.x * n.y * a;
    let tangent = vec3f(1.0 + sgn * n.x * n.x * a, sgn * b, -sgn * n.x);
    let bitangent = vec3f(b, sgn + n.y * n.y * a, -n.y);
    return local.x * tangent + local.y * bitangent + local.z * n;
}
