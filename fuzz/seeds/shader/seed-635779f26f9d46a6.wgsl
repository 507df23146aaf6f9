
struct P { pos: vec4<f32>, vel: vec4<f32> }
struct Ps { n: u32, ps: array<P> }
@group(0) @binding(0) var<storage, read> src: Ps;
@group(0) @binding(1) var<storage, read_write> dst: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read_write> counter: atomic<u32>;
@compute @workgroup_size(64)
fn cs_main(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x >= src.n { return; }
    dst[id.x] = src.ps[id.x].pos + src.ps[id.x].vel;
    atomicAdd(&counter, 1u);
}
