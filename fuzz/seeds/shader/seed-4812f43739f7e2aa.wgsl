enable f16;
@group(0) @binding(0) var<storage> u: f16;