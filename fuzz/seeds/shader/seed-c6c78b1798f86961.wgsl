struct S { @size(4294967295) a: f32, b: f32 }
@group(0) @binding(0) var<storage> u: S;