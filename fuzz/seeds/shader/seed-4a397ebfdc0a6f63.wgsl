
    struct Object { world: mat4x4f }
    @group(0) @binding(0) var<uniform> object: Object;
    @vertex fn vs_main() -> @builtin(position) vec4f { return object.world[0]; }
    @fragment fn fs_main() -> @location(0) vec4f { return vec4f(1.0); }
