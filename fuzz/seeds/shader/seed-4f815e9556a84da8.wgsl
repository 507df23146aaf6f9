
        @vertex fn a() -> @builtin(position) vec4<f32> { return vec4<f32>(0.0); }
        @vertex fn b() -> @builtin(position) vec4<f32> { return vec4<f32>(1.0); }
        @fragment fn fs_main() -> @location(0) vec4<f32> { return vec4<f32>(1.0); }
    