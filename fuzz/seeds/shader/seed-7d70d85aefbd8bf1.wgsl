
        struct Params { color: vec4f }
        @group(0) @binding(0) var<uniform> params: Params;
        @fragment fn fs_main() -> @location(0) vec4f { return params.color / 255.0; }