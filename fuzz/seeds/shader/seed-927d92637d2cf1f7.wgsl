{decl}
            @vertex fn vs_main(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {{
                var p = array<vec2f, 3>(vec2f(-1.0, -1.0), vec2f(3.0, -1.0), vec2f(-1.0, 3.0));
                return vec4f(p[i], 0.0, 1.0);
            }}
            @fragment fn fs_main() -> @location(0) vec4f {{ return vec4f({sum}, 0.0, 0.0, 1.0); }}