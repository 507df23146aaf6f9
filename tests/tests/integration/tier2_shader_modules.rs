//! Shaders composed from WGSL modules (issue 34, items 1, 5 and 6): `Gpu::shader_from` with
//! `ShaderModules` (WESL `import` and `@if` through the `wesl` crate).
//!
//! Tier 2 (vulkan and gl): a shader composed from three modules in two folders on disk renders
//! their colors; the same modules in memory render the same; an `@if` feature chosen per shader
//! changes the pixels. Tier 1 (every device, noop included): the reflection keeps the names the
//! modules wrote (bindings, entry points, overrides); each kind of bad input is a
//! `VGPU-SHADER-MODULE` naming the module (and its line where it has one): a missing module or
//! item, a parse error in an imported module, a type error in an imported function (naga's,
//! told at that module's declaration), a feature not set, a root path that is not a module
//! path, a module file outside the folder (a symbolic link), a file that is not UTF-8, more
//! modules than `MAX_MODULES`; an import cycle composes or fails, never hangs.

use std::path::PathBuf;

use vgpu::{Gpu, PassDesc, ShaderModules};

/// The root module (`tests/shaders/three/main.wesl`): imports from two folders and two modules
/// of the standard library, draws a fullscreen triangle of color `halve(boost(color))`.
const MAIN: &str = include_str!("../../shaders/three/main.wesl");
/// `materials/paint`: a struct, and a function that uses the third module and `@if(warm)`.
const PAINT: &str = include_str!("../../shaders/three/materials/paint.wesl");
/// `util/mix`.
const MIX: &str = include_str!("../../shaders/three/util/mix.wgsl");
/// The same modules composed and validated at build time (`tests/build.rs`), warm off and on.
const BUILT: &str = include_str!(concat!(env!("OUT_DIR"), "/three.wgsl"));
const BUILT_WARM: &str = include_str!(concat!(env!("OUT_DIR"), "/three_warm.wgsl"));

/// A fresh folder under the system temp dir with `files` (relative path, contents).
fn folder(name: &str, files: &[(&str, &[u8])]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("vgpu-modules-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for (path, contents) in files {
        let file = dir.join(path);
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(file, contents).unwrap();
    }
    dir
}

/// The modules of `tests/shaders/three`, on disk.
fn three_modules() -> ShaderModules {
    ShaderModules::folder(concat!(env!("CARGO_MANIFEST_DIR"), "/shaders/three"))
}

/// Renders `shader` with paint color `color`, gain 1, into an 8×8 target.
fn render_shader(gpu: &Gpu, shader: &vgpu::Shader, color: [f32; 3]) -> [u8; 4] {
    let draw = gpu.draw(shader, Default::default()).unwrap();
    draw.set("paint", vgpu::value! { color: color, gain: 1.0 })
        .unwrap();
    let target = gpu.target(8, 8).unwrap();
    gpu.frame(|f| f.pass(PassDesc::new(&target), |p| p.draw(&draw)))
        .unwrap();
    let image = target.read_rgba8().unwrap();
    let px = image.pixel(4, 4).unwrap();
    vgpu_tests::assert_all_pixels(&image, px, "one color everywhere");
    px
}

/// Renders `modules` (root `main`) with paint color `color` (see [`render_shader`]).
fn render(gpu: &Gpu, modules: &ShaderModules, color: [f32; 3]) -> [u8; 4] {
    let shader = gpu.shader_from("composed", modules, "main").unwrap();
    render_shader(gpu, &shader, color)
}

/// Three modules in two folders (`materials/`, `util/`) and two standard-library imports, on
/// disk: the color is `halve(boost(color))` = `color`; the same modules in memory render the
/// same, and so does the WGSL composed at build time; with `warm` on, red is added (at run time
/// and at build time).
#[test]
fn three_modules_in_two_folders_render_their_colors() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    let disk = three_modules().feature("warm", false);
    assert_eq!(render(&gpu, &disk, [0.0, 0.6, 0.2]), [0, 153, 51, 255]);
    let memory = ShaderModules::memory([
        ("main", MAIN),
        ("materials/paint", PAINT),
        ("util::mix", MIX),
    ])
    .feature("warm", false);
    assert_eq!(render(&gpu, &memory, [0.0, 0.6, 0.2]), [0, 153, 51, 255]);
    let warm = memory.feature("warm", true);
    assert_eq!(render(&gpu, &warm, [0.0, 0.6, 0.2]), [128, 153, 51, 255]);
    let built = gpu.shader("built", BUILT).unwrap();
    assert_eq!(
        render_shader(&gpu, &built, [0.0, 0.6, 0.2]),
        [0, 153, 51, 255]
    );
    let built_warm = gpu.shader("built warm", BUILT_WARM).unwrap();
    assert_eq!(
        render_shader(&gpu, &built_warm, [0.0, 0.6, 0.2]),
        [128, 153, 51, 255]
    );
    assert!(gpu.take_uncaptured_errors().is_empty());
}

/// The reflection of a composed shader names what the modules wrote: the root's binding and
/// entry point, a binding, a struct and an override declared in an imported module keep their
/// names (a draw sets the binding by that name); two modules that declare the same name keep
/// WESL's package-qualified names for both (no silent merge).
#[test]
fn reflection_keeps_the_names_the_modules_wrote() {
    let gpu = Gpu::noop();
    let modules = ShaderModules::memory([
        (
            "main",
            "import package::knobs::{level, Knob, knob};
             @group(0) @binding(0) var<storage, read_write> out: array<f32>;
             @compute @workgroup_size(1) fn cs_main() { out[0] = level() * knob.scale; }",
        ),
        (
            "knobs",
            "override brightness: f32 = 0.5;
             struct Knob { scale: f32 }
             @group(1) @binding(0) var<uniform> knob: Knob;
             fn level() -> f32 { return brightness; }",
        ),
    ]);
    let shader = gpu.shader_from("knobs", &modules, "main").unwrap();
    let refl = shader.reflection();
    let mut bindings: Vec<&str> = refl.bindings().iter().map(|b| b.name.as_str()).collect();
    bindings.sort_unstable();
    assert_eq!(bindings, ["knob", "out"]);
    assert!(refl.entry_points().iter().any(|e| e.name == "cs_main"));
    let names: Vec<&str> = refl.overrides().iter().map(|o| o.name.as_str()).collect();
    assert_eq!(names, ["brightness"]);
    let knob = refl.bindings().iter().find(|b| b.name == "knob").unwrap();
    assert_eq!(knob.type_name, "Knob");
    let compute = gpu.compute(&shader, vgpu::ComputeDesc::default()).unwrap();
    compute.set("knob", vgpu::value! { scale: 2.0 }).unwrap();

    let clash = ShaderModules::memory([
        (
            "main",
            "import package::a::fa; import package::b::fb;
             @compute @workgroup_size(1) fn cs_main() { let x = fa() + fb(); }",
        ),
        (
            "a",
            "@group(0) @binding(0) var<uniform> params: vec4f; fn fa() -> f32 { return params.x; }",
        ),
        (
            "b",
            "@group(0) @binding(1) var<uniform> params: vec4f; fn fb() -> f32 { return params.y; }",
        ),
    ]);
    let shader = gpu.shader_from("clash", &clash, "main").unwrap();
    let mut names: Vec<&str> = shader
        .reflection()
        .bindings()
        .iter()
        .map(|b| b.name.as_str())
        .collect();
    names.sort_unstable();
    assert_eq!(names, ["package_a_params", "package_b_params"]);
}

/// The message of `result`'s error, asserting it is `VGPU-SHADER-MODULE` and contains every
/// part of `expected`.
#[track_caller]
fn assert_module_error<T: std::fmt::Debug>(result: vgpu::Result<T>, expected: &[&str]) {
    let error = result.expect_err("composition must fail");
    let message = error.to_string();
    eprintln!("{message}");
    assert_eq!(error.code(), "VGPU-SHADER-MODULE", "{message}");
    for part in expected {
        assert!(message.contains(part), "{message:?} should name {part:?}");
    }
}

#[test]
fn a_missing_module_or_item_names_it() {
    let gpu = Gpu::noop();
    let missing_module = ShaderModules::memory([(
        "main",
        "import package::nowhere::thing; @fragment fn fs() -> @location(0) vec4f { return thing(); }",
    )]);
    let e = gpu.shader_from("m", &missing_module, "main").unwrap_err();
    assert_eq!(e.code(), "VGPU-SHADER-MODULE");
    assert_module_error(
        gpu.shader_from("m", &missing_module, "main"),
        &["main:1:17", "nowhere"],
    );
    let missing_item = ShaderModules::memory([
        (
            "main",
            "import package::lib::absent; @fragment fn fs() -> @location(0) vec4f { return absent(); }",
        ),
        ("lib", "fn present() -> vec4f { return vec4f(1.0); }"),
    ]);
    assert_module_error(
        gpu.shader_from("m", &missing_item, "main"),
        &["main:1:", "absent"],
    );
    let no_root = ShaderModules::memory([("lib", "fn f() {}")]);
    assert_module_error(gpu.shader_from("m", &no_root, "main"), &["main"]);
    assert_module_error(
        gpu.shader_from("m", &no_root, "../etc/passwd"),
        &["../etc/passwd"],
    );
    let unknown_package = ShaderModules::memory([(
        "main",
        "import nopkg::x::y; @fragment fn fs() -> @location(0) vec4f { return y(); }",
    )]);
    assert_module_error(gpu.shader_from("m", &unknown_package, "main"), &["nopkg"]);
}

/// A parse error in an imported module names that module and its line (3), not the composed
/// text; a type error in an imported function (naga's) names the module and the function's
/// line (2).
#[test]
fn errors_in_an_imported_module_name_its_path_and_line() {
    let gpu = Gpu::noop();
    let parse = ShaderModules::memory([
        (
            "main",
            "import package::shading::light::light; @fragment fn fs() -> @location(0) vec4f { return light(); }",
        ),
        (
            "shading/light",
            "// shading\nfn light() -> vec4f {\n    return vec4f(1.0 +);\n}\n",
        ),
    ]);
    assert_module_error(gpu.shader_from("m", &parse, "main"), &["shading/light:3:"]);
    let types = ShaderModules::memory([
        (
            "main",
            "import package::shading::light::light; @fragment fn fs() -> @location(0) vec4f { return light(); }",
        ),
        (
            "shading/light",
            "// shading\nfn light() -> vec4f {\n    return 1u;\n}\n",
        ),
    ]);
    assert_module_error(
        gpu.shader_from("m", &types, "main"),
        &[
            "shading/light:2:1",
            "in `light`: Function [0] 'light' is invalid",
        ],
    );
}

/// naga's error in a `const_assert` of an imported module (a function call in a constant
/// expression) is told at that module's line, not in the composed text (a fuzz finding).
#[test]
fn an_error_in_an_imported_const_assert_names_its_module() {
    let gpu = Gpu::noop();
    let modules = ShaderModules::memory([
        (
            "main",
            "import package::checks::ok;
             @compute @workgroup_size(1) fn main() { _ = ok(); }",
        ),
        (
            "checks",
            "import vgpu::hash::pcg;\n\nconst_assert f32(pcg(3u)) > -100.0;\nfn ok() -> f32 { return 1.0; }",
        ),
    ]);
    assert_module_error(
        gpu.shader_from("asserts", &modules, "main"),
        &["checks:3:1", "const_assert"],
    );
}

#[test]
fn a_feature_tested_but_not_set_is_an_error_naming_it() {
    let gpu = Gpu::noop();
    let modules = ShaderModules::memory([
        ("main", MAIN),
        ("materials/paint", PAINT),
        ("util/mix", MIX),
    ]);
    assert_module_error(gpu.shader_from("m", &modules, "main"), &["warm"]);
}

/// A module file that is a symbolic link to a file outside the folder is refused; a file that
/// is not UTF-8 is refused naming it; both leave the `Gpu` working.
#[test]
fn files_outside_the_folder_or_not_utf8_are_refused() {
    let gpu = Gpu::noop();
    let outside = folder(
        "outside",
        &[("secret.wgsl", b"fn leaked() -> f32 { return 1.0; }")],
    );
    let dir = folder(
        "escape",
        &[
            (
                "main.wesl",
                b"import package::link::leaked; @fragment fn fs() -> @location(0) vec4f { return vec4f(leaked()); }",
            ),
            ("bad.wesl", b"fn f() {} \xff\xfe"),
        ],
    );
    #[cfg(unix)]
    std::os::unix::fs::symlink(outside.join("secret.wgsl"), dir.join("link.wgsl")).unwrap();
    #[cfg(unix)]
    assert_module_error(
        gpu.shader_from("m", &ShaderModules::folder(&dir), "main"),
        &["outside the folder"],
    );
    assert_module_error(
        gpu.shader_from("m", &ShaderModules::folder(&dir), "bad"),
        &["not UTF-8"],
    );
    assert!(
        gpu.shader("still", "@compute @workgroup_size(1) fn main() {}")
            .is_ok()
    );
}

/// A chain of more modules than `MAX_MODULES` is refused; a cycle of two modules importing each
/// other composes or is refused, and returns.
#[test]
fn deep_trees_are_bounded_and_cycles_return() {
    let gpu = Gpu::noop();
    let n = vgpu::MAX_MODULES + 2;
    let mut modules: Vec<(String, String)> = (0..n)
        .map(|i| {
            (
                format!("m{i}"),
                format!(
                    "import package::m{}::f{}; fn f{i}() -> f32 {{ return f{}(); }}",
                    i + 1,
                    i + 1,
                    i + 1
                ),
            )
        })
        .collect();
    modules.push((
        format!("m{n}"),
        format!("fn f{n}() -> f32 {{ return 1.0; }}"),
    ));
    modules.push((
        "main".to_owned(),
        "import package::m0::f0; @fragment fn fs() -> @location(0) vec4f { return vec4f(f0()); }"
            .to_owned(),
    ));
    assert_module_error(
        gpu.shader_from("deep", &ShaderModules::memory(modules), "main"),
        &["modules"],
    );
    let cycle = ShaderModules::memory([
        (
            "main",
            "import package::a::fa; @fragment fn fs() -> @location(0) vec4f { return vec4f(fa()); }",
        ),
        (
            "a",
            "import package::b::fb; fn fa() -> f32 { return fb(); } fn ga() -> f32 { return 2.0; }",
        ),
        (
            "b",
            "import package::a::ga; fn fb() -> f32 { return ga(); }",
        ),
    ]);
    // WESL allows modules to import each other: this composes; it must return either way.
    let _ = gpu.shader_from("cycle", &cycle, "main");

    // An expression nested past the operator limit in an imported module is refused before
    // WESL parses it; one nested 4 000 deep composes on the large-stack thread (no overflow).
    let nested = |depth: usize| {
        format!(
            "fn deep() -> f32 {{ return {}1.0{}; }}",
            "(".repeat(depth),
            ")".repeat(depth)
        )
    };
    let main = "import package::lib::deep; @fragment fn fs() -> @location(0) vec4f { return vec4f(deep()); }";
    let too_deep = ShaderModules::memory([("main", main.to_owned()), ("lib", nested(20_000))]);
    assert_module_error(
        gpu.shader_from("too deep", &too_deep, "main"),
        &["lib", "operator tokens"],
    );
    let deep = ShaderModules::memory([("main", main.to_owned()), ("lib", nested(4_000))]);
    let r = gpu.shader_from("deep", &deep, "main");
    assert!(r.is_ok() || r.unwrap_err().code().starts_with("VGPU-SHADER"));
}

/// The `shader_modules` example (modules in two folders plus four standard-library functions):
/// its `ground` binding keeps the name its module wrote; the broken import is reported at the
/// importing module's line and column; on a real device its picture is sky above the horizon
/// (blue brightest, bluer at the top) and noisy grass below (green brightest, not uniform).
#[test]
fn the_shader_modules_example_draws_sky_and_ground() {
    let run = vgpu_tests::run_example("shader_modules", &[]);
    assert!(
        run.line("composed from ")
            .ends_with("bindings [\"ground\"]"),
        "{}",
        run.stdout
    );
    assert!(
        run.line("a broken import reports: ").ends_with(
            "main:1:32: module `package::sky::gradient` has no declaration `sky_colour`"
        ),
        "{}",
        run.stdout
    );
    if run.noop() {
        assert!(run.stdout.contains("shader_modules.png was not written"));
        return;
    }
    let (w, h, pixels) = run.png("shader_modules.png");
    let at = |x: u32, y: u32| -> [u8; 4] {
        pixels[((y * w + x) * 4) as usize..][..4]
            .try_into()
            .unwrap()
    };
    for x in 0..w {
        for y in 0..h / 2 - 1 {
            let p = at(x, y);
            assert!(p[2] > p[1] && p[1] > p[0], "sky at ({x},{y}): {p:?}");
        }
        for y in h / 2 + 1..h {
            let p = at(x, y);
            assert!(p[1] > p[0] && p[1] > p[2], "grass at ({x},{y}): {p:?}");
        }
    }
    assert!(at(0, 0)[2] < at(0, h / 2 - 2)[2] || at(0, 0)[0] < at(0, h / 2 - 2)[0]);
    let greens: std::collections::BTreeSet<u8> = (h / 2 + 1..h)
        .flat_map(|y| (0..w).map(move |x| (x, y)))
        .map(|(x, y)| at(x, y)[1])
        .collect();
    assert!(greens.len() > 8, "the noise varies the grass: {greens:?}");
}
