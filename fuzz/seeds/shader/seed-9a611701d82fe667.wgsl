
@group(0) @binding(0) var tex: texture_2d<f32>;
@group(0) @binding(1) var samp: sampler;
@fragment fn fs_main() -> @location(0) vec4f {
    return textureSample(tex, samp, vec2f(0.5, 0.5));
}
