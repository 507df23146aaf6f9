struct T { x: vec4<f32> }
@group(0) @binding(0) var<uniform> a: T;
@group(0) @binding(1) var<uniform> b: T;
