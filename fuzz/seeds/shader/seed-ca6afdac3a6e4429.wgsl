@vertex fn vs_main() -> @builtin(position) vec4f { return vec4f(0.0); }
                 @fragment fn fs_main() -> @location(0) vec4f { return vec4f(1.0); }