//! Tier 1 (noop device): every `VGPU-…` code is documented, produced by a test, and
//! `docs/errors.md` is the table generated from [`vgpu::error_codes`].
//!
//! Three lists must agree, and the tests here fail when they do not:
//! - the codes the error enums return (the `"VGPU-…"` literals of `crates/*/src`);
//! - [`vgpu::error_codes`] (each crate's `ERROR_CODES`, with meaning and fix);
//! - the tests that produce each code through the public API: a `#[test]` function of the
//!   repository whose body names the code as a string literal (found by scanning; the table names
//!   it). Codes only the web can produce are listed in [`WEB_ONLY`] with where they are tested.
//!
//! `docs/errors.md` is regenerated with `VGPU_BLESS=1 cargo test -p vgpu-tests --test integration
//! error_codes`.
//!
//! The rest of this file produces the codes no other test does.

#![allow(clippy::unwrap_used, reason = "an unwrap in a test is an assertion")]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use vgpu::{BufferDesc, ErrorCode, Gpu};

/// Codes only a browser can produce: the native test binary cannot, so they name the test that
/// does (`browser_test.py` fails when the page does not report the code).
const WEB_ONLY: &[(&str, &str)] = &[(
    "VGPU-DEVICE-WOULD-BLOCK",
    "`examples/web/test.sh` (`browser_test.py`): the page's blocking `Target::read_rgba8` on WebGPU",
)];

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_owned()
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            if path.file_name().is_some_and(|n| n == "target") {
                continue;
            }
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Every complete `"VGPU-…"` string literal in `text` (not prefixes such as `"VGPU-SET-"`).
fn code_literals(text: &str) -> Vec<&str> {
    let mut found = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("\"VGPU-") {
        let tail = &rest[at + 1..];
        let end = tail
            .find(|c: char| !(c.is_ascii_uppercase() || c.is_ascii_digit() || c == '-'))
            .unwrap_or(tail.len());
        let literal = &tail[..end];
        if tail[end..].starts_with('"') && !literal.ends_with('-') {
            found.push(literal);
        }
        rest = &tail[end..];
    }
    found
}

/// The codes the library's sources name (its error enums' `code()` arms and messages).
fn source_codes() -> BTreeMap<String, PathBuf> {
    let root = repo_root();
    let mut files = Vec::new();
    let Ok(crates) = std::fs::read_dir(root.join("crates")) else {
        panic!("no crates/ under {}", root.display());
    };
    let mut crates: Vec<_> = crates.flatten().map(|e| e.path()).collect();
    crates.sort();
    for krate in crates {
        rust_files(&krate.join("src"), &mut files);
    }
    let mut codes = BTreeMap::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        // Unit tests inside the sources name codes too; only the code before them counts.
        let text = text.split("#[cfg(test)]").next().unwrap_or_default();
        for code in code_literals(text) {
            codes.entry(code.to_owned()).or_insert_with(|| file.clone());
        }
    }
    codes
}

/// For each code, the first `#[test]` function (in path order) whose body names it: the tests
/// of `tests/`, of each crate (`crates/*/tests`, unit tests in `crates/*/src`) and of `benches/`.
fn producing_tests() -> BTreeMap<String, String> {
    let root = repo_root();
    let mut files = Vec::new();
    for dir in ["tests/tests", "crates", "benches/tests"] {
        rust_files(&root.join(dir), &mut files);
    }
    let mut tests = BTreeMap::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        let relative = file.strip_prefix(&root).unwrap().display().to_string();
        let lines: Vec<&str> = text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            if line.trim() != "#[test]" {
                continue;
            }
            // The function after the attribute (rustfmt's layout: `fn name(` on its own line
            // after any other attributes, its body closed by `}` at the same indentation).
            let Some((at, signature)) = lines[i + 1..]
                .iter()
                .enumerate()
                .find(|(_, l)| l.trim_start().starts_with("fn "))
            else {
                continue;
            };
            let indent = &signature[..signature.len() - signature.trim_start().len()];
            let name = signature.trim_start()["fn ".len()..]
                .split('(')
                .next()
                .unwrap_or_default();
            let start = i + 1 + at;
            let end = lines[start..]
                .iter()
                .position(|l| l.strip_prefix(indent) == Some("}"))
                .map_or(lines.len(), |n| start + n + 1);
            let body = lines[start..end].join("\n");
            for code in code_literals(&body) {
                tests
                    .entry(code.to_owned())
                    .or_insert_with(|| format!("`{relative}`: `{name}`"));
            }
        }
    }
    tests
}

/// `docs/errors.md`, generated.
fn render_table() -> String {
    let tests = producing_tests();
    let web: BTreeMap<_, _> = WEB_ONLY.iter().copied().collect();
    let mut out = String::from(
        "# Error codes\n\n\
         Every error vgpu returns carries a stable code, printed first in its message and returned \
         by `err.code()`; `vgpu::explain(code)` gives the meaning and fix below at run time.\n\n\
         This file is generated from `vgpu::error_codes()` by \
         `VGPU_BLESS=1 cargo test -p vgpu-tests --test integration error_codes`; that test fails \
         when a code of the error enums is missing here, when this file is stale, or when a code \
         has no test that produces it (the last column names it).\n\n\
         | Code | Error | What happened | Usual fix | Produced by the test |\n\
         |---|---|---|---|---|\n",
    );
    for info in vgpu::error_codes() {
        let test = match (tests.get(info.code), web.get(info.code)) {
            (Some(test), _) => test.clone(),
            (None, Some(web)) => format!("web only: {web}"),
            (None, None) => "**none**".to_owned(),
        };
        out.push_str(&format!(
            "| `{}` | `{}` | {} | {} | {} |\n",
            info.code,
            info.variant,
            info.meaning.replace('|', "\\|"),
            info.fix.replace('|', "\\|"),
            test
        ));
    }
    out
}

#[test]
fn error_codes_of_the_enums_are_documented_once() {
    let documented: Vec<&str> = vgpu::error_codes().map(|c| c.code).collect();
    let mut unique = documented.clone();
    unique.sort_unstable();
    unique.dedup();
    assert_eq!(unique.len(), documented.len(), "a code is listed twice");
    let sources = source_codes();
    for (code, file) in &sources {
        assert!(
            documented.contains(&code.as_str()),
            "{code} (named in {}) is not in vgpu::error_codes(): add it to its crate's ERROR_CODES",
            file.display()
        );
    }
    for code in &documented {
        assert!(
            sources.contains_key(*code),
            "{code} is documented but no error type returns it: remove it from ERROR_CODES"
        );
    }
    for info in vgpu::error_codes() {
        assert!(
            !info.meaning.is_empty() && !info.fix.is_empty(),
            "{}",
            info.code
        );
        assert_eq!(vgpu::explain(info.code), Some(info));
    }
    assert_eq!(vgpu::explain("VGPU-NOT-A-CODE"), None);
}

#[test]
fn every_error_code_is_produced_by_a_test() {
    let tests = producing_tests();
    let missing: Vec<&str> = vgpu::error_codes()
        .map(|c| c.code)
        .filter(|c| !tests.contains_key(*c) && !WEB_ONLY.iter().any(|(w, _)| w == c))
        .collect();
    assert!(
        missing.is_empty(),
        "codes no test produces (write a #[test] that produces each through the public API and \
         asserts its code): {missing:?}"
    );
}

#[test]
fn error_codes_table_in_docs_is_current() {
    let path = repo_root().join("docs/errors.md");
    let expected = render_table();
    if std::env::var_os("VGPU_BLESS").is_some() {
        std::fs::write(&path, &expected).unwrap();
        return;
    }
    let actual = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        actual == expected,
        "docs/errors.md is stale: run `VGPU_BLESS=1 cargo test -p vgpu-tests --test integration \
         error_codes` and commit it"
    );
}

// The codes no other test produces.

#[track_caller]
fn assert_code<T: std::fmt::Debug, E: ErrorCode + std::fmt::Display>(
    result: Result<T, E>,
    code: &str,
) -> String {
    let e = result.expect_err(code);
    assert_eq!(e.code(), code, "{e}");
    let message = e.to_string();
    assert!(message.starts_with(code), "{message}");
    message
}

#[test]
fn buffers_of_invalid_sizes_and_ranges_are_refused() {
    let gpu = Gpu::noop();
    let desc = |size| BufferDesc {
        label: "params".into(),
        size,
        ..Default::default()
    };
    let message = assert_code(gpu.buffer(&desc(6)), "VGPU-BUFFER-SIZE");
    assert!(
        message.contains("\"params\"") && message.contains('6'),
        "{message}"
    );
    assert_code(gpu.buffer(&desc(0)), "VGPU-BUFFER-SIZE");
    let buffer = gpu.buffer(&desc(16)).unwrap();
    let message = assert_code(buffer.write(8, &[0; 16]), "VGPU-BUFFER-RANGE");
    assert!(message.contains("\"params\""), "{message}");
    assert_code(buffer.write(2, &[0; 4]), "VGPU-BUFFER-RANGE");
    assert_code(buffer.write(0, &[0; 3]), "VGPU-BUFFER-RANGE");
    // A refused write changed nothing (on noop the bytes are the buffer's zeros).
    buffer.write(0, &[1; 16]).unwrap();
    assert!(gpu.take_uncaptured_errors().is_empty());
}

#[test]
fn a_second_frame_while_one_is_open_is_refused() {
    let gpu = Gpu::noop();
    let frame = gpu.begin_frame().unwrap();
    assert_code(gpu.begin_frame().map(|_| ()), "VGPU-FRAME-ALREADY-OPEN");
    assert_code(gpu.frame(|_| Ok(())), "VGPU-FRAME-ALREADY-OPEN");
    frame.cancel();
    // Once the open frame is gone, frames work again.
    gpu.frame(|_| Ok(())).unwrap();
}

#[test]
fn a_png_that_cannot_be_written_is_an_error_naming_the_path() {
    let gpu = Gpu::noop();
    let target = gpu.target(4, 4).unwrap();
    let path = std::env::temp_dir()
        .join("vgpu-no-such-folder")
        .join("deeper")
        .join("out.png");
    let message = assert_code(target.save_png(&path), "VGPU-TARGET-PNG");
    assert!(message.contains("out.png"), "{message}");
}

#[test]
fn wgpu_internal_errors_keep_their_description() {
    // wgpu raises `Internal` when a backend fails where wgpu's validation passed (a driver
    // refusing a pipeline); no input of this machine's backends does, so the conversion vgpu
    // applies to every caught wgpu error is what is checked here.
    let error = wgpu::Error::Internal {
        source: Box::new(std::io::Error::other("driver said no")),
        description: "the driver refused the pipeline".to_owned(),
    };
    let converted = vgpu::DeviceError::from_wgpu("create_render_pipeline", Some("shadow"), error);
    let message = assert_code(Err::<(), _>(converted), "VGPU-DEVICE-INTERNAL");
    assert!(
        message.contains("shadow") && message.contains("the driver refused the pipeline"),
        "{message}"
    );
}

#[test]
fn unsupported_wgsl_bindings_are_refused_by_name() {
    // A device with texture binding arrays accepts an unbounded `binding_array` in WGSL; vgpu
    // cannot size its bind-group layout entry, so it refuses the shader by binding name.
    let message = assert_code(
        vgpu_core::Shader::with_features(
            "atlas",
            "enable wgpu_binding_array;
             @group(0) @binding(0) var pages: binding_array<texture_2d<f32>>;
             @group(0) @binding(1) var s: sampler;
             @fragment fn fs_main() -> @location(0) vec4f {
                 return textureSample(pages[0], s, vec2f(0.5));
             }",
            wgpu::Features::TEXTURE_BINDING_ARRAY,
        ),
        "VGPU-SHADER-UNSUPPORTED",
    );
    assert!(
        message.contains("pages") && message.contains("constant size"),
        "{message}"
    );
}

/// A window handle of no real window: the noop backend accepts any handle for a surface.
struct NoWindow;

#[expect(
    unsafe_code,
    reason = "a fake window handle for the noop backend, never dereferenced"
)]
impl wgpu::rwh::HasWindowHandle for NoWindow {
    fn window_handle(&self) -> Result<wgpu::rwh::WindowHandle<'_>, wgpu::rwh::HandleError> {
        let raw = wgpu::rwh::RawWindowHandle::Xlib(wgpu::rwh::XlibWindowHandle::new(1));
        // SAFETY: the handle is never dereferenced: the noop backend ignores it.
        Ok(unsafe { wgpu::rwh::WindowHandle::borrow_raw(raw) })
    }
}

#[expect(
    unsafe_code,
    reason = "a fake window handle for the noop backend, never dereferenced"
)]
impl wgpu::rwh::HasDisplayHandle for NoWindow {
    fn display_handle(&self) -> Result<wgpu::rwh::DisplayHandle<'_>, wgpu::rwh::HandleError> {
        let raw = wgpu::rwh::RawDisplayHandle::Xlib(wgpu::rwh::XlibDisplayHandle::new(None, 0));
        // SAFETY: as above.
        Ok(unsafe { wgpu::rwh::DisplayHandle::borrow_raw(raw) })
    }
}

#[test]
fn a_surface_the_adapter_cannot_present_to_is_refused() {
    let gpu = Gpu::noop();
    let message = assert_code(
        gpu.surface(NoWindow, &vgpu::SurfaceDesc::new(64, 64)),
        "VGPU-SURFACE",
    );
    assert!(message.contains("new_for_window"), "{message}");
    // An adopted device without its instance cannot make surfaces at all.
    let adopted = Gpu::from_wgpu(
        None,
        gpu.context().adapter().clone(),
        gpu.device().clone(),
        gpu.queue().clone(),
    );
    let message = assert_code(
        adopted.surface(NoWindow, &vgpu::SurfaceDesc::new(64, 64)),
        "VGPU-SURFACE",
    );
    assert!(message.contains("Instance"), "{message}");
}

#[test]
fn a_wait_for_a_submission_the_device_never_had_is_a_poll_error() {
    // `GpuContext::poll` is the wait behind `wait_idle` and the read-backs; asked for a
    // submission this device never made (an index of another device, further along), wgpu
    // answers `WrongSubmissionIndex`. (WebGL2's `wait_idle` on unfinished work is the other
    // way to get there.)
    let gpu = Gpu::noop();
    let other = Gpu::noop();
    for _ in 0..3 {
        other.frame(|_| Ok(())).unwrap();
    }
    let later = other.queue().submit([]);
    let message = assert_code(
        gpu.context().poll(
            "test",
            wgpu::PollType::Wait {
                submission_index: Some(later),
                timeout: Some(std::time::Duration::ZERO),
            },
        ),
        "VGPU-DEVICE-POLL",
    );
    assert!(message.len() > "VGPU-DEVICE-POLL: ".len(), "{message}");
    // The device is not lost: it keeps working.
    assert!(!gpu.is_lost());
    gpu.frame(|_| Ok(())).unwrap();
    gpu.wait_idle().unwrap();
}

#[test]
fn mapping_a_buffer_that_cannot_be_mapped_is_a_map_error_naming_it() {
    // `GpuContext::map_read` is the read-back behind targets and buffers; a buffer without
    // `MAP_READ` cannot be mapped, and wgpu fails the map (and reports the validation error,
    // caught here by a scope of the test's own).
    let gpu = Gpu::noop();
    let buffer = gpu.device().create_buffer(&wgpu::BufferDescriptor {
        label: Some("not mappable"),
        size: 16,
        usage: wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let scope = gpu.device().push_error_scope(wgpu::ErrorFilter::Validation);
    let message = assert_code(
        pollster::block_on(gpu.context().map_read(&buffer, "not mappable")),
        "VGPU-DEVICE-MAP",
    );
    assert!(message.contains("not mappable"), "{message}");
    drop(pollster::block_on(scope.pop()));
    assert!(gpu.take_uncaptured_errors().is_empty());
    gpu.frame(|_| Ok(())).unwrap();
}
