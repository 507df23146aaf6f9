
            struct Depth { z: vec4f }
            @group(0) @binding(0) var<uniform> depth: Depth;
            @vertex fn vs_main(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
                let p = vec2f(f32((i << 1u) & 2u), f32(i & 2u));
                return vec4f(p * 2.0 - 1.0, depth.z.x, 1.0);
            }