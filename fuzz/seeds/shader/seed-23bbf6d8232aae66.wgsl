struct In { a: f32, b: f32 }
struct S { world: mat4x4<f32>, color: vec4<f32>, inner: In }