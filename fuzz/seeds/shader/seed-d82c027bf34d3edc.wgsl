struct Object { world: mat4x4<f32>, color: vec3<f32>, count: u32 }
@group(0) @binding(0) var<uniform> object: Object;