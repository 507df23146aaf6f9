struct In { c: vec3<f32> }
struct S { a: f32, inner: In }