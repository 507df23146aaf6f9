struct P { pos: vec3<f32>, mass: f32 }
struct S { count: u32, ps: array<P> }