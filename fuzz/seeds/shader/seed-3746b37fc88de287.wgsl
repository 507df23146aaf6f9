
@group(0) @binding(0) var<uniform> color: vec4f;
@vertex fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
    return vec4f(f32(i & 1u), f32(i >> 1u), 0.0, 1.0);
}
@fragment fn fs() -> @location(0) vec4f { return color; }
