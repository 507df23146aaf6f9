
        struct Object { color: vec4f }
        @group(0) @binding(0) var<uniform> object: Object;
        @vertex fn vs_main(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
            return vec4f(f32(i) - 1.0, f32(i & 1u), 0.0, 1.0);
        }
        @fragment fn fs_main() -> @location(0) vec4f { return object.color; }
    