@group(0) @binding(0) var<uniform> u: vec4<f32>;
@fragment fn fs_main() -> @location(0) vec4<f32> { u = vec4<f32>(1.0); return u; }
