struct P { pos: vec4<f32> }
struct S { n: u32, ps: array<P> }