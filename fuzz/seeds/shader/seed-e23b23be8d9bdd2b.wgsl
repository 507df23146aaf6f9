struct L { pos: vec3<f32>, intensity: f32 }
struct S { lights: array<L, 2> }