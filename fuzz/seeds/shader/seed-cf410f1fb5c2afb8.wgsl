
struct View { tint: vec4f }
struct Object { color: vec4f }
@group(0) @binding(0) var<uniform> view: View;
@group(1) @binding(0) var<uniform> object: Object;
@fragment fn fs_main() -> @location(0) vec4f {
    return (view.tint + object.color) / 255.0;
}
