
struct Light { pos: vec3<f32>, color: vec3<f32>, intensity: f32 }
struct Scene { view: mat4x4<f32>, lights: array<Light, 4>, count: u32, tint: vec4<f32> }
@group(0) @binding(0) var<uniform> scene: Scene;
@group(0) @binding(1) var tex: texture_2d<f32>;
@group(0) @binding(2) var samp: sampler;
struct VsOut { @builtin(position) pos: vec4<f32>, @location(0) uv: vec2<f32> }
@vertex fn vs_main(@location(0) p: vec3<f32>, @location(1) uv: vec2<f32>) -> VsOut {
    var o: VsOut;
    o.pos = scene.view * vec4<f32>(p, 1.0);
    o.uv = uv;
    return o;
}
@fragment fn fs_main(i: VsOut) -> @location(0) vec4<f32> {
    var c = vec3<f32>(0.0);
    for (var k = 0u; k < scene.count; k++) { c += scene.lights[k].color * scene.lights[k].intensity; }
    return textureSample(tex, samp, i.uv) * vec4<f32>(c, 1.0) * scene.tint;
}
