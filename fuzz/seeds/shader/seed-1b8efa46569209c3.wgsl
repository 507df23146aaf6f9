struct S { a: f32 }
@group(0) @binding(0) var<uniform> u: S;
fn f() -> f32 { return u.a +; }
