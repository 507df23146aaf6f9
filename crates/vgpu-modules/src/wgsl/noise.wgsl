// vgpu::noise: value noise, gradient (Perlin-style) noise and fractal Brownian motion, in 2D
// and 3D. Deterministic: the lattice is hashed with a PCG hash of the integer cell, so the same
// point gives the same value on every device (up to float rounding).
//
// Inputs are in lattice units: the noise varies over about one unit and does not repeat (cells
// are hashed by their i32 coordinates). Keep |p| well below 2^23, where an f32 has no fraction
// bits left (at 65536 it has 7). Every function is continuous with continuous first and second
// derivatives (quintic fade curve).

// Private: PCG-style hash of three u32 (pcg3d, Jarzynski and Olano 2020). Range: all of u32.
fn noise_pcg3d(v: vec3u) -> vec3u {
    var q = v * 1664525u + 1013904223u;
    q.x += q.y * q.z;
    q.y += q.z * q.x;
    q.z += q.x * q.y;
    q = q ^ (q >> vec3u(16u));
    q.x += q.y * q.z;
    q.y += q.z * q.x;
    q.z += q.x * q.y;
    return q;
}

// Private: the hash of lattice cell `c` (2D cells hash with z = 0). Range: all of u32.
fn noise_cell(c: vec3i) -> u32 {
    return noise_pcg3d(bitcast<vec3u>(c)).x;
}

// Private: the value at lattice cell `c`, in [0, 1) (top 24 bits of its hash, exact).
fn noise_cell_value(c: vec3i) -> f32 {
    return f32(noise_cell(c) >> 8u) * (1.0 / 16777216.0);
}

// Private: the quintic fade curve 6t^5 - 15t^4 + 10t^3 of each lane; [0, 1] -> [0, 1].
fn noise_fade2(t: vec2f) -> vec2f {
    return t * t * t * (t * (t * 6.0 - 15.0) + 10.0);
}

// Private: the quintic fade curve 6t^5 - 15t^4 + 10t^3 of each lane; [0, 1] -> [0, 1].
fn noise_fade3(t: vec3f) -> vec3f {
    return t * t * t * (t * (t * 6.0 - 15.0) + 10.0);
}

// Private: dot(g, d) for the 2D gradient g picked by hash `h`: one of 8 unit vectors (the 4
// axis directions and the 4 diagonals). Range: [-|d|, |d|].
fn noise_grad2(h: u32, d: vec2f) -> f32 {
    let s = select(-1.0, 1.0, (h & 1u) == 0u);
    let t = select(-1.0, 1.0, (h & 2u) == 0u);
    if (h & 4u) != 0u {
        return (s * d.x + t * d.y) * 0.70710678118654752;
    }
    return select(s * d.x, s * d.y, (h & 2u) != 0u);
}

// Private: dot(g, d) for the 3D gradient g picked by hash `h`: one of the 12 cube-edge
// directions (+-1, +-1, 0) and permutations (Perlin's improved noise, 2002; 4 repeated to make
// 16). Range: [-2|d|, 2|d|].
fn noise_grad3(h: u32, d: vec3f) -> f32 {
    let k = h & 15u;
    let u = select(d.y, d.x, k < 8u);
    let w = select(d.z, d.x, k == 12u || k == 14u);
    let v = select(w, d.y, k < 4u);
    return select(-u, u, (k & 1u) == 0u) + select(-v, v, (k & 2u) == 0u);
}

// Value noise at `p` (2D): random values at the integer lattice points, blended with the
// quintic fade curve. Range: [0, 1]; mean about 0.5.
fn value_noise2(p: vec2f) -> f32 {
    let i = floor(p);
    let f = p - i;
    let c = vec3i(vec2i(i), 0);
    let a = noise_cell_value(c);
    let b = noise_cell_value(c + vec3i(1, 0, 0));
    let d = noise_cell_value(c + vec3i(0, 1, 0));
    let e = noise_cell_value(c + vec3i(1, 1, 0));
    let u = noise_fade2(f);
    return mix(mix(a, b, u.x), mix(d, e, u.x), u.y);
}

// Value noise at `p` (3D): random values at the integer lattice points, blended with the
// quintic fade curve. Range: [0, 1]; mean about 0.5.
fn value_noise3(p: vec3f) -> f32 {
    let i = floor(p);
    let f = p - i;
    let c = vec3i(i);
    let u = noise_fade3(f);
    let x00 = mix(noise_cell_value(c), noise_cell_value(c + vec3i(1, 0, 0)), u.x);
    let x10 = mix(noise_cell_value(c + vec3i(0, 1, 0)), noise_cell_value(c + vec3i(1, 1, 0)), u.x);
    let x01 = mix(noise_cell_value(c + vec3i(0, 0, 1)), noise_cell_value(c + vec3i(1, 0, 1)), u.x);
    let x11 = mix(noise_cell_value(c + vec3i(0, 1, 1)), noise_cell_value(c + vec3i(1, 1, 1)), u.x);
    return mix(mix(x00, x10, u.y), mix(x01, x11, u.y), u.z);
}

// Gradient (Perlin-style) noise at `p` (2D): random unit gradients at the integer lattice
// points (8 directions), blended with the quintic fade curve, scaled by sqrt(2). Range: [-1, 1];
// 0 at every lattice point; mean 0.
fn gradient_noise2(p: vec2f) -> f32 {
    let i = floor(p);
    let f = p - i;
    let c = vec3i(vec2i(i), 0);
    let a = noise_grad2(noise_cell(c), f);
    let b = noise_grad2(noise_cell(c + vec3i(1, 0, 0)), f - vec2f(1.0, 0.0));
    let d = noise_grad2(noise_cell(c + vec3i(0, 1, 0)), f - vec2f(0.0, 1.0));
    let e = noise_grad2(noise_cell(c + vec3i(1, 1, 0)), f - vec2f(1.0, 1.0));
    let u = noise_fade2(f);
    return mix(mix(a, b, u.x), mix(d, e, u.x), u.y) * 1.41421356237309505;
}

// Gradient (Perlin-style) noise at `p` (3D): Perlin's improved noise (12 edge gradients) on a
// hashed lattice, blended with the quintic fade curve. Range: about [-1, 1] (|n| < 1.1); 0 at
// every lattice point; mean 0.
fn gradient_noise3(p: vec3f) -> f32 {
    let i = floor(p);
    let f = p - i;
    let c = vec3i(i);
    let u = noise_fade3(f);
    let g000 = noise_grad3(noise_cell(c), f);
    let g100 = noise_grad3(noise_cell(c + vec3i(1, 0, 0)), f - vec3f(1.0, 0.0, 0.0));
    let g010 = noise_grad3(noise_cell(c + vec3i(0, 1, 0)), f - vec3f(0.0, 1.0, 0.0));
    let g110 = noise_grad3(noise_cell(c + vec3i(1, 1, 0)), f - vec3f(1.0, 1.0, 0.0));
    let g001 = noise_grad3(noise_cell(c + vec3i(0, 0, 1)), f - vec3f(0.0, 0.0, 1.0));
    let g101 = noise_grad3(noise_cell(c + vec3i(1, 0, 1)), f - vec3f(1.0, 0.0, 1.0));
    let g011 = noise_grad3(noise_cell(c + vec3i(0, 1, 1)), f - vec3f(0.0, 1.0, 1.0));
    let g111 = noise_grad3(noise_cell(c + vec3i(1, 1, 1)), f - vec3f(1.0, 1.0, 1.0));
    let y0 = mix(mix(g000, g100, u.x), mix(g010, g110, u.x), u.y);
    let y1 = mix(mix(g001, g101, u.x), mix(g011, g111, u.x), u.y);
    return mix(y0, y1, u.z);
}

// Fractal Brownian motion at `p` (2D): `octaves` layers of `gradient_noise2`, layer k at
// frequency lacunarity^k and amplitude gain^k, divided by the sum of the amplitudes. Range:
// about [-1, 1] (0 for 0 octaves). Typical: 5 octaves, lacunarity 2, gain 0.5.
fn fbm2(p: vec2f, octaves: u32, lacunarity: f32, gain: f32) -> f32 {
    var sum = 0.0;
    var amplitude = 1.0;
    var frequency = 1.0;
    var total = 0.0;
    for (var k = 0u; k < octaves; k++) {
        sum += amplitude * gradient_noise2(p * frequency);
        total += amplitude;
        frequency *= lacunarity;
        amplitude *= gain;
    }
    return select(0.0, sum / total, total > 0.0);
}

// Fractal Brownian motion at `p` (3D): `octaves` layers of `gradient_noise3`, layer k at
// frequency lacunarity^k and amplitude gain^k, divided by the sum of the amplitudes. Range:
// about [-1, 1] (0 for 0 octaves). Typical: 5 octaves, lacunarity 2, gain 0.5.
fn fbm3(p: vec3f, octaves: u32, lacunarity: f32, gain: f32) -> f32 {
    var sum = 0.0;
    var amplitude = 1.0;
    var frequency = 1.0;
    var total = 0.0;
    for (var k = 0u; k < octaves; k++) {
        sum += amplitude * gradient_noise3(p * frequency);
        total += amplitude;
        frequency *= lacunarity;
        amplitude *= gain;
    }
    return select(0.0, sum / total, total > 0.0);
}
