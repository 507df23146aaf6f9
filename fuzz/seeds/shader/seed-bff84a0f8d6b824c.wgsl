enable f16;
struct S { h: array<f16, 3>, x: f32 }