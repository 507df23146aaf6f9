struct S { a: array<vec4<f32>, 1000000000> }
@group(0) @binding(0) var<uniform> u: S;