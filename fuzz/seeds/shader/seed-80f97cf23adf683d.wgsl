struct A { time: f32, mouse: vec2f }
struct B { time: f32, @align(16) mouse: vec2f }