//! (g) a warm unchanged frame does zero extra work.

use glam::{Mat4, Vec3};
use vgpu::{
    BindingArg, BufferDesc, Draw, DrawDesc, FrameReport, Gpu, PassDesc, SharedUniforms, Target,
    TargetDesc, value,
};

use super::{assert_zero_work, world};

const LIT_SHADER: &str = "
struct Frame { view_projection: mat4x4f }
struct Object { world: mat4x4f, color: vec4f }
@group(0) @binding(0) var<uniform> frame: Frame;
@group(1) @binding(0) var<uniform> object: Object;
@group(2) @binding(0) var shadow: texture_depth_2d;
@group(2) @binding(1) var shadow_sampler: sampler_comparison;
@group(2) @binding(2) var albedo: texture_2d<f32>;
@group(2) @binding(3) var albedo_sampler: sampler;
struct VsOut { @builtin(position) position: vec4f, @location(0) uv: vec2f }
@vertex fn vs_main(@builtin(vertex_index) i: u32) -> VsOut {
    var p = array<vec2f, 3>(vec2f(-0.5, -0.5), vec2f(0.5, -0.5), vec2f(0.0, 0.5));
    var out: VsOut;
    out.position = frame.view_projection * object.world * vec4f(p[i], 0.5, 1.0);
    out.uv = p[i] + vec2f(0.5);
    return out;
}
@fragment fn fs_main(in: VsOut) -> @location(0) vec4f {
    let lit = textureSampleCompare(shadow, shadow_sampler, in.uv, 0.5);
    return object.color * textureSample(albedo, albedo_sampler, in.uv) * (0.5 + 0.5 * lit);
}
";

const DEPTH_SHADER: &str = "
struct Frame { view_projection: mat4x4f }
struct Object { world: mat4x4f, color: vec4f }
@group(0) @binding(0) var<uniform> frame: Frame;
@group(1) @binding(0) var<uniform> object: Object;
@vertex fn vs_main(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
    var p = array<vec2f, 3>(vec2f(-0.5, -0.5), vec2f(0.5, -0.5), vec2f(0.0, 0.5));
    return frame.view_projection * object.world * vec4f(p[i], 0.25, 1.0);
}
";

const POST_EFFECT: &str = "
struct Post { gain: vec4f }
@group(0) @binding(0) var<uniform> post: Post;
@group(0) @binding(1) var scene: texture_2d<f32>;
@group(0) @binding(2) var scene_sampler: sampler;
@fragment fn fs_main(@location(0) uv: vec2f) -> @location(0) vec4f {
    return textureSample(scene, scene_sampler, uv) * post.gain;
}
";

const COMPUTE_SHADER: &str = "
struct Params { scale: f32, count: u32 }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read_write> data: array<f32>;
@compute @workgroup_size(64) fn cs_main(@builtin(global_invocation_id) id: vec3u) {
    if (id.x < params.count) { data[id.x] = f32(id.x) * params.scale; }
}
";

/// A frame that uses every kind of binding: shared blocks re-set per pass (identical values
/// every frame), per-draw values, a depth-only target sampled with a comparison sampler, a
/// texture, an effect reading a target, a compute pass with a storage buffer, a bundle.
struct Everything {
    gpu: Gpu,
    camera: SharedUniforms,
    shadow_draws: Vec<Draw>,
    lit_draws: Vec<Draw>,
    post: vgpu::Effect,
    compute: vgpu::Compute,
    bundle: vgpu::Bundle,
    shadow_map: Target,
    scene: Target,
    out: Target,
}

impl Everything {
    fn new(gpu: &Gpu) -> Everything {
        let camera = gpu
            .uniforms_labeled("camera", value! { view_projection: Mat4::IDENTITY })
            .expect("camera");
        let lit = gpu.shader("lit", LIT_SHADER).expect("lit");
        let depth = gpu.shader("depth", DEPTH_SHADER).expect("depth");
        let shadow_map = gpu
            .target_with(&TargetDesc::depth_only(
                16,
                16,
                wgpu::TextureFormat::Depth32Float,
            ))
            .expect("shadow map");
        let scene = gpu
            .target_with(&TargetDesc::new(16, 16).depth(wgpu::TextureFormat::Depth32Float))
            .expect("scene");
        let out = gpu.target(16, 16).expect("out");
        let albedo = gpu
            .texture_with_data(
                &vgpu::TextureDesc {
                    label: "albedo".into(),
                    width: 2,
                    height: 2,
                    ..Default::default()
                },
                &[255; 16],
            )
            .expect("albedo");
        let shadow_sampler = gpu.sampler(&vgpu::SamplerDesc::shadow()).expect("sampler");
        let linear = gpu.sampler(&vgpu::SamplerDesc::default()).expect("sampler");
        let object = |i: usize| value! { world: world(i), color: [1.0, 0.5, 0.25, 1.0] };
        let shadow_draws: Vec<Draw> = (0..50)
            .map(|i| {
                let d = gpu.draw(&depth, DrawDesc::default()).expect("shadow draw");
                d.set("frame", &camera).expect("frame");
                d.set("object", object(i)).expect("object");
                d
            })
            .collect();
        let lit_draws: Vec<Draw> = (0..50)
            .map(|i| {
                let d = gpu.draw(&lit, DrawDesc::default()).expect("lit draw");
                d.set_all([
                    ("frame", BindingArg::Shared(&camera)),
                    ("object", BindingArg::Value(object(i))),
                    ("shadow", BindingArg::TargetDepth(&shadow_map)),
                    ("shadow_sampler", BindingArg::Sampler(&shadow_sampler)),
                    ("albedo", BindingArg::Texture(&albedo)),
                    ("albedo_sampler", BindingArg::Sampler(&linear)),
                ])
                .expect("lit bindings");
                d
            })
            .collect();
        let post = gpu.effect("post", POST_EFFECT).expect("effect");
        post.set("post", value! { gain: [1.0, 1.0, 1.0, 1.0] })
            .expect("gain");
        post.set("scene", &scene).expect("scene");
        post.set("scene_sampler", &linear).expect("sampler");
        let compute = gpu
            .compute(
                &gpu.shader("fill", COMPUTE_SHADER).expect("compute shader"),
                vgpu::ComputeDesc::default(),
            )
            .expect("compute");
        let data = gpu
            .buffer(&BufferDesc {
                label: "data".into(),
                size: 256 * 4,
                usage: wgpu::BufferUsages::STORAGE,
            })
            .expect("data");
        compute
            .set("params", value! { scale: 2.0, count: 256u32 })
            .expect("params");
        compute.set("data", &data).expect("data");
        // The bundle's draws bind the camera too: pinned by the bundle (read live there), it
        // still gives the ordinary draws of each pass their own snapshot.
        let bundle = gpu
            .bundle("lit bundle", scene.signature(), |b| {
                for d in lit_draws.iter().take(10) {
                    b.draw(d)?;
                }
                Ok(())
            })
            .expect("bundle");
        Everything {
            gpu: gpu.clone(),
            camera,
            shadow_draws,
            lit_draws,
            post,
            compute,
            bundle,
            shadow_map,
            scene,
            out,
        }
    }

    fn frame(&self) -> FrameReport {
        let r = self
            .gpu
            .frame(|f| {
                f.compute_pass(|c| c.dispatch(&self.compute, 4, 1, 1))?;
                self.camera
                    .set(value! { view_projection: Mat4::from_scale(Vec3::new(0.5, 0.5, 1.0)) })?;
                f.pass(PassDesc::new(&self.shadow_map).label("shadow"), |p| {
                    for d in &self.shadow_draws {
                        p.draw(d)?;
                    }
                    Ok(())
                })?;
                self.camera
                    .set(value! { view_projection: Mat4::IDENTITY })?;
                f.pass(PassDesc::new(&self.scene).label("main"), |p| {
                    for d in &self.lit_draws[10..] {
                        p.draw(d)?;
                    }
                    p.execute(&self.bundle)
                })?;
                f.pass(PassDesc::new(&self.out).label("post"), |p| {
                    p.draw(&self.post)
                })
            })
            .expect("frame");
        self.gpu.wait_idle().expect("wait");
        r
    }
}

fn check_warm_frames(gpu: &Gpu) {
    let everything = Everything::new(gpu);
    for _ in 0..4 {
        everything.frame();
    }
    for i in 0..3 {
        let before = gpu.stats();
        let r = everything.frame();
        let around = gpu.stats() - before;
        assert_zero_work(&r.stats, &format!("warm frame {i} (FrameReport)"));
        assert_zero_work(&around, &format!("warm frame {i} (gpu.stats around it)"));
        assert_eq!(r.stats.submissions, 1);
        assert_eq!(r.stats.operations_recorded, 50 + 50 + 1 + 1);
    }
    assert!(gpu.take_uncaptured_errors().is_empty());
}

#[test]
fn g_warm_unchanged_frame_does_zero_extra_work_noop() {
    check_warm_frames(&Gpu::noop());
}

#[test]
fn g_warm_unchanged_frame_does_zero_extra_work_real_device() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    check_warm_frames(&gpu);
}
