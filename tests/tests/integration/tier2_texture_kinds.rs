//! Tier 2 (real device): texture kinds reach the shader as the kind they are. A cube sampled by
//! direction, an array layer chosen by a uniform index, a 3D slice, a multisampled texture's
//! samples averaged against its resolve, and each storage texture access mode (write, read,
//! read_write) from a compute. Colors are chosen so each reads back exactly (no tolerance, but
//! for the resolve, which a backend may round differently by one step).
//!
//! Each case runs on the noop device (creation and binding checks only) and then on the device
//! `VGPU_BACKEND` names (`vulkan`: lavapipe, `gl`: llvmpipe), pixels checked there.

#![allow(clippy::unwrap_used, reason = "an unwrap in a test is an assertion")]

use vgpu::wgpu;
use vgpu::{BufferDesc, ComputeDesc, Gpu, RgbaImage, SamplerDesc, Texture, TextureDesc};
use vgpu_tests::{each_gpu, fullscreen};

/// Fills layer (or 3D slice) `layer` of mip 0 with `color` (DATA's per-layer write may replace
/// this; the raw queue keeps these tests independent of it).
fn fill_layer(gpu: &Gpu, texture: &Texture, layer: u32, color: [u8; 4]) {
    let (w, h) = texture.size();
    let data: Vec<u8> = (0..w * h).flat_map(|_| color).collect();
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
        &data,
        wgpu::TexelCopyBufferLayout {
            offset: 0,
            bytes_per_row: Some(4 * w),
            rows_per_image: Some(h),
        },
        wgpu::Extent3d {
            width: w,
            height: h,
            depth_or_array_layers: 1,
        },
    );
}

/// A distinct color per layer.
fn layer_color(i: u32) -> [u8; 4] {
    let i = i as u8;
    [10 + 40 * i, 200 - 30 * i, 5 + 17 * i, 255]
}

/// Renders `draw` alone into a fresh `w`×`h` target and reads it back.
fn render(gpu: &Gpu, draw: &vgpu::Draw, w: u32, h: u32) -> RgbaImage {
    let target = gpu.target(w, h).unwrap();
    gpu.frame(|f| f.pass(&target, |p| p.draw(draw))).unwrap();
    target.read_rgba8().unwrap()
}

const CUBE_FS: &str = "
@group(0) @binding(0) var sky: texture_cube<f32>;
@group(0) @binding(1) var s: sampler;
@fragment fn fs_main(@builtin(position) pos: vec4f) -> @location(0) vec4f {
    var dirs = array<vec3f, 6>(
        vec3f(1.0, 0.0, 0.0), vec3f(-1.0, 0.0, 0.0), vec3f(0.0, 1.0, 0.0),
        vec3f(0.0, -1.0, 0.0), vec3f(0.0, 0.0, 1.0), vec3f(0.0, 0.0, -1.0));
    return textureSampleLevel(sky, s, dirs[u32(pos.x)], 0.0);
}";

#[test]
fn a_cube_sampled_along_each_axis_reads_that_face() {
    each_gpu(|gpu| {
        let sky = gpu
            .texture(&TextureDesc::cube(2, wgpu::TextureFormat::Rgba8Unorm).label("sky"))
            .unwrap();
        assert_eq!(sky.view_dimension(), wgpu::TextureViewDimension::Cube);
        assert_eq!((sky.layers(), sky.size()), (6, (2, 2)));
        for face in 0..6 {
            fill_layer(gpu, &sky, face, layer_color(face));
        }
        let sampler = gpu.sampler(&SamplerDesc::nearest()).unwrap();
        let draw = fullscreen(gpu, "cube", CUBE_FS);
        draw.set("s", &sampler).unwrap();
        // The texture's default view (a cube) and an explicit cube view bind alike.
        for (what, bind) in [
            ("default view", None),
            ("cube_view()", Some(sky.cube_view().unwrap())),
        ] {
            match &bind {
                None => draw.set("sky", &sky).unwrap(),
                Some(view) => draw.set("sky", view).unwrap(),
            }
            let image = render(gpu, &draw, 6, 1);
            if gpu.is_noop() {
                continue;
            }
            for face in 0..6 {
                assert_eq!(
                    image.pixel(face, 0),
                    Some(layer_color(face)),
                    "{what}: face {face}"
                );
            }
        }
        // One face as a texture_2d.
        let flat = fullscreen(
            gpu,
            "face",
            "@group(0) @binding(0) var face: texture_2d<f32>;
             @fragment fn fs_main() -> @location(0) vec4f {
                 return textureLoad(face, vec2i(1, 1), 0);
             }",
        );
        let face = sky.layer_view(3).unwrap();
        if gpu.adapter_info().backend == wgpu::Backend::Gl {
            // GL has no texture views: the cube binds only as a cube, refused at set.
            let e = flat.set("face", &face).unwrap_err();
            assert_eq!(e.code(), "VGPU-SET-KIND", "{e}");
            assert!(e.to_string().contains("GL backend cannot bind"), "{e}");
            return;
        }
        flat.set("face", &face).unwrap();
        let image = render(gpu, &flat, 1, 1);
        if !gpu.is_noop() {
            assert_eq!(image.pixel(0, 0), Some(layer_color(3)), "layer_view(3)");
        }
    });
}

#[test]
fn an_array_layer_is_chosen_by_a_uniform_index() {
    each_gpu(|gpu| {
        let layers = gpu
            .texture(&TextureDesc::array(2, 2, 4, wgpu::TextureFormat::Rgba8Unorm).label("layers"))
            .unwrap();
        for layer in 0..4 {
            fill_layer(gpu, &layers, layer, layer_color(layer));
        }
        let draw = fullscreen(
            gpu,
            "array",
            "@group(0) @binding(0) var layers: texture_2d_array<f32>;
             @group(0) @binding(1) var s: sampler;
             @group(0) @binding(2) var<uniform> index: u32;
             @fragment fn fs_main() -> @location(0) vec4f {
                 return textureSampleLevel(layers, s, vec2f(0.5), i32(index), 0.0);
             }",
        );
        draw.set("layers", &layers).unwrap();
        draw.set("s", &gpu.sampler(&SamplerDesc::nearest()).unwrap())
            .unwrap();
        for index in [2u32, 0, 3, 1] {
            draw.set("index", &index).unwrap();
            let image = render(gpu, &draw, 1, 1);
            if !gpu.is_noop() {
                assert_eq!(image.pixel(0, 0), Some(layer_color(index)), "layer {index}");
            }
        }
    });
}

#[test]
fn a_3d_texture_is_read_slice_by_slice() {
    each_gpu(|gpu| {
        let volume = gpu
            .texture(&TextureDesc::d3(2, 2, 4, wgpu::TextureFormat::Rgba8Unorm).label("volume"))
            .unwrap();
        assert_eq!(volume.dimension(), wgpu::TextureDimension::D3);
        assert_eq!(volume.view_dimension(), wgpu::TextureViewDimension::D3);
        for z in 0..4 {
            fill_layer(gpu, &volume, z, layer_color(z));
        }
        let draw = fullscreen(
            gpu,
            "slices",
            "@group(0) @binding(0) var volume: texture_3d<f32>;
             @group(0) @binding(1) var s: sampler;
             @fragment fn fs_main(@builtin(position) pos: vec4f) -> @location(0) vec4f {
                 let z = u32(pos.x);
                 if pos.y < 1.0 {
                     return textureLoad(volume, vec3i(1, 0, i32(z)), 0);
                 }
                 // Sampled at w = the slice's center.
                 return textureSampleLevel(volume, s, vec3f(0.5, 0.5, (f32(z) + 0.5) / 4.0), 0.0);
             }",
        );
        draw.set("volume", &volume).unwrap();
        draw.set("s", &gpu.sampler(&SamplerDesc::nearest()).unwrap())
            .unwrap();
        let image = render(gpu, &draw, 4, 2);
        if gpu.is_noop() {
            return;
        }
        for z in 0..4 {
            for y in 0..2 {
                assert_eq!(
                    image.pixel(z, y),
                    Some(layer_color(z)),
                    "slice {z}, row {y}"
                );
            }
        }
    });
}

/// A triangle over the lower-left half of the viewport: the diagonal's pixels are partly
/// covered, so their samples differ.
const HALF_VS_FS: &str = "
@vertex fn vs_main(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
    var p = array<vec2f, 3>(vec2f(-1.0, -1.0), vec2f(1.0, -1.0), vec2f(-1.0, 1.0));
    return vec4f(p[i], 0.0, 1.0);
}
@fragment fn fs_main() -> @location(0) vec4f { return vec4f(1.0, 0.5, 0.0, 1.0); }
";

/// Resolves `msaa` into `resolved` with a raw wgpu pass (load, store, resolve).
fn resolve(gpu: &Gpu, msaa: &Texture, resolved: &Texture) {
    let mut encoder = gpu
        .device()
        .create_command_encoder(&wgpu::CommandEncoderDescriptor {
            label: Some("resolve"),
        });
    drop(encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
        label: Some("resolve"),
        color_attachments: &[Some(wgpu::RenderPassColorAttachment {
            view: msaa.view(),
            depth_slice: None,
            resolve_target: Some(resolved.view()),
            ops: wgpu::Operations {
                load: wgpu::LoadOp::Load,
                store: wgpu::StoreOp::Store,
            },
        })],
        ..Default::default()
    }));
    gpu.queue().submit([encoder.finish()]);
}

#[test]
fn a_multisampled_texture_s_samples_average_to_its_resolve() {
    each_gpu(|gpu| {
        let format = wgpu::TextureFormat::Rgba8Unorm;
        let msaa = gpu.texture(&TextureDesc::new(4, 4, format).samples(4).label("msaa"));
        if gpu.adapter_info().backend == wgpu::Backend::Gl {
            // wgpu's GL backend cannot store a sampled multisampled texture: refused, typed.
            let e = msaa.unwrap_err();
            assert_eq!(e.code(), "VGPU-TEXTURE-DESC", "{e}");
            assert!(e.to_string().contains("GL backend"), "{e}");
            return;
        }
        let msaa = msaa.unwrap();
        assert_eq!(msaa.sample_count(), 4);
        assert!(
            msaa.raw()
                .usage()
                .contains(wgpu::TextureUsages::RENDER_ATTACHMENT)
        );
        let resolved = gpu
            .texture(
                &TextureDesc::new(4, 4, format)
                    .usage(wgpu::TextureUsages::RENDER_ATTACHMENT)
                    .label("resolved"),
            )
            .unwrap();
        let into = gpu.target_for_view("into msaa", msaa.view(), None).unwrap();
        let shader = gpu.shader("half", HALF_VS_FS).unwrap();
        let half = gpu.draw(&shader, vgpu::DrawDesc::default()).unwrap();
        gpu.frame(|f| f.pass(&into, |p| p.draw(&half))).unwrap();
        resolve(gpu, &msaa, &resolved);

        let average = fullscreen(
            gpu,
            "average",
            "@group(0) @binding(0) var ms: texture_multisampled_2d<f32>;
             @fragment fn fs_main(@builtin(position) pos: vec4f) -> @location(0) vec4f {
                 var sum = vec4f(0.0);
                 for (var i = 0; i < 4; i++) { sum += textureLoad(ms, vec2i(pos.xy), i); }
                 return sum / 4.0;
             }",
        );
        average.set("ms", &msaa).unwrap();
        let show = fullscreen(
            gpu,
            "show",
            "@group(0) @binding(0) var r: texture_2d<f32>;
             @fragment fn fs_main(@builtin(position) pos: vec4f) -> @location(0) vec4f {
                 return textureLoad(r, vec2i(pos.xy), 0);
             }",
        );
        show.set("r", &resolved).unwrap();
        let (averaged, resolved) = (render(gpu, &average, 4, 4), render(gpu, &show, 4, 4));
        if gpu.is_noop() {
            return;
        }
        let mut partial = 0;
        for y in 0..4 {
            for x in 0..4 {
                let (a, r) = (averaged.pixel(x, y).unwrap(), resolved.pixel(x, y).unwrap());
                for c in 0..4 {
                    assert!(
                        a[c].abs_diff(r[c]) <= 1,
                        "({x},{y}): average {a:?}, resolve {r:?}"
                    );
                }
                partial += usize::from(a[0] != 0 && a[0] != 255);
            }
        }
        assert!(partial > 0, "some pixel is partly covered: {averaged:?}");
        assert_eq!(
            averaged.pixel(0, 3),
            Some([255, 128, 0, 255]),
            "covered corner"
        );
        assert_eq!(
            averaged.pixel(3, 0).map(|p| p[0]),
            Some(0),
            "uncovered corner"
        );
    });
}

/// `STORAGE_BINDING` r32float texture of `values` (one row).
fn r32_texture(gpu: &Gpu, label: &str, values: &[f32]) -> Texture {
    let desc = TextureDesc::new(values.len() as u32, 1, wgpu::TextureFormat::R32Float)
        .usage(wgpu::TextureUsages::STORAGE_BINDING)
        .label(label);
    gpu.texture_with_data(&desc, bytemuck::cast_slice(values))
        .unwrap()
}

/// Runs `compute` (its `t` set to `texture`, its `out` to a fresh buffer of 4 f32) `times` times
/// in one frame and reads `out` back; `Err` (the refusal of `set`) where the device cannot
/// bind `t` with the shader's access.
fn run_storage(gpu: &Gpu, wgsl: &str, texture: &Texture, times: u32) -> vgpu::Result<Vec<f32>> {
    let shader = gpu.shader("storage", wgsl)?;
    let compute = gpu.compute(&shader, ComputeDesc::default())?;
    compute.set("t", texture)?;
    let out = gpu.buffer(&BufferDesc {
        label: "out".into(),
        size: 16,
        usage: wgpu::BufferUsages::STORAGE,
    })?;
    compute.set("out", &out)?;
    gpu.frame(|f| f.compute_pass(|c| (0..times).try_for_each(|_| c.dispatch(&compute, 1, 1, 1))))?;
    if gpu.is_noop() {
        return Ok(Vec::new());
    }
    Ok(bytemuck::pod_collect_to_vec(&out.read_blocking()?))
}

/// On a backend without `access` for r32float storage textures (GL may lack read-only or
/// read-write ones), the compute is refused where its layout is made, before wgpu sees it:
/// `VGPU-TEXTURE-STORAGE-ACCESS` naming the WGSL type and the access, never a panic, a
/// `VGPU-BIND-DEVICE` or an uncaptured error. `access` is as WGSL spells it.
fn expect_refused(gpu: &Gpu, result: vgpu::Result<Vec<f32>>, access: &str) -> Option<Vec<f32>> {
    match result {
        Ok(v) => Some(v),
        Err(e) => {
            let text = e.to_string();
            assert_eq!(e.code(), "VGPU-TEXTURE-STORAGE-ACCESS", "{text}");
            assert!(
                text.contains(&format!("texture_storage_2d<r32float, {access}>")),
                "{text}"
            );
            assert!(text.contains(&format!("with {access} access")), "{text}");
            assert_eq!(gpu.adapter_info().backend, wgpu::Backend::Gl, "{text}");
            eprintln!("GL: {access} storage textures refused as expected: {text}");
            None
        }
    }
}

#[test]
fn each_storage_texture_access_mode_reaches_the_texture() {
    each_gpu(|gpu| {
        // write: a compute writes rgba8unorm texels; a draw reads them back.
        let canvas = gpu
            .texture(
                &TextureDesc::new(4, 1, wgpu::TextureFormat::Rgba8Unorm)
                    .usage(wgpu::TextureUsages::STORAGE_BINDING)
                    .label("canvas"),
            )
            .unwrap();
        let shader = gpu
            .shader(
                "write",
                "@group(0) @binding(0) var t: texture_storage_2d<rgba8unorm, write>;
                 @compute @workgroup_size(4) fn cs_main(@builtin(global_invocation_id) id: vec3u) {
                     textureStore(t, vec2i(id.xy), vec4f(f32(id.x) * 51.0 / 255.0, 1.0, 0.0, 1.0));
                 }",
            )
            .unwrap();
        let write = gpu.compute(&shader, ComputeDesc::default()).unwrap();
        write.set("t", &canvas).unwrap();
        let show = fullscreen(
            gpu,
            "show",
            "@group(0) @binding(0) var c: texture_2d<f32>;
             @fragment fn fs_main(@builtin(position) pos: vec4f) -> @location(0) vec4f {
                 return textureLoad(c, vec2i(pos.xy), 0);
             }",
        );
        show.set("c", &canvas).unwrap();
        let target = gpu.target(4, 1).unwrap();
        gpu.frame(|f| {
            f.compute_pass(|c| c.dispatch(&write, 1, 1, 1))?;
            f.pass(&target, |p| p.draw(&show))
        })
        .unwrap();
        if !gpu.is_noop() {
            let image = target.read_rgba8().unwrap();
            for x in 0..4u8 {
                assert_eq!(
                    image.pixel(u32::from(x), 0),
                    Some([51 * x, 255, 0, 255]),
                    "write x={x}"
                );
            }
        }

        // read: r32float texels copied to a buffer.
        let values = [1.5f32, -2.0, 8.25, 100.0];
        let source = r32_texture(gpu, "source", &values);
        let read = run_storage(
            gpu,
            "@group(0) @binding(0) var t: texture_storage_2d<r32float, read>;
             @group(0) @binding(1) var<storage, read_write> out: array<f32, 4>;
             @compute @workgroup_size(4) fn cs_main(@builtin(global_invocation_id) id: vec3u) {
                 out[id.x] = textureLoad(t, vec2i(id.xy)).x;
             }",
            &source,
            1,
        );
        if let Some(got) = expect_refused(gpu, read, "read")
            && !gpu.is_noop()
        {
            assert_eq!(got, values, "read");
        }

        // read_write: each dispatch doubles and adds one in place; the second sees the first's.
        let cell = r32_texture(gpu, "cell", &values);
        let rw = run_storage(
            gpu,
            "@group(0) @binding(0) var t: texture_storage_2d<r32float, read_write>;
             @group(0) @binding(1) var<storage, read_write> out: array<f32, 4>;
             @compute @workgroup_size(4) fn cs_main(@builtin(global_invocation_id) id: vec3u) {
                 let v = textureLoad(t, vec2i(id.xy)).x * 2.0 + 1.0;
                 textureStore(t, vec2i(id.xy), vec4f(v));
                 out[id.x] = v;
             }",
            &cell,
            2,
        );
        if let Some(got) = expect_refused(gpu, rw, "read_write")
            && !gpu.is_noop()
        {
            assert_eq!(got, values.map(|v| 4.0 * v + 3.0), "read_write");
        }
    });
}

/// Creates a compute of `wgsl` (binding `canvas`, entry `cs_main`) and returns its refusal.
fn compute_refusal(gpu: &Gpu, wgsl: &str) -> Option<vgpu::Error> {
    let shader = gpu.shader("storage access", wgsl).unwrap();
    gpu.compute(&shader, ComputeDesc::default()).err()
}

/// Asserts `err` is `VGPU-TEXTURE-STORAGE-ACCESS` for `wgsl_type` naming the operation
/// (`entry`), the binding `canvas`, the format and the access.
fn assert_storage_access(err: &vgpu::Error, entry: &str, wgsl_type: &str, access: &str) {
    let text = err.to_string();
    assert_eq!(err.code(), "VGPU-TEXTURE-STORAGE-ACCESS", "{text}");
    for part in [
        "\"storage access\"",
        entry,
        "binding \"canvas\"",
        wgsl_type,
        &format!("with {access} access"),
    ] {
        assert!(text.contains(part), "missing {part:?}: {text}");
    }
    assert!(
        matches!(
            err.as_texture(),
            Some(vgpu::TextureError::StorageAccess { access: a, .. }) if *a == access
        ),
        "{err:?}"
    );
}

/// A storage format and access the device lacks is refused at creation with
/// `VGPU-TEXTURE-STORAGE-ACCESS`, naming the operation, the binding, the WGSL type, the format
/// and the access, with a fix; wgpu never sees the layout (no `VGPU-BIND-DEVICE`, no uncaptured
/// error: `each_gpu` checks). `rg32float` with `read_write` is refused on every backend: WebGPU
/// guarantees it only `read` and `write` (noop, lavapipe without
/// `TEXTURE_ADAPTER_SPECIFIC_FORMAT_FEATURES`), and llvmpipe GL has no rg32float storage at all.
/// `rgba8unorm` with `read_write` is not core WebGPU either (refused on noop and lavapipe), but
/// GL reports its adapter's own support, which llvmpipe has: there it works.
#[test]
fn storage_texture_access_the_device_lacks_is_refused_naming_the_wgsl_type() {
    each_gpu(|gpu| {
        let ctx = gpu.context();
        assert!(
            !ctx.features()
                .contains(wgpu::Features::TEXTURE_ADAPTER_SPECIFIC_FORMAT_FEATURES),
            "the default device asks for no adapter-specific format features"
        );
        let rg32 = "@group(0) @binding(0) var canvas: texture_storage_2d<rg32float, read_write>;
             @compute @workgroup_size(1) fn cs_main() {
                 textureStore(canvas, vec2i(0), textureLoad(canvas, vec2i(0)) * 0.5);
             }";
        let err = compute_refusal(gpu, rg32).expect("rg32float read_write refused everywhere");
        assert_eq!(err.code(), "VGPU-TEXTURE-STORAGE-ACCESS", "{err}");
        let rg32_type = "texture_storage_2d<rg32float, read_write>";
        assert_storage_access(&err, "cs_main", rg32_type, "read_write");
        assert!(err.to_string().contains("Rg32Float"), "{err}");
        // The fix names types this device has: r32float read_write on each of these backends.
        assert!(
            err.to_string()
                .contains("use one of texture_storage_2d<r32float, read_write>"),
            "{err}"
        );

        let rgba8 = rg32.replace("rg32float", "rgba8unorm");
        let rgba8_type = "texture_storage_2d<rgba8unorm, read_write>";
        match compute_refusal(gpu, &rgba8) {
            None => assert_eq!(gpu.adapter_info().backend, wgpu::Backend::Gl),
            Some(err) => {
                assert_ne!(gpu.adapter_info().backend, wgpu::Backend::Gl, "{err}");
                assert_storage_access(&err, "cs_main", rgba8_type, "read_write");
                // Where the adapter itself has it (lavapipe), the fix names the feature.
                let adapter_has = !gpu.is_noop()
                    && ctx
                        .adapter()
                        .features()
                        .contains(wgpu::Features::TEXTURE_ADAPTER_SPECIFIC_FORMAT_FEATURES)
                    && ctx
                        .format_features(wgpu::TextureFormat::Rgba8Unorm)
                        .flags
                        .contains(wgpu::TextureFormatFeatureFlags::STORAGE_READ_WRITE);
                assert_eq!(
                    err.to_string()
                        .contains("TEXTURE_ADAPTER_SPECIFIC_FORMAT_FEATURES"),
                    adapter_has,
                    "{err}"
                );
            }
        }

        // A draw's fragment stage: the same refusal, naming its entry points.
        let draw = gpu
            .shader(
                "storage access",
                "@group(0) @binding(0) var canvas: texture_storage_2d<rg32float, read_write>;
                 @vertex fn vs_main(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
                     return vec4f(f32(i) - 1.0, 0.0, 0.0, 1.0);
                 }
                 @fragment fn fs_main() -> @location(0) vec4f {
                     let c = textureLoad(canvas, vec2i(0));
                     textureStore(canvas, vec2i(0), c * 0.5);
                     return c;
                 }",
            )
            .unwrap();
        let err = gpu.draw(&draw, vgpu::DrawDesc::default()).unwrap_err();
        assert_storage_access(&err, "fs_main", rg32_type, "read_write");
    });
}

#[test]
fn one_layer_and_mip_of_a_texture_is_a_render_target_through_its_view() {
    each_gpu(|gpu| {
        let pages = gpu
            .texture(
                &TextureDesc::array(4, 4, 3, wgpu::TextureFormat::Rgba8Unorm)
                    .mips(2)
                    .label("pages"),
            )
            .unwrap();
        let page = pages
            .view_with(&vgpu::ViewDesc {
                dimension: Some(wgpu::TextureViewDimension::D2),
                base_mip: 1,
                mip_count: Some(1),
                base_layer: 1,
                layer_count: Some(1),
                ..Default::default()
            })
            .unwrap();
        assert_eq!(
            (page.size(), page.layers(), page.mips()),
            ((2, 2), 1..2, 1..2)
        );
        let target = page.target(gpu).unwrap();
        assert_eq!(target.size(), (2, 2));
        let paint = fullscreen(
            gpu,
            "paint",
            "@fragment fn fs_main() -> @location(0) vec4f { return vec4f(1.0, 0.2, 0.6, 1.0); }",
        );
        gpu.frame(|f| f.pass(&target, |p| p.draw(&paint))).unwrap();
        // Texel (1, 1) of (layer, mip) for x = 0 (1, 1), 1 (0, 1), 2 (1, 0), 3 (2, 1).
        let probe = fullscreen(
            gpu,
            "probe",
            "@group(0) @binding(0) var pages: texture_2d_array<f32>;
             @fragment fn fs_main(@builtin(position) pos: vec4f) -> @location(0) vec4f {
                 var at = array<vec2i, 4>(vec2i(1, 1), vec2i(0, 1), vec2i(1, 0), vec2i(2, 1));
                 let a = at[u32(pos.x)];
                 return textureLoad(pages, vec2i(1, 1), a.x, a.y);
             }",
        );
        probe.set("pages", &pages).unwrap();
        let image = render(gpu, &probe, 4, 1);
        if gpu.is_noop() {
            return;
        }
        assert_eq!(
            image.pixel(0, 0),
            Some([255, 51, 153, 255]),
            "layer 1, mip 1"
        );
        for x in 1..4 {
            assert_eq!(image.pixel(x, 0), Some([0, 0, 0, 0]), "untouched ({x})");
        }
    });
}

#[test]
fn an_srgb_view_of_a_linear_texture_decodes_its_texels() {
    each_gpu(|gpu| {
        let desc = TextureDesc::new(1, 1, wgpu::TextureFormat::Rgba8Unorm)
            .view_format(wgpu::TextureFormat::Rgba8UnormSrgb)
            .label("twin");
        let created = gpu.texture_with_data(&desc, &[188, 0, 255, 255]);
        let downlevel = gpu.context().adapter().get_downlevel_capabilities().flags;
        if !gpu.is_noop() && !downlevel.contains(wgpu::DownlevelFlags::VIEW_FORMATS) {
            // GL: no view formats; refused when the texture is made.
            let e = created.unwrap_err();
            assert_eq!(e.code(), "VGPU-TEXTURE-DESC", "{e}");
            assert!(e.to_string().contains("VIEW_FORMATS"), "{e}");
            eprintln!("no view formats here, refused as expected: {e}");
            return;
        }
        let twin = created.unwrap();
        let srgb = twin
            .view_with(&vgpu::ViewDesc {
                format: Some(wgpu::TextureFormat::Rgba8UnormSrgb),
                ..Default::default()
            })
            .unwrap();
        let draw = fullscreen(
            gpu,
            "decode",
            "@group(0) @binding(0) var t: texture_2d<f32>;
             @fragment fn fs_main() -> @location(0) vec4f { return textureLoad(t, vec2i(0), 0); }",
        );
        draw.set("t", &srgb).unwrap();
        let decoded = render(gpu, &draw, 1, 1);
        draw.set("t", &twin).unwrap();
        let raw = render(gpu, &draw, 1, 1);
        if gpu.is_noop() {
            return;
        }
        // sRGB 188 is linear 0.5 (128 in a unorm target); the linear view reads 188 as is.
        let p = decoded.pixel(0, 0).unwrap();
        assert!(p[0].abs_diff(128) <= 1 && p[2] == 255 && p[1] == 0, "{p:?}");
        assert_eq!(raw.pixel(0, 0), Some([188, 0, 255, 255]));
    });
}
