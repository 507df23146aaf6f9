enable f16;
struct S { a: f16, b: vec2<f16> }