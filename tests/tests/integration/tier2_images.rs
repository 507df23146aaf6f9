//! Tier 2 (a real device; vulkan and gl): image files decoded into textures
//! (`Gpu::texture_from_image`, `cube_from_images`, `array_from_images`) hold the image's texels,
//! read back with a raw copy (sRGB and linear 8-bit PNGs byte for byte, 16-bit PNGs, JPEG within
//! its loss, HDR exactly in `Rgba16Float` and `Rgba32Float`), sample as linear light, and a mip
//! chain is made and filled on request.

#![allow(clippy::unwrap_used, reason = "an unwrap in a test is an assertion")]

use image::ImageEncoder as _;
use vgpu::{Gpu, HdrFormat, ImageOptions, Texture};
use wgpu::TextureFormat as F;

/// The bytes of `layer`, mip `mip` of `texture`, tightly packed, by a raw copy to a buffer.
fn read_raw(gpu: &Gpu, texture: &Texture, layer: u32, mip: u32) -> Vec<u8> {
    let raw = texture.raw();
    let (w, h) = ((raw.width() >> mip).max(1), (raw.height() >> mip).max(1));
    let block = raw.format().block_copy_size(None).unwrap();
    let row = w * block;
    let padded = row.div_ceil(256) * 256;
    let buffer = gpu.device().create_buffer(&wgpu::BufferDescriptor {
        label: Some("read_raw"),
        size: u64::from(padded * h),
        usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
        mapped_at_creation: false,
    });
    let mut encoder = gpu.device().create_command_encoder(&Default::default());
    encoder.copy_texture_to_buffer(
        wgpu::TexelCopyTextureInfo {
            texture: raw,
            mip_level: mip,
            origin: wgpu::Origin3d {
                x: 0,
                y: 0,
                z: layer,
            },
            aspect: wgpu::TextureAspect::All,
        },
        wgpu::TexelCopyBufferInfo {
            buffer: &buffer,
            layout: wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(padded),
                rows_per_image: Some(h),
            },
        },
        wgpu::Extent3d {
            width: w,
            height: h,
            depth_or_array_layers: 1,
        },
    );
    gpu.queue().submit([encoder.finish()]);
    buffer
        .slice(..)
        .map_async(wgpu::MapMode::Read, |r| r.unwrap());
    gpu.device()
        .poll(wgpu::PollType::wait_indefinitely())
        .unwrap();
    let mapped = buffer.slice(..).get_mapped_range().unwrap();
    let mut out = Vec::with_capacity((row * h) as usize);
    for y in 0..h {
        let start = (y * padded) as usize;
        out.extend_from_slice(&mapped[start..start + row as usize]);
    }
    out
}

fn encode(width: u32, height: u32, data: &[u8], color: image::ExtendedColorType) -> Vec<u8> {
    let mut out = Vec::new();
    image::codecs::png::PngEncoder::new(&mut out)
        .write_image(data, width, height, color)
        .unwrap();
    out
}

/// `width`×`height` RGBA8 texels, all different.
fn pattern(width: u32, height: u32, seed: u32) -> Vec<u8> {
    (0..width * height * 4)
        .map(|i| (i.wrapping_mul(37).wrapping_add(seed * 11) % 251) as u8)
        .collect()
}

/// A Radiance HDR file of `texels` (flat RGBE scanlines: widths under 8 are never run-length
/// encoded).
fn hdr_file(width: u32, height: u32, texels: &[[u8; 4]]) -> Vec<u8> {
    let mut out =
        format!("#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y {height} +X {width}\n").into_bytes();
    for t in texels {
        out.extend_from_slice(t);
    }
    out
}

fn f32s(bytes: &[u8]) -> Vec<f32> {
    bytes
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

fn f16s(bytes: &[u8]) -> Vec<u16> {
    bytes
        .chunks_exact(2)
        .map(|c| u16::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

/// An 8-bit RGBA PNG (5×3: rows of 20 bytes, not a multiple of 256) becomes `Rgba8UnormSrgb` or
/// `Rgba8Unorm` holding its bytes exactly, from bytes and from a path.
#[test]
fn an_rgba8_png_is_read_back_byte_for_byte() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    let texels = pattern(5, 3, 1);
    let png = encode(5, 3, &texels, image::ExtendedColorType::Rgba8);
    let srgb = gpu
        .texture_from_image(&png, &ImageOptions::default())
        .unwrap();
    assert_eq!((srgb.size(), srgb.format()), ((5, 3), F::Rgba8UnormSrgb));
    assert_eq!(read_raw(&gpu, &srgb, 0, 0), texels);
    let linear = ImageOptions {
        srgb: false,
        ..Default::default()
    };
    let path = vgpu_tests::temp_path("tier2_images_rgba8.png");
    std::fs::write(&path, &png).unwrap();
    let from_path = gpu.texture_from_image(&path, &linear).unwrap();
    assert_eq!(from_path.format(), F::Rgba8Unorm);
    assert_eq!(from_path.label(), path.display().to_string());
    assert_eq!(read_raw(&gpu, &from_path, 0, 0), texels);
    assert!(gpu.take_uncaptured_errors().is_empty());
}

/// Gray and RGB PNGs are widened to RGBA (gray to `r = g = b`, alpha 1).
#[test]
fn gray_and_rgb_pngs_are_widened_to_rgba() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    let gray = [0u8, 50, 100, 150, 200, 250];
    let png = encode(3, 2, &gray, image::ExtendedColorType::L8);
    let texture = gpu
        .texture_from_image(&png, &ImageOptions::default())
        .unwrap();
    let expected: Vec<u8> = gray.iter().flat_map(|&g| [g, g, g, 255]).collect();
    assert_eq!(read_raw(&gpu, &texture, 0, 0), expected);
    let rgb = [10u8, 20, 30, 40, 50, 60];
    let png = encode(2, 1, &rgb, image::ExtendedColorType::Rgb8);
    let texture = gpu
        .texture_from_image(&png, &ImageOptions::default())
        .unwrap();
    assert_eq!(
        read_raw(&gpu, &texture, 0, 0),
        [10, 20, 30, 255, 40, 50, 60, 255]
    );
}

/// An sRGB texture samples as linear light, a linear one as its bytes: a byte of 188 reads
/// 0.5029 (128 of 255 written back to a linear target) through `Rgba8UnormSrgb` and 188 through
/// `Rgba8Unorm`.
#[test]
fn srgb_images_sample_as_linear_light() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    let png = encode(1, 1, &[188, 188, 188, 255], image::ExtendedColorType::Rgba8);
    let show = vgpu_tests::fullscreen(
        &gpu,
        "show image",
        "@group(0) @binding(0) var image: texture_2d<f32>;
         @fragment fn fs_main() -> @location(0) vec4f { return textureLoad(image, vec2i(0), 0); }",
    );
    for (srgb, expected) in [(true, 128u8), (false, 188)] {
        let options = ImageOptions {
            srgb,
            ..Default::default()
        };
        let texture = gpu.texture_from_image(&png, &options).unwrap();
        show.set("image", &texture).unwrap();
        let out = gpu.target(2, 2).unwrap();
        gpu.frame(|f| f.pass(&out, |p| p.draw(&show))).unwrap();
        let pixel = out.read_rgba8().unwrap().pixel(0, 0).unwrap();
        assert!(
            pixel[0].abs_diff(expected) <= 1 && pixel[3] == 255,
            "srgb {srgb}: {pixel:?}, expected {expected}"
        );
    }
    assert!(gpu.take_uncaptured_errors().is_empty());
}

/// A 16-bit PNG: linear into `Rgba16Unorm` exactly where the device has
/// `TEXTURE_FORMAT_16BIT_NORM` (else `Rgba16Float`, value / 65535 to the nearest half); sRGB into
/// `Rgba16Float` decoded to linear.
#[test]
fn a_16_bit_png_keeps_its_precision() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    let values: [u16; 8] = [0, 1000, 32768, 65535, 12345, 54321, 65535, 40000];
    // The encoder takes native-endian u16s.
    let native: Vec<u8> = values.iter().flat_map(|v| v.to_ne_bytes()).collect();
    let png = encode(2, 1, &native, image::ExtendedColorType::Rgba16);
    let linear = ImageOptions {
        srgb: false,
        ..Default::default()
    };
    let texture = gpu.texture_from_image(&png, &linear).unwrap();
    let raw = read_raw(&gpu, &texture, 0, 0);
    let unorm16 = gpu
        .device()
        .features()
        .contains(wgpu::Features::TEXTURE_FORMAT_16BIT_NORM);
    if unorm16 {
        assert_eq!(texture.format(), F::Rgba16Unorm);
        let read: Vec<u16> = f16s(&raw);
        assert_eq!(read, values);
    } else {
        assert_eq!(texture.format(), F::Rgba16Float);
        for (bits, &v) in f16s(&raw).iter().zip(&values) {
            let got = half_to_f32(*bits);
            let want = f32::from(v) / 65535.0;
            assert!((got - want).abs() <= want * 1e-3 + 1e-7, "{got} vs {want}");
        }
    }
    let texture = gpu
        .texture_from_image(&png, &ImageOptions::default())
        .unwrap();
    assert_eq!(texture.format(), F::Rgba16Float);
    let read: Vec<f32> = f16s(&read_raw(&gpu, &texture, 0, 0))
        .into_iter()
        .map(half_to_f32)
        .collect();
    // 32768 / 65535 in sRGB is 0.2140 linear; alpha (index 3, 7) stays linear.
    assert!((read[2] - 0.2140).abs() < 1e-3, "{read:?}");
    assert_eq!(read[3], 1.0);
    assert!((read[7] - 40000.0 / 65535.0).abs() < 1e-3, "{read:?}");
}

/// The `f32` of half-float bits (normal and zero values only: the test's values).
fn half_to_f32(bits: u16) -> f32 {
    let exp = i32::from((bits >> 10) & 0x1f);
    let mant = f32::from(bits & 0x3ff);
    if exp == 0 {
        return mant * 2f32.powi(-24);
    }
    (1.0 + mant / 1024.0) * 2f32.powi(exp - 15)
}

/// A JPEG (lossy) comes back within its encoding loss: a smooth 16×16 gradient at quality 95.
#[test]
fn a_jpeg_is_read_back_within_its_loss() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    let rgb: Vec<u8> = (0..16u32 * 16)
        .flat_map(|i| {
            let (x, y) = (i % 16, i / 16);
            [(x * 15) as u8, (y * 15) as u8, 128]
        })
        .collect();
    let mut jpeg = Vec::new();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut jpeg, 95)
        .write_image(&rgb, 16, 16, image::ExtendedColorType::Rgb8)
        .unwrap();
    let texture = gpu
        .texture_from_image(&jpeg, &ImageOptions::default())
        .unwrap();
    assert_eq!(
        (texture.size(), texture.format()),
        ((16, 16), F::Rgba8UnormSrgb)
    );
    let read = read_raw(&gpu, &texture, 0, 0);
    for (i, (got, want)) in read.chunks_exact(4).zip(rgb.chunks_exact(3)).enumerate() {
        for c in 0..3 {
            assert!(
                got[c].abs_diff(want[c]) <= 8,
                "texel {i} channel {c}: {} vs {}",
                got[c],
                want[c]
            );
        }
        assert_eq!(got[3], 255);
    }
}

/// A Radiance HDR file goes into `Rgba16Float` and `Rgba32Float` exactly for values both hold
/// (RGBE mantissas of a few bits), alpha 1; values above 1 stay above 1.
#[test]
fn an_hdr_image_is_exact_in_rgba16float_and_rgba32float() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    // (1, 0.5, 0.25), (3, 1.5, 0.75), (24, 0, 0.125), (0, 0, 0).
    let hdr = hdr_file(
        2,
        2,
        &[
            [128, 64, 32, 129],
            [192, 96, 48, 130],
            [192, 0, 1, 133],
            [0, 0, 0, 0],
        ],
    );
    let expected = [
        1.0, 0.5, 0.25, 1.0, 3.0, 1.5, 0.75, 1.0, 24.0, 0.0, 0.125, 1.0, 0.0, 0.0, 0.0, 1.0,
    ];
    let half = gpu
        .texture_from_image(&hdr, &ImageOptions::default())
        .unwrap();
    assert_eq!((half.size(), half.format()), ((2, 2), F::Rgba16Float));
    let read: Vec<f32> = f16s(&read_raw(&gpu, &half, 0, 0))
        .into_iter()
        .map(half_to_f32)
        .collect();
    assert_eq!(read, expected);
    let options = ImageOptions {
        hdr_format: HdrFormat::Rgba32Float,
        ..Default::default()
    };
    let full = gpu.texture_from_image(&hdr, &options).unwrap();
    assert_eq!(full.format(), F::Rgba32Float);
    assert_eq!(f32s(&read_raw(&gpu, &full, 0, 0)), expected);
    assert!(gpu.take_uncaptured_errors().is_empty());
}

/// Three PNGs become an array (viewed as `texture_2d_array`); each layer holds its image.
#[test]
fn arrays_hold_each_image_in_its_layer() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    let layers: Vec<Vec<u8>> = (0..3).map(|seed| pattern(4, 4, seed)).collect();
    let pngs: Vec<Vec<u8>> = layers
        .iter()
        .map(|f| encode(4, 4, f, image::ExtendedColorType::Rgba8))
        .collect();
    let array = gpu
        .array_from_images(&pngs, &ImageOptions::default())
        .unwrap();
    assert_eq!(array.raw().depth_or_array_layers(), 3);
    for (layer, image) in layers.iter().enumerate() {
        assert_eq!(
            &read_raw(&gpu, &array, layer as u32, 0),
            image,
            "layer {layer}"
        );
    }
    assert!(gpu.take_uncaptured_errors().is_empty());
}

/// Six PNGs of one color each become a cube (+X −X +Y −Y +Z −Z): sampled in the direction of
/// each face's center, each gives its color; a raw copy of each layer holds its image.
#[test]
fn a_cube_of_six_pngs_samples_each_face_by_direction() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    let colors: [[u8; 4]; 6] = [
        [255, 0, 0, 255],
        [0, 255, 0, 255],
        [0, 0, 255, 255],
        [255, 255, 0, 255],
        [0, 255, 255, 255],
        [255, 0, 255, 255],
    ];
    let pngs: Vec<Vec<u8>> = colors
        .iter()
        .map(|c| encode(4, 4, &c.repeat(16), image::ExtendedColorType::Rgba8))
        .collect();
    let sources: [&Vec<u8>; 6] = std::array::from_fn(|i| &pngs[i]);
    let linear = ImageOptions {
        srgb: false,
        ..Default::default()
    };
    let cube = gpu.cube_from_images(sources, &linear).unwrap();
    assert_eq!(cube.raw().depth_or_array_layers(), 6);
    let show = vgpu_tests::fullscreen(
        &gpu,
        "show cube",
        "@group(0) @binding(0) var cube: texture_cube<f32>;
         @group(0) @binding(1) var samp: sampler;
         @fragment fn fs_main(@builtin(position) pos: vec4f) -> @location(0) vec4f {
             var dirs = array<vec3f, 6>(vec3f(1.0, 0.0, 0.0), vec3f(-1.0, 0.0, 0.0),
                 vec3f(0.0, 1.0, 0.0), vec3f(0.0, -1.0, 0.0), vec3f(0.0, 0.0, 1.0),
                 vec3f(0.0, 0.0, -1.0));
             return textureSampleLevel(cube, samp, dirs[u32(pos.x)], 0.0);
         }",
    );
    show.set("cube", &cube).unwrap();
    show.set("samp", &gpu.sampler(&Default::default()).unwrap())
        .unwrap();
    let out = gpu.target(6, 1).unwrap();
    gpu.frame(|f| f.pass(&out, |p| p.draw(&show))).unwrap();
    let image = out.read_rgba8().unwrap();
    for (face, color) in colors.iter().enumerate() {
        assert_eq!(image.pixel(face as u32, 0), Some(*color), "face {face}");
    }
    if gpu.adapter_info().backend == wgpu::Backend::Gl {
        // wgpu's GL backend reads a cube map's faces back as zeros (a copy from a
        // `TEXTURE_CUBE_MAP`); sampling above is what shows the faces there.
        vgpu_tests::skip("cube-copy", "GL: raw copies of cube faces are not checked");
    } else {
        for (face, color) in colors.iter().enumerate() {
            let read = read_raw(&gpu, &cube, face as u32, 0);
            assert_eq!(read, color.repeat(16), "face {face}");
        }
    }
    assert!(gpu.take_uncaptured_errors().is_empty());
}

/// `mips: true` makes the full chain (8×4: 4 levels) and fills it: mip 1 is the average of
/// mip 0's 2×2 blocks (in linear light for sRGB; within 1/255 here, where every block is
/// uniform), down to 1×1.
#[test]
fn the_mips_option_makes_and_fills_the_full_chain() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    // 2×2 blocks of one color each: their average is that color whatever the color space.
    let blocks = [
        [200u8, 10, 60, 255],
        [30, 90, 250, 255],
        [120, 120, 0, 255],
        [5, 5, 5, 255],
    ];
    let texels: Vec<u8> = (0..8 * 4)
        .flat_map(|i| {
            let (x, y) = (i % 8, i / 8);
            blocks[(x / 2 + (y / 2) * 2) as usize % 4]
        })
        .collect();
    let png = encode(8, 4, &texels, image::ExtendedColorType::Rgba8);
    let options = ImageOptions {
        mips: true,
        ..Default::default()
    };
    let texture = gpu.texture_from_image(&png, &options).unwrap();
    assert_eq!(texture.raw().mip_level_count(), 4);
    let mip1 = read_raw(&gpu, &texture, 0, 1);
    let expected: Vec<u8> = (0..4 * 2)
        .flat_map(|i| {
            let (x, y) = (i % 4, i / 4);
            blocks[(x + y * 2) as usize % 4]
        })
        .collect();
    for (i, (got, want)) in mip1.iter().zip(&expected).enumerate() {
        assert!(got.abs_diff(*want) <= 1, "mip 1 byte {i}: {got} vs {want}");
    }
    assert_eq!(read_raw(&gpu, &texture, 0, 3).len(), 4, "1x1 last mip");
    assert!(gpu.take_uncaptured_errors().is_empty());
}
