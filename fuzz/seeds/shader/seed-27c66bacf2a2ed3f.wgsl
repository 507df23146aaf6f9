
enable f16;
struct H { a: f16, b: vec3<f16>, c: f16, d: vec2<f16>, m: mat2x2<f16>, x: f32, arr: array<f16, 3> }
