struct S { @align(2147483648) a: f32 }
@group(0) @binding(0) var<storage> u: S;