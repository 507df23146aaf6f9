@group(4000000000) @binding(0) var<uniform> u: vec4<f32>;
@compute @workgroup_size(1) fn cs_main() { _ = u; }
