struct T { value: vec4f }
         @group(0) @binding(0) var<uniform> tint: T;
         @fragment fn fs_main() -> @location(0) vec4f { return tint.value; }