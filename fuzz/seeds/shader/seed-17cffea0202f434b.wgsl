
            struct Params { color: vec4f, right_gain: f32 }
            @group(0) @binding(0) var<uniform> params: Params;
            @fragment fn fs_main(@location(0) uv: vec2f) -> @location(0) vec4f {
                let gain = select(1.0, params.right_gain, uv.x > 0.5);
                return vec4f(params.color.rgb * gain, params.color.a) / 255.0;
            }