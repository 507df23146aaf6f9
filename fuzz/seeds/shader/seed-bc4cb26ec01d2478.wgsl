
struct Object { color: vec4f, gain: f32, bias: u32, shift: vec2f }
@group(0) @binding(0) var<uniform> object: Object;
@fragment fn fs_main() -> @location(0) vec4f {
    return (object.color * object.gain + vec4f(f32(object.bias), object.shift, 0.0)) / 255.0;
}
