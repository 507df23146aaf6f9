
        @group(0) @binding(0) var<storage, read> data: array<vec4f>;
        @fragment fn fs_main(@builtin(position) pos: vec4f) -> @location(0) vec4f {
            return data[u32(pos.x)] / 255.0;
        }