
struct Globals { time: f32, mouse: vec2f }
@group(0) @binding(0) var<uniform> globals: Globals;
@fragment fn fs_main() -> @location(0) vec4f {
    return vec4f(globals.time, globals.mouse.x, globals.mouse.y, 1.0);
}