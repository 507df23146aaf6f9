
            @group(0) @binding(0) var shadow_map: texture_depth_2d;
            @group(0) @binding(1) var nearest: sampler;
            @fragment fn fs_main(@builtin(position) pos: vec4f) -> @location(0) vec4f {
                let d = textureSample(shadow_map, nearest, pos.xy / 4.0);
                return vec4f(d, d, d, 1.0);
            }