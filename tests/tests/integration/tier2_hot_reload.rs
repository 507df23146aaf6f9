//! Replacing a shader under live draws and hot reload (issue 34, item 4): `Gpu::replace_shader`
//! and `Gpu::watch_shader` (feature `hot-reload`).
//!
//! Tier 2 (vulkan and gl; the report and refusal parts on every device, noop included):
//! - a draw holding every kind of content (a typed value, a shared block, a user uniform buffer,
//!   a texture and a sampler) moves onto a shader that declares its bindings in other groups and
//!   orders: the pixels are those of the new shader computed from the same values (none reset);
//!   `Binding` and `TypedBinding` handles resolved before keep setting the right binding;
//! - a binding the new shader no longer uses, or uses with another type, is reported and kept
//!   aside, and a later shader that uses it as before gets it back (pixels as at first);
//! - a shader the draw cannot take (an entry point missing, other vertex inputs) is refused
//!   with `VGPU-SHADER-RELOAD` and the old one keeps rendering;
//! - a watched folder (a temporary one): a module rewritten with another color gives the new
//!   color within two frames of the watcher seeing the change, the draw's values kept; a syntax
//!   error keeps the old color and the error names the file and line; the fix renders; an import
//!   of a module that does not exist yet fails, and adding the module renders (upstream's #354);
//!   a file made invalid UTF-8 or deleted is an error and the watcher picks up the fix.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use vgpu::{BindingFate, Gpu, PassDesc, ShaderModules};

/// Bindings of every kind, in a first order.
const FIRST: &str = "
struct Tint { color: vec4f, gain: f32 }
struct Camera { offset: vec4f }
@group(0) @binding(0) var<uniform> tint: Tint;
@group(0) @binding(1) var<uniform> camera: Camera;
@group(1) @binding(0) var<uniform> extra: array<vec4f, 2>;
@group(1) @binding(1) var image: texture_2d<f32>;
@group(1) @binding(2) var nearest: sampler;

@fragment fn fs_main() -> @location(0) vec4f {
    let texel = textureSampleLevel(image, nearest, vec2f(0.5, 0.5), 0.0);
    return vec4f(tint.color.rgb * tint.gain + camera.offset.rgb + extra[1].rgb + texel.rgb, 1.0);
}
";

/// The same bindings declared in other groups and another order, combined otherwise (a swizzle
/// of the sum).
const SECOND: &str = "
struct Camera { offset: vec4f }
struct Tint { color: vec4f, gain: f32 }
@group(0) @binding(0) var image: texture_2d<f32>;
@group(0) @binding(1) var nearest: sampler;
@group(0) @binding(2) var<uniform> extra: array<vec4f, 2>;
@group(1) @binding(0) var<uniform> camera: Camera;
@group(2) @binding(0) var<uniform> tint: Tint;

@fragment fn fs_main() -> @location(0) vec4f {
    let texel = textureSampleLevel(image, nearest, vec2f(0.5, 0.5), 0.0);
    let sum = tint.color.rgb * tint.gain + camera.offset.rgb + extra[1].rgb + texel.rgb;
    return vec4f(sum.bgr, 1.0);
}
";

/// `tint` no longer used, `extra` of another type.
const THIRD: &str = "
struct Camera { offset: vec4f }
@group(0) @binding(0) var<uniform> camera: Camera;
@group(0) @binding(1) var<uniform> extra: array<vec4f, 3>;

@fragment fn fs_main() -> @location(0) vec4f {
    return vec4f(camera.offset.rgb + extra[2].rgb, 1.0);
}
";

#[derive(Clone, Copy, vgpu::Uniform)]
struct Tint {
    color: [f32; 4],
    gain: f32,
}

fn shader(gpu: &Gpu, label: &str, fragment: &str) -> vgpu::Shader {
    gpu.shader(label, &format!("{fragment}\n{}", vgpu_tests::FULLSCREEN_VS))
        .unwrap()
}

/// Renders `draw` into a fresh 4×4 target and returns its (uniform) color.
fn render(gpu: &Gpu, draw: &vgpu::Draw) -> vgpu::Result<[u8; 4]> {
    let target = gpu.target(4, 4)?;
    gpu.frame(|f| f.pass(PassDesc::new(&target), |p| p.draw(draw)))?;
    let image = target.read_rgba8()?;
    let px = image.pixel(2, 2).unwrap();
    vgpu_tests::assert_all_pixels(&image, px, "one color");
    Ok(px)
}

/// A draw of [`FIRST`] with every binding set: tint (0.2, 0.1, 0.0) × 2, camera offset
/// (0, 0.1, 0), extra[1] (0, 0, 0.2), a texture of (0, 0, 0.2): red 0.4, green 0.3, blue 0.4.
fn first_draw(gpu: &Gpu) -> (vgpu::Shader, vgpu::Draw, vgpu::SharedUniforms, vgpu::Buffer) {
    let v1 = shader(gpu, "reloaded", FIRST);
    let draw = gpu.draw(&v1, vgpu::DrawDesc::default()).unwrap();
    draw.set(
        "tint",
        &Tint {
            color: [0.2, 0.1, 0.0, 1.0],
            gain: 2.0,
        },
    )
    .unwrap();
    let camera = gpu
        .uniforms(vgpu::value! { offset: [0.0f32, 0.1, 0.0, 0.0] })
        .unwrap();
    draw.set("camera", &camera).unwrap();
    let extra = gpu
        .buffer_init(
            "extra",
            &vgpu_tests::f32_bytes(&[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.2, 0.0, 0.0, 0.0, 0.0, 0.0]),
            wgpu::BufferUsages::UNIFORM,
        )
        .unwrap();
    draw.set("extra", &extra).unwrap();
    let texel = [0u8, 0, 51, 255];
    let texture = gpu
        .texture_with_data(
            &vgpu::TextureDesc {
                label: "image".into(),
                width: 1,
                height: 1,
                ..Default::default()
            },
            &texel,
        )
        .unwrap();
    draw.set("image", &texture).unwrap();
    let sampler = gpu.sampler(&vgpu::SamplerDesc::default()).unwrap();
    draw.set("nearest", &sampler).unwrap();
    (v1, draw, camera, extra)
}

/// Within one unit of `expected`, each channel.
#[track_caller]
fn assert_near(actual: [u8; 4], expected: [u8; 4], what: &str) {
    let close = actual.iter().zip(expected).all(|(a, e)| a.abs_diff(e) <= 1);
    assert!(close, "{what}: {actual:?}, expected {expected:?}");
}

/// Every kind of content moves onto a shader that declares the bindings in other groups and
/// orders; handles resolved before keep working; the pixels are the new shader's of the same
/// values.
#[test]
fn replace_shader_keeps_every_value() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    let (v1, draw, camera, _extra) = first_draw(&gpu);
    let tint = draw.typed_binding::<Tint>("tint").unwrap();
    let nearest = draw.binding("nearest").unwrap();
    assert_near(
        render(&gpu, &draw).unwrap(),
        [102, 77, 102, 255],
        "first shader",
    );

    let v2 = shader(&gpu, "reloaded", SECOND);
    let report = gpu.replace_shader(&v1, &v2).unwrap();
    assert_eq!(report.operations, 1);
    assert_eq!(report.kept(), 5, "{report}");
    assert_eq!(report.notes().count(), 0, "{report}");
    assert_eq!(
        draw.binding_names(),
        ["image", "nearest", "extra", "camera", "tint"]
    );
    // 0 values reset: blue 0.4, green 0.3, red 0.4 (the swizzled sum of the same values).
    assert_near(
        render(&gpu, &draw).unwrap(),
        [102, 77, 102, 255],
        "second shader",
    );

    // Handles resolved against the first shader set the same bindings of the second.
    tint.set(&Tint {
        color: [0.0, 0.1, 0.2, 1.0],
        gain: 1.0,
    })
    .unwrap();
    nearest
        .set(&gpu.sampler(&vgpu::SamplerDesc::default()).unwrap())
        .unwrap();
    camera
        .set(vgpu::value! { offset: [0.1f32, 0.0, 0.0, 0.0] })
        .unwrap();
    // sum = (0.1, 0.1, 0.6) (tint + camera + extra[1] + texel) → bgr = (0.6, 0.1, 0.1).
    assert_near(
        render(&gpu, &draw).unwrap(),
        [153, 26, 26, 255],
        "after sets",
    );
    // A new draw of the first shader still uses it.
    let again = gpu.draw(&v1, vgpu::DrawDesc::default()).unwrap();
    assert!(again.binding_names().iter().any(|n| n == "tint"));
    let errors = gpu.take_uncaptured_errors();
    assert!(errors.is_empty(), "{errors:?}");
}

/// A binding no longer used, or of another type, is reported and kept aside; a shader that uses
/// it as before takes it back, and renders as at first without a set.
#[test]
fn vanished_bindings_are_reported_and_restored() {
    vgpu_tests::each_gpu(|gpu| {
        let (v1, draw, _camera, _extra) = first_draw(gpu);
        let real = gpu.adapter_info().backend != wgpu::Backend::Noop;
        if real {
            assert_near(render(gpu, &draw).unwrap(), [102, 77, 102, 255], "first");
        }
        let v3 = shader(gpu, "reloaded", THIRD);
        let report = gpu.replace_shader(&v1, &v3).unwrap();
        let fate = |name: &str| {
            report
                .bindings
                .iter()
                .find(|b| b.binding == name)
                .map(|b| b.fate.clone())
        };
        assert_eq!(fate("camera"), Some(BindingFate::Kept), "{report}");
        assert_eq!(fate("tint"), Some(BindingFate::Vanished), "{report}");
        assert_eq!(fate("image"), Some(BindingFate::Vanished), "{report}");
        match fate("extra") {
            Some(BindingFate::Changed { difference, .. }) => {
                assert!(
                    difference.contains('2') || difference.contains('3'),
                    "{difference}"
                );
            }
            other => panic!("extra: {other:?}; {report}"),
        }
        let text = report.to_string();
        assert!(text.contains("binding `tint` is no longer used"), "{text}");
        assert!(text.contains("binding `extra` changed from"), "{text}");
        // `extra` is unset under its new type: the frame says so.
        let e = render(gpu, &draw).unwrap_err();
        assert_eq!(e.code(), "VGPU-DRAW-UNSET-BINDING", "{e}");

        let v4 = shader(gpu, "reloaded", FIRST);
        let report = gpu.replace_shader(&v3, &v4).unwrap();
        assert_eq!(
            fate_of(&report, "tint"),
            Some(BindingFate::Restored),
            "{report}"
        );
        assert_eq!(
            fate_of(&report, "extra"),
            Some(BindingFate::Restored),
            "{report}"
        );
        assert_eq!(
            fate_of(&report, "camera"),
            Some(BindingFate::Kept),
            "{report}"
        );
        if real {
            assert_near(render(gpu, &draw).unwrap(), [102, 77, 102, 255], "restored");
        } else {
            render(gpu, &draw).unwrap();
        }
    });
}

fn fate_of(report: &vgpu::ShaderReload, name: &str) -> Option<BindingFate> {
    report
        .bindings
        .iter()
        .find(|b| b.binding == name)
        .map(|b| b.fate.clone())
}

/// A shader the draw cannot take is refused, changing nothing.
#[test]
fn incompatible_shaders_are_refused() {
    vgpu_tests::each_gpu(|gpu| {
        let (v1, draw, _camera, _extra) = first_draw(gpu);
        render(gpu, &draw).unwrap();
        let no_fragment = gpu.shader("reloaded", vgpu_tests::FULLSCREEN_VS).unwrap();
        let e = gpu.replace_shader(&v1, &no_fragment).unwrap_err();
        assert_eq!(e.code(), "VGPU-SHADER-RELOAD", "{e}");
        assert!(e.to_string().contains("fs_main"), "{e}");
        let inputs = gpu
            .shader(
                "reloaded",
                "@vertex fn vs_main(@location(0) p: vec2f) -> @builtin(position) vec4f {
                     return vec4f(p, 0.0, 1.0);
                 }
                 @fragment fn fs_main() -> @location(0) vec4f { return vec4f(1.0); }",
            )
            .unwrap();
        let e = gpu.replace_shader(&v1, &inputs).unwrap_err();
        assert_eq!(e.code(), "VGPU-SHADER-RELOAD", "{e}");
        assert!(e.to_string().contains("vertex inputs differ"), "{e}");
        // Nothing changed: the first shader still renders with every value.
        assert_eq!(draw.binding_names().len(), 5);
        if gpu.adapter_info().backend != wgpu::Backend::Noop {
            assert_near(render(gpu, &draw).unwrap(), [102, 77, 102, 255], "kept");
        }
    });
}

/// The watched folder's root module: a fullscreen triangle whose color is `shade(paint)`.
const MAIN: &str = "
import package::colors::shade;
struct Paint { color: vec4f }
@group(0) @binding(0) var<uniform> paint: Paint;
@vertex fn vs_main(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
    let p = vec2f(f32((i << 1u) & 2u), f32(i & 2u));
    return vec4f(p * 2.0 - 1.0, 0.0, 1.0);
}
@fragment fn fs_main() -> @location(0) vec4f { return shade(paint.color); }
";

/// Writes `contents` to `folder/name` at once (a file written aside and renamed into place, as
/// editors save), so the watcher sees a whole file.
fn save(folder: &Path, name: &str, contents: &[u8]) {
    let aside = folder.with_extension(format!("{name}.saving"));
    std::fs::write(&aside, contents).unwrap();
    std::fs::rename(&aside, folder.join(name)).unwrap();
}

/// Waits (at most 10 s) until the watcher has seen a change.
fn wait_for_change(watched: &vgpu::WatchedShader) {
    let start = Instant::now();
    while !watched.pending() {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "the watcher saw no change in 10 s"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Renders two frames and returns the second's color (the change applies at the first).
fn two_frames(gpu: &Gpu, draw: &vgpu::Draw) -> [u8; 4] {
    render(gpu, draw).unwrap();
    render(gpu, draw).unwrap()
}

fn watched_folder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("vgpu-hot-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("main.wesl"), MAIN).unwrap();
    std::fs::write(
        dir.join("colors.wgsl"),
        "fn shade(c: vec4f) -> vec4f { return c; }\n",
    )
    .unwrap();
    dir
}

/// Hot reload of a folder: new color within two frames with the draw's value kept; a syntax
/// error keeps the old color and names the file and line; its fix renders; an import of a module
/// that does not exist yet fails until the module is added (upstream's #354).
#[test]
fn watched_modules_reload_with_values_kept() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    let dir = watched_folder("colors");
    let watched = gpu
        .watch_shader("watched", &ShaderModules::folder(&dir), "main")
        .unwrap();
    let draw = gpu
        .draw(&watched.shader(), vgpu::DrawDesc::default())
        .unwrap();
    // Set once; never again.
    draw.set("paint", vgpu::value! { color: [0.2f32, 0.4, 0.6, 1.0] })
        .unwrap();
    assert_near(render(&gpu, &draw).unwrap(), [51, 102, 153, 255], "first");

    save(
        &dir,
        "colors.wgsl",
        b"fn shade(c: vec4f) -> vec4f { return vec4f(c.bgr, 1.0); }\n",
    );
    wait_for_change(&watched);
    assert_near(
        two_frames(&gpu, &draw),
        [153, 102, 51, 255],
        "rewritten module",
    );
    assert_eq!(watched.reloads(), 1);
    assert!(watched.error().is_none());
    let events = watched.take_events();
    match events.as_slice() {
        [vgpu::ReloadEvent::Reloaded(report)] => {
            assert_eq!(report.kept(), 1, "{report}");
            assert_eq!(report.notes().count(), 0, "{report}");
        }
        other => panic!("{other:?}"),
    }

    save(
        &dir,
        "colors.wgsl",
        b"fn shade(c: vec4f) -> vec4f {\n    return vec4f(c.rgb, 1.0)\n}\n",
    );
    wait_for_change(&watched);
    assert_near(
        two_frames(&gpu, &draw),
        [153, 102, 51, 255],
        "syntax error: old shader",
    );
    let e = watched.error().expect("the syntax error");
    assert_eq!(e.code(), "VGPU-SHADER-MODULE", "{e}");
    let text = e.to_string();
    assert!(text.contains("colors.wgsl:"), "{text}");
    match e.as_shader() {
        Some(vgpu_core::ShaderError::Module { line, .. }) => assert!(
            (2..=3).contains(line),
            "the error is told at line {line}: {text}"
        ),
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        watched.take_events().as_slice(),
        [vgpu::ReloadEvent::Failed(_)]
    ));

    save(
        &dir,
        "colors.wgsl",
        b"fn shade(c: vec4f) -> vec4f { return vec4f(c.gbr, 1.0); }\n",
    );
    wait_for_change(&watched);
    assert_near(two_frames(&gpu, &draw), [102, 153, 51, 255], "fixed");
    assert!(watched.error().is_none());
    assert_eq!(watched.reloads(), 2);

    // Upstream's #354: an import of a module that does not exist yet, then the module.
    save(
        &dir,
        "main.wesl",
        MAIN.replace("package::colors::shade", "package::later::shade")
            .as_bytes(),
    );
    wait_for_change(&watched);
    assert_near(
        two_frames(&gpu, &draw),
        [102, 153, 51, 255],
        "missing import: old shader",
    );
    let e = watched.error().expect("the missing module");
    assert!(e.to_string().contains("later"), "{e}");
    save(
        &dir,
        "later.wgsl",
        b"fn shade(c: vec4f) -> vec4f { return vec4f(c.rrr, 1.0); }\n",
    );
    wait_for_change(&watched);
    assert_near(two_frames(&gpu, &draw), [51, 51, 51, 255], "module added");
    assert!(watched.error().is_none());
    assert_eq!(watched.reloads(), 3);
    // The draws of the watched shader use the shader now in force.
    assert_eq!(watched.shader().label(), "watched");
    let errors = gpu.take_uncaptured_errors();
    assert!(errors.is_empty(), "{errors:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A watched file made invalid UTF-8, then deleted: each an error naming the module, the old
/// shader rendering; the watcher survives and picks up the file written back.
#[test]
fn watcher_survives_bad_files() {
    vgpu_tests::each_gpu(|gpu| {
        let dir = watched_folder("bad");
        let watched = gpu
            .watch_shader("watched", &ShaderModules::folder(&dir), "main")
            .unwrap();
        let draw = gpu
            .draw(&watched.shader(), vgpu::DrawDesc::default())
            .unwrap();
        draw.set("paint", vgpu::value! { color: [0.2f32, 0.4, 0.6, 1.0] })
            .unwrap();
        render(gpu, &draw).unwrap();

        save(&dir, "colors.wgsl", &[0x66, 0x6e, 0xff, 0xfe, 0x20]);
        wait_for_change(&watched);
        two_frames(gpu, &draw);
        let e = watched.error().expect("invalid UTF-8");
        assert_eq!(e.code(), "VGPU-SHADER-MODULE", "{e}");
        assert!(e.to_string().contains("colors"), "{e}");

        std::fs::remove_file(dir.join("colors.wgsl")).unwrap();
        wait_for_change(&watched);
        two_frames(gpu, &draw);
        let e = watched.error().expect("deleted module");
        assert!(e.to_string().contains("colors"), "{e}");

        save(
            &dir,
            "colors.wgsl",
            b"fn shade(c: vec4f) -> vec4f { return vec4f(c.bgr, 1.0); }\n",
        );
        wait_for_change(&watched);
        let px = two_frames(gpu, &draw);
        assert!(watched.error().is_none(), "{:?}", watched.error());
        assert_eq!(watched.reloads(), 1);
        if gpu.adapter_info().backend != wgpu::Backend::Noop {
            assert_near(px, [153, 102, 51, 255], "written back");
        }
        let _ = std::fs::remove_dir_all(&dir);
    });
}

/// Modules in memory cannot be watched; nor can a folder that does not exist.
#[test]
fn unwatchable_modules_are_refused() {
    let gpu = Gpu::noop();
    let memory = ShaderModules::memory([("main", MAIN)]);
    let e = gpu.watch_shader("m", &memory, "main").unwrap_err();
    assert_eq!(e.code(), "VGPU-SHADER-WATCH", "{e}");
    let missing = ShaderModules::folder("/nonexistent/vgpu-hot-reload");
    let e = gpu.watch_shader("m", &missing, "main").unwrap_err();
    assert_eq!(e.code(), "VGPU-SHADER-WATCH", "{e}");
}
