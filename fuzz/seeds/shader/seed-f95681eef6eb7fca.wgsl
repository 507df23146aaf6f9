@vertex fn vs_main(@location(0) p: vec2f) -> @builtin(position) vec4f {
                     return vec4f(p, 0.0, 1.0);
                 }
                 @fragment fn fs_main() -> @location(0) vec4f { return vec4f(1.0); }