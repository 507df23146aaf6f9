
struct Globals { time: f32, mouse: vec2i }
@group(0) @binding(0) var<uniform> globals: Globals;
@fragment fn fs_main() -> @location(0) vec4f { return vec4f(f32(globals.mouse.x)); }