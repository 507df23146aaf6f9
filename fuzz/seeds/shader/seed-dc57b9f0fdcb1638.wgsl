enable f16;
struct S { a: f16 }
@group(0) @binding(0) var<storage> u: S;