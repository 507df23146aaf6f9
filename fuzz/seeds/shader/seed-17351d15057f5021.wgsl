
        struct Object { color: vec4f }
        @group(0) @binding(0) var<uniform> object: Object;
        @group(0) @binding(1) var tex: texture_2d<f32>;
        @group(0) @binding(2) var samp: sampler;
        @group(1) @binding(0) var<storage, read> extra: array<vec4f>;
        struct View { tint: vec4f }
        @group(1) @binding(1) var<uniform> view: View;
        @fragment fn fs_main() -> @location(0) vec4f {
            let t = textureSample(tex, samp, vec2f(0.5, 0.5));
            return (object.color + extra[0] + view.tint) / 255.0 + t;
        }