//! `Texture::generate_mips`. Tier 2 (real device, vulkan and gl): a known 16×16 mip 0, mips
//! generated, then each mip `k` sampled by a draw with `textureSampleLevel(t, s, uv, k)` at its
//! texel centres (nearest sampler) equals the CPU 2×2 average of the previous level within 1/255:
//! `rgba8unorm`, `rgba8unorm-srgb` (averaged in linear light), a 2D array and a cube (each layer
//! its own; by the render path, and by the compute path for textures made with
//! `STORAGE_BINDING`), `rgba16float`; and `r32float` by the compute path, read back by a copy (an
//! `r32float` texture is not filterable, so a `texture_2d<f32>` binding cannot take it).
//! Tier 1 (noop): each refusal's code, the pipeline cache, another `Gpu`.

#![allow(clippy::unwrap_used, reason = "an unwrap in a test is an assertion")]

use vgpu::{Gpu, SamplerDesc, TargetDesc, Texture, TextureDesc};
use vgpu_tests::fullscreen;

/// The side of mip 0; mips 0..=4.
const SIDE: u32 = 16;
const LEVELS: u32 = 5;

/// `n` deterministic pseudo-random bytes (xorshift) from `seed`.
fn noise(seed: u32, n: usize) -> Vec<u8> {
    let mut x = seed.wrapping_mul(2_654_435_761) | 1;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            (x >> 24) as u8
        })
        .collect()
}

/// A 16×16 RGBA8 image: a black/white checker in red (where a naive sRGB average is far off),
/// a gradient in green, noise in blue and alpha.
fn image(seed: u32) -> Vec<u8> {
    let n = noise(seed, (SIDE * SIDE * 2) as usize);
    let mut out = Vec::new();
    for y in 0..SIDE {
        for x in 0..SIDE {
            let i = ((y * SIDE + x) * 2) as usize;
            let checker = if (x + y) % 2 == 0 { 255 } else { 0 };
            out.extend_from_slice(&[checker, (x * 16 + y) as u8, n[i], n[i + 1] | 1]);
        }
    }
    out
}

/// The mip chain of a square RGBA8 `level0` of side [`SIDE`], each level the 2×2 average of the
/// previous one, per channel by `average` (channel index, four values).
fn cpu_mips(level0: &[u8], average: &dyn Fn(usize, [u8; 4]) -> u8) -> Vec<Vec<u8>> {
    let mut levels = vec![level0.to_vec()];
    let mut side = SIDE;
    while side > 1 {
        let prev = levels.last().unwrap();
        let half = side / 2;
        let mut next = Vec::new();
        for y in 0..half {
            for x in 0..half {
                for c in 0..4 {
                    let at = |dx: u32, dy: u32| {
                        prev[(((2 * y + dy) * side + 2 * x + dx) * 4) as usize + c]
                    };
                    next.push(average(c, [at(0, 0), at(1, 0), at(0, 1), at(1, 1)]));
                }
            }
        }
        levels.push(next);
        side = half;
    }
    levels
}

/// The plain average, rounded.
fn linear_average(_: usize, v: [u8; 4]) -> u8 {
    let sum: u32 = v.iter().map(|&b| u32::from(b)).sum();
    (sum as f32 / 4.0).round() as u8
}

fn srgb_to_linear(v: u8) -> f32 {
    let c = f32::from(v) / 255.0;
    if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

fn linear_to_srgb(l: f32) -> u8 {
    let c = if l <= 0.003_130_8 {
        l * 12.92
    } else {
        1.055 * l.powf(1.0 / 2.4) - 0.055
    };
    (c * 255.0).round() as u8
}

/// The sRGB-correct average: colour channels decoded, averaged, encoded; alpha linear.
fn srgb_average(c: usize, v: [u8; 4]) -> u8 {
    if c == 3 {
        return linear_average(c, v);
    }
    linear_to_srgb(v.iter().map(|&b| srgb_to_linear(b)).sum::<f32>() / 4.0)
}

/// Renders mip `level` of `texture` (side `SIDE >> level`) into a target of `format` with
/// `decl` (binding `t`) and `sample` (an expression of `uv`, `k` and `s`) and reads it back.
fn draw_mip(
    gpu: &Gpu,
    texture: &Texture,
    level: u32,
    format: wgpu::TextureFormat,
    decl: &str,
    sample: &str,
) -> vgpu::Target {
    let side = SIDE >> level;
    let fs = format!(
        "{decl}
        @group(0) @binding(1) var s: sampler;
        @fragment fn fs_main(@builtin(position) pos: vec4f) -> @location(0) vec4f {{
            let uv = pos.xy / {side}.0;
            let k = {level}.0;
            return {sample};
        }}"
    );
    let draw = fullscreen(gpu, "mip sampler", &fs);
    draw.set("t", texture).unwrap();
    draw.set("s", &gpu.sampler(&SamplerDesc::nearest()).unwrap())
        .unwrap();
    let target = gpu
        .target_with(&TargetDesc::new(side, side).format(format))
        .unwrap();
    gpu.render_once(&target, &draw).unwrap();
    target
}

/// Asserts `got` (RGBA8 of mip `level`) is `want` within 1 per channel.
#[track_caller]
fn assert_close(got: &[u8], want: &[u8], what: &str) {
    assert_eq!(got.len(), want.len(), "{what}: size");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert!(
            g.abs_diff(*w) <= 1,
            "{what}: texel {} channel {}: GPU {g}, CPU average {w}",
            i / 4,
            i % 4
        );
    }
}

fn no_device_errors(gpu: &Gpu) {
    let errors = gpu.take_uncaptured_errors();
    assert!(errors.is_empty(), "uncaptured errors: {errors:?}");
}

fn mip_desc(label: &str, format: wgpu::TextureFormat) -> TextureDesc {
    TextureDesc {
        label: label.to_owned(),
        width: SIDE,
        height: SIDE,
        format,
        mip_level_count: LEVELS,
        ..Default::default()
    }
}

/// Writes `data` (one `SIDE`² layer of mip 0) to `layer` of `texture`.
fn write_layer(gpu: &Gpu, texture: &Texture, layer: u32, data: &[u8], texel: u32) {
    gpu.queue().write_texture(
        wgpu::TexelCopyTextureInfo {
            texture: texture.raw(),
            mip_level: 0,
            origin: wgpu::Origin3d {
                x: 0,
                y: 0,
                z: layer,
            },
            aspect: wgpu::TextureAspect::All,
        },
        data,
        wgpu::TexelCopyBufferLayout {
            offset: 0,
            bytes_per_row: Some(SIDE * texel),
            rows_per_image: Some(SIDE),
        },
        wgpu::Extent3d {
            width: SIDE,
            height: SIDE,
            depth_or_array_layers: 1,
        },
    );
}

#[test]
fn rgba8unorm_mips_are_the_2x2_average_of_the_previous_level() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    let level0 = image(1);
    let texture = gpu
        .texture_with_data(
            &mip_desc("rgba8 mips", wgpu::TextureFormat::Rgba8Unorm),
            &level0,
        )
        .unwrap();
    texture.generate_mips(&gpu).unwrap();
    let want = cpu_mips(&level0, &linear_average);
    for level in 0..LEVELS {
        let target = draw_mip(
            &gpu,
            &texture,
            level,
            wgpu::TextureFormat::Rgba8Unorm,
            "@group(0) @binding(0) var t: texture_2d<f32>;",
            "textureSampleLevel(t, s, uv, k)",
        );
        let got = target.read_rgba8().unwrap().data;
        assert_close(&got, &want[level as usize], &format!("mip {level}"));
    }
    no_device_errors(&gpu);
}

#[test]
fn srgb_mips_average_in_linear_light() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    let level0 = image(2);
    let format = wgpu::TextureFormat::Rgba8UnormSrgb;
    let texture = gpu
        .texture_with_data(&mip_desc("srgb mips", format), &level0)
        .unwrap();
    texture.generate_mips(&gpu).unwrap();
    let want = cpu_mips(&level0, &srgb_average);
    let naive = cpu_mips(&level0, &linear_average);
    for level in 1..LEVELS {
        // An sRGB target: the sampled (linear) value is encoded again on write.
        let target = draw_mip(
            &gpu,
            &texture,
            level,
            format,
            "@group(0) @binding(0) var t: texture_2d<f32>;",
            "textureSampleLevel(t, s, uv, k)",
        );
        let got = target.read_rgba8().unwrap().data;
        assert_close(&got, &want[level as usize], &format!("sRGB mip {level}"));
    }
    // The red checker (0 and 255) averages to linear 0.5: sRGB 188, where a naive average of the
    // encoded bytes gives 128. The first mip shows it.
    let target = draw_mip(
        &gpu,
        &texture,
        1,
        format,
        "@group(0) @binding(0) var t: texture_2d<f32>;",
        "textureSampleLevel(t, s, uv, k)",
    );
    let got = target.read_rgba8().unwrap().data;
    assert!(
        got[0].abs_diff(188) <= 1,
        "linear-light checker: {}",
        got[0]
    );
    assert!(
        got.iter().zip(&naive[1]).any(|(g, n)| g.abs_diff(*n) > 1),
        "a naive sRGB-space average would have passed too"
    );
    no_device_errors(&gpu);
}

/// Asserts `texture` (made with `usage`) is filled by the compute path exactly when `usage`
/// asks for storage: it lacks `RENDER_ATTACHMENT` then.
#[track_caller]
fn assert_compute_path(texture: &Texture, usage: wgpu::TextureUsages) {
    let renders = texture
        .raw()
        .usage()
        .contains(wgpu::TextureUsages::RENDER_ATTACHMENT);
    let storage = usage.contains(wgpu::TextureUsages::STORAGE_BINDING);
    assert_eq!(renders, !storage, "usage {:?}", texture.raw().usage());
}

/// The usages that pick the render path (nothing asked) and the compute path (storage).
const PATHS: [wgpu::TextureUsages; 2] = [
    wgpu::TextureUsages::empty(),
    wgpu::TextureUsages::STORAGE_BINDING,
];

#[test]
fn array_layers_get_their_own_mips() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    for usage in PATHS {
        array_layers_case(&gpu, usage);
    }
    no_device_errors(&gpu);
}

/// A 3-layer array made with `usage`, its mips generated and sampled layer by layer.
fn array_layers_case(gpu: &Gpu, usage: wgpu::TextureUsages) {
    let layers = 3;
    let desc = TextureDesc {
        depth_or_array_layers: layers,
        usage,
        ..mip_desc("array mips", wgpu::TextureFormat::Rgba8Unorm)
    };
    let texture = gpu.texture(&desc).unwrap();
    assert_compute_path(&texture, usage);
    let images: Vec<Vec<u8>> = (0..layers).map(|l| image(10 + l)).collect();
    for (layer, data) in images.iter().enumerate() {
        write_layer(gpu, &texture, layer as u32, data, 4);
    }
    texture.generate_mips(gpu).unwrap();
    for (layer, data) in images.iter().enumerate() {
        let want = cpu_mips(data, &linear_average);
        for level in 1..LEVELS {
            let target = draw_mip(
                gpu,
                &texture,
                level,
                wgpu::TextureFormat::Rgba8Unorm,
                "@group(0) @binding(0) var t: texture_2d_array<f32>;",
                &format!("textureSampleLevel(t, s, uv, {layer}, k)"),
            );
            let got = target.read_rgba8().unwrap().data;
            let what = format!("{usage:?}: layer {layer} mip {level}");
            assert_close(&got, &want[level as usize], &what);
        }
    }
}

#[test]
fn cube_faces_get_their_own_mips() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    for usage in PATHS {
        cube_faces_case(&gpu, usage);
    }
    no_device_errors(&gpu);
}

/// A cube made with `usage`, its mips generated and sampled face by face by direction.
fn cube_faces_case(gpu: &Gpu, usage: wgpu::TextureUsages) {
    let desc = TextureDesc {
        depth_or_array_layers: 6,
        view_dimension: Some(wgpu::TextureViewDimension::Cube),
        usage,
        ..mip_desc("cube mips", wgpu::TextureFormat::Rgba8Unorm)
    };
    let texture = gpu.texture(&desc).unwrap();
    assert_compute_path(&texture, usage);
    let faces: Vec<Vec<u8>> = (0..6).map(|f| image(20 + f)).collect();
    for (face, data) in faces.iter().enumerate() {
        write_layer(gpu, &texture, face as u32, data, 4);
    }
    texture.generate_mips(gpu).unwrap();
    // The direction through texel centre `uv` of each face (WebGPU's cube face table).
    let decl = "@group(0) @binding(0) var t: texture_cube<f32>;
        fn face_dir(face: u32, uv: vec2f) -> vec3f {
            let u = uv.x * 2.0 - 1.0;
            let v = uv.y * 2.0 - 1.0;
            switch face {
                case 0u: { return vec3f(1.0, -v, -u); }
                case 1u: { return vec3f(-1.0, -v, u); }
                case 2u: { return vec3f(u, 1.0, v); }
                case 3u: { return vec3f(u, -1.0, -v); }
                case 4u: { return vec3f(u, -v, 1.0); }
                default: { return vec3f(-u, -v, -1.0); }
            }
        }";
    for (face, data) in faces.iter().enumerate() {
        let want = cpu_mips(data, &linear_average);
        for level in 0..LEVELS {
            let sample = format!("textureSampleLevel(t, s, face_dir({face}u, uv), k)");
            let target = draw_mip(
                gpu,
                &texture,
                level,
                wgpu::TextureFormat::Rgba8Unorm,
                decl,
                &sample,
            );
            let got = target.read_rgba8().unwrap().data;
            let what = format!("{usage:?}: face {face} mip {level}");
            assert_close(&got, &want[level as usize], &what);
        }
    }
}

/// The half-float bits of `v`, exactly representable (a multiple of 1/64 in 0..8).
fn half_bits(v: f32) -> u16 {
    if v == 0.0 {
        return 0;
    }
    let e = v.log2().floor();
    let mantissa = v / e.exp2() - 1.0;
    (((e as i32 + 15) as u16) << 10) | (mantissa * 1024.0) as u16
}

#[test]
fn rgba16float_mips_average_hdr_values() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    // Values up to 4 (HDR), multiples of 1/64: exact in f16.
    let values: Vec<f32> = noise(3, (SIDE * SIDE * 4) as usize)
        .iter()
        .map(|&b| f32::from(b) / 64.0)
        .collect();
    let bytes: Vec<u8> = values
        .iter()
        .flat_map(|&v| half_bits(v).to_le_bytes())
        .collect();
    let format = wgpu::TextureFormat::Rgba16Float;
    let texture = gpu
        .texture_with_data(&mip_desc("hdr mips", format), &bytes)
        .unwrap();
    texture.generate_mips(&gpu).unwrap();
    let mut want = values;
    for level in 1..LEVELS {
        let side = (SIDE >> level) as usize;
        let prev = want;
        want = (0..side * side * 4)
            .map(|i| {
                let (texel, c) = (i / 4, i % 4);
                let (x, y) = (texel % side, texel / side);
                let at =
                    |dx: usize, dy: usize| prev[((2 * y + dy) * side * 2 + 2 * x + dx) * 4 + c];
                (at(0, 0) + at(1, 0) + at(0, 1) + at(1, 1)) / 4.0
            })
            .collect();
        let target = draw_mip(
            &gpu,
            &texture,
            level,
            format,
            "@group(0) @binding(0) var t: texture_2d<f32>;",
            "textureSampleLevel(t, s, uv, k)",
        );
        let got = target.read_f32().unwrap();
        for (i, (g, w)) in got.as_flattened().iter().zip(&want).enumerate() {
            // Each level rounds to f16 (11 significant bits) once more.
            assert!(
                (g - w).abs() <= w.abs() * 4.0 / 1024.0 + 1e-3,
                "rgba16float mip {level} value {i}: GPU {g}, CPU {w}"
            );
        }
        want = got.as_flattened().to_vec();
    }
    no_device_errors(&gpu);
}

/// Mip `level` of `layer` of an `R32Float` texture, read back by a copy.
fn read_r32_mip(gpu: &Gpu, texture: &Texture, level: u32, layer: u32) -> Vec<f32> {
    let side = SIDE >> level;
    let row = (side * 4).next_multiple_of(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT);
    let buffer = gpu.device().create_buffer(&wgpu::BufferDescriptor {
        label: Some("r32 mip read"),
        size: u64::from(row * side),
        usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
        mapped_at_creation: false,
    });
    let mut encoder = gpu.device().create_command_encoder(&Default::default());
    encoder.copy_texture_to_buffer(
        wgpu::TexelCopyTextureInfo {
            texture: texture.raw(),
            mip_level: level,
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
                bytes_per_row: Some(row),
                rows_per_image: Some(side),
            },
        },
        wgpu::Extent3d {
            width: side,
            height: side,
            depth_or_array_layers: 1,
        },
    );
    gpu.queue().submit([encoder.finish()]);
    buffer
        .slice(..)
        .map_async(wgpu::MapMode::Read, |r| r.unwrap());
    gpu.wait_idle().unwrap();
    let mapped = buffer.slice(..).get_mapped_range().unwrap();
    let mut out = Vec::new();
    for y in 0..side {
        let start = (y * row) as usize;
        let bytes = &mapped[start..start + (side * 4) as usize];
        out.extend(bytemuck::pod_collect_to_vec::<u8, f32>(bytes));
    }
    out
}

/// Asserts each mip of `layer` of the `R32Float` `texture` is the 2×2 average of the previous
/// one (read back), starting from `values`.
#[track_caller]
fn assert_r32_mips(gpu: &Gpu, texture: &Texture, layer: u32, values: &[f32]) {
    let mut prev = read_r32_mip(gpu, texture, 0, layer);
    assert_eq!(prev, values, "layer {layer} mip 0");
    for level in 1..LEVELS {
        let side = (SIDE >> level) as usize;
        let got = read_r32_mip(gpu, texture, level, layer);
        for y in 0..side {
            for x in 0..side {
                let at = |dx: usize, dy: usize| prev[(2 * y + dy) * side * 2 + 2 * x + dx];
                let want = (at(0, 0) + at(1, 0) + at(0, 1) + at(1, 1)) / 4.0;
                let g = got[y * side + x];
                assert!(
                    (g - want).abs() <= 1e-4,
                    "r32float layer {layer} mip {level} ({x},{y}): GPU {g}, CPU {want}"
                );
            }
        }
        prev = got;
    }
}

/// `SIDE`² floats from `seed`, negative and positive.
fn floats(seed: u32) -> Vec<f32> {
    noise(seed, (SIDE * SIDE) as usize)
        .iter()
        .map(|&b| f32::from(b) * 0.37 - 20.0)
        .collect()
}

/// An `R32Float` mip chain of `layers`, made with `STORAGE_BINDING` (and so without
/// `RENDER_ATTACHMENT`: the compute path), each layer `floats(40 + layer)`.
fn r32_texture(gpu: &Gpu, layers: u32) -> Texture {
    let desc = TextureDesc {
        usage: wgpu::TextureUsages::STORAGE_BINDING,
        depth_or_array_layers: layers,
        ..mip_desc("r32 mips", wgpu::TextureFormat::R32Float)
    };
    let texture = gpu.texture(&desc).unwrap();
    assert_compute_path(&texture, wgpu::TextureUsages::STORAGE_BINDING);
    for layer in 0..layers {
        let values = floats(40 + layer);
        write_layer(gpu, &texture, layer, bytemuck::cast_slice(&values), 4);
    }
    texture
}

#[test]
fn r32float_mips_by_the_compute_path() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    let texture = r32_texture(&gpu, 1);
    texture.generate_mips(&gpu).unwrap();
    assert_r32_mips(&gpu, &texture, 0, &floats(40));
    no_device_errors(&gpu);
}

/// Asserts `texture.generate_mips` refuses a texture per `desc` with `code`, naming it.
#[track_caller]
fn assert_refused(gpu: &Gpu, desc: &TextureDesc, code: &str) {
    let texture = gpu.texture(desc).unwrap();
    let err = texture.generate_mips(gpu).unwrap_err();
    let message = err.to_string();
    assert_eq!(err.code(), code, "{}: {message}", desc.label);
    assert!(
        message.contains(&desc.label),
        "names the texture: {message}"
    );
    assert!(err.as_texture().is_some(), "a texture error: {message}");
}

#[test]
fn refusals_have_the_mips_code() {
    let gpu = Gpu::noop();
    let rgba = wgpu::TextureFormat::Rgba8Unorm;
    let one_mip = TextureDesc {
        mip_level_count: 1,
        ..mip_desc("one mip", rgba)
    };
    let volume = TextureDesc {
        dimension: wgpu::TextureDimension::D3,
        depth_or_array_layers: 4,
        ..mip_desc("volume", rgba)
    };
    let msaa = TextureDesc {
        sample_count: 4,
        mip_level_count: 1,
        usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
        ..mip_desc("msaa", rgba)
    };
    let integer = mip_desc("integer", wgpu::TextureFormat::Rgba8Uint);
    let depth = mip_desc("depth", wgpu::TextureFormat::Depth32Float);
    // Sampled as float, but neither renderable nor storable (WebGPU's guarantees on noop).
    let shared_exponent = mip_desc("rgb9e5", wgpu::TextureFormat::Rgb9e5Ufloat);
    for desc in [one_mip, volume, msaa, integer, depth, shared_exponent] {
        assert_refused(&gpu, &desc, "VGPU-TEXTURE-MIPS");
    }
    assert!(gpu.take_uncaptured_errors().is_empty());
}

#[test]
fn mip_pipelines_are_created_once_per_format_and_another_gpu_is_refused() {
    let gpu = Gpu::noop();
    let texture = gpu
        .texture(&mip_desc("cached", wgpu::TextureFormat::Rgba8Unorm))
        .unwrap();
    texture.generate_mips(&gpu).unwrap();
    let pipelines = gpu.stats().pipelines_created;
    let submissions = gpu.stats().submissions;
    texture.generate_mips(&gpu).unwrap();
    assert_eq!(gpu.stats().pipelines_created, pipelines, "cached pipeline");
    assert_eq!(gpu.stats().submissions, submissions + 1, "one submission");
    let other = Gpu::noop();
    let err = texture.generate_mips(&other).unwrap_err();
    assert_eq!(err.code(), "VGPU-FOREIGN-GPU");
}
