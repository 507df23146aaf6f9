
        struct Object { color: vec4f, gain: f32, bias: u32, shift: vec2f }
        @group(0) @binding(0) var<uniform> shared_object: Object;
        @fragment fn fs_main() -> @location(0) vec4f {
            return (shared_object.color * shared_object.gain
                + vec4f(f32(shared_object.bias), shared_object.shift, 0.0)) / 255.0;
        }