// vgpu::hash: integer and float hashes (deterministic, stateless, identical on every device).
//
// The integer hashes are permuted congruential generators (PCG), after Jarzynski and Olano,
// "Hash Functions for GPU Rendering", JCGT 2020: `pcg` is one step of PCG's 32-bit LCG with
// the RXS-M-XS output permutation; `pcg2d`, `pcg3d` and `pcg4d` mix the lanes of one LCG step
// into each other. All arithmetic is u32, wrapping modulo 2^32.
//
// The float hashes hash the bit patterns of their arguments (`bitcast<u32>`, so 0.0 and -0.0
// hash differently) and turn the top 24 bits of the result into a float in [0, 1) exactly
// (`hash_to_unit`): a float hash is identical on every device.

// PCG hash of one u32 (LCG step, then RXS-M-XS permutation). Range: all of u32.
fn pcg(v: u32) -> u32 {
    let state = v * 747796405u + 2891336453u;
    let word = ((state >> ((state >> 28u) + 4u)) ^ state) * 277803737u;
    return (word >> 22u) ^ word;
}

// PCG-style hash of two u32 at once (pcg2d): each lane depends on both inputs. Range: all of
// u32, per lane.
fn pcg2d(v: vec2u) -> vec2u {
    var q = v * 1664525u + 1013904223u;
    q.x += q.y * 1664525u;
    q.y += q.x * 1664525u;
    q = q ^ (q >> vec2u(16u));
    q.x += q.y * 1664525u;
    q.y += q.x * 1664525u;
    q = q ^ (q >> vec2u(16u));
    return q;
}

// PCG-style hash of three u32 at once (pcg3d): each lane depends on all three inputs. Range:
// all of u32, per lane.
fn pcg3d(v: vec3u) -> vec3u {
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

// PCG-style hash of four u32 at once (pcg4d): each lane depends on all four inputs. Range: all
// of u32, per lane.
fn pcg4d(v: vec4u) -> vec4u {
    var q = v * 1664525u + 1013904223u;
    q.x += q.y * q.w;
    q.y += q.z * q.x;
    q.z += q.x * q.y;
    q.w += q.y * q.z;
    q = q ^ (q >> vec4u(16u));
    q.x += q.y * q.w;
    q.y += q.z * q.x;
    q.z += q.x * q.y;
    q.w += q.y * q.z;
    return q;
}

// The top 24 bits of `h` as a float in [0, 1): (h >> 8) / 2^24, exact (no rounding).
fn hash_to_unit(h: u32) -> f32 {
    return f32(h >> 8u) * (1.0 / 16777216.0);
}

// The top 24 bits of each lane of `h` as floats in [0, 1), exact (see `hash_to_unit`).
fn hash_to_unit2(h: vec2u) -> vec2f {
    return vec2f(h >> vec2u(8u)) * (1.0 / 16777216.0);
}

// The top 24 bits of each lane of `h` as floats in [0, 1), exact (see `hash_to_unit`).
fn hash_to_unit3(h: vec3u) -> vec3f {
    return vec3f(h >> vec3u(8u)) * (1.0 / 16777216.0);
}

// The top 24 bits of each lane of `h` as floats in [0, 1), exact (see `hash_to_unit`).
fn hash_to_unit4(h: vec4u) -> vec4f {
    return vec4f(h >> vec4u(8u)) * (1.0 / 16777216.0);
}

// A float in [0, 1) from one float (its bit pattern through `pcg`).
fn hash11(p: f32) -> f32 {
    return hash_to_unit(pcg(bitcast<u32>(p)));
}

// A float in [0, 1) from a vec2f (its bit patterns through `pcg2d`, lane x).
fn hash21(p: vec2f) -> f32 {
    return hash_to_unit(pcg2d(bitcast<vec2u>(p)).x);
}

// Two floats in [0, 1) from a vec2f (its bit patterns through `pcg2d`).
fn hash22(p: vec2f) -> vec2f {
    return hash_to_unit2(pcg2d(bitcast<vec2u>(p)));
}

// A float in [0, 1) from a vec3f (its bit patterns through `pcg3d`, lane x).
fn hash31(p: vec3f) -> f32 {
    return hash_to_unit(pcg3d(bitcast<vec3u>(p)).x);
}

// Three floats in [0, 1) from a vec3f (its bit patterns through `pcg3d`).
fn hash33(p: vec3f) -> vec3f {
    return hash_to_unit3(pcg3d(bitcast<vec3u>(p)));
}

// Four floats in [0, 1) from a vec4f (its bit patterns through `pcg4d`).
fn hash44(p: vec4f) -> vec4f {
    return hash_to_unit4(pcg4d(bitcast<vec4u>(p)));
}
