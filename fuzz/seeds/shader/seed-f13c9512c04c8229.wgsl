enable f16;
@group(0) @binding(0) var<uniform> h: vec4<f16>;
