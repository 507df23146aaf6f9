
struct Frame { view_projection: mat4x4f }
struct Object { world: mat4x4f, color: vec4f }
@group(0) @binding(0) var<uniform> frame: Frame;
@group(1) @binding(0) var<uniform> object: Object;
@group(2) @binding(0) var shadow: texture_depth_2d;
@group(2) @binding(1) var shadow_sampler: sampler_comparison;
@group(2) @binding(2) var albedo: texture_2d<f32>;
@group(2) @binding(3) var albedo_sampler: sampler;
struct VsOut { @builtin(position) position: vec4f, @location(0) uv: vec2f }
@vertex fn vs_main(@builtin(vertex_index) i: u32) -> VsOut {
    var p = array<vec2f, 3>(vec2f(-0.5, -0.5), vec2f(0.5, -0.5), vec2f(0.0, 0.5));
    var out: VsOut;
    out.position = frame.view_projection * object.world * vec4f(p[i], 0.5, 1.0);
    out.uv = p[i] + vec2f(0.5);
    return out;
}
@fragment fn fs_main(in: VsOut) -> @location(0) vec4f {
    let lit = textureSampleCompare(shadow, shadow_sampler, in.uv, 0.5);
    return object.color * textureSample(albedo, albedo_sampler, in.uv) * (0.5 + 0.5 * lit);
}
