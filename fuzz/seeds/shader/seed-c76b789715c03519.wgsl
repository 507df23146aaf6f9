struct S0 { a: vec4f }
