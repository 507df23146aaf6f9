
        struct Camera { view_projection: mat4x4f }
        struct Object { color: vec4f, center: vec2f }
        @group(0) @binding(0) var<uniform> camera: Camera;   // shared, changes per pass
        @group(1) @binding(0) var<uniform> object: Object;   // per draw

        @vertex
        fn vs_main(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
            var c = array<vec2f, 6>(vec2f(-1.0, -1.0), vec2f(1.0, -1.0), vec2f(1.0, 1.0),
                                    vec2f(-1.0, -1.0), vec2f(1.0, 1.0), vec2f(-1.0, 1.0));
            let world = object.center + 0.25 * c[i];
            return camera.view_projection * vec4f(world, 0.0, 1.0);
        }

        @fragment
        fn fs_main() -> @location(0) vec4f { return object.color; }
    