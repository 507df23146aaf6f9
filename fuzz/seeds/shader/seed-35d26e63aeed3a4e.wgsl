
struct BlurGlobals { time: f32, mouse: vec2f }
@group(0) @binding(0) var<uniform> globals: BlurGlobals;
@fragment fn fs_main() -> @location(0) vec4f {
    return vec4f(globals.mouse.y, globals.mouse.x, globals.time, 1.0);
}