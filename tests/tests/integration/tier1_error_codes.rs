//! Tier 1 (noop device): every `VGPU-…` code is documented, produced by a test, and
//! `docs/errors.md` is the table generated from [`vgpu::error_codes`].
//!
//! Three lists must agree, and the tests here fail when they do not:
//! - the codes the error enums return (the `"VGPU-…"` literals of `crates/*/src`);
//! - [`vgpu::error_codes`] (each crate's `ERROR_CODES`, with meaning and fix);
//! - the tests that produce each code through the public API: a `#[test]` function of the
//!   repository that asserts an operation returned the code (`assert_eq!(e.code(), "VGPU-…")`, a
//!   helper of its file that asserts the code given to it such as `assert_code(.., "VGPU-…")`;
//!   found by scanning, see [`asserts_a_code`]; a mention, a comment or an `assert_ne!` does not
//!   count; the table names the test). Codes only the web can produce are listed in [`WEB_ONLY`]
//!   with where they are tested, codes no input from outside can produce in [`NOT_PRODUCIBLE`]
//!   with the reason.
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

/// Codes no input from outside vgpu can produce on the machines the suite runs on, with the
/// reason (`docs/errors.md` says it in their row). Each one's conversion is still tested where it
/// can be (named in the reason).
const NOT_PRODUCIBLE: &[(&str, &str)] = &[
    (
        "VGPU-DEVICE-INTERNAL",
        "wgpu raises `Internal` only when a backend fails where wgpu's validation passed (a driver \
         refusing a pipeline); no input does on lavapipe, llvmpipe or noop. The conversion of such \
         an error is checked by `tests/tests/integration/tier1_error_codes.rs`: \
         `wgpu_internal_errors_keep_their_description` (a hand-built `wgpu::Error`)",
    ),
    (
        "VGPU-SHADER-INTERNAL",
        "returned only when naga panics on a source (vgpu catches the panic); no known source makes \
         naga panic, and `crates/vgpu-core/tests/integration/hostile.rs`: \
         `hostile_wgsl_never_panics` asserts that hundreds of hostile sources do not",
    ),
];

/// Tests that get a code from an input no caller of vgpu has (a hand-built `wgpu::Error`, the
/// handle of no window): they check a conversion or a message, not that the code can be produced,
/// so the scan does not credit them.
const HAND_BUILT: &[&str] = &[
    "wgpu_internal_errors_keep_their_description",
    "a_surface_the_adapter_cannot_present_to_is_refused",
];

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

/// A bracket open in a test body: the name of the call or macro it belongs to (`assert_eq` for
/// `assert_eq!(`, `assert_code` for `assert_code(`; empty for a tuple, an array or a block) and
/// where it opens and closes.
#[derive(Debug)]
struct Call {
    name: String,
    brace: bool,
    start: usize,
    end: usize,
}

/// The identifier just before byte `at` (skipping spaces and a macro's `!`), or "".
fn name_before(text: &str, at: usize) -> &str {
    let head = text[..at].trim_end();
    let head = head.strip_suffix('!').unwrap_or(head);
    let start = head
        .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .map_or(0, |i| i + 1);
    &head[start..]
}

/// Each complete `"VGPU-…"` string literal of `body`'s code (not of its comments) with the
/// brackets around it, innermost last. A small lexer: strings (plain, raw, byte), char literals
/// and lifetimes, line and block comments.
fn lex(body: &str) -> (Vec<(&str, Vec<usize>)>, Vec<Call>) {
    let bytes = body.as_bytes();
    let (mut open, mut calls): (Vec<usize>, Vec<Call>) = (Vec::new(), Vec::new());
    let mut pending: Vec<(&str, Vec<usize>)> = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let rest = &body[i..];
        if rest.starts_with("//") {
            i += rest.find('\n').unwrap_or(rest.len());
        } else if rest.starts_with("/*") {
            i += rest.find("*/").map_or(rest.len(), |n| n + 2);
        } else if (rest.starts_with("r\"") || rest.starts_with("r#") || rest.starts_with("br"))
            && !body[..i].ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_')
        {
            let after_r = rest.find('r').unwrap_or(0) + 1;
            let hashes = rest[after_r..].len() - rest[after_r..].trim_start_matches('#').len();
            if rest[after_r + hashes..].starts_with('"') {
                let close = format!("\"{}", "#".repeat(hashes));
                let from = after_r + hashes + 1;
                i += rest[from..]
                    .find(&close)
                    .map_or(rest.len(), |n| from + n + close.len());
            } else {
                i += 1;
            }
        } else if bytes[i] == b'"' {
            let mut j = i + 1;
            while j < bytes.len() && bytes[j] != b'"' {
                j += if bytes[j] == b'\\' { 2 } else { 1 };
            }
            let content = &body[i + 1..j.min(bytes.len())];
            if content.starts_with("VGPU-")
                && !content.ends_with('-')
                && content
                    .chars()
                    .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '-')
            {
                pending.push((content, open.clone()));
            }
            i = j + 1;
        } else if bytes[i] == b'\'' {
            // A char literal ('x', '\n', '\'') or a lifetime ('a).
            i += if let Some(escaped) = rest.strip_prefix("'\\") {
                // The escaped character, then the closing quote.
                escaped
                    .get(1..)
                    .and_then(|t| t.find('\''))
                    .map_or(rest.len(), |n| n + 4)
            } else if rest.chars().nth(2) == Some('\'') {
                rest.chars().take(3).map(char::len_utf8).sum()
            } else {
                1
            };
        } else if matches!(bytes[i], b'(' | b'[' | b'{') {
            let brace = bytes[i] == b'{';
            let name = if brace { "" } else { name_before(body, i) };
            open.push(calls.len());
            calls.push(Call {
                name: name.to_owned(),
                brace,
                start: i,
                end: body.len(),
            });
            i += 1;
        } else if matches!(bytes[i], b')' | b']' | b'}') {
            if let Some(at) = open.pop() {
                calls[at].end = i + 1;
            }
            i += 1;
        } else {
            i += rest.chars().next().map_or(1, char::len_utf8);
        }
    }
    (pending, calls)
}

/// The functions of a file that assert a code given to them: a `code: &str` parameter and
/// `assert_eq!(e.code(), code, …)` in the body (`assert_code`, `refused_without_effect`).
fn asserting_helpers(lines: &[&str]) -> Vec<String> {
    let mut helpers = Vec::new();
    for (start, line) in lines.iter().enumerate() {
        let trimmed = line.trim_start();
        let Some(signature) = trimmed.strip_prefix("fn ") else {
            continue;
        };
        let indent = &line[..line.len() - trimmed.len()];
        let end = lines[start..]
            .iter()
            .position(|l| l.strip_prefix(indent) == Some("}"))
            .map_or(lines.len(), |n| start + n + 1);
        let text = lines[start..end].join("\n");
        let (head, body) = text.split_once('{').unwrap_or((&text, ""));
        if head.contains("code: &str")
            && body.contains("assert_eq!(")
            && body.contains(".code(), code")
        {
            helpers.push(
                signature
                    .split(['(', '<'])
                    .next()
                    .unwrap_or_default()
                    .to_owned(),
            );
        }
    }
    helpers
}

/// Whether a code literal, with the brackets around it in a test body, is asserted to be the
/// code an operation returned:
/// - an argument of `assert_eq!` whose other side reads a code (`e.code()`, `code`);
/// - an argument of a helper of the file that asserts the code given to it (`assert_code`);
/// - compared with a `.code()` inside `matches!` inside an `assert!`;
/// - an element of a table (tuples and arrays up to the statement) when the test asserts codes
///   against a table element (`assert_eq!(e.code(), code)`, `assert_code(.., code)`).
///
/// Never `assert_ne!`, `starts_with`/`contains` of a message, a comment, or an unasserted table.
fn asserts_a_code(body: &str, around: &[&Call], helpers: &[String], asserts_row: bool) -> bool {
    let Some(inner) = around.last() else {
        return false;
    };
    let text = &body[inner.start..inner.end];
    match inner.name.as_str() {
        "assert_eq" => text.contains("code"),
        "matches" => {
            text.contains("code() ==") && around.iter().any(|c| c.name == "assert" && !c.brace)
        }
        "" if !inner.brace => {
            asserts_row
                && around
                    .iter()
                    .rev()
                    .take_while(|c| !c.brace)
                    .all(|c| c.name.is_empty() || c.name == "vec")
        }
        name => helpers.iter().any(|h| h == name),
    }
}

/// Whether a test asserts a code against a value that is not a literal (a table's row).
fn asserts_rows(body: &str, calls: &[Call], helpers: &[String]) -> bool {
    calls.iter().any(|c| {
        let text = &body[c.start..c.end];
        let asserting =
            (c.name == "assert_eq" && text.contains("code")) || helpers.contains(&c.name);
        !c.brace && asserting && !text.contains("\"VGPU-")
    })
}

/// The codes a test body asserts an operation returned ([`asserts_a_code`]); `helpers` are the
/// functions of its file that assert a code given to them.
fn asserted_codes<'a>(body: &'a str, helpers: &[String]) -> Vec<&'a str> {
    let (literals, calls) = lex(body);
    let rows = asserts_rows(body, &calls, helpers);
    literals
        .into_iter()
        .filter(|(_, around)| {
            let around: Vec<&Call> = around.iter().map(|&c| &calls[c]).collect();
            asserts_a_code(body, &around, helpers, rows)
        })
        .map(|(code, _)| code)
        .collect()
}

/// For each code, the first `#[test]` function (in path order) that asserts an operation returned
/// it ([`asserts_a_code`]): the tests of `tests/`, of each crate (`crates/*/tests`, unit tests in
/// `crates/*/src`) and of `benches/`.
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
        let helpers = asserting_helpers(&lines);
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
            if HAND_BUILT.contains(&name) {
                continue;
            }
            let start = i + 1 + at;
            let end = lines[start..]
                .iter()
                .position(|l| l.strip_prefix(indent) == Some("}"))
                .map_or(lines.len(), |n| start + n + 1);
            let body = lines[start..end].join("\n");
            for code in asserted_codes(&body, &helpers) {
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
    let not_producible: BTreeMap<_, _> = NOT_PRODUCIBLE.iter().copied().collect();
    let mut out = String::from(
        "# Error codes\n\n\
         Every error vgpu returns carries a stable code, printed first in its message and returned \
         by `err.code()`; `vgpu::explain(code)` gives the meaning and fix below at run time.\n\n\
         This file is generated from `vgpu::error_codes()` by \
         `VGPU_BLESS=1 cargo test -p vgpu-tests --test integration error_codes`; that test fails \
         when a code of the error enums is missing here, when this file is stale, or when a code \
         has no test that asserts an operation returned it (the last column names it; a code no \
         input from outside can produce says why).\n\n\
         | Code | Error | What happened | Usual fix | Produced by the test |\n\
         |---|---|---|---|---|\n",
    );
    for info in vgpu::error_codes() {
        let test = match (
            not_producible.get(info.code),
            tests.get(info.code),
            web.get(info.code),
        ) {
            (Some(why), _, _) => format!("not producible from outside: {why}"),
            (None, Some(test), _) => test.clone(),
            (None, None, Some(web)) => format!("web only: {web}"),
            (None, None, None) => "**none**".to_owned(),
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
    let listed = |list: &[(&str, &str)], code: &str| list.iter().any(|(c, _)| *c == code);
    let missing: Vec<&str> = vgpu::error_codes()
        .map(|c| c.code)
        .filter(|c| !tests.contains_key(*c) && !listed(WEB_ONLY, c) && !listed(NOT_PRODUCIBLE, c))
        .collect();
    for (code, _) in WEB_ONLY.iter().chain(NOT_PRODUCIBLE) {
        assert!(
            vgpu::explain(code).is_some(),
            "{code} is listed but not a code"
        );
    }
    assert!(
        missing.is_empty(),
        "codes no test produces (write a #[test] that produces each through the public API and \
         asserts its code): {missing:?}"
    );
}

#[test]
fn the_scan_credits_a_code_only_where_a_test_asserts_it_was_returned() {
    let helpers = ["assert_code".to_owned()];
    let scan = |body: &'static str| asserted_codes(body, &helpers);
    // Credited: the forms the suite asserts codes with.
    let credited = r#"fn t() {
        assert_eq!(e.code(), "VGPU-A", "{e}");
        assert_eq!(
            vgpu::ErrorCode::code(&e),
            "VGPU-B"
        );
        assert_code(gpu.frame(|f| f.pass(&t, |p| p.draw(&d))), "VGPU-C");
        assert!(matches!(err, E::Engine(ref e) if e.code() == "VGPU-D"));
        let cases = [("x", "VGPU-E"), ("y", "VGPU-F")];
        for (x, code) in cases {
            assert_eq!(run(x).unwrap_err().code(), code);
        }
    }"#;
    assert_eq!(
        scan(credited),
        ["VGPU-A", "VGPU-B", "VGPU-C", "VGPU-D", "VGPU-E", "VGPU-F"]
    );
    // Not credited: a mention, an `assert_ne!`, a message check, a comment, a table no assertion
    // reads, a call of a function that does not assert, a raw string.
    let mentioned = r##"fn t() {
        assert_ne!(code, "VGPU-A", "naga panicked");
        assert!(msg.starts_with("VGPU-B"), "{msg}");
        // assert_eq!(e.code(), "VGPU-C");
        /* assert_eq!(e.code(), "VGPU-D"); */
        let unused = [("x", "VGPU-E")];
        eprintln!("{}", "VGPU-F");
        let s = r#"assert_eq!(e.code(), "VGPU-G")"#;
        assert_eq!(e.to_string(), "VGPU-H");
        let c = '"'; assert_eq!(c, '"'); let q = '\''; let e = "\"VGPU-I\"";
    }"##;
    assert_eq!(scan(mentioned), Vec::<&str>::new());
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
    let before: Vec<u8> = (1..=16).collect();
    buffer.write(0, &before).unwrap();
    let message = assert_code(buffer.write(8, &[0; 16]), "VGPU-BUFFER-RANGE");
    assert!(message.contains("\"params\""), "{message}");
    assert_code(buffer.write(2, &[0; 4]), "VGPU-BUFFER-RANGE");
    assert_code(buffer.write(0, &[0; 3]), "VGPU-BUFFER-RANGE");
    // A refused write changed nothing: the buffer reads back the bytes written before.
    assert_eq!(buffer.read_blocking().unwrap(), before);
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
