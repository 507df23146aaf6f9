@group(0) @binding(0) var<storage, read> items: array<vec4f>;
             @fragment fn fs_main() -> @location(0) vec4f { return items[arrayLength(&items) - 1u]; }