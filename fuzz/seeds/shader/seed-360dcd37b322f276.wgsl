enable f16;
struct H { a: f16, b: vec3<f16>, c: array<f16, 5> }
@group(0) @binding(0) var<storage> h: H;