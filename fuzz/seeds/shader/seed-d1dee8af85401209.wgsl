struct Inner { x: f32 }
struct Outer { v: vec4<f32>, a: f32, @align(16) @size(16) inner: Inner, b: f32 }