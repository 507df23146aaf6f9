//! Samplers (issue 32, item 7): per-axis address modes, LOD clamps, anisotropy, border colors,
//! the cache, and the refusals.
//!
//! Tier 2 (vulkan and gl): the address mode of each axis is seen in the pixels (repeat across,
//! clamp down); `lod_min_clamp = 1` samples mip 1 of a two-mip texture whose mips differ, and
//! `lod_max_clamp = 0` keeps an explicit level 1 on mip 0; an anisotropic sampler is accepted
//! and samples; a border color shows outside the texture where the adapter has
//! `ADDRESS_MODE_CLAMP_TO_BORDER`, and elsewhere the sampler is refused with
//! `VGPU-FEATURE-MISSING` (printed as a skip line).
//!
//! Tier 1 (every device, noop included): bad values are refused with `VGPU-SAMPLER-DESC`
//! (nothing cached), `ClampToBorder` without the feature with `VGPU-FEATURE-MISSING`, and equal
//! descriptors (LOD clamps included) share one cached sampler.

use vgpu::{Gpu, GpuOptions, PassDesc, RgbaImage, SamplerDesc, Target, Texture, TextureDesc};
use wgpu::{AddressMode, FilterMode, SamplerBorderColor, TextureFormat};

const RED: [u8; 4] = [255, 0, 0, 255];
const GREEN: [u8; 4] = [0, 255, 0, 255];
const BLUE: [u8; 4] = [0, 0, 255, 255];
const WHITE: [u8; 4] = [255, 255, 255, 255];

/// Samples `tex` with `samp` at `uv * scale + offset` (level `level` when it is >= 0, else
/// `textureSample`'s own).
const SAMPLE: &str = "
struct Params { scale: f32, offset: f32, level: f32 }
@group(0) @binding(0) var tex: texture_2d<f32>;
@group(0) @binding(1) var samp: sampler;
@group(0) @binding(2) var<uniform> params: Params;
@fragment fn main(@location(0) uv: vec2f) -> @location(0) vec4f {
    let at = uv * params.scale + vec2f(params.offset);
    let implicit = textureSample(tex, samp, at);
    if params.level >= 0.0 {
        return textureSampleLevel(tex, samp, at, params.level);
    }
    return implicit;
}";

/// A `width`×`height` `Rgba8Unorm` texture of `mips` levels, each level filled by `texel(level,
/// x, y)`, written with `queue().write_texture`.
fn texture(gpu: &Gpu, size: u32, mips: u32, texel: impl Fn(u32, u32, u32) -> [u8; 4]) -> Texture {
    let tex = gpu
        .texture(&TextureDesc::new(size, size, TextureFormat::Rgba8Unorm).mips(mips))
        .unwrap();
    for level in 0..mips {
        let side = (size >> level).max(1);
        let bytes: Vec<u8> = (0..side * side)
            .flat_map(|i| texel(level, i % side, i / side))
            .collect();
        gpu.queue().write_texture(
            wgpu::TexelCopyTextureInfo {
                texture: tex.raw(),
                mip_level: level,
                origin: wgpu::Origin3d::ZERO,
                aspect: wgpu::TextureAspect::All,
            },
            &bytes,
            wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(side * 4),
                rows_per_image: None,
            },
            wgpu::Extent3d {
                width: side,
                height: side,
                depth_or_array_layers: 1,
            },
        );
    }
    tex
}

/// Renders `tex` through `samp` (see [`SAMPLE`]) into a fresh 8×8 target and reads it back.
fn render(
    gpu: &Gpu,
    tex: &Texture,
    desc: &SamplerDesc,
    scale: f32,
    offset: f32,
    level: f32,
) -> RgbaImage {
    let target: Target = gpu.target(8, 8).unwrap();
    let effect = gpu.effect("sample", SAMPLE).unwrap();
    effect.set("tex", tex).unwrap();
    effect.set("samp", &gpu.sampler(desc).unwrap()).unwrap();
    effect
        .set(
            "params",
            vgpu::value! { scale: scale, offset: offset, level: level },
        )
        .unwrap();
    gpu.frame(|f| f.pass(PassDesc::new(&target), |p| p.draw(&effect)))
        .unwrap();
    target.read_rgba8().unwrap()
}

/// Asserts pixel (x, y) of `image` is `expected(x, y)` everywhere, naming the first that is not.
#[track_caller]
fn assert_pixels(image: &RgbaImage, what: &str, expected: impl Fn(u32, u32) -> [u8; 4]) {
    for y in 0..image.height {
        for x in 0..image.width {
            let want = expected(x, y);
            assert_eq!(image.pixel(x, y), Some(want), "{what}: pixel ({x},{y})");
        }
    }
}

/// 2×2 texels: red, green (top row); blue, white (bottom row).
fn quad(_: u32, x: u32, y: u32) -> [u8; 4] {
    [[RED, GREEN], [BLUE, WHITE]][y as usize][x as usize]
}

/// Sampled at `uv × 2`: across, `Repeat` wraps columns 4..8 onto the texture again (0, 0, 1,
/// 1, 0, 0, 1, 1); down, `ClampToEdge` holds the bottom row from row 4 on (0, 0, 1, 1, 1, 1, 1,
/// 1). One address mode for all axes would show either wrap or clamp on both.
#[test]
fn address_modes_apply_per_axis() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    let tex = texture(&gpu, 2, 1, quad);
    let desc = SamplerDesc {
        address_mode_u: AddressMode::Repeat,
        address_mode_v: AddressMode::ClampToEdge,
        ..SamplerDesc::nearest()
    };
    let image = render(&gpu, &tex, &desc, 2.0, 0.0, -1.0);
    assert_pixels(&image, "repeat across, clamp down", |x, y| {
        quad(0, (x / 2) % 2, (y / 2).min(1))
    });
    let desc = SamplerDesc {
        address_mode_u: AddressMode::ClampToEdge,
        address_mode_v: AddressMode::MirrorRepeat,
        ..SamplerDesc::nearest()
    };
    let image = render(&gpu, &tex, &desc, 2.0, 0.0, -1.0);
    // Mirrored down: rows 4..8 read the texture bottom-up (1, 1, 0, 0).
    assert_pixels(&image, "clamp across, mirror down", |x, y| {
        let row = if y < 4 { y / 2 } else { 1 - (y - 4) / 2 };
        quad(0, (x / 2).min(1), row)
    });
    let errors = gpu.take_uncaptured_errors();
    assert!(errors.is_empty(), "uncaptured wgpu errors: {errors:?}");
}

/// A 4×4 texture of two mips, red (mip 0) and green (mip 1), magnified into 8×8: the implicit
/// level is 0 (red); `lod_min_clamp = 1` shows mip 1 (green); an explicit level 1 shows green,
/// and red again under `lod_max_clamp = 0`.
#[test]
fn lod_clamps_choose_the_mip() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    let tex = texture(&gpu, 4, 2, |level, _, _| [RED, GREEN][level as usize]);
    let nearest = SamplerDesc::nearest();
    let cases = [
        ("no clamp, implicit level", nearest, -1.0, RED),
        (
            "lod_min_clamp 1",
            nearest.with_lod_clamp(1.0, 32.0),
            -1.0,
            GREEN,
        ),
        ("no clamp, level 1", nearest, 1.0, GREEN),
        (
            "lod_max_clamp 0, level 1",
            nearest.with_lod_clamp(0.0, 0.0),
            1.0,
            RED,
        ),
    ];
    for (what, desc, level, color) in cases {
        let image = render(&gpu, &tex, &desc, 1.0, 0.0, level);
        assert_pixels(&image, what, |_, _| color);
    }
    let errors = gpu.take_uncaptured_errors();
    assert!(errors.is_empty(), "uncaptured wgpu errors: {errors:?}");
}

/// An anisotropic sampler (16, every filter linear) is created and samples a one-color texture
/// as that color; a mirror sampler too.
#[test]
fn anisotropic_and_mirror_samplers_sample() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    let tex = texture(&gpu, 4, 3, |_, _, _| BLUE);
    let desc = SamplerDesc::repeat().with_anisotropy(16);
    assert_eq!(desc.mipmap_filter, wgpu::MipmapFilterMode::Linear);
    let image = render(&gpu, &tex, &desc, 3.0, 0.25, -1.0);
    assert_pixels(&image, "anisotropy 16", |_, _| BLUE);
    let image = render(&gpu, &tex, &SamplerDesc::mirror(), 3.0, 0.25, -1.0);
    assert_pixels(&image, "mirror", |_, _| BLUE);
    let errors = gpu.take_uncaptured_errors();
    assert!(errors.is_empty(), "uncaptured wgpu errors: {errors:?}");
}

/// Sampled at `uv × 2 - 0.5`, the texture (white) covers the middle 4×4 pixels; around it a
/// `ClampToBorder` sampler shows its border color (opaque black). Without the adapter feature,
/// the sampler is refused with `VGPU-FEATURE-MISSING` instead (a skip line says so).
#[test]
fn border_color_shows_outside_the_texture_or_is_refused() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    let feature = wgpu::Features::ADDRESS_MODE_CLAMP_TO_BORDER;
    let desc = SamplerDesc::nearest().with_border(SamplerBorderColor::OpaqueBlack);
    if !gpu.context().adapter().features().contains(feature) {
        let err = gpu.sampler(&desc).unwrap_err();
        assert_eq!(err.code(), "VGPU-FEATURE-MISSING", "{err}");
        vgpu_tests::skip(
            "address_mode_clamp_to_border",
            "the adapter lacks ADDRESS_MODE_CLAMP_TO_BORDER: checked VGPU-FEATURE-MISSING instead",
        );
        return;
    }
    let options = GpuOptions {
        required_features: feature,
        ..GpuOptions::from_env().unwrap()
    };
    let gpu = Gpu::new(&options).unwrap();
    let tex = texture(&gpu, 2, 1, |_, _, _| WHITE);
    let image = render(&gpu, &tex, &desc, 2.0, -0.5, -1.0);
    let inside = |i: u32| (2..6).contains(&i);
    assert_pixels(&image, "border", |x, y| {
        if inside(x) && inside(y) {
            WHITE
        } else {
            [0, 0, 0, 255]
        }
    });
    let errors = gpu.take_uncaptured_errors();
    assert!(errors.is_empty(), "uncaptured wgpu errors: {errors:?}");
}

/// Bad values are refused with `VGPU-SAMPLER-DESC`, naming the value and what is expected; a
/// refused descriptor is not cached.
#[test]
fn bad_sampler_values_are_refused_with_a_code() {
    vgpu_tests::each_gpu(|gpu| {
        let base = SamplerDesc::default();
        let nearest_aniso = SamplerDesc {
            anisotropy_clamp: 4,
            ..SamplerDesc::nearest()
        };
        let cases = [
            (
                "lod_min > lod_max",
                base.with_lod_clamp(2.0, 1.0),
                "lod_min_clamp 2",
            ),
            ("negative lod_min", base.with_lod_clamp(-1.0, 1.0), "-1"),
            ("NaN lod_max", base.with_lod_clamp(0.0, f32::NAN), "NaN"),
            (
                "infinite lod_max",
                base.with_lod_clamp(0.0, f32::INFINITY),
                "inf",
            ),
            (
                "anisotropy 0",
                base.with_anisotropy(0),
                "anisotropy_clamp 0",
            ),
            (
                "anisotropy 17",
                base.with_anisotropy(17),
                "anisotropy_clamp 17",
            ),
            ("anisotropy with nearest", nearest_aniso, "Nearest"),
            (
                "ClampToBorder without a color",
                base.with_address_mode(AddressMode::ClampToBorder),
                "border_color",
            ),
        ];
        let cached = gpu.stats().samplers_created;
        for (what, desc, names) in cases {
            let err = gpu.sampler(&desc).unwrap_err();
            assert_eq!(err.code(), "VGPU-SAMPLER-DESC", "{what}: {err}");
            let message = err.to_string();
            assert!(message.contains(names), "{what}: {message}");
            assert!(message.contains("expected"), "{what}: {message}");
            assert!(vgpu::explain(err.code()).is_some());
        }
        assert_eq!(gpu.stats().samplers_created, cached);
        // The limits themselves are accepted.
        gpu.sampler(&base.with_anisotropy(16)).unwrap();
        gpu.sampler(&base.with_anisotropy(1)).unwrap();
        gpu.sampler(&base.with_lod_clamp(3.0, 3.0)).unwrap();
    });
}

/// `ClampToBorder` (and the `Zero` border) on a device created without the feature:
/// `VGPU-FEATURE-MISSING`, naming the feature.
#[test]
fn border_without_the_feature_is_refused() {
    vgpu_tests::each_gpu(|gpu| {
        let desc = SamplerDesc {
            address_mode_v: AddressMode::ClampToBorder,
            border_color: Some(SamplerBorderColor::OpaqueWhite),
            ..SamplerDesc::default()
        };
        if gpu
            .context()
            .features()
            .contains(wgpu::Features::ADDRESS_MODE_CLAMP_TO_BORDER)
        {
            return;
        }
        let err = gpu.sampler(&desc).unwrap_err();
        assert_eq!(err.code(), "VGPU-FEATURE-MISSING", "{err}");
        assert!(
            err.to_string().contains("ADDRESS_MODE_CLAMP_TO_BORDER"),
            "{err}"
        );
    });
}

/// Equal descriptors share one sampler, LOD clamps included (compared by value); descriptors
/// differing in one axis, one clamp or the anisotropy do not.
#[test]
fn equal_descriptors_share_one_cached_sampler() {
    vgpu_tests::each_gpu(|gpu| {
        let a = SamplerDesc::nearest().with_lod_clamp(0.5, 4.0);
        let first = gpu.sampler(&a).unwrap();
        let created = gpu.stats().samplers_created;
        let again = gpu
            .sampler(&SamplerDesc::nearest().with_lod_clamp(0.5, 4.0))
            .unwrap();
        assert_eq!(gpu.stats().samplers_created, created, "no new wgpu sampler");
        assert_eq!(first.raw(), again.raw(), "equal descriptors");
        assert_eq!(again.desc(), a);
        let others = [
            SamplerDesc {
                address_mode_w: AddressMode::Repeat,
                ..a
            },
            a.with_lod_clamp(0.5, 5.0),
            a.with_anisotropy(2),
            SamplerDesc {
                mag_filter: FilterMode::Linear,
                ..a
            },
        ];
        for other in others {
            assert_ne!(gpu.sampler(&other).unwrap().raw(), first.raw(), "{other:?}");
        }
    });
}
