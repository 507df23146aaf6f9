
            struct C { v: vec4f }
            @group(0) @binding(0) var<storage, read> c: C;
            @fragment fn fs_main() -> @location(0) vec4f { return c.v; }