
        struct Object { color: vec4f, scale: f32 }
        @group(0) @binding(0) var<uniform> object: Object;
        @vertex fn vs_main() -> @builtin(position) vec4f { return vec4f(object.scale); }
        @fragment fn fs_main() -> @location(0) vec4f { return object.color; }
    