struct L { c: vec3<f32>, m: mat4x4<f32>, a: array<vec2<u32>, 3> }
@group(0) @binding(0) var<storage> u: array<L>;