
            @group(0) @binding(0) var shadow_map: texture_depth_2d;
            @fragment fn fs_main(@builtin(position) pos: vec4f) -> @location(0) vec4f {
                let d = textureLoad(shadow_map, vec2i(pos.xy), 0);
                return vec4f(d, d, d, 1.0);
            }