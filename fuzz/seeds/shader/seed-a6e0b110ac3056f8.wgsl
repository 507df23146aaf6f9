
@group(0) @binding(0) var frame: texture_2d<f32>;

@fragment
fn fs_main(@builtin(position) position: vec4f) -> @location(0) vec4f {
    return textureLoad(frame, vec2i(position.xy), 0);
}
