
struct Data { count: u32, scale: f32, items: array<vec4f> }
@group(0) @binding(0) var<storage, read> data: Data;
@group(0) @binding(1) var<storage, read_write> out: array<vec4f>;
@compute @workgroup_size(1) fn cs_main() {
    let n = arrayLength(&data.items);
    out[0] = vec4f(f32(n), f32(data.count), data.scale, 0.0);
    for (var i = 0u; i < n && i < 15u; i++) { out[i + 1u] = data.items[i]; }
}