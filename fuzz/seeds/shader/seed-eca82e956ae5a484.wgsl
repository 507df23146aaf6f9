
        @group(0) @binding(0) var shadow_map: texture_depth_2d;
        @group(0) @binding(1) var shadow_sampler: sampler_comparison;
        struct Probe { reference: vec4f }
        @group(0) @binding(2) var<uniform> probe: Probe;
        @fragment fn fs_main(@builtin(position) pos: vec4f) -> @location(0) vec4f {
            let lit = textureSampleCompare(shadow_map, shadow_sampler, pos.xy / 4.0,
                probe.reference.x);
            return vec4f(lit, lit, lit, 1.0);
        }