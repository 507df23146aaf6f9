
    struct Object { world: mat4x4f, color: vec4f, gain: f32, offset: vec3f }
    @group(0) @binding(0) var<uniform> object: Object;
    struct Padded { a: f32, @align(16) b: f32 }
    @group(0) @binding(1) var<uniform> padded: Padded;
    struct Frame { view_projection: mat4x4f }
    @group(1) @binding(0) var<uniform> frame: Frame;
    @vertex fn vs_main(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
        return frame.view_projection * object.world * vec4f(object.offset, object.gain)
            + object.color + vec4f(padded.a + padded.b);
    }
    @fragment fn fs_main() -> @location(0) vec4f { return vec4f(1.0); }
