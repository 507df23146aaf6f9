// The scene's main pass (examples/lib/scene.rs): Lambert lighting from two directional lights,
// each with a 2×2 PCF shadow lookup. The `window` example watches this file: edit it while the
// window is open and the scene follows (its draws keep every value).
struct Camera { view_projection: mat4x4f }
struct Object { world: mat4x4f, color: vec4f }
struct Light { view_projection: mat4x4f, direction: vec4f, color: vec4f }
// ambient.w: 1 when the shader gamma-encodes its output (a linear-unorm target such as the
// scene's own), 0 when the target's sRGB format encodes it (a window surface).
struct Lights { light: array<Light, 2>, ambient: vec4f }
@group(0) @binding(0) var<uniform> camera: Camera;
@group(1) @binding(0) var<uniform> object: Object;
@group(2) @binding(0) var<uniform> lights: Lights;
@group(2) @binding(1) var shadow_map_1: texture_depth_2d;
@group(2) @binding(2) var shadow_map_2: texture_depth_2d;
@group(2) @binding(3) var shadow_sampler: sampler_comparison;

struct VsOut {
    @builtin(position) clip: vec4f,
    @location(0) world_position: vec3f,
    @location(1) normal: vec3f,
}

@vertex
fn vs_main(@location(0) position: vec3f, @location(1) normal: vec3f) -> VsOut {
    let world = object.world * vec4f(position, 1.0);
    var out: VsOut;
    out.clip = camera.view_projection * world;
    out.world_position = world.xyz;
    out.normal = (object.world * vec4f(normal, 0.0)).xyz;
    return out;
}

// Shadow-map coordinates of a world position: uv in 0..1 (v down), depth in 0..1.
fn shadow_coords(view_projection: mat4x4f, p: vec3f) -> vec3f {
    let c = view_projection * vec4f(p, 1.0);
    let ndc = c.xyz / c.w;
    return vec3f(ndc.x * 0.5 + 0.5, 0.5 - ndc.y * 0.5, ndc.z);
}

@fragment
fn fs_main(in: VsOut) -> @location(0) vec4f {
    let n = normalize(in.normal);
    let c1 = shadow_coords(lights.light[0].view_projection, in.world_position);
    let c2 = shadow_coords(lights.light[1].view_projection, in.world_position);
    let lit1 = textureSampleCompare(shadow_map_1, shadow_sampler, c1.xy, c1.z - 0.002);
    let lit2 = textureSampleCompare(shadow_map_2, shadow_sampler, c2.xy, c2.z - 0.002);
    let d1 = max(dot(n, -lights.light[0].direction.xyz), 0.0);
    let d2 = max(dot(n, -lights.light[1].direction.xyz), 0.0);
    let light = lights.ambient.rgb
        + lights.light[0].color.rgb * (d1 * lit1)
        + lights.light[1].color.rgb * (d2 * lit2);
    let color = object.color.rgb * light;
    return vec4f(select(color, pow(color, vec3f(1.0 / 2.2)), lights.ambient.w > 0.5), 1.0);
}
