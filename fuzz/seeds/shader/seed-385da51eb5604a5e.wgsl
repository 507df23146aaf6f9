@group(4294967295) @binding(4294967295) var<uniform> u: f32;
@compute @workgroup_size(1) fn cs_main() { _ = u; }