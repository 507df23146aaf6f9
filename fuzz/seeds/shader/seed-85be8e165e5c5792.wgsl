struct Globals { time: f32, mouse: vec2f }
struct BlurGlobals { mouse: vec2f, time: f32 }