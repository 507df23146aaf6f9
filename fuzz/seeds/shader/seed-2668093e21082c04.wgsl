struct P { pos: vec3<f32>, vel: vec3<f32>, mass: f32 }
struct Ps { n: u32, ps: array<P> }