struct Inner { v: vec4<f32> }
struct Outer { a: f32, inner: Inner, b: f32 }