
struct M { a: mat3x3<f32>, b: mat2x2<f32>, c: array<vec3<f32>, 3>, @align(16) d: f32, @size(32) e: vec2<i32> }
@group(1) @binding(3) var<uniform> m: M;
@compute @workgroup_size(1, 2, 3) fn cs_main() { _ = m.a; }
