//! Tier 1 (noop device): every refusal of a texture description (`VGPU-TEXTURE-DESC`), of a
//! view (`VGPU-TEXTURE-VIEW`) and of a texture kind a binding does not take (`VGPU-SET-KIND`)
//! returns its code, before wgpu sees the call (no uncaptured wgpu error), and a kind refusal
//! names the WGSL type and the view.

#![allow(clippy::unwrap_used, reason = "an unwrap in a test is an assertion")]

use vgpu::wgpu::{self, TextureFormat as F, TextureUsages as U, TextureViewDimension as V};
use vgpu::{Gpu, TextureDesc, ViewDesc};
use vgpu_tests::fullscreen;

fn gpu() -> Gpu {
    Gpu::noop()
}

/// Asserts `result` is an error of `code` whose text contains each of `parts`.
#[track_caller]
fn refused<T: std::fmt::Debug>(result: vgpu::Result<T>, code: &str, parts: &[&str]) {
    let e = result.expect_err(&format!("{code} {parts:?}"));
    let text = e.to_string();
    assert_eq!(e.code(), code, "{text}");
    for part in parts {
        assert!(text.contains(part), "{part:?} not in: {text}");
    }
}

#[test]
fn bad_texture_descriptions_are_refused_with_what_is_expected() {
    let gpu = gpu();
    let c = F::Rgba8Unorm;
    let cases: Vec<(TextureDesc, &[&str])> = vec![
        (TextureDesc::new(0, 4, c), &["0x4", "at least 1"]),
        (TextureDesc::array(4, 4, 0, c), &["0 layers"]),
        (TextureDesc::new(1 << 20, 4, c), &["sides at most"]),
        (
            TextureDesc::array(4, 4, 1 << 20, c),
            &["layers on this device"],
        ),
        (TextureDesc::d3(4, 4, 1 << 20, c), &["depth on this device"]),
        (TextureDesc::d1(1 << 20, c), &["sides at most"]),
        (
            TextureDesc {
                height: 4,
                ..TextureDesc::d1(8, c)
            },
            &["1D texture of height 4"],
        ),
        (
            TextureDesc::new(8, 4, c).mips(5),
            &["5 mip levels", "1 to 4 mip levels"],
        ),
        (TextureDesc::new(8, 4, c).mips(0), &["0 mip levels"]),
        (
            TextureDesc {
                width: 8,
                ..TextureDesc::cube(4, c)
            },
            &["8x4 faces", "square faces"],
        ),
        (
            TextureDesc {
                depth_or_array_layers: 5,
                ..TextureDesc::cube(4, c)
            },
            &["5 layers", "6 layers"],
        ),
        (
            TextureDesc {
                view_dimension: Some(V::D3),
                ..TextureDesc::new(4, 4, c)
            },
            &["D3 default view of a D2 texture"],
        ),
        (
            TextureDesc::new(4, 4, c).samples(2),
            &["2 samples", "1 or 4"],
        ),
        (
            TextureDesc::new(4, 4, c).samples(4).mips(2),
            &["4 samples", "one mip"],
        ),
        (TextureDesc::array(4, 4, 2, c).samples(4), &["one layer"]),
        (
            TextureDesc::new(4, 4, c)
                .samples(4)
                .usage(U::STORAGE_BINDING),
            &["STORAGE_BINDING"],
        ),
        (
            TextureDesc::new(4, 4, F::Rgba32Float).samples(4),
            &["cannot multisample"],
        ),
        (
            TextureDesc::new(4, 4, c).view_format(F::Bgra8Unorm),
            &["view format Bgra8Unorm", "Rgba8UnormSrgb"],
        ),
    ];
    for (desc, parts) in cases {
        let desc = desc.label("bad");
        refused(
            gpu.texture(&desc),
            "VGPU-TEXTURE-DESC",
            &[&["\"bad\""], parts].concat(),
        );
    }
    // The accepted neighbours of those.
    for desc in [
        TextureDesc::new(8, 4, c).full_mips(),
        TextureDesc::cube(4, c).full_mips(),
        TextureDesc::array(4, 4, 3, c),
        TextureDesc::d3(4, 4, 4, c).full_mips(),
        TextureDesc::d1(8, c),
        TextureDesc::new(4, 4, c).samples(4),
        TextureDesc::new(4, 4, c).view_format(F::Rgba8UnormSrgb),
    ] {
        gpu.texture(&desc).unwrap();
    }
    assert_eq!(TextureDesc::new(8, 4, c).full_mips().mip_level_count, 4);
    let errors = gpu.take_uncaptured_errors();
    assert!(errors.is_empty(), "{errors:?}");
}

#[test]
fn views_of_what_a_texture_does_not_have_are_refused() {
    let gpu = gpu();
    let sky = gpu
        .texture(&TextureDesc::cube(4, F::Rgba8Unorm).full_mips().label("sky"))
        .unwrap();
    let flat = gpu
        .texture(
            &TextureDesc::new(4, 2, F::Rgba8Unorm)
                .view_format(F::Rgba8UnormSrgb)
                .label("flat"),
        )
        .unwrap();
    let deep = gpu
        .texture(&TextureDesc::new(4, 4, F::Depth32Float).label("deep"))
        .unwrap();
    refused(
        sky.layer_view(6),
        "VGPU-TEXTURE-VIEW",
        &["\"sky\"", "layers 6..7", "within 0..6"],
    );
    refused(
        sky.mip_view(3),
        "VGPU-TEXTURE-VIEW",
        &["mip 3", "the texture has 3"],
    );
    refused(
        flat.cube_view(),
        "VGPU-TEXTURE-VIEW",
        &["\"flat\"", "layers 0..6", "within 0..1"],
    );
    let oblong = gpu
        .texture(&TextureDesc::array(4, 2, 6, F::Rgba8Unorm).label("oblong"))
        .unwrap();
    refused(
        oblong.cube_view(),
        "VGPU-TEXTURE-VIEW",
        &["\"oblong\"", "4x2 faces", "square"],
    );
    let array = gpu
        .texture(&TextureDesc::array(4, 4, 4, F::Rgba8Unorm))
        .unwrap();
    refused(
        array.cube_view(),
        "VGPU-TEXTURE-VIEW",
        &["layers 0..6", "within 0..4"],
    );
    refused(
        array.view_with(&ViewDesc {
            dimension: Some(V::Cube),
            layer_count: Some(4),
            ..ViewDesc::default()
        }),
        "VGPU-TEXTURE-VIEW",
        &["cube view of 4 layers", "6 layers"],
    );
    refused(
        flat.view_with(&ViewDesc {
            dimension: Some(V::D3),
            ..ViewDesc::default()
        }),
        "VGPU-TEXTURE-VIEW",
        &["D3 view of a D2 texture"],
    );
    refused(
        flat.view_with(&ViewDesc {
            format: Some(F::Bgra8Unorm),
            ..ViewDesc::default()
        }),
        "VGPU-TEXTURE-VIEW",
        &["format Bgra8Unorm", "Rgba8UnormSrgb"],
    );
    refused(
        flat.view_with(&ViewDesc {
            aspect: wgpu::TextureAspect::DepthOnly,
            ..ViewDesc::default()
        }),
        "VGPU-TEXTURE-VIEW",
        &["aspect DepthOnly"],
    );
    refused(
        sky.view_with(&ViewDesc {
            mip_count: Some(0),
            ..ViewDesc::default()
        }),
        "VGPU-TEXTURE-VIEW",
        &["count Some(0)"],
    );
    refused(
        sky.array_view().unwrap().target(&gpu),
        "VGPU-TEXTURE-VIEW",
        &[
            "3 mip(s) and 6 layer(s)",
            "as a render target",
            "one mip and one layer",
        ],
    );
    // Their accepted neighbours.
    assert_eq!(sky.layer_view(5).unwrap().layers(), 5..6);
    assert_eq!(sky.mip_view(2).unwrap().size(), (1, 1));
    assert_eq!(sky.mip_view(1).unwrap().dimension(), V::Cube);
    assert_eq!(sky.array_view().unwrap().layers(), 0..6);
    let srgb = flat
        .view_with(&ViewDesc {
            format: Some(F::Rgba8UnormSrgb),
            ..ViewDesc::default()
        })
        .unwrap();
    assert_eq!(srgb.format(), F::Rgba8UnormSrgb);
    let depth = deep
        .view_with(&ViewDesc {
            aspect: wgpu::TextureAspect::DepthOnly,
            ..ViewDesc::default()
        })
        .unwrap();
    assert_eq!(depth.format(), F::Depth32Float);
    assert_eq!(
        sky.mip_size(1).map(|e| (e.width, e.depth_or_array_layers)),
        Some((2, 6))
    );
    assert_eq!(sky.mip_size(3), None);
    let errors = gpu.take_uncaptured_errors();
    assert!(errors.is_empty(), "{errors:?}");
}

/// A fragment shader binding `decl` as `t` (and touching it so it is not optimized away).
fn binding(gpu: &Gpu, decl: &str, use_it: &str) -> vgpu::Draw {
    fullscreen(
        gpu,
        "probe",
        &format!(
            "@group(0) @binding(0) var t: {decl};
             @fragment fn fs_main() -> @location(0) vec4f {{ {use_it} return vec4f(0.0); }}"
        ),
    )
}

#[test]
fn a_texture_of_another_kind_than_the_binding_is_refused_naming_both() {
    let gpu = gpu();
    let c = F::Rgba8Unorm;
    let sky = gpu.texture(&TextureDesc::cube(4, c).label("sky")).unwrap();
    let flat = gpu
        .texture(&TextureDesc::new(4, 4, c).label("flat"))
        .unwrap();
    let layers = gpu
        .texture(&TextureDesc::array(4, 4, 3, c).label("layers"))
        .unwrap();
    let msaa = gpu
        .texture(&TextureDesc::new(4, 4, c).samples(4).label("msaa"))
        .unwrap();
    let depth = gpu
        .texture(&TextureDesc::new(4, 4, F::Depth32Float).label("depth"))
        .unwrap();
    let ints = gpu
        .texture(&TextureDesc::new(4, 4, F::R32Uint).label("ints"))
        .unwrap();
    let load2 = "_ = textureLoad(t, vec2i(0), 0);";
    let dims = "_ = textureDimensions(t);";

    let d2 = binding(&gpu, "texture_2d<f32>", load2);
    refused(
        d2.set("t", &sky),
        "VGPU-SET-KIND",
        &[
            "texture_2d<f32>",
            "a cube view of texture \"sky\" (6 layers",
            "layer_view",
            "declare the binding texture_cube<f32>",
        ],
    );
    refused(
        d2.set("t", &layers),
        "VGPU-SET-KIND",
        &[
            "a 2D array view of texture \"layers\" (3 layers",
            "texture_2d_array<f32>",
        ],
    );
    refused(
        d2.set("t", &msaa),
        "VGPU-SET-KIND",
        &["texture \"msaa\"", "4 samples", "texture_multisampled_2d"],
    );
    refused(d2.set("t", &ints), "VGPU-SET-KIND", &["texture_2d<u32>"]);
    // Accepted: one face of the cube, the 2D texture.
    d2.set("t", &sky.layer_view(0).unwrap()).unwrap();
    d2.set("t", &flat).unwrap();

    let cube = binding(&gpu, "texture_cube<f32>", dims);
    refused(
        cube.set("t", &flat),
        "VGPU-SET-KIND",
        &[
            "texture_cube<f32>",
            "a 2D view of texture \"flat\" (1 layer, 1 mip",
            "cube_view()",
        ],
    );
    refused(
        cube.set("t", &sky.array_view().unwrap()),
        "VGPU-SET-KIND",
        &["a 2D array view of texture \"sky\" (6 layers"],
    );
    cube.set("t", &sky.cube_view().unwrap()).unwrap();

    let array = binding(&gpu, "texture_2d_array<f32>", dims);
    refused(
        array.set("t", &flat),
        "VGPU-SET-KIND",
        &["texture_2d_array<f32>", "array_view()"],
    );
    array.set("t", &sky.array_view().unwrap()).unwrap();

    let d3 = binding(&gpu, "texture_3d<f32>", dims);
    refused(
        d3.set("t", &flat),
        "VGPU-SET-KIND",
        &["texture_3d<f32>", "TextureDesc::d3"],
    );

    let ms = binding(&gpu, "texture_multisampled_2d<f32>", dims);
    refused(
        ms.set("t", &flat),
        "VGPU-SET-KIND",
        &[
            "texture_multisampled_2d<f32>",
            "texture \"flat\"",
            "1 sample(s)",
        ],
    );
    ms.set("t", &msaa).unwrap();

    let depth_cube = binding(&gpu, "texture_depth_cube", dims);
    refused(
        depth_cube.set("t", &depth),
        "VGPU-SET-KIND",
        &["texture_depth_cube", "a 2D view of texture \"depth\""],
    );

    let uints = binding(&gpu, "texture_2d<u32>", load2);
    refused(
        uints.set("t", &flat),
        "VGPU-SET-KIND",
        &["texture_2d<u32>", "Rgba8Unorm"],
    );
    uints.set("t", &ints).unwrap();

    // A raw wgpu view's dimension is not known: not checked at set.
    let raw = gpu.texture(&TextureDesc::new(4, 4, c)).unwrap();
    d2.set("t", raw.view()).unwrap();
}

#[test]
fn storage_textures_are_checked_for_usage_one_mip_and_dimension() {
    let gpu = gpu();
    let storage = |desc: TextureDesc| gpu.texture(&desc.usage(U::STORAGE_BINDING)).unwrap();
    let write = binding(
        &gpu,
        "texture_storage_2d<rgba8unorm, write>",
        "textureStore(t, vec2i(0), vec4f(1.0));",
    );
    // Write-only needs STORAGE_BINDING usage.
    let plain = gpu
        .texture(&TextureDesc::new(4, 4, F::Rgba8Unorm).label("plain"))
        .unwrap();
    refused(
        write.set("t", &plain),
        "VGPU-SET-KIND",
        &["STORAGE_BINDING"],
    );
    // One mip per storage binding.
    let chain = storage(TextureDesc::new(4, 4, F::Rgba8Unorm).mips(3).label("chain"));
    refused(
        write.set("t", &chain),
        "VGPU-SET-KIND",
        &["texture \"chain\"", "3 mips", "mip_view"],
    );
    write.set("t", &chain.mip_view(1).unwrap()).unwrap();
    // Its dimension, too.
    let array = storage(TextureDesc::array(4, 4, 2, F::Rgba8Unorm).label("pages"));
    refused(
        write.set("t", &array),
        "VGPU-SET-KIND",
        &["texture_storage_2d", "a 2D array view of texture \"pages\""],
    );
    write.set("t", &array.layer_view(1).unwrap()).unwrap();
}
