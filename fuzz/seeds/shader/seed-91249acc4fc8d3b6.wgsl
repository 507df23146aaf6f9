struct O { color: vec4f }
         @group(0) @binding(0) var<uniform> object: O;
         @fragment fn fs_main() -> @location(0) vec4f { return object.color; }