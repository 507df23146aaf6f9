struct Light { pos: vec3<f32>, intensity: f32, color: vec3<f32> }
struct Inner { k: vec2<u32> }
struct S { lights: array<Light, 2>, dirs: array<vec3<f32>, 2>, inner: Inner, tail: i32 }