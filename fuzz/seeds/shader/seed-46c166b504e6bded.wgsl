
struct Object { world: mat4x4<f32> }
struct Light { pos: vec3<f32>, intensity: f32, color: vec3<f32>, range: f32 }
struct Big {
    view: mat4x4<f32>,
    proj: mat4x4<f32>,
    bones: array<mat4x4<f32>, 6>,
    lights: array<Light, 16>,
}
@group(0) @binding(0) var<uniform> object: Object;
@group(0) @binding(1) var<uniform> big: Big;
