//! Tier 1 (noop device): image files that cannot become textures (`Gpu::texture_from_image`,
//! `cube_from_images`, `array_from_images`) are refused with typed `VGPU-IMAGE-…` errors, never
//! a panic; a header claiming a huge image is refused from the header, before decoding.

#![allow(clippy::unwrap_used, reason = "an unwrap in a test is an assertion")]

use std::path::Path;

use vgpu::{ErrorCode, Gpu, ImageError, ImageOptions};

/// A valid `width`×`height` RGBA8 PNG.
pub(crate) fn png_rgba8(width: u32, height: u32) -> Vec<u8> {
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, width, height);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().unwrap();
    let data: Vec<u8> = (0..width * height * 4).map(|i| (i * 7) as u8).collect();
    writer.write_image_data(&data).unwrap();
    writer.finish().unwrap();
    out
}

/// CRC-32 (ISO-HDLC) of PNG chunks.
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xedb8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    out.extend_from_slice(&(data.len() as u32).to_be_bytes());
    let start = out.len();
    out.extend_from_slice(kind);
    out.extend_from_slice(data);
    let crc = crc32(&out[start..]);
    out.extend_from_slice(&crc.to_be_bytes());
}

/// A PNG whose header claims `width`×`height` RGBA8 texels, followed by a few bytes of image data
/// (far too few: decoding it would fail with `VGPU-IMAGE-DECODE`, after allocating the image).
fn png_header_claiming(width: u32, height: u32) -> Vec<u8> {
    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    let mut ihdr = Vec::new();
    ihdr.extend_from_slice(&width.to_be_bytes());
    ihdr.extend_from_slice(&height.to_be_bytes());
    ihdr.extend_from_slice(&[8, 6, 0, 0, 0]); // 8-bit RGBA, deflate, no filter, no interlace
    chunk(&mut out, b"IHDR", &ihdr);
    chunk(&mut out, b"IDAT", &[0x78, 0x9c, 0x63, 0x00, 0x00]);
    chunk(&mut out, b"IEND", &[]);
    out
}

#[track_caller]
fn image_error(result: vgpu::Result<vgpu::Texture>) -> ImageError {
    let err = result.unwrap_err();
    match err {
        vgpu::Error::Image(e) => *e,
        other => panic!("expected an image error, got {other}"),
    }
}

#[test]
fn truncated_and_corrupt_images_are_decode_errors() {
    let gpu = Gpu::noop();
    let png = png_rgba8(8, 8);
    for cut in [png.len() / 2, 40, png.len() - 13] {
        let e = image_error(gpu.texture_from_image(&png[..cut], &ImageOptions::default()));
        assert_eq!(e.code(), "VGPU-IMAGE-DECODE", "PNG cut at {cut}: {e}");
        assert!(e.to_string().contains("\"image\""), "names the image: {e}");
    }
    // A PNG signature and garbage after it.
    let mut corrupt = png[..8].to_vec();
    corrupt.extend_from_slice(&[0xab; 64]);
    let e = image_error(gpu.texture_from_image(&corrupt, &ImageOptions::default()));
    assert_eq!(e.code(), "VGPU-IMAGE-DECODE", "{e}");
    // A JPEG start of image and nothing else; an HDR header without scanlines.
    let jpeg = [0xff, 0xd8, 0xff, 0xe0, 0, 16, b'J', b'F', b'I', b'F', 0];
    let e = image_error(gpu.texture_from_image(&jpeg, &ImageOptions::default()));
    assert_eq!(e.code(), "VGPU-IMAGE-DECODE", "{e}");
    let hdr = b"#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 2 +X 2\n\x80\x80";
    let e = image_error(gpu.texture_from_image(hdr, &ImageOptions::default()));
    assert_eq!(e.code(), "VGPU-IMAGE-DECODE", "{e}");
    // The previous texture-making still works.
    gpu.texture_from_image(&png, &ImageOptions::default())
        .unwrap();
}

#[test]
fn bytes_of_no_known_format_are_format_errors() {
    let gpu = Gpu::noop();
    for (bytes, what) in [
        (&b""[..], "empty"),
        (b"hello, not an image", "text"),
        (b"GIF89a\x01\x00\x01\x00\x00\x00\x00;", "a GIF"),
        (
            b"BM\x1e\x00\x00\x00\x00\x00\x00\x00\x1a\x00\x00\x00",
            "a BMP",
        ),
    ] {
        let e = image_error(gpu.texture_from_image(bytes, &ImageOptions::default()));
        assert_eq!(e.code(), "VGPU-IMAGE-FORMAT", "{what}: {e}");
    }
}

/// A header claiming 100000×100000 texels (40 GB decoded) is refused from the header: the error
/// is `TOO-LARGE` with the claimed size, not the `DECODE` error decoding its few bytes of data
/// would give, so nothing sized by the header was allocated.
#[test]
fn an_image_larger_than_the_device_limit_is_refused_from_its_header() {
    let gpu = Gpu::noop();
    let max = gpu.device().limits().max_texture_dimension_2d;
    for (w, h) in [(100_000, 100_000), (max + 1, 1), (1, max + 1)] {
        let e = image_error(
            gpu.texture_from_image(&png_header_claiming(w, h), &ImageOptions::default()),
        );
        assert_eq!(e.code(), "VGPU-IMAGE-TOO-LARGE", "{w}x{h}: {e}");
        let ImageError::TooLarge { size, max: m, .. } = e else {
            unreachable!()
        };
        assert_eq!((size, m), ((w, h), max));
    }
    // At the limit the header passes, and the missing data is what fails.
    let e =
        image_error(gpu.texture_from_image(&png_header_claiming(max, 1), &ImageOptions::default()));
    assert_eq!(e.code(), "VGPU-IMAGE-DECODE", "{e}");
}

/// An image within the device's limit but over `ImageOptions::max_bytes` is refused from its
/// header too.
#[test]
fn an_image_over_the_memory_limit_is_refused_from_its_header() {
    let gpu = Gpu::noop();
    let options = ImageOptions {
        max_bytes: 1 << 20,
        ..Default::default()
    };
    let e = image_error(gpu.texture_from_image(&png_header_claiming(1024, 1024), &options));
    assert_eq!(e.code(), "VGPU-IMAGE-MEMORY-LIMIT", "{e}");
    let ImageError::MemoryLimit {
        size,
        needed,
        limit,
        ..
    } = e
    else {
        unreachable!()
    };
    assert_eq!((size, limit), ((1024, 1024), 1 << 20));
    assert!(needed > limit);
    // A small image fits the same limit.
    gpu.texture_from_image(&png_rgba8(16, 16), &options)
        .unwrap();
}

#[test]
fn a_path_that_cannot_be_read_is_an_io_error_naming_it() {
    let gpu = Gpu::noop();
    let missing = Path::new("/nonexistent/vgpu/image.png");
    let e = image_error(gpu.texture_from_image(missing, &ImageOptions::default()));
    assert_eq!(e.code(), "VGPU-IMAGE-IO", "{e}");
    assert!(e.to_string().contains("/nonexistent/vgpu/image.png"), "{e}");
    // A directory is not a file either.
    let dir = std::env::temp_dir();
    let e = image_error(gpu.texture_from_image(&dir, &ImageOptions::default()));
    assert_eq!(e.code(), "VGPU-IMAGE-IO", "{e}");
    // A cube face from a path that cannot be read names the path too.
    let good = png_rgba8(4, 4);
    let faces: [vgpu::ImageSource<'_>; 6] = [
        (&good).into(),
        (&good).into(),
        missing.into(),
        (&good).into(),
        (&good).into(),
        (&good).into(),
    ];
    let e = image_error(gpu.cube_from_images(faces, &ImageOptions::default()));
    assert_eq!(e.code(), "VGPU-IMAGE-IO", "{e}");
}

#[test]
fn cube_faces_and_array_layers_that_do_not_fit_are_refused() {
    let gpu = Gpu::noop();
    let small = png_rgba8(4, 4);
    let large = png_rgba8(8, 8);
    let wide = png_rgba8(8, 4);
    let options = ImageOptions::default();
    // Face -Y (index 3) of another size.
    let faces = [&small, &small, &small, &large, &small, &small];
    let e = image_error(gpu.cube_from_images(faces, &options));
    assert_eq!(e.code(), "VGPU-IMAGE-LAYERS", "{e}");
    let message = e.to_string();
    assert!(message.contains("face -Y (index 3)"), "{message}");
    assert!(
        message.contains("4x4") && message.contains("8x8"),
        "{message}"
    );
    // Faces that are not square.
    let e = image_error(gpu.cube_from_images([&wide; 6], &options));
    assert_eq!(e.code(), "VGPU-IMAGE-LAYERS", "{e}");
    assert!(e.to_string().contains("square"), "{e}");
    // An array layer of another size, and an array of no image.
    let e = image_error(gpu.array_from_images([&small, &small, &large], &options));
    assert_eq!(e.code(), "VGPU-IMAGE-LAYERS", "{e}");
    assert!(e.to_string().contains("layer 2"), "{e}");
    let none: [&Vec<u8>; 0] = [];
    let e = image_error(gpu.array_from_images(none, &options));
    assert_eq!(e.code(), "VGPU-IMAGE-LAYERS", "{e}");
    // The same images, all of one size, are accepted.
    let cube = gpu.cube_from_images([&small; 6], &options).unwrap();
    assert_eq!(cube.raw().depth_or_array_layers(), 6);
    let array = gpu.array_from_images([&small, &small], &options).unwrap();
    assert_eq!(array.raw().depth_or_array_layers(), 2);
}

/// Image data of every length and every byte value at the start never panics (a small,
/// deterministic cousin of the `image` fuzz target).
#[test]
fn mangled_images_never_panic() {
    let gpu = Gpu::noop();
    let png = png_rgba8(5, 3);
    let mut hdr = b"#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 1 +X 2\n".to_vec();
    hdr.extend_from_slice(&[128, 64, 32, 129, 1, 2, 3, 130]);
    for file in [&png, &hdr] {
        for cut in 0..file.len() {
            let _ = gpu.texture_from_image(&file[..cut], &ImageOptions::default());
        }
        for at in 0..file.len().min(64) {
            for value in [0x00, 0x7f, 0xff] {
                let mut mangled = file.clone();
                mangled[at] = value;
                if let Err(e) = gpu.texture_from_image(&mangled, &ImageOptions::default()) {
                    assert!(e.code().starts_with("VGPU-IMAGE-"), "{e}");
                }
            }
        }
    }
}

/// A fuzz seed: its file name, its options byte, the image file, the image's size.
type Seed = (&'static str, u8, Vec<u8>, (u32, u32));

/// The seeds of the `image` fuzz target (`fuzz/seeds/image/`): tiny valid PNG (8-bit RGBA,
/// 8-bit gray, 16-bit RGB), JPEG and HDR files, each a first byte of options (see
/// `fuzz/fuzz_targets/image.rs`) then the file. `VGPU_BLESS=1` writes them; the test checks each
/// decodes to a texture of its size.
#[test]
fn the_image_fuzz_seeds_decode() {
    use image::ImageEncoder as _;
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/seeds/image");
    let png = |w: u32, h: u32, data: &[u8], color| {
        let mut out = Vec::new();
        image::codecs::png::PngEncoder::new(&mut out)
            .write_image(data, w, h, color)
            .unwrap();
        out
    };
    let mut jpeg = Vec::new();
    let rgb: Vec<u8> = (0..8 * 8 * 3).map(|i| (i * 5) as u8).collect();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut jpeg, 80)
        .write_image(&rgb, 8, 8, image::ExtendedColorType::Rgb8)
        .unwrap();
    let mut hdr = b"#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 2 +X 2\n".to_vec();
    hdr.extend_from_slice(&[128, 64, 32, 129, 192, 96, 48, 130, 1, 2, 3, 140, 0, 0, 0, 0]);
    let mut hdr_rle = Vec::new();
    let texels: Vec<f32> = (0..16 * 2 * 3).map(|i| i as f32 / 7.0).collect();
    image::codecs::hdr::HdrEncoder::new(&mut hdr_rle)
        .write_image(
            bytemuck::cast_slice(&texels),
            16,
            2,
            image::ExtendedColorType::Rgb32F,
        )
        .unwrap();
    let rgba: Vec<u8> = (0..4 * 3 * 4).map(|i| (i * 21) as u8).collect();
    let gray16: Vec<u8> = (0..3 * 2 * 3u16)
        .flat_map(|i| (i * 3000).to_ne_bytes())
        .collect();
    let seeds: [Seed; 6] = [
        (
            "png-rgba8",
            1,
            png(4, 3, &rgba, image::ExtendedColorType::Rgba8),
            (4, 3),
        ),
        (
            "png-gray8",
            0,
            png(3, 1, &[0, 128, 255], image::ExtendedColorType::L8),
            (3, 1),
        ),
        (
            "png-rgb16",
            4,
            png(3, 2, &gray16, image::ExtendedColorType::Rgb16),
            (3, 2),
        ),
        ("jpeg", 1, jpeg, (8, 8)),
        ("hdr-flat", 2, hdr, (2, 2)),
        ("hdr-rle", 0, hdr_rle, (16, 2)),
    ];
    if std::env::var_os("VGPU_BLESS").is_some() {
        std::fs::create_dir_all(&dir).unwrap();
        for (name, flags, file, _) in &seeds {
            let mut seed = vec![*flags];
            seed.extend_from_slice(file);
            std::fs::write(dir.join(name), seed).unwrap();
        }
    }
    let gpu = Gpu::noop();
    for (name, _, _, size) in &seeds {
        let seed = std::fs::read(dir.join(name))
            .unwrap_or_else(|e| panic!("fuzz seed {name}: {e} (VGPU_BLESS=1 writes it)"));
        let texture = gpu
            .texture_from_image(&seed[1..], &ImageOptions::default())
            .unwrap_or_else(|e| panic!("fuzz seed {name}: {e}"));
        assert_eq!(texture.size(), *size, "{name}");
    }
}
