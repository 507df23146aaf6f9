fn halve(c: vec3f) -> vec3f { return c * 0.5; }
fn boost(c: vec3f) -> vec3f { return c * 2.0; }
