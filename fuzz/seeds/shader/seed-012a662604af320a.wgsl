
#     struct Object { world: mat4x4f }
#     @group(0) @binding(0) var<uniform> object: Object;
#     @vertex fn vs_main() -> @builtin(position) vec4f { return object.world[0]; }
# 