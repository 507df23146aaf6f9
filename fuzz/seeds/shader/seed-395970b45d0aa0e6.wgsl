struct Inner { x: f32 }
struct Outer { a: f32, inner: Inner, b: f32 }