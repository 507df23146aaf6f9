
            @group(0) @binding(0) var shadow_map: texture_depth_2d;
            @group(0) @binding(1) var cmp: sampler_comparison;
            @fragment fn fs_main() -> @location(0) vec4f {
                let lit = textureSampleCompare(shadow_map, cmp, vec2f(0.5, 0.5), 0.5);
                return vec4f(lit, lit, lit, 1.0);
            }