//! `image`: arbitrary bytes as an image file through `Gpu::texture_from_image` (the `image`
//! feature: PNG, JPEG, Radiance HDR). The first byte picks the options (sRGB or linear, the HDR
//! format, mips); the rest is the file. Decoding is limited to 16 MiB (`ImageOptions::max_bytes`)
//! so that each input stays fast; a header over it is refused before decoding.
//!
//! Invariants: no panic; every `Err` is a `VGPU-IMAGE-…` code (or another `VGPU-` code for the
//! texture, such as mips); an `Ok` texture is non-empty, within the device's limit, of one of the
//! formats `ImageOptions` documents; no uncaptured wgpu error.

#![no_main]

use libfuzzer_sys::fuzz_target;
use vgpu::wgpu::TextureFormat as F;
use vgpu::{HdrFormat, ImageOptions};
use vgpu_fuzz::{check_err, gpu};

fuzz_target!(|data: &[u8]| {
    let Some((&flags, file)) = data.split_first() else {
        return;
    };
    let options = ImageOptions {
        label: Some("fuzz".to_owned()),
        srgb: flags & 1 == 1,
        hdr_format: if flags & 2 == 2 {
            HdrFormat::Rgba32Float
        } else {
            HdrFormat::Rgba16Float
        },
        mips: flags & 4 == 4,
        max_bytes: 16 << 20,
        ..Default::default()
    };
    let gpu = gpu();
    match gpu.texture_from_image(file, &options) {
        Ok(texture) => {
            let (w, h) = texture.size();
            let max = gpu.device().limits().max_texture_dimension_2d;
            assert!(w > 0 && h > 0 && w <= max && h <= max, "{w}x{h}");
            assert!(
                matches!(
                    texture.format(),
                    F::Rgba8Unorm
                        | F::Rgba8UnormSrgb
                        | F::Rgba16Unorm
                        | F::Rgba16Float
                        | F::Rgba32Float
                ),
                "{:?}",
                texture.format()
            );
        }
        Err(e) => {
            check_err("Gpu::texture_from_image", &e);
            assert!(
                e.as_image().is_some() || e.as_texture().is_some(),
                "not an image or texture error: {e}"
            );
        }
    }
    let errors = gpu.take_uncaptured_errors();
    assert!(errors.is_empty(), "uncaptured wgpu errors: {errors:?}");
});
