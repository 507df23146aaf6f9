struct L2 { a: vec3<f32>, b: vec3<f32> }
struct S { items: array<L2, 3> }