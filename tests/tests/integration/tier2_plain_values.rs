//! Typed values whose memory is their WGSL layout (`Uniform::PLAIN`): vgpu compares and copies
//! them as they lie, without writing them into a scratch copy first. Tier 1 (noop): which types
//! are plain, and the counters of plain sets (unchanged sets counted, nothing uploaded, no
//! allocation). Tier 2 (real device): the GPU reads the bytes set through every path (a typed
//! binding, a batch, `draw.set`, a shared block, a block set between two passes), read back from
//! target pixels.

#![allow(clippy::unwrap_used, reason = "an unwrap in a test is an assertion")]

use vgpu::{Gpu, RgbaImage, Uniform};
use vgpu_tests::{assert_all_pixels, fullscreen};

use crate::alloc_count::counted;

/// `tint.color * tint.gain.x + frame.offset`, in units of 1/255.
const TINT_FS: &str = "
struct Tint { color: vec4f, gain: vec4f }
@group(0) @binding(0) var<uniform> tint: Tint;
struct Frame { offset: vec4f }
@group(1) @binding(0) var<uniform> frame: Frame;
@fragment fn fs_main() -> @location(0) vec4f {
    return (tint.color * tint.gain.x + frame.offset) / 255.0;
}
";

#[derive(Clone, Copy, Uniform)]
struct Tint {
    color: [f32; 4],
    gain: [f32; 4],
}

#[derive(Clone, Copy, Uniform)]
struct Frame {
    offset: [f32; 4],
}

/// Plain: 12 + 4 + 64 bytes, each at its WGSL offset (`repr(C)`: Rust may otherwise reorder
/// fields, which makes a type not plain, never wrong).
#[derive(Uniform)]
#[repr(C)]
struct VecThenScalar {
    direction: [f32; 3],
    strength: f32,
    world: [[f32; 4]; 4],
}

/// Not plain: WGSL puts `color` at 16, Rust at 12.
#[derive(Uniform)]
#[repr(C)]
struct VecThenVec {
    position: [f32; 3],
    color: [f32; 4],
}

/// Not plain: WGSL rounds the size to 16 (a `vec3f` member), Rust's is 12.
#[derive(Uniform)]
struct OnlyVec3 {
    normal: [f32; 3],
}

/// Plain when its members are.
#[derive(Uniform)]
#[repr(C)]
struct Nested {
    tints: [Tint; 2],
    frame: Frame,
}

#[test]
fn plainness_follows_the_memory_layout() {
    assert!(f32::PLAIN.is_plain() && u32::PLAIN.is_plain() && i32::PLAIN.is_plain());
    assert!(<[f32; 4]>::PLAIN.is_plain(), "vec4f");
    assert!(<[f32; 3]>::PLAIN.is_plain(), "vec3f: 12 bytes in both");
    assert!(<[[f32; 4]; 4]>::PLAIN.is_plain(), "mat4x4f");
    assert!(
        !<[[f32; 3]; 3]>::PLAIN.is_plain(),
        "mat3x3f: WGSL pads each column to 16 bytes"
    );
    assert!(
        !<[[f32; 3]; 2]>::PLAIN.is_plain(),
        "array<vec3f, 2>: stride 16"
    );
    assert!(Tint::PLAIN.is_plain() && Frame::PLAIN.is_plain());
    assert!(VecThenScalar::PLAIN.is_plain());
    assert!(!VecThenVec::PLAIN.is_plain());
    assert!(!OnlyVec3::PLAIN.is_plain());
    assert!(Nested::PLAIN.is_plain());
    assert_eq!(Nested::SIZE, 80);
    // glam and mint: packed vectors and the matrices whose columns WGSL does not pad.
    assert!(glam::Mat4::PLAIN.is_plain() && glam::Mat2::PLAIN.is_plain());
    assert!(glam::Vec4::PLAIN.is_plain() && glam::Vec3::PLAIN.is_plain());
    assert!(glam::Quat::PLAIN.is_plain() && glam::UVec2::PLAIN.is_plain());
    assert!(
        !glam::Vec3A::PLAIN.is_plain(),
        "16 bytes in memory, 12 in WGSL"
    );
    assert!(!glam::Mat3::PLAIN.is_plain() && !glam::Mat3A::PLAIN.is_plain());
    assert!(mint::ColumnMatrix4::<f32>::PLAIN.is_plain());
    assert!(mint::Vector3::<f32>::PLAIN.is_plain() && mint::Quaternion::<f32>::PLAIN.is_plain());
    assert!(!mint::ColumnMatrix3::<f32>::PLAIN.is_plain());
    #[derive(Uniform)]
    #[repr(C)]
    struct GlamPlain {
        world: glam::Mat4,
        color: glam::Vec4,
        direction: glam::Vec3,
        strength: f32,
    }
    assert!(GlamPlain::PLAIN.is_plain());
    let g = GlamPlain {
        world: glam::Mat4::from_cols_array(&std::array::from_fn(|i| i as f32)),
        color: glam::Vec4::new(1.0, 2.0, 3.0, 4.0),
        direction: glam::Vec3::new(5.0, 6.0, 7.0),
        strength: 8.0,
    };
    assert_eq!(memory(&g), written(&g), "glam");
    let m: mint::ColumnMatrix4<f32> = g.world.to_cols_array_2d().into();
    assert_eq!(memory(&m), written(&m), "mint");
    // A plain type's memory is what its writer writes.
    let t = Tint {
        color: [1.0, 2.0, 3.0, 4.0],
        gain: [5.0, 6.0, 7.0, 8.0],
    };
    assert_eq!(memory(&t), written(&t));
    let floats: Vec<f32> = written(&t)
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    assert_eq!(floats, [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]);
}

/// The bytes of a plain value as they lie in memory.
#[expect(
    unsafe_code,
    reason = "reads a plain value's bytes to compare them with what vgpu wrote"
)]
fn memory<T: Uniform>(value: &T) -> Vec<u8> {
    assert!(T::PLAIN.is_plain() && size_of::<T>() == T::SIZE);
    // SAFETY: a plain type has no padding (every byte initialized); the slice covers the value.
    unsafe { std::slice::from_raw_parts((value as *const T).cast::<u8>(), T::SIZE) }.to_vec()
}

/// The bytes `value`'s writer writes.
fn written<T: Uniform>(value: &T) -> Vec<u8> {
    let mut bytes = vec![0xAAu8; T::SIZE];
    value.write_wgsl(&mut bytes);
    bytes
}

fn tint(k: f32) -> Tint {
    Tint {
        color: [10.0 * k, 20.0 * k, 30.0, 40.0],
        gain: [2.0, 0.0, 0.0, 0.0],
    }
}

fn expected(t: &Tint, f: &Frame) -> [u8; 4] {
    [0, 1, 2, 3].map(|i| (t.color[i] * t.gain[0] + f.offset[i]) as u8)
}

fn render(gpu: &Gpu, draw: &vgpu::Draw, target: &vgpu::Target) -> (RgbaImage, vgpu::StatsSnapshot) {
    let before = gpu.stats();
    gpu.frame(|f| f.pass(target, |p| p.draw(draw))).unwrap();
    (target.read_rgba8().unwrap(), gpu.stats() - before)
}

/// Counters of plain sets (any device): unchanged ones counted, nothing uploaded, no allocation;
/// a change uploads the value's 32 bytes.
#[test]
fn plain_sets_count_unchanged_values_and_upload_only_changes() {
    let gpu = Gpu::noop();
    let target = gpu.target(4, 4).unwrap();
    let draw = fullscreen(&gpu, "tint", TINT_FS);
    let frame = gpu.uniforms(&Frame { offset: [0.0; 4] }).unwrap();
    draw.set("frame", &frame).unwrap();
    let handle = draw.typed_binding::<Tint>("tint").unwrap();
    let mut t = tint(1.0);
    handle.set(&t).unwrap();
    render(&gpu, &draw, &target);
    // The second set keeps a CPU copy of the bytes (one allocation, once).
    t.gain[0] = 3.0;
    handle.set(&t).unwrap();
    render(&gpu, &draw, &target);
    let ((), allocations) = counted(|| {
        for _ in 0..10 {
            handle.set(&t).unwrap();
            gpu.batch().set_typed(&handle, &t).unwrap();
            draw.set("tint", &t).unwrap();
        }
    });
    assert_eq!(allocations, 0, "unchanged plain sets allocate");
    let (_, d) = render(&gpu, &draw, &target);
    assert_eq!((d.values_set_unchanged, d.bytes_uploaded), (30, 0), "{d:?}");
    let ((), allocations) = counted(|| {
        let mut batch = gpu.batch();
        for k in 0..100 {
            t.color[3] = k as f32;
            batch.set_typed(&handle, &t).unwrap();
        }
    });
    assert_eq!(allocations, 0, "changed plain sets allocate");
    let (_, d) = render(&gpu, &draw, &target);
    assert_eq!((d.write_calls, d.bytes_uploaded), (1, 32), "{d:?}");
}

#[test]
fn plain_values_reach_the_shader_through_every_set_path() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    let target = gpu.target(4, 4).unwrap();
    let draw = fullscreen(&gpu, "tint", TINT_FS);
    let mut f = Frame {
        offset: [1.0, 2.0, 3.0, 4.0],
    };
    let frame = gpu.uniforms(&f).unwrap();
    draw.set("frame", &frame).unwrap();
    let handle = draw.typed_binding::<Tint>("tint").unwrap();

    let t = tint(1.0);
    handle.set(&t).unwrap();
    let (image, _) = render(&gpu, &draw, &target);
    assert_eq!(expected(&t, &f), [21, 42, 63, 84]);
    assert_all_pixels(&image, expected(&t, &f), "first set (typed binding)");

    // The same value again: counted unchanged, nothing uploaded, same pixels.
    handle.set(&t).unwrap();
    gpu.batch().set_typed(&handle, &t).unwrap();
    let (image, d) = render(&gpu, &draw, &target);
    assert_eq!((d.values_set_unchanged, d.bytes_uploaded), (2, 0), "{d:?}");
    assert_all_pixels(&image, expected(&t, &f), "unchanged");

    // Each path changes the value in turn.
    let t = tint(2.0);
    handle.set(&t).unwrap();
    assert_all_pixels(
        &render(&gpu, &draw, &target).0,
        expected(&t, &f),
        "typed binding",
    );
    let t = tint(3.0);
    gpu.batch().set_typed(&handle, &t).unwrap();
    assert_all_pixels(&render(&gpu, &draw, &target).0, expected(&t, &f), "batch");
    let t = tint(4.0);
    draw.set("tint", &t).unwrap();
    assert_all_pixels(
        &render(&gpu, &draw, &target).0,
        expected(&t, &f),
        "draw.set",
    );
    f.offset = [5.0, 6.0, 7.0, 8.0];
    frame.set(&f).unwrap();
    assert_all_pixels(
        &render(&gpu, &draw, &target).0,
        expected(&t, &f),
        "shared block",
    );

    // A block set between two passes of one frame: each pass reads its own value.
    let second = gpu.target(4, 4).unwrap();
    let f2 = Frame {
        offset: [9.0, 10.0, 11.0, 12.0],
    };
    gpu.frame(|fr| {
        fr.pass(&target, |p| p.draw(&draw))?;
        frame.set(&f2)?;
        fr.pass(&second, |p| p.draw(&draw))
    })
    .unwrap();
    assert_all_pixels(
        &target.read_rgba8().unwrap(),
        expected(&t, &f),
        "first pass",
    );
    assert_all_pixels(
        &second.read_rgba8().unwrap(),
        expected(&t, &f2),
        "second pass",
    );
    let errors = gpu.take_uncaptured_errors();
    assert!(errors.is_empty(), "uncaptured wgpu errors: {errors:?}");
}
