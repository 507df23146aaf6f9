struct U{i} {{ v: vec4f }}
@group(0) @binding({i}) var<uniform> u{i}: U{i};
