
struct VgpuFullscreenOut {
    @builtin(position) position: vec4f,
    @location(0) uv: vec2f,
}

@vertex
fn vgpu_fullscreen_vs(@builtin(vertex_index) i: u32) -> VgpuFullscreenOut {
    let uv = vec2f(f32((i << 1u) & 2u), f32(i & 2u));
    var out: VgpuFullscreenOut;
    out.position = vec4f(uv.x * 2.0 - 1.0, 1.0 - uv.y * 2.0, 0.0, 1.0);
    out.uv = uv;
    return out;
}
