struct S { m: mat4x4f, c: vec4f, g: f32, n: u32, p: vec3f, q: mat3x3f }
             @group(0) @binding(0) var<uniform> s: S;
             @vertex fn vs_main() -> @builtin(position) vec4f { return s.m[0] + s.c; }