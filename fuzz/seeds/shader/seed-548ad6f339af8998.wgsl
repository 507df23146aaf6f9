
struct Particle { pos: vec3<f32>, id: u32, vel: vec2<f32>, flags: vec2<i32>, m: mat2x2<f32> }
struct Particles {
    counter: atomic<u32>,
    hits: array<atomic<i32>, 2>,
    scale: f32,
    origin: vec3<f32>,
    items: array<Particle>,
}
