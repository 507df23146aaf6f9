
struct Camera { offset: vec2f }
@group(0) @binding(0) var<uniform> camera: Camera;
struct Object { color: vec4f }
@group(1) @binding(0) var<uniform> object: Object;

@vertex fn vs_main(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
    var corners = array<vec2f, 6>(
        vec2f(-0.25, -0.25), vec2f(0.25, -0.25), vec2f(0.25, 0.25),
        vec2f(-0.25, -0.25), vec2f(0.25, 0.25), vec2f(-0.25, 0.25));
    return vec4f(corners[i] + camera.offset, 0.0, 1.0);
}
@fragment fn fs_main() -> @location(0) vec4f { return object.color; }
