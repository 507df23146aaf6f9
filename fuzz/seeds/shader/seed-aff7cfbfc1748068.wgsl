
struct Object { color: vec4f, gain: f32 }
struct Tint { value: vec4f }
@group(0) @binding(0) var<uniform> object: Object;
@group(0) @binding(1) var<uniform> tint: Tint;
@fragment fn fs_main() -> @location(0) vec4f {
    return (object.color * object.gain + tint.value) / 255.0;
}
