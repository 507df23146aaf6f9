struct L { color: vec3<f32> }
struct S { lights: array<L, 2> }