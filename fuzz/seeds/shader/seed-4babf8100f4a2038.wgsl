
struct Pair { a: vec2<f32>, b: i32 }
struct Inner { v: vec3<f32>, k: u32 }
struct U {
    s_f: f32,
    s_i: i32,
    s_u: u32,
    v2: vec2<f32>,
    v3: vec3<f32>,
    after_v3: u32,
    v4i: vec4<i32>,
    v3u: vec3<u32>,
    v2i: vec2<i32>,
    m4: mat4x4<f32>,
    m3: mat3x3<f32>,
    m2: mat2x2<f32>,
    m23: mat2x3<f32>,
    m32: mat3x2<f32>,
    arr_v4: array<vec4<f32>, 2>,
    arr_v3: array<vec3<f32>, 3>,
    pairs: array<Pair, 2>,
    inner: Inner,
    @align(16) aligned: f32,
    @size(16) sized: vec2<u32>,
    tail: f32,
}
