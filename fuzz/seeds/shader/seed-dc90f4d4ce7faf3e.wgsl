@group(0) @binding(0) var<storage> u: S99;
