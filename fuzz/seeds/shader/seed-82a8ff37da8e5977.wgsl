struct Globals { time: f32, mouse: vec2f }
struct BlurGlobals { time: f32, mouse: vec3f }