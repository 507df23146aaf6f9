
        @group(0) @binding(0) var<uniform> used: vec4<f32>;
        @group(0) @binding(1) var<uniform> unused: vec4<f32>;
        @compute @workgroup_size(1) fn cs_main() { _ = used; }
    