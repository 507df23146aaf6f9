//! The build-script path (`vgpu_modules::build`): a folder composed, validated and written; a
//! wrong import and a type error in an imported module fail with the module and line, as they
//! would fail `cargo build`.

use std::path::PathBuf;

use vgpu_modules::build::compose_into;

/// A fresh folder with `files` (relative path, contents).
fn folder(name: &str, files: &[(&str, &str)]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("vgpu-build-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for (path, contents) in files {
        let file = dir.join(path);
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(file, contents).unwrap();
    }
    dir
}

const MAIN: &str = "import package::util::lum::level;
import vgpu::color::luminance;
@group(0) @binding(0) var<storage, read_write> out: array<f32>;
@compute @workgroup_size(1) fn main() { out[0] = level() + luminance(vec3f(1.0)); }
";

#[test]
fn a_folder_is_composed_validated_and_written_with_the_files_it_read() {
    let dir = folder(
        "ok",
        &[
            ("main.wesl", MAIN),
            ("util/lum.wgsl", "fn level() -> f32 { return 0.5; }"),
        ],
    );
    let out = dir.join("out");
    std::fs::create_dir_all(&out).unwrap();
    let (file, read) = compose_into(&dir, "main", "lum", &[], &out).unwrap();
    let wgsl = std::fs::read_to_string(&file).unwrap();
    assert!(
        wgsl.contains("fn level()") && wgsl.contains("fn luminance("),
        "{wgsl}"
    );
    let mut names: Vec<String> = read
        .iter()
        .map(|f| f.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["lum.wgsl", "main.wesl"]);
}

#[test]
fn a_wrong_import_or_a_type_error_fails_with_the_module_and_line() {
    let dir = folder(
        "missing",
        &[
            ("main.wesl", MAIN),
            ("util/lum.wgsl", "fn other() -> f32 { return 0.5; }"),
        ],
    );
    let e = compose_into(&dir, "main", "lum", &[], &dir).unwrap_err();
    assert_eq!(e.line, 1, "{e}");
    assert!(
        e.module.ends_with("main.wesl") && e.message.contains("level"),
        "{e}"
    );

    let dir = folder(
        "types",
        &[
            ("main.wesl", MAIN),
            (
                "util/lum.wgsl",
                "// lum\nfn level() -> f32 {\n    return 1u;\n}\n",
            ),
        ],
    );
    let e = compose_into(&dir, "main", "lum", &[], &dir).unwrap_err();
    assert!(e.module.ends_with("lum.wgsl"), "{e}");
    assert_eq!((e.line, e.column), (2, 1), "{e}");
    assert!(e.to_string().starts_with("VGPU-SHADER-MODULE"), "{e}");
}
