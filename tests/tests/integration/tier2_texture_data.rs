//! Texture data in and out (issue 32, item 2): writes per mip, layer and region with the copy
//! layout done by vgpu, and `Texture::read*` of every copyable format into `TextureData` (the
//! format's own components). Tier 2 (vulkan and gl: bytes written, read back): a round trip of
//! every listed format at an odd width (13×7: rows padded for the copy and stripped again), a
//! 2-layer array, a cube, a 3D texture, a 2-mip chain, a region; depth through a render pass.
//! Tier 1 (noop, then the env device, where the texture is read back intact): every refusal with
//! its code.

use vgpu::{Gpu, Texel, TextureData, TextureDesc, TextureRegion};
use wgpu::TextureFormat as F;

/// The formats of the round trip: every color format written and read by a plain copy, and the
/// copyable depth / stencil formats.
const FORMATS: &[F] = &[
    F::R8Unorm,
    F::R8Snorm,
    F::R8Uint,
    F::R8Sint,
    F::Rg8Unorm,
    F::Rg8Snorm,
    F::Rg8Uint,
    F::Rg8Sint,
    F::Rgba8Unorm,
    F::Rgba8UnormSrgb,
    F::Rgba8Snorm,
    F::Rgba8Uint,
    F::Rgba8Sint,
    F::Bgra8Unorm,
    F::Bgra8UnormSrgb,
    F::R16Uint,
    F::R16Sint,
    F::R16Float,
    F::Rg16Uint,
    F::Rg16Sint,
    F::Rg16Float,
    F::Rgba16Uint,
    F::Rgba16Sint,
    F::Rgba16Float,
    F::R32Uint,
    F::R32Sint,
    F::R32Float,
    F::Rg32Uint,
    F::Rg32Sint,
    F::Rg32Float,
    F::Rgba32Uint,
    F::Rgba32Sint,
    F::Rgba32Float,
    F::Rgb10a2Unorm,
    F::Rgb10a2Uint,
    F::Rg11b10Ufloat,
    F::Rgb9e5Ufloat,
    F::Depth16Unorm,
    F::Stencil8,
];

/// A xorshift byte stream (deterministic test data).
fn noise(seed: u32, len: usize) -> Vec<u8> {
    let mut s = seed.wrapping_mul(2_654_435_761) | 1;
    (0..len)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 17;
            s ^= s << 5;
            (s >> 8) as u8
        })
        .collect()
}

/// `texels` texels of `format` with distinct values that every backend copies bit for bit:
/// finite floats (no NaN payloads a driver might canonicalize), any bits elsewhere.
fn pattern(format: F, texels: usize, seed: u32) -> Vec<u8> {
    let size = format.block_copy_size(None).expect("copyable") as usize;
    let n = texels * size;
    let i = |k: usize| (k as u32).wrapping_add(seed);
    match format {
        F::R16Float | F::Rg16Float | F::Rgba16Float => (0..n / 2)
            .flat_map(|k| (0x3c00u16 + (i(k) * 37 % 0x3ff) as u16).to_le_bytes())
            .collect(),
        F::R32Float | F::Rg32Float | F::Rgba32Float => (0..n / 4)
            .flat_map(|k| (i(k) as f32 * 0.5 - 7.0).to_le_bytes())
            .collect(),
        F::Rg11b10Ufloat => (0..texels)
            .flat_map(|k| {
                let f11 = |v: u32| ((v % 30) << 6) | (v * 7 % 64);
                let f10 = |v: u32| ((v % 30) << 5) | (v * 5 % 32);
                (f11(i(k)) | (f11(i(k) + 3) << 11) | (f10(i(k) + 9) << 22)).to_le_bytes()
            })
            .collect(),
        _ => noise(seed + n as u32, n),
    }
}

fn desc(label: &str, format: F, width: u32, height: u32) -> TextureDesc {
    TextureDesc {
        label: label.to_owned(),
        width,
        height,
        format,
        ..Default::default()
    }
}

/// Whether `gpu` runs on the GL backend (where some formats have no copy).
fn is_gl(gpu: &Gpu) -> bool {
    gpu.adapter_info().backend == wgpu::Backend::Gl
}

/// On GL, `result` must be the typed refusal `VGPU-TEXTURE-FORMAT` (printed as a skip of
/// `what`) and this returns `None`; elsewhere the value.
#[track_caller]
fn unless_gl<T: std::fmt::Debug>(gpu: &Gpu, what: &str, result: vgpu::Result<T>) -> Option<T> {
    if !is_gl(gpu) {
        return Some(result.unwrap());
    }
    let e = result.expect_err("GL has no copy of this");
    assert_eq!(e.code(), "VGPU-TEXTURE-FORMAT", "{e}");
    vgpu_tests::skip("format-copy", &format!("GL: {what}: {e}"));
    None
}

/// Writes `data` into a fresh 13×7 texture of `format` and reads it back.
fn round_trip(gpu: &Gpu, format: F, data: &[u8]) -> vgpu::Result<TextureData> {
    let texture = gpu.texture(&desc(&format!("{format:?}"), format, 13, 7))?;
    texture.write_mip(gpu, 0, data)?;
    texture.read(gpu)
}

/// Every listed format: written at 13×7 (rows of 13·size bytes, padded to 256 for the copy back),
/// read back byte for byte. On GL a format the backend cannot copy must come back as a typed
/// error, which the test prints as a skip; on vulkan every format must round-trip.
#[test]
fn every_format_round_trips_at_an_odd_width() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    let mut gaps = Vec::new();
    for &format in FORMATS {
        let data = pattern(format, 13 * 7, 1);
        match round_trip(&gpu, format, &data) {
            Ok(read) => {
                assert_eq!(read.format(), format);
                assert_eq!(
                    (read.size().width, read.size().height),
                    (13, 7),
                    "{format:?}"
                );
                assert!(
                    read.bytes() == data,
                    "{format:?}: bytes differ after a round trip"
                );
            }
            Err(e) => gaps.push(format!("{format:?}: {} ({e})", e.code())),
        }
    }
    assert!(
        gpu.take_uncaptured_errors().is_empty(),
        "refusals are errors, never uncaptured"
    );
    if is_gl(&gpu) {
        for gap in &gaps {
            assert!(
                gap.contains("VGPU-TEXTURE-FORMAT"),
                "GL gaps are typed refusals: {gap}"
            );
            vgpu_tests::skip("format-copy", &format!("GL cannot copy {gap}"));
        }
        assert!(
            gaps.len() <= 6,
            "GL refuses only snorm, Rgb9e5, depth and stencil: {gaps:#?}"
        );
    } else {
        assert!(
            gaps.is_empty(),
            "formats that failed to round-trip: {gaps:#?}"
        );
    }
}

/// The accessors give the format's own components: one `f32` per `R8Unorm` texel, snorm to
/// -1..=1, integers widened, halfs raw and as `f32`, `Bgra8` red first, `Rgb10a2Unorm` unpacked,
/// `Depth16Unorm` normalized; `to_rgba8` fills missing components as WebGPU does.
#[test]
fn accessors_decode_the_formats_own_components() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    let try_read = |format: F, bytes: &[u8]| -> vgpu::Result<TextureData> {
        let texels = bytes.len() / format.block_copy_size(None).unwrap() as usize;
        let texture = gpu.texture(&desc("accessors", format, texels as u32, 1))?;
        texture.write_mip(&gpu, 0, bytes)?;
        texture.read(&gpu)
    };
    let read = |format: F, bytes: &[u8]| try_read(format, bytes).unwrap();
    let r8 = read(F::R8Unorm, &[0, 51, 255]);
    assert_eq!(r8.components(), 1);
    assert_eq!(r8.f32s().unwrap(), [0.0, 0.2, 1.0]);
    assert_eq!(r8.texel(1, 0, 0), Some(Texel::Float(vec![0.2])));
    assert_eq!(r8.to_rgba8().unwrap().pixel(1, 0), Some([51, 0, 0, 255]));
    if let Some(snorm) = unless_gl(&gpu, "R8Snorm", try_read(F::R8Snorm, &[0x81, 0x80, 127, 0])) {
        assert_eq!(snorm.f32s().unwrap(), [-1.0, -1.0, 1.0, 0.0]);
    }
    let rg8u = read(F::Rg8Uint, &[1, 200, 3, 4]);
    assert_eq!(rg8u.u32s().unwrap(), [1, 200, 3, 4]);
    assert_eq!(rg8u.texel(0, 0, 0), Some(Texel::Uint(vec![1, 200])));
    let rg8 = read(F::Rg8Unorm, &[255, 128]);
    assert_eq!(
        rg8.to_rgba8().unwrap().pixel(0, 0),
        Some([255, 128, 0, 255])
    );
    let r16i = read(F::R16Sint, &(-300i16).to_le_bytes());
    assert_eq!(r16i.i32s().unwrap(), [-300]);
    let half = read(F::R16Float, &[0x00, 0x3c, 0x00, 0xc0]);
    assert_eq!(half.halfs().unwrap(), [0x3c00, 0xc000]);
    assert_eq!(half.f32s().unwrap(), [1.0, -2.0]);
    let bgra = read(F::Bgra8Unorm, &[10, 20, 30, 40]);
    assert_eq!(bgra.bytes(), [10, 20, 30, 40]);
    assert_eq!(bgra.to_rgba8().unwrap().data, [30, 20, 10, 40]);
    let a2 = read(F::Rgb10a2Unorm, &(1023u32 | (3 << 30)).to_le_bytes());
    assert_eq!(a2.f32s().unwrap(), [1.0, 0.0, 0.0, 1.0]);
    if let Some(d16) = unless_gl(&gpu, "Depth16Unorm", try_read(F::Depth16Unorm, &[0xff; 2])) {
        assert_eq!(d16.aspect(), wgpu::TextureAspect::DepthOnly);
        assert_eq!(d16.f32s().unwrap(), [1.0]);
    }
}

/// Depth32Float cannot be written through the queue (a typed refusal); a render pass clears it
/// to 0.25 and `read` returns that depth, one `f32` per texel (aspect `DepthOnly`).
#[test]
fn depth32float_rendered_reads_back() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    let texture = gpu
        .texture(&TextureDesc {
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
            ..desc("depth", F::Depth32Float, 13, 7)
        })
        .unwrap();
    let e = texture.write_mip(&gpu, 0, &[0; 13 * 7 * 4]).unwrap_err();
    assert_eq!(e.code(), "VGPU-TEXTURE-FORMAT", "{e}");
    let view = texture.raw().create_view(&Default::default());
    let mut encoder = gpu.device().create_command_encoder(&Default::default());
    drop(encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
        depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
            view: &view,
            depth_ops: Some(wgpu::Operations {
                load: wgpu::LoadOp::Clear(0.25),
                store: wgpu::StoreOp::Store,
            }),
            stencil_ops: None,
        }),
        ..Default::default()
    }));
    gpu.queue().submit([encoder.finish()]);
    if let Some(read) = unless_gl(&gpu, "Depth32Float", texture.read(&gpu)) {
        assert_eq!(read.aspect(), wgpu::TextureAspect::DepthOnly);
        assert_eq!(read.f32s().unwrap(), vec![0.25; 13 * 7]);
    }
    assert!(gpu.take_uncaptured_errors().is_empty());
}

/// A 2-layer array written layer by layer reads back layer after layer; `read_layer` gives one.
#[test]
fn array_layers_write_and_read_one_by_one() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    let texture = gpu
        .texture(&TextureDesc {
            depth_or_array_layers: 2,
            ..desc("array", F::Rgba8Unorm, 13, 7)
        })
        .unwrap();
    let layers = [
        pattern(F::Rgba8Unorm, 91, 10),
        pattern(F::Rgba8Unorm, 91, 20),
    ];
    texture.write_layer(&gpu, 1, 0, &layers[1]).unwrap();
    texture.write_layer(&gpu, 0, 0, &layers[0]).unwrap();
    let all = texture.read(&gpu).unwrap();
    assert_eq!(all.size().depth_or_array_layers, 2);
    assert!(all.bytes() == layers.concat(), "layer after layer");
    let one = texture.read_layer(&gpu, 1, 0).unwrap();
    assert!(one.bytes() == layers[1], "layer 1 alone");
    let rgba = all.to_rgba8().unwrap();
    assert_eq!(
        (rgba.width, rgba.height),
        (13, 14),
        "layers one under another"
    );
}

/// Arrays of 3, 4 and 6 layers (R32Float and Rgba8Unorm, odd width 13×7; 6 layers also at 7×5
/// and as a square 5×5 `TextureDesc::array`) written with distinct data per layer: `read`
/// returns every layer after the other and `read_layer` each one alone, also when all layers
/// were written at once by `texture_with_data`, on vulkan and gl. GL
/// makes any square texture of 6·n layers a cube map whatever its view dimension, and cannot
/// copy a cube map to a buffer: there the square array's reads are the typed refusal
/// `VGPU-TEXTURE-FORMAT` (checked, printed as a skip).
#[test]
fn array_layers_each_read_back_on_every_backend() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    let cases = [
        (F::R32Float, 13, 7, 3),
        (F::Rgba8Unorm, 13, 7, 3),
        (F::R32Float, 13, 7, 4),
        (F::Rgba8Unorm, 13, 7, 4),
        (F::Rgba8Unorm, 7, 5, 6),
        (F::R32Float, 7, 5, 12),
        (F::Rgba8Unorm, 5, 5, 6),
        (F::R32Float, 5, 5, 12),
    ];
    for (format, width, height, count) in cases {
        let what = format!("{format:?} {width}x{height}x{count}");
        let array = TextureDesc::array(width, height, count, format).label(&what);
        let texture = gpu.texture(&array).unwrap();
        let texels = (width * height) as usize;
        let layers: Vec<Vec<u8>> = (0..count)
            .map(|l| pattern(format, texels, 1000 * (l + 1)))
            .collect();
        for (l, layer) in layers.iter().enumerate().rev() {
            texture.write_layer(&gpu, l as u32, 0, layer).unwrap();
        }
        let cube_on_gl = is_gl(&gpu) && width == height && count % 6 == 0;
        if cube_on_gl {
            unless_gl(
                &gpu,
                &format!("{what}: square 6·n layers"),
                texture.read(&gpu),
            );
            let refused = texture
                .read_layer(&gpu, 1, 0)
                .expect_err("a cube map on GL");
            assert_eq!(refused.code(), "VGPU-TEXTURE-FORMAT", "{refused}");
            continue;
        }
        let all = texture.read(&gpu).unwrap();
        assert_eq!(all.size().depth_or_array_layers, count, "{what}");
        assert!(all.bytes() == layers.concat(), "{what}: every layer");
        let whole = gpu.texture_with_data(&array, &layers.concat()).unwrap();
        assert!(
            whole.read(&gpu).unwrap().bytes() == all.bytes(),
            "{what}: written at once"
        );
        for (l, layer) in layers.iter().enumerate() {
            let one = texture.read_layer(&gpu, l as u32, 0).unwrap();
            assert_eq!(one.size().depth_or_array_layers, 1, "{what}");
            assert!(one.bytes() == *layer, "{what}: layer {l} alone");
            let again = whole.read_layer(&gpu, l as u32, 0).unwrap();
            assert!(
                again.bytes() == *layer,
                "{what}: layer {l} of the one write"
            );
        }
    }
    // Layers of mip 1 (6×3) of a 3-layer array: read alone and all together.
    let mipped = gpu
        .texture(&TextureDesc::array(13, 7, 3, F::R32Float).mips(2))
        .unwrap();
    let small: Vec<Vec<u8>> = (0..3)
        .map(|l| pattern(F::R32Float, 18, 77 * (l + 1)))
        .collect();
    for (l, layer) in small.iter().enumerate() {
        mipped.write_layer(&gpu, l as u32, 1, layer).unwrap();
    }
    assert!(
        mipped.read_mip(&gpu, 1).unwrap().bytes() == small.concat(),
        "mip 1"
    );
    let layer2 = mipped.read_layer(&gpu, 2, 1).unwrap();
    assert!(layer2.bytes() == small[2], "mip 1 layer 2");
    assert!(gpu.take_uncaptured_errors().is_empty());
}

/// A cube made by `texture_with_data` from six faces of one color each: each face reads back
/// its color, alone and in the whole read.
#[test]
fn cube_faces_come_from_texture_with_data() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    let face = |f: u8| [40 * f, 255 - 30 * f, f, 255];
    let data: Vec<u8> = (0..6).flat_map(|f| face(f).repeat(5 * 5)).collect();
    let cube = gpu
        .texture_with_data(
            &TextureDesc {
                depth_or_array_layers: 6,
                view_dimension: Some(wgpu::TextureViewDimension::Cube),
                ..desc("cube", F::Rgba8Unorm, 5, 5)
            },
            &data,
        )
        .unwrap();
    let Some(all) = unless_gl(&gpu, "a cube map", cube.read(&gpu)) else {
        return;
    };
    assert!(all.bytes() == data);
    for f in 0..6u8 {
        let read = cube.read_layer(&gpu, u32::from(f), 0).unwrap();
        let image = read.to_rgba8().unwrap();
        vgpu_tests::assert_all_pixels(&image, face(f), &format!("face {f}"));
    }
}

/// A 2-mip chain (13×7 and 6×3): `texture_with_data` takes both mips (mip after mip),
/// `read_mip` returns each at its size, `write_mip(1)` leaves mip 0 alone; a 3D texture's slice
/// reads alone.
#[test]
fn mips_and_slices_write_and_read_apart() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    let (mip0, mip1) = (pattern(F::Rg16Uint, 91, 3), pattern(F::Rg16Uint, 18, 4));
    let texture = gpu
        .texture_with_data(
            &TextureDesc {
                mip_level_count: 2,
                ..desc("mips", F::Rg16Uint, 13, 7)
            },
            &[mip0.clone(), mip1.clone()].concat(),
        )
        .unwrap();
    let read1 = texture.read_mip(&gpu, 1).unwrap();
    assert_eq!((read1.size().width, read1.size().height), (6, 3));
    assert!(read1.bytes() == mip1, "mip 1");
    assert!(texture.read_mip(&gpu, 0).unwrap().bytes() == mip0, "mip 0");
    let new1 = pattern(F::Rg16Uint, 18, 5);
    texture.write_mip(&gpu, 1, &new1).unwrap();
    assert!(texture.read_mip(&gpu, 1).unwrap().bytes() == new1);
    assert!(
        texture.read_mip(&gpu, 0).unwrap().bytes() == mip0,
        "mip 0 untouched"
    );

    let slices = pattern(F::R32Uint, 5 * 4 * 3, 6);
    let volume = gpu
        .texture_with_data(
            &TextureDesc {
                dimension: wgpu::TextureDimension::D3,
                depth_or_array_layers: 3,
                ..desc("volume", F::R32Uint, 5, 4)
            },
            &slices,
        )
        .unwrap();
    let slice2 = volume.read_layer(&gpu, 2, 0).unwrap();
    assert!(slice2.bytes() == &slices[2 * 80..], "3D slice 2");
}

/// A region written at (3, 2) of 5×4 changes exactly those texels; `read_region` returns them.
#[test]
fn a_region_writes_and_reads_only_its_box() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    let texture = gpu.texture(&desc("region", F::R8Uint, 13, 7)).unwrap();
    let region = TextureRegion {
        mip: 0,
        origin: wgpu::Origin3d { x: 3, y: 2, z: 0 },
        size: Some(wgpu::Extent3d {
            width: 5,
            height: 4,
            depth_or_array_layers: 1,
        }),
    };
    let data: Vec<u8> = (1..=20).collect();
    texture.write_region(&gpu, &region, &data).unwrap();
    assert_eq!(texture.read_region(&gpu, &region).unwrap().bytes(), data);
    let all = texture.read(&gpu).unwrap().u32s().unwrap();
    for y in 0..7 {
        for x in 0..13 {
            let inside = (3..8).contains(&x) && (2..6).contains(&y);
            let expected = if inside { (y - 2) * 5 + (x - 3) + 1 } else { 0 };
            assert_eq!(all[(y * 13 + x) as usize], expected, "texel ({x},{y})");
        }
    }
}

/// Block-compressed formats (BC1, BC7) round-trip in rows of 4×4 blocks (20×8: 5×2 blocks,
/// rows padded for the copy) where the adapter has `TEXTURE_COMPRESSION_BC`; otherwise a skip
/// naming the feature.
#[test]
fn block_formats_round_trip_in_rows_of_blocks() {
    let Some(plain) = vgpu_tests::real_gpu() else {
        return;
    };
    let feature = wgpu::Features::TEXTURE_COMPRESSION_BC;
    if !plain.context().adapter().features().contains(feature) {
        vgpu_tests::skip("bc", "the adapter lacks TEXTURE_COMPRESSION_BC");
        return;
    }
    let options = vgpu::GpuOptions {
        required_features: feature,
        ..vgpu::GpuOptions::from_env().unwrap()
    };
    let gpu = Gpu::new(&options).expect("a device with BC");
    for (format, block) in [(F::Bc1RgbaUnorm, 8), (F::Bc7RgbaUnormSrgb, 16)] {
        let data = noise(block as u32, 5 * 2 * block);
        let texture = gpu.texture(&desc("bc", format, 20, 8)).unwrap();
        texture.write_mip(&gpu, 0, &data).unwrap();
        let Some(read) = unless_gl(&gpu, "block-compressed", texture.read(&gpu)) else {
            continue;
        };
        assert!(read.bytes() == data, "{format:?}");
        assert_eq!(read.components(), 0);
        assert_eq!(read.to_rgba8().unwrap_err().code(), "VGPU-TEXTURE-FORMAT");
        let off = TextureRegion {
            origin: wgpu::Origin3d { x: 2, y: 0, z: 0 },
            ..TextureRegion::mip(0)
        };
        let e = texture.read_region(&gpu, &off).unwrap_err();
        assert_eq!(e.code(), "VGPU-TEXTURE-REGION", "{e}");
    }
    assert!(gpu.take_uncaptured_errors().is_empty());
}

/// The stencil of `Depth24PlusStencil8` (whose depth is not copyable: a typed refusal naming
/// Depth32Float) reads back as one `u8` per texel after a clear to 7.
#[test]
fn stencil_reads_back_and_depth24_is_refused() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    let texture = gpu
        .texture(&TextureDesc {
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
            ..desc("ds", F::Depth24PlusStencil8, 13, 7)
        })
        .unwrap();
    let e = texture.read(&gpu).unwrap_err();
    assert_eq!(e.code(), "VGPU-TEXTURE-FORMAT", "{e}");
    assert!(e.to_string().contains("Depth32Float"), "{e}");
    let view = texture.raw().create_view(&Default::default());
    let mut encoder = gpu.device().create_command_encoder(&Default::default());
    drop(encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
        depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
            view: &view,
            depth_ops: None,
            stencil_ops: Some(wgpu::Operations {
                load: wgpu::LoadOp::Clear(7),
                store: wgpu::StoreOp::Store,
            }),
        }),
        ..Default::default()
    }));
    gpu.queue().submit([encoder.finish()]);
    let stencil = texture.read_stencil(&gpu, &TextureRegion::mip(0));
    if let Some(stencil) = unless_gl(&gpu, "stencil", stencil) {
        assert_eq!(stencil.u32s().unwrap(), vec![7; 13 * 7]);
    }
    assert!(gpu.take_uncaptured_errors().is_empty());
}

#[track_caller]
fn assert_code<T: std::fmt::Debug>(result: vgpu::Result<T>, code: &str, mention: &str) {
    let e = result.expect_err(code);
    assert_eq!(e.code(), code, "{e}");
    assert!(e.as_texture().is_some(), "{e}");
    assert!(
        e.to_string().contains(mention),
        "{e} should mention {mention}"
    );
}

/// Every refusal of a write or read, with its code, on noop and the env device; on a real device
/// the texture reads back unchanged after them all.
#[test]
fn refused_writes_and_reads_change_nothing() {
    vgpu_tests::each_gpu(|gpu| {
        let original = pattern(F::Rgba8Unorm, 13 * 7 * 2, 9);
        let array = TextureDesc {
            depth_or_array_layers: 2,
            ..desc("kept", F::Rgba8Unorm, 13, 7)
        };
        let texture = gpu.texture_with_data(&array, &original).unwrap();
        let w =
            |region: TextureRegion, len: usize| texture.write_region(gpu, &region, &vec![1; len]);
        assert_code(
            texture.write_mip(gpu, 0, &[1; 13 * 7 * 4]),
            "VGPU-TEXTURE-WRITE-SIZE",
            "728 bytes",
        );
        assert_code(
            texture.write_mip(gpu, 1, &[1; 4]),
            "VGPU-TEXTURE-REGION",
            "mip level 1",
        );
        assert_code(
            texture.write_layer(gpu, 2, 0, &[1; 364]),
            "VGPU-TEXTURE-REGION",
            "2 layer",
        );
        let past = TextureRegion {
            origin: wgpu::Origin3d { x: 10, y: 0, z: 0 },
            size: Some(wgpu::Extent3d {
                width: 5,
                height: 1,
                depth_or_array_layers: 1,
            }),
            mip: 0,
        };
        assert_code(w(past, 20), "VGPU-TEXTURE-REGION", "13x7");
        let empty = TextureRegion {
            size: Some(wgpu::Extent3d {
                width: 0,
                height: 1,
                depth_or_array_layers: 1,
            }),
            ..TextureRegion::mip(0)
        };
        assert_code(w(empty, 0), "VGPU-TEXTURE-REGION", "empty");
        assert_code(
            texture.write(gpu, &[1; 8]),
            "VGPU-TEXTURE-WRITE-SIZE",
            "mip 0 of every layer",
        );
        assert_code(
            texture.read_mip(gpu, 3),
            "VGPU-TEXTURE-REGION",
            "mip level 3",
        );
        assert_code(
            texture.read_layer(gpu, 9, 0),
            "VGPU-TEXTURE-REGION",
            "2 layer",
        );
        let stencil = texture.read_stencil(gpu, &TextureRegion::mip(0));
        assert_code(stencil, "VGPU-TEXTURE-FORMAT", "no stencil");
        let other = if gpu.is_noop() {
            Gpu::noop()
        } else {
            Gpu::from_env().unwrap()
        };
        let e = texture.write_mip(&other, 0, &original).unwrap_err();
        assert_eq!(e.code(), "VGPU-FOREIGN-GPU", "{e}");
        assert_eq!(texture.read(&other).unwrap_err().code(), "VGPU-FOREIGN-GPU");

        let d24 = gpu.texture(&desc("d24", F::Depth24Plus, 4, 4)).unwrap();
        assert_code(d24.read(gpu), "VGPU-TEXTURE-FORMAT", "Depth32Float");
        assert_code(
            d24.write_mip(gpu, 0, &[0; 64]),
            "VGPU-TEXTURE-FORMAT",
            "Depth24Plus",
        );
        let d32 = gpu.texture(&desc("d32", F::Depth32Float, 4, 4)).unwrap();
        assert_code(
            d32.write_mip(gpu, 0, &[0; 64]),
            "VGPU-TEXTURE-FORMAT",
            "Depth16Unorm",
        );
        let msaa = gpu.texture(&TextureDesc {
            sample_count: 4,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
            ..desc("msaa", F::Rgba8Unorm, 4, 4)
        });
        match msaa {
            Ok(msaa) => assert_code(msaa.read(gpu), "VGPU-TEXTURE-FORMAT", "multisampled"),
            Err(e) => println!("no multisampled texture with copy usages here: {e}"),
        }
        assert!(gpu.take_uncaptured_errors().is_empty());
        if !gpu.is_noop() {
            assert!(
                texture.read(gpu).unwrap().bytes() == original,
                "the texture is intact"
            );
        }
    });
}

/// `TextureData` accessors of another component type, and `from_bytes` of the wrong length, are
/// typed refusals (tier 1: no device needed).
#[test]
fn texture_data_accessors_refuse_other_types() {
    let size = |width| wgpu::Extent3d {
        width,
        height: 1,
        depth_or_array_layers: 1,
    };
    let r8 = TextureData::from_bytes(F::R8Unorm, size(2), vec![0, 255]).unwrap();
    assert_code(r8.u32s(), "VGPU-TEXTURE-FORMAT", "use f32s()");
    assert_code(r8.halfs(), "VGPU-TEXTURE-FORMAT", "16Float");
    let u = TextureData::from_bytes(F::R32Uint, size(1), vec![1, 0, 0, 0]).unwrap();
    assert_code(u.f32s(), "VGPU-TEXTURE-FORMAT", "use u32s()");
    assert_code(u.i32s(), "VGPU-TEXTURE-FORMAT", "use u32s()");
    let i = TextureData::from_bytes(F::Rg8Sint, size(1), vec![0xff, 2]).unwrap();
    assert_eq!(i.i32s().unwrap(), [-1, 2]);
    assert_eq!(i.texel(1, 0, 0), None, "outside");
    assert_code(
        TextureData::from_bytes(F::Rgba8Unorm, size(3), vec![0; 8]),
        "VGPU-TEXTURE-WRITE-SIZE",
        "12 bytes",
    );
    assert_code(
        TextureData::from_bytes(F::Depth24Plus, size(1), vec![0; 4]),
        "VGPU-TEXTURE-FORMAT",
        "Depth24Plus",
    );
}
