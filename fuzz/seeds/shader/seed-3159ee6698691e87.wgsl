
struct Item { v: vec4f }
@group(0) @binding(0) var<storage, read> items: array<Item>;
@group(0) @binding(1) var<storage, read_write> out: array<vec4f>;
@compute @workgroup_size(1) fn cs_main() {
    let n = arrayLength(&items);
    out[0] = vec4f(f32(n), 0.0, 0.0, 0.0);
    for (var i = 0u; i < n && i < 15u; i++) { out[i + 1u] = items[i].v; }
}