struct In { x: f32 }
struct S { a: f32, inner: In }