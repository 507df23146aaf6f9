// vgpu::fullscreen: one triangle that covers the whole viewport, for post-processing and other
// full-screen passes. Draw 3 vertices with no vertex buffer; from the vertex entry point,
// return `fullscreen_position(i)` as the `@builtin(position)` and pass `fullscreen_uv(i)` to
// the fragment stage. The triangle is counter-clockwise (front-facing by default) and its part
// outside the viewport is clipped.
//
// ```wgsl
// struct VsOut { @builtin(position) position: vec4f, @location(0) uv: vec2f }
// @vertex fn vs_main(@builtin(vertex_index) i: u32) -> VsOut {
//     return VsOut(fullscreen_position(i), fullscreen_uv(i));
// }
// ```

// The clip-space position of vertex `vertex_index` (0, 1 or 2) of the fullscreen triangle:
// (-1, 1), (-1, -3), (3, 1), at depth 0, w = 1.
fn fullscreen_position(vertex_index: u32) -> vec4f {
    let uv = fullscreen_uv(vertex_index);
    return vec4f(uv.x * 2.0 - 1.0, 1.0 - uv.y * 2.0, 0.0, 1.0);
}

// The texture coordinates of vertex `vertex_index` (0, 1 or 2) of the fullscreen triangle:
// (0, 0), (0, 2), (2, 0). Interpolated, they run from (0, 0) at the top-left corner of the
// viewport to (1, 1) at its bottom-right (a texel center of a WxH target at ((x + 0.5) / W,
// (y + 0.5) / H)): sample a texture of the target's size with them.
fn fullscreen_uv(vertex_index: u32) -> vec2f {
    return vec2f(f32(vertex_index & 2u), f32((vertex_index << 1u) & 2u));
}
