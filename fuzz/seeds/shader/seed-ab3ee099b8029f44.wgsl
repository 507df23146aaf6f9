
        @group(0) @binding(0) var<uniform> a: vec4<f32>;
        @group(0) @binding(0) var t: texture_2d<f32>;
        @vertex fn vs_main() -> @builtin(position) vec4<f32> { return a; }
        @fragment fn fs_main() -> @location(0) vec4<f32> { return textureLoad(t, vec2<i32>(0), 0); }
    