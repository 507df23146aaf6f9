
        struct Object { blue: vec4f }
        @group(0) @binding(0) var<uniform> object: Object;
        @fragment fn fs_main(@builtin(position) pos: vec4f) -> @location(0) vec4f {
            return vec4f(floor(pos.x) * 16.0 + 8.0, floor(pos.y) * 16.0 + 8.0, object.blue.x, 255.0)
                / 255.0;
        }