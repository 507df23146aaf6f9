
    struct Light { position: vec3f, intensity: f32, color: vec3f }
    struct Lights { count: u32, lights: array<Light, 2>, tail: vec2f }
    @group(0) @binding(0) var<uniform> lights: Lights;
    @vertex fn vs_main() -> @builtin(position) vec4f {
        return vec4f(lights.lights[0].position, f32(lights.count));
    }
