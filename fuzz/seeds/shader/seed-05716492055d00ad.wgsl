struct Light { color: vec3f, power: f32 }
struct Lamp { color: vec3f, power: f32 }
struct Bulb { color: vec3f, power: u32 }
struct Scene { sun: Light, lights: array<Light, 4>, time: f32 }
struct World { sun: Lamp, lights: array<Lamp, 4>, time: f32 }
struct Room { sun: Lamp, lights: array<Bulb, 4>, time: f32 }
struct Hall { sun: Lamp, lights: array<Lamp, 3>, time: f32 }