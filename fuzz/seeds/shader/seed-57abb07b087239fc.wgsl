
                @vertex fn vs_main(@location(0) p: vec4f) -> @builtin(position) vec4f { return p; }
                @fragment fn fs_main() -> @location(0) vec4f { return vec4f(1.0); }