//! Every handle carries the identity of the `Gpu` that created it; every entry point that takes a
//! handle refuses one of another `Gpu` with `VGPU-FOREIGN-GPU`, panics nowhere, and changes
//! nothing: the refused call's draw still renders what it rendered before. Tier 1 (noop) and the
//! env device (tier 2: pixels read back).

use vgpu::{ComputeDesc, DrawDesc, Gpu, SamplerDesc, TargetDesc, TextureDesc, VertexBuffer, value};
use vgpu_tests::{each_gpu, f32_bytes, fullscreen};

/// Another `Gpu` on the same backend as `gpu`.
fn other_gpu(gpu: &Gpu) -> Gpu {
    if gpu.is_noop() {
        Gpu::noop()
    } else {
        Gpu::from_env().expect("a second device")
    }
}

#[track_caller]
fn assert_foreign<T: std::fmt::Debug>(result: vgpu::Result<T>, kind: &str, label: &str) {
    let e = result.expect_err("a handle of another Gpu must be refused");
    assert_eq!(e.code(), "VGPU-FOREIGN-GPU", "{e}");
    let msg = e.to_string();
    assert!(msg.starts_with("VGPU-FOREIGN-GPU"), "{msg}");
    assert!(msg.contains(kind) && msg.contains(label), "{msg}");
    let f = e.as_foreign_gpu().expect("the foreign-handle error");
    assert_eq!((f.kind, f.label.as_str()), (kind, label));
}

/// A fullscreen draw whose color is `block.color` (binding `globals`) times a texture sample.
const TEXTURED: &str = "
struct Globals { color: vec4f }
@group(0) @binding(0) var<uniform> globals: Globals;
@group(0) @binding(1) var tex: texture_2d<f32>;
@group(0) @binding(2) var samp: sampler;
@fragment fn fs_main(@builtin(position) p: vec4f) -> @location(0) vec4f {
    return globals.color * textureSampleLevel(tex, samp, vec2f(0.5, 0.5), 0.0);
}";

fn white_texture(gpu: &Gpu, label: &str) -> vgpu::Texture {
    gpu.texture_with_data(
        &TextureDesc {
            label: label.into(),
            ..Default::default()
        },
        &[255, 255, 255, 255],
    )
    .unwrap()
}

/// Renders `draw` into a fresh 2×2 target; on a real device returns its pixel (0, 0).
fn render(gpu: &Gpu, draw: &vgpu::Draw) -> Option<[u8; 4]> {
    let target = gpu.target(2, 2).unwrap();
    gpu.frame(|f| f.pass(&target, |p| p.draw(draw))).unwrap();
    (!gpu.is_noop()).then(|| target.read_rgba8().unwrap().pixel(0, 0).unwrap())
}

#[test]
fn uniforms_textures_samplers_and_targets_of_another_gpu_are_refused_at_set() {
    each_gpu(|gpu| {
        let other = other_gpu(gpu);
        let draw = fullscreen(gpu, "mine", TEXTURED);
        let red = gpu
            .uniforms_labeled("red", value! { color: [1.0, 0.0, 0.0, 1.0] })
            .unwrap();
        let tex = white_texture(gpu, "white");
        let samp = gpu.sampler(&SamplerDesc::default()).unwrap();
        draw.set("globals", &red).unwrap();
        draw.set("tex", &tex).unwrap();
        draw.set("samp", &samp).unwrap();
        let before = render(gpu, &draw);
        if let Some(px) = before {
            assert_eq!(px, [255, 0, 0, 255]);
        }

        let green = other
            .uniforms_labeled("green", value! { color: [0.0, 1.0, 0.0, 1.0] })
            .unwrap();
        assert_foreign(draw.set("globals", &green), "uniforms block", "green");
        let their_tex = white_texture(&other, "their texture");
        assert_foreign(draw.set("tex", &their_tex), "texture", "their texture");
        // The message names the draw and the binding it was given to.
        let msg = draw.set("tex", &their_tex).unwrap_err().to_string();
        assert!(msg.contains("of \"mine\", whose binding `tex`"), "{msg}");
        let msg = draw
            .binding("tex")
            .unwrap()
            .set(&their_tex)
            .unwrap_err()
            .to_string();
        assert!(msg.contains("of \"mine\", whose binding `tex`"), "{msg}");
        let their_target = other.target(2, 2).unwrap();
        assert_foreign(draw.set("tex", &their_target), "target", "target");
        let their_samp = other.sampler(&SamplerDesc::nearest()).unwrap();
        assert_foreign(draw.set("samp", &their_samp), "sampler", "sampler");
        // set_all refuses before applying anything.
        assert_foreign(
            draw.set_all([
                ("globals", vgpu::BindingArg::Shared(&red)),
                ("tex", vgpu::BindingArg::Texture(&their_tex)),
            ]),
            "texture",
            "their texture",
        );
        // Writing another Gpu's texture through this one.
        assert_foreign(
            their_tex.write(gpu, &[0, 0, 0, 0]),
            "texture",
            "their texture",
        );

        // Nothing changed: the draw still shows its own block.
        let stats = gpu.stats();
        assert_eq!(render(gpu, &draw), before);
        assert_eq!((gpu.stats() - stats).bind_groups_created, 0);
    });
}

#[test]
fn shaders_buffers_and_targets_of_another_gpu_are_refused_at_creation_and_recording() {
    each_gpu(|gpu| {
        let other = other_gpu(gpu);
        let theirs = other
            .shader(
                "their shader",
                "@vertex fn vs_main() -> @builtin(position) vec4f { return vec4f(0.0); }
                 @fragment fn fs_main() -> @location(0) vec4f { return vec4f(1.0); }",
            )
            .unwrap();
        assert_foreign(
            gpu.draw(&theirs, DrawDesc::default()),
            "shader",
            "their shader",
        );
        let their_cs = other
            .shader(
                "their compute",
                "@group(0) @binding(0) var<storage, read_write> out: array<u32>;
                 @compute @workgroup_size(1) fn cs_main() { out[0] = 1u; }",
            )
            .unwrap();
        assert_foreign(
            gpu.compute(&their_cs, ComputeDesc::default()),
            "shader",
            "their compute",
        );

        // A vertex buffer of another Gpu in a draw's description.
        let vs = gpu
            .shader(
                "with vertices",
                "@vertex fn vs_main(@location(0) p: vec2f) -> @builtin(position) vec4f {
                     return vec4f(p, 0.0, 1.0);
                 }
                 @fragment fn fs_main() -> @location(0) vec4f { return vec4f(1.0); }",
            )
            .unwrap();
        let their_vertices = other
            .buffer_init(
                "their vertices",
                &f32_bytes(&[0.0; 6]),
                wgpu::BufferUsages::VERTEX,
            )
            .unwrap();
        assert_foreign(
            gpu.draw(
                &vs,
                DrawDesc {
                    vertex_buffers: vec![VertexBuffer {
                        buffer: their_vertices,
                        offset: 0,
                        stride: 8,
                        step_mode: wgpu::VertexStepMode::Vertex,
                        attributes: vec![wgpu::VertexAttribute {
                            format: wgpu::VertexFormat::Float32x2,
                            offset: 0,
                            shader_location: 0,
                        }],
                    }],
                    ..Default::default()
                },
            ),
            "buffer",
            "their vertices",
        );

        // A storage buffer and an indirect-arguments buffer of another Gpu.
        let cs = gpu
            .shader(
                "mine",
                "@group(0) @binding(0) var<storage, read_write> out: array<u32>;
                 @compute @workgroup_size(1) fn cs_main() { out[0] = 1u; }",
            )
            .unwrap();
        let k = gpu.compute(&cs, ComputeDesc::default()).unwrap();
        let their_storage = other
            .buffer(&vgpu::BufferDesc {
                label: "their storage".into(),
                size: 16,
                usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::INDIRECT,
            })
            .unwrap();
        assert_foreign(k.set("out", &their_storage), "buffer", "their storage");
        let mine = gpu
            .buffer(&vgpu::BufferDesc {
                label: "my storage".into(),
                size: 16,
                usage: wgpu::BufferUsages::STORAGE,
            })
            .unwrap();
        k.set("out", &mine).unwrap();
        assert_foreign(
            gpu.frame(|f| f.compute_pass(|c| c.dispatch_indirect(&k, &their_storage, 0))),
            "buffer",
            "their storage",
        );

        // A pass into another Gpu's target.
        let their_target = other
            .target_with(&TargetDesc::new(2, 2).label("their target"))
            .unwrap();
        let before = gpu.stats();
        assert_foreign(
            gpu.frame(|f| f.pass(&their_target, |_| Ok(()))),
            "target",
            "their target",
        );
        assert_eq!(
            (gpu.stats() - before).submissions,
            0,
            "the frame was cancelled"
        );
        // The Gpu still works.
        gpu.frame(|f| f.compute_pass(|c| c.dispatch(&k, 1, 1, 1)))
            .unwrap();
        if !gpu.is_noop() {
            let words: Vec<u32> = bytemuck::pod_collect_to_vec(&mine.read_blocking().unwrap());
            assert_eq!(words[0], 1);
        }
    });
}

#[test]
fn bundles_of_another_gpu_are_refused_at_execute() {
    each_gpu(|gpu| {
        let other = other_gpu(gpu);
        let their_draw = fullscreen(
            &other,
            "their draw",
            "@fragment fn fs_main() -> @location(0) vec4f { return vec4f(0.0, 1.0, 0.0, 1.0); }",
        );
        let their_target = other.target(2, 2).unwrap();
        let bundle = other
            .bundle("their bundle", their_target.signature(), |b| {
                b.draw(&their_draw)
            })
            .unwrap();
        let mine = fullscreen(
            gpu,
            "mine",
            "@fragment fn fs_main() -> @location(0) vec4f { return vec4f(0.0, 0.0, 1.0, 1.0); }",
        );
        let target = gpu.target(2, 2).unwrap();
        assert_foreign(
            gpu.frame(|f| f.pass(&target, |p| p.execute(&bundle))),
            "bundle",
            "their bundle",
        );
        assert_foreign(
            gpu.bundle("mine", target.signature(), |b| b.draw(&their_draw)),
            "draw",
            "their draw",
        );
        // The Gpu still renders.
        gpu.frame(|f| f.pass(&target, |p| p.draw(&mine))).unwrap();
        if !gpu.is_noop() {
            assert_eq!(
                target.read_rgba8().unwrap().pixel(1, 1),
                Some([0, 0, 255, 255])
            );
        }
    });
}
