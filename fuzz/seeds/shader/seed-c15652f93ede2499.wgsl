
        @group(0) @binding(0) var tex: texture_2d<f32>;
        @group(0) @binding(1) var samp: sampler;
        struct Params { size: vec4f }
        @group(0) @binding(2) var<uniform> params: Params;
        @fragment fn fs_main(@builtin(position) pos: vec4f) -> @location(0) vec4f {
            return textureSample(tex, samp, pos.xy / params.size.xy);
        }