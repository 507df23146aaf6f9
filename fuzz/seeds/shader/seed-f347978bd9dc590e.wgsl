
struct Camera { view_projection: mat4x4<f32> }
struct Object { world: mat4x4<f32>, color: vec4<f32> }
struct Material { color: vec4<f32>, roughness: f32 }

@group(0) @binding(0) var<uniform> camera: Camera;
@group(1) @binding(0) var<uniform> object: Object;
@group(1) @binding(1) var<uniform> material: Material;
@group(1) @binding(2) var albedo: texture_2d<f32>;
@group(1) @binding(3) var albedo_sampler: sampler;
@group(1) @binding(4) var shadow: texture_depth_2d;
@group(1) @binding(5) var shadow_sampler: sampler_comparison;

struct VsIn {
    @location(0) position: vec3<f32>,
    @location(2) uv: vec2<f32>,
    @builtin(vertex_index) index: u32,
}
struct VsOut { @builtin(position) pos: vec4<f32>, @location(0) uv: vec2<f32> }

@vertex
fn vs_main(v: VsIn, @location(1) normal: vec3<f32>, @location(3) id: u32) -> VsOut {
    var o: VsOut;
    o.pos = camera.view_projection * object.world * vec4<f32>(v.position + normal * 0.0, 1.0);
    o.uv = v.uv + vec2<f32>(f32(id), 0.0) * 0.0;
    return o;
}

struct FsOut { @location(0) color: vec4<f32>, @location(1) extra: vec2<u32> }

@fragment
fn fs_main(i: VsOut) -> FsOut {
    var o: FsOut;
    let lit = textureSampleCompare(shadow, shadow_sampler, i.uv, 0.5);
    o.color = textureSample(albedo, albedo_sampler, i.uv) * material.color * object.color * lit;
    o.extra = vec2<u32>(1u, 2u);
    return o;
}
