
    struct Camera { offset: vec2f }
    @group(0) @binding(0) var<uniform> camera: Camera;
    @vertex fn vs_main(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
        let p = vec2f(f32(i & 1u), f32(i >> 1u)) * 0.5 - 0.25;
        return vec4f(p + camera.offset, 0.0, 1.0);
    }
    @fragment fn fs_main() -> @location(0) vec4f { return vec4f(1.0, 0.5, 0.0, 1.0); }
