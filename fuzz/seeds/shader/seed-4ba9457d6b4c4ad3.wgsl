
struct A { color: vec4f, gain: f32 }
struct B { color: vec4f }
@group(0) @binding(0) var<uniform> a: A;
@group(0) @binding(1) var<uniform> b: B;
@fragment fn fs_main() -> @location(0) vec4f {
    return (a.color * a.gain + b.color) / 255.0;
}
