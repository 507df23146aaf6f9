
        struct Instance { center: vec2f, scale: f32, color: u32 }
        @group(0) @binding(0) var<storage, read> instances: array<Instance>;
        struct VsOut { @builtin(position) pos: vec4f, @location(0) @interpolate(flat) color: vec4f }

        @vertex
        fn vs_main(@builtin(vertex_index) v: u32, @builtin(instance_index) i: u32) -> VsOut {
            var c = array<vec2f, 3>(vec2f(-1.0, -1.0), vec2f(1.0, -1.0), vec2f(0.0, 1.0));
            let inst = instances[i];
            let k = inst.color;
            var out: VsOut;
            out.pos = vec4f(inst.center + inst.scale * c[v], 0.0, 1.0);
            out.color = vec4f(f32(k & 255u), f32((k >> 8u) & 255u),
                              f32((k >> 16u) & 255u), f32(k >> 24u)) / 255.0;
            return out;
        }
        @fragment fn fs_main(in: VsOut) -> @location(0) vec4f { return in.color; }
    