struct S0 { a: f32 }
