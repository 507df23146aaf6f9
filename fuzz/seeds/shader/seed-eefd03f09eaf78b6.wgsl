struct L { pos: vec3<f32>, color: vec3<f32> }
struct S { lights: array<L, 2> }