@group(0) @binding(0) var<uniform> u: S{levels};
@compute @workgroup_size(1) fn main() {{ _ = u.a; }}
