
struct Params { color: vec4f }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> extra: array<vec4f>;
@fragment fn fs_main() -> @location(0) vec4f {
    return (params.color + extra[1]) / 255.0;
}
