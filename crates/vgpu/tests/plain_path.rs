//! The plain typed set path on the noop device: values whose memory is their WGSL bytes
//! (`Uniform::PLAIN`) are compared and copied as they lie, read in place through a shared
//! reference. Small, so that it runs under miri (`benches/miri-plain-path.sh`), which checks that
//! no set reads an uninitialized byte or one another reference may change; the counters check
//! that each set took the path it should.

#![allow(clippy::unwrap_used, reason = "an unwrap in a test is an assertion")]

use vgpu::{DrawDesc, Gpu, Uniform};

const SHADER: &str = "
struct Tint { color: vec4f, gain: vec4f }
@group(0) @binding(0) var<uniform> tint: Tint;
struct Light { position: vec3f, color: vec4f }
@group(1) @binding(0) var<uniform> light: Light;
@vertex fn vs_main(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
    return vec4f(f32(i % 2u) * 4.0 - 1.0, f32(i / 2u) * 4.0 - 1.0, 0.0, 1.0);
}
@fragment fn fs_main() -> @location(0) vec4f {
    return tint.color * tint.gain.x + light.color + vec4f(light.position, 0.0);
}
";

/// Plain: two `vec4f`s, 32 bytes in memory and in WGSL.
#[derive(Clone, Copy, Uniform)]
#[repr(C)]
struct Tint {
    color: [f32; 4],
    gain: [f32; 4],
}

/// Not plain: WGSL puts `color` at 16, Rust at 12 (written through its writer instead).
#[derive(Clone, Copy, Uniform)]
#[repr(C)]
struct Light {
    position: [f32; 3],
    color: [f32; 4],
}

fn draw(gpu: &Gpu) -> vgpu::Draw {
    let shader = gpu.shader("plain", SHADER).unwrap();
    let desc = DrawDesc {
        label: "plain".to_owned(),
        ..Default::default()
    };
    gpu.draw(&shader, desc).unwrap()
}

fn render(gpu: &Gpu, draw: &vgpu::Draw, target: &vgpu::Target) -> vgpu::StatsSnapshot {
    let before = gpu.stats();
    gpu.frame(|f| f.pass(target, |p| p.draw(draw))).unwrap();
    gpu.stats() - before
}

#[test]
fn plain_sets_read_values_in_place_and_upload_only_changes() {
    assert!(Tint::PLAIN.is_plain() && !Light::PLAIN.is_plain());
    let gpu = Gpu::noop();
    let target = gpu.target(4, 4).unwrap();
    let draw = draw(&gpu);
    let light = draw.typed_binding::<Light>("light").unwrap();
    light
        .set(&Light {
            position: [1.0, 2.0, 3.0],
            color: [4.0; 4],
        })
        .unwrap();
    let tint = draw.typed_binding::<Tint>("tint").unwrap();
    let mut t = Tint {
        color: [1.0, 2.0, 3.0, 4.0],
        gain: [5.0, 6.0, 7.0, 8.0],
    };
    // The first set takes the full path; the second, with other bytes, the plain one: its
    // bytes are read in place, compared with the kept ones and copied.
    tint.set(&t).unwrap();
    render(&gpu, &draw, &target);
    t.gain[0] = 9.0;
    tint.set(&t).unwrap();
    let d = render(&gpu, &draw, &target);
    assert_eq!((d.values_set_unchanged, d.bytes_uploaded), (0, 32), "{d:?}");
    // The same bytes through each path: compared in place, counted unchanged, not uploaded.
    tint.set(&t).unwrap();
    gpu.batch().set_typed(&tint, &t).unwrap();
    draw.set("tint", &t).unwrap();
    let d = render(&gpu, &draw, &target);
    assert_eq!((d.values_set_unchanged, d.bytes_uploaded), (3, 0), "{d:?}");
    // Other bytes through a batch and `draw.set`: the last one is uploaded, once.
    t.color[3] = 10.0;
    gpu.batch().set_typed(&tint, &t).unwrap();
    t.color[3] = 11.0;
    draw.set("tint", &t).unwrap();
    let d = render(&gpu, &draw, &target);
    assert_eq!((d.values_set_unchanged, d.bytes_uploaded), (0, 32), "{d:?}");
    // A block made from a plain value, set again with other bytes.
    let block = gpu.uniforms(&t).unwrap();
    t.gain[1] = 12.0;
    block.set(&t).unwrap();
    block.set(&t).unwrap();
}
