enable f16;
struct S { a: f16, b: vec3<f16>, c: f16 }