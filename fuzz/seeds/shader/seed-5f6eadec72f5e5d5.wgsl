
        struct Particles { count: u32, data: array<vec4<f32>> }
        @group(0) @binding(0) var<storage, read> input: Particles;
        @group(0) @binding(1) var<storage, read_write> output: array<vec4<f32>>;
        @group(0) @binding(2) var img: texture_storage_2d<rgba8unorm, write>;
        @group(0) @binding(3) var ms: texture_multisampled_2d<f32>;
        @group(0) @binding(4) var arr: texture_2d_array<i32>;
        @group(0) @binding(5) var cube: texture_cube<f32>;
        @group(0) @binding(6) var rw: texture_storage_2d<r32float, read_write>;
        @compute @workgroup_size(8, 4, 2)
        fn main(@builtin(global_invocation_id) id: vec3<u32>) {
            output[id.x] = input.data[id.x] + vec4<f32>(f32(input.count));
            textureStore(img, vec2<i32>(0), vec4<f32>(0.0));
            _ = textureLoad(ms, vec2<i32>(0), 0);
            _ = textureLoad(arr, vec2<i32>(0), 0, 0);
            _ = textureDimensions(cube);
            textureStore(rw, vec2<i32>(0), textureLoad(rw, vec2<i32>(0)));
        }
    