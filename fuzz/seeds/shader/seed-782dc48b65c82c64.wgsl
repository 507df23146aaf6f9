
        struct Palette { count: u32, colors: array<vec4f, 3> }
        @group(0) @binding(0) var<storage, read> palette: Palette;
        @fragment fn fs_main(@builtin(position) pos: vec4f) -> @location(0) vec4f {
            let i = min(u32(pos.x), palette.count - 1u);
            return palette.colors[i] / 255.0;
        }