
            struct Params { base: vec4f }
            @group(0) @binding(0) var<uniform> params: Params;
            @group(0) @binding(1) var<storage, read_write> data: array<vec4f>;
            @compute @workgroup_size(4) fn cs_main(@builtin(global_invocation_id) id: vec3u) {
                data[id.x] = params.base + vec4f(f32(id.x) * 10.0, 0.0, 0.0, 0.0);
            }