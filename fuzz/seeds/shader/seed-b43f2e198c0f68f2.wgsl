
struct VsOut {
    @builtin(position) position: vec4f,
    @location(0) @interpolate(flat) color: vec4f,
}

fn corner(v: u32) -> vec2f {
    var corners = array<vec2f, 6>(
        vec2f(-1.0, -1.0), vec2f(1.0, -1.0), vec2f(1.0, 1.0),
        vec2f(-1.0, -1.0), vec2f(1.0, 1.0), vec2f(-1.0, 1.0),
    );
    return corners[v];
}

fn unpack(c: u32) -> vec4f {
    return vec4f(f32(c & 255u), f32((c >> 8u) & 255u), f32((c >> 16u) & 255u), f32(c >> 24u)) / 255.0;
}

@vertex
fn vs_main(
    @builtin(vertex_index) v: u32,
    @location(0) center: vec2f,
    @location(1) half_size: f32,
    @location(2) color: u32,
) -> VsOut {
    var out: VsOut;
    out.position = vec4f(center + corner(v) * half_size, 0.0, 1.0);
    out.color = unpack(color);
    return out;
}

@fragment
fn fs_main(in: VsOut) -> @location(0) vec4f {
    return in.color;
}
