
struct Instance { center: vec2f, half_size: f32, color: u32 }
@group(0) @binding(0) var<storage, read> instances: array<Instance>;

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
fn vs_main(@builtin(vertex_index) v: u32, @builtin(instance_index) i: u32) -> VsOut {
    let inst = instances[i];
    var out: VsOut;
    out.position = vec4f(inst.center + corner(v) * inst.half_size, 0.0, 1.0);
    out.color = unpack(inst.color);
    return out;
}

@fragment
fn fs_main(in: VsOut) -> @location(0) vec4f {
    return in.color;
}
