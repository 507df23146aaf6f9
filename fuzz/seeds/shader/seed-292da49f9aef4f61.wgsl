struct In { h: vec3<u32>, m: mat3x2<f32> }
struct S { a: array<In, 3>, b: array<array<vec3<f32>, 2>, 2>, c: i32 }
@group(0) @binding(0) var<storage> s: S;
@group(0) @binding(1) var<storage> r: array<f32>;
@group(0) @binding(2) var<uniform> v: vec3<f32>;
@group(0) @binding(3) var<storage> m: mat4x4<f32>;
