
struct Globals { color: vec4f }
@group(0) @binding(0) var<uniform> globals: Globals;
@group(0) @binding(1) var tex: texture_2d<f32>;
@group(0) @binding(2) var samp: sampler;
@fragment fn fs_main(@builtin(position) p: vec4f) -> @location(0) vec4f {
    return globals.color * textureSampleLevel(tex, samp, vec2f(0.5, 0.5), 0.0);
}