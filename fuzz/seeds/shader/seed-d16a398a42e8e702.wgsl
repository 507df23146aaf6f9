struct S { a: array<f32, 4> }
@group(0) @binding(0) var<uniform> u: S;
@compute @workgroup_size(1) fn cs_main() { _ = u.a[0]; }
