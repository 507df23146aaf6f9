//! Shared helpers for the integration tests. See `README.md` for the three tiers.

use vgpu::{Draw, DrawDesc, Gpu, RgbaImage};

pub mod guides;
pub mod quad;

/// A vertex stage whose three vertices cover the whole viewport (`vs_main`).
pub const FULLSCREEN_VS: &str = "
@vertex fn vs_main(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
    let p = vec2f(f32((i << 1u) & 2u), f32(i & 2u));
    return vec4f(p * 2.0 - 1.0, 0.0, 1.0);
}
";

/// A fullscreen draw of `fragment` (its bindings plus `fs_main`) labelled `label`.
///
/// # Panics
/// If the shader or the draw is rejected.
pub fn fullscreen(gpu: &Gpu, label: &str, fragment: &str) -> Draw {
    let shader = gpu
        .shader(label, &format!("{fragment}\n{FULLSCREEN_VS}"))
        .expect("shader");
    gpu.draw(
        &shader,
        DrawDesc {
            label: label.to_owned(),
            ..Default::default()
        },
    )
    .expect("draw")
}

/// The bytes of `v`.
pub fn f32_bytes(v: &[f32]) -> Vec<u8> {
    bytemuck::cast_slice(v).to_vec()
}

/// Asserts every pixel of `image` is `expected`, naming the first one that is not.
///
/// # Panics
/// On the first pixel that differs.
#[track_caller]
pub fn assert_all_pixels(image: &RgbaImage, expected: [u8; 4], what: &str) {
    for y in 0..image.height {
        for x in 0..image.width {
            assert_eq!(image.pixel(x, y), Some(expected), "{what}: pixel ({x},{y})");
        }
    }
}

/// The tier-2 device: the backend named by `VGPU_BACKEND` (default `auto`). Returns `None` after
/// a [`skip`] of requirement `device` (a failure under `VGPU_REQUIRE=device`) when that is the
/// noop backend, where passes do not execute.
///
/// # Panics
/// If no device can be created: a tier-2 test must not silently pass without a device; on the
/// noop backend under `VGPU_REQUIRE=device`.
pub fn real_gpu() -> Option<Gpu> {
    let gpu = match Gpu::from_env() {
        Ok(gpu) => gpu,
        Err(e) => panic!("tier-2 test needs a device (set VGPU_BACKEND=vulkan or gl): {e}"),
    };
    if gpu.is_noop() {
        skip(
            "device",
            "VGPU_BACKEND=noop: a tier-2 (real device) test (passes do not execute)",
        );
        return None;
    }
    Some(gpu)
}

/// The environment variable naming what must not be skipped: a comma-separated list of
/// requirements (`device`, `window`, `web`, `timestamps`), e.g. `VGPU_REQUIRE=window,timestamps`.
/// A [`skip`] of a listed requirement fails the test instead. CI (`.ci/run`) sets it to what its
/// machine can run.
pub const REQUIRE_ENV: &str = "VGPU_REQUIRE";

/// The environment variable naming the file every [`skip`] appends its line to; unset, it is
/// `vgpu-skips.txt` in the target folder of the test binary (`target/vgpu-skips.txt`).
pub const SKIPS_FILE_ENV: &str = "VGPU_SKIPS_FILE";

/// Whether `VGPU_REQUIRE` ([`REQUIRE_ENV`]) lists `requirement`.
pub fn required(requirement: &str) -> bool {
    std::env::var(REQUIRE_ENV).is_ok_and(|list| list.split(',').any(|r| r.trim() == requirement))
}

/// The file skips are recorded in ([`SKIPS_FILE_ENV`]), or `None` when this process is not a
/// test binary under `target/<profile>/deps/` and the variable is unset.
pub fn skips_file() -> Option<std::path::PathBuf> {
    if let Some(path) = std::env::var_os(SKIPS_FILE_ENV).filter(|p| !p.is_empty()) {
        return Some(path.into());
    }
    let exe = std::env::current_exe().ok()?;
    let deps = exe.parent()?;
    (deps.file_name()? == "deps").then_some(())?;
    Some(deps.parent()?.parent()?.join("vgpu-skips.txt"))
}

/// Skips the calling test for want of `requirement` (one of the [`REQUIRE_ENV`] names, or
/// another word for what is missing), saying why; the caller then returns. The skip is visible:
///
/// - it fails the test (panics with `reason`) when `VGPU_REQUIRE` lists `requirement`;
/// - otherwise it writes `SKIPPED <test>: <reason> [<requirement>]` straight to the process's
///   standard error (not through `eprintln!`, which the test harness captures and hides for
///   passing tests), so a plain `cargo test` shows it,
/// - and appends that line to [`skips_file`] (`target/vgpu-skips.txt`; `.ci/run` names one
///   per backend, emptied before the run of the suite and printed after it).
///
/// # Panics
/// When the requirement is required.
#[track_caller]
pub fn skip(requirement: &str, reason: &str) {
    use std::io::Write as _;
    let thread = std::thread::current();
    let test = thread.name().unwrap_or("a test");
    assert!(
        !required(requirement),
        "{test}: would skip ({reason}), but {REQUIRE_ENV}={} requires `{requirement}`",
        std::env::var(REQUIRE_ENV).unwrap_or_default()
    );
    let line = format!("SKIPPED {test}: {reason} [{requirement}]\n");
    // One write each: lines of tests running in parallel (or of other test binaries) do not
    // interleave within a line.
    let _ = std::io::stderr().write_all(line.as_bytes());
    if let Some(path) = skips_file() {
        let _ = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .and_then(|mut f| f.write_all(line.as_bytes()));
    }
}

/// Runs `case` on the noop device, then on [`real_gpu`] (unless `VGPU_BACKEND=noop`), and
/// asserts that neither reported an uncaptured wgpu error.
///
/// # Panics
/// As [`real_gpu`], or if `case` does, or on an uncaptured error.
pub fn each_gpu(case: impl Fn(&Gpu)) {
    let noop = Gpu::noop();
    case(&noop);
    let errors = noop.take_uncaptured_errors();
    assert!(
        errors.is_empty(),
        "uncaptured wgpu errors (noop): {errors:?}"
    );
    if let Some(gpu) = real_gpu() {
        case(&gpu);
        let errors = gpu.take_uncaptured_errors();
        assert!(errors.is_empty(), "uncaptured wgpu errors: {errors:?}");
    }
}

/// Decodes an 8-bit RGBA PNG into `(width, height, pixels)`.
///
/// # Panics
/// If the file is not an 8-bit RGBA PNG.
pub fn load_png(path: &std::path::Path) -> (u32, u32, Vec<u8>) {
    let decoder = png::Decoder::new(std::io::BufReader::new(
        std::fs::File::open(path).expect("open png"),
    ));
    let mut reader = decoder.read_info().expect("png header");
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).expect("png frame");
    assert_eq!(info.color_type, png::ColorType::Rgba);
    assert_eq!(info.bit_depth, png::BitDepth::Eight);
    buf.truncate(info.buffer_size());
    (info.width, info.height, buf)
}

/// A unique temporary path for a test output file.
pub fn temp_path(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("vgpu-tests-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("create temp dir");
    dir.join(name)
}

/// The example `name` built next to this test binary (`target/<profile>/examples/<name>`; the
/// test binary is `target/<profile>/deps/integration-…`).
///
/// # Panics
/// If it is not built, saying how to build it.
pub fn example_binary(name: &str) -> std::path::PathBuf {
    let exe = std::env::current_exe().expect("the test binary's path");
    let profile_dir = exe
        .parent()
        .and_then(std::path::Path::parent)
        .expect("the test binary lives in target/<profile>/deps/");
    let path = profile_dir
        .join("examples")
        .join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
    assert!(
        path.exists(),
        "the {name} example is not built: {} is missing. `cargo test` (the workspace, or -p \
         vgpu-examples) builds it; with `cargo test -p vgpu-tests` alone, run `cargo build -p \
         vgpu-examples --example {name}` (same profile) first",
        path.display()
    );
    path
}

/// The `XDG_RUNTIME_DIR` a child process gets when this process's is `parent`: `None` (it
/// inherits `parent`) when that is set and not empty; otherwise a private directory (mode 0700,
/// one per test process, created on first use). Without one, Mesa's Vulkan loader prints
/// `error: XDG_RUNTIME_DIR is invalid or not set` on every run.
///
/// # Panics
/// If the directory cannot be created.
pub fn runtime_dir_for_child(parent: Option<&std::ffi::OsStr>) -> Option<std::path::PathBuf> {
    static DIR: std::sync::OnceLock<std::path::PathBuf> = std::sync::OnceLock::new();
    if parent.is_some_and(|p| !p.is_empty()) {
        return None;
    }
    let dir = DIR.get_or_init(|| {
        let dir = temp_path("xdg-runtime");
        std::fs::create_dir_all(&dir).expect("create the private XDG_RUNTIME_DIR");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700))
                .expect("chmod 700 the private XDG_RUNTIME_DIR");
        }
        dir
    });
    Some(dir.clone())
}

/// A command for a child process (an example, a child test): this process's environment, plus
/// a private `XDG_RUNTIME_DIR` when this process has none ([`runtime_dir_for_child`]).
pub fn child_command(program: impl AsRef<std::ffi::OsStr>) -> std::process::Command {
    let mut command = std::process::Command::new(program);
    if let Some(dir) = runtime_dir_for_child(std::env::var_os("XDG_RUNTIME_DIR").as_deref()) {
        command.env("XDG_RUNTIME_DIR", dir);
    }
    command
}

/// Set in the environment of a child test process started by [`run_child_test`] (its value is
/// the name of the test the child runs).
pub const CHILD_TEST_ENV: &str = "VGPU_TESTS_CHILD";

/// Runs the `#[ignore]`d test `name` of the calling module alone, in a child process of the
/// calling test binary, with `env` added to the child's environment; `module_path` is the
/// caller's `module_path!()`. The child gets a private `XDG_RUNTIME_DIR` when this process has
/// none ([`child_command`]); `env` may still set one.
///
/// For tests that depend on the process environment (`VGPU_BACKEND`, the Vulkan ICD and EGL
/// vendor search paths): the child has an environment of its own, read before any instance
/// exists in it, and the tests running beside the caller in this process are not affected.
///
/// # Panics
/// With the child's output, if it cannot be started, fails, or did not run exactly that test.
pub fn run_child_test(module_path: &str, name: &str, env: &[(&str, &str)]) {
    // Test names are paths from the crate root: drop the test crate's own name.
    let test = match module_path.split_once("::") {
        Some((_, module)) => format!("{module}::{name}"),
        None => name.to_owned(),
    };
    let exe = std::env::current_exe().expect("the path of this test binary");
    let output = child_command(exe)
        .args([test.as_str(), "--exact", "--ignored", "--nocapture"])
        .args(["--test-threads", "1"])
        .env(CHILD_TEST_ENV, &test)
        .envs(env.iter().copied())
        .output()
        .unwrap_or_else(|e| panic!("cannot start the child test {test}: {e}"));
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    let report = format!(
        "child test {test} with {env:?}: {}\n--- its stdout:\n{stdout}\n--- its stderr:\n{stderr}",
        output.status
    );
    assert!(output.status.success(), "{report}");
    // A name that matches no test runs nothing and exits 0: require the one test's pass.
    assert!(
        stdout.contains("test result: ok. 1 passed;"),
        "did not run exactly one test: {report}"
    );
}

/// Whether this process is a child started by [`run_child_test`]. A child test calls it first
/// and returns when it is `false` (run in-process, e.g. by `cargo test -- --include-ignored`,
/// it would see this process's environment instead of the one its parent test sets), saying so
/// on stderr.
pub fn in_child_test(name: &str) -> bool {
    let child = std::env::var_os(CHILD_TEST_ENV).is_some();
    if !child {
        eprintln!("{name}: runs only in the child process its parent test starts; skipped here");
    }
    child
}

/// What a run of an example binary left: its working directory (where it wrote its PNGs) and
/// its output.
#[derive(Debug)]
pub struct ExampleRun {
    /// The fresh, empty directory the example ran in.
    pub dir: std::path::PathBuf,
    /// Its standard output.
    pub stdout: String,
    /// Its standard error.
    pub stderr: String,
}

impl ExampleRun {
    /// The lines of standard output that start with `prefix`.
    pub fn lines_starting(&self, prefix: &str) -> Vec<&str> {
        self.stdout
            .lines()
            .filter(|l| l.starts_with(prefix))
            .collect()
    }

    /// The one line of standard output that starts with `prefix`.
    ///
    /// # Panics
    /// Unless exactly one line does.
    #[track_caller]
    pub fn line(&self, prefix: &str) -> &str {
        match self.lines_starting(prefix)[..] {
            [line] => line,
            ref lines => panic!(
                "expected one line starting with {prefix:?}, found {}:\n{}",
                lines.len(),
                self.stdout
            ),
        }
    }

    /// Whether the example ran on wgpu's noop device (its `adapter: … (Noop)` line).
    pub fn noop(&self) -> bool {
        self.stdout
            .lines()
            .any(|l| l.starts_with("adapter: ") && l.ends_with("(Noop)"))
    }

    /// A file the example wrote in its working directory.
    pub fn path(&self, name: &str) -> std::path::PathBuf {
        self.dir.join(name)
    }

    /// The PNG `name` the example says it wrote (`wrote <name>` on standard output), loaded as
    /// ([`load_png`]) width, height and RGBA8 pixels.
    ///
    /// # Panics
    /// If the example did not say so, or the file is not a PNG.
    #[track_caller]
    pub fn png(&self, name: &str) -> (u32, u32, Vec<u8>) {
        assert!(
            self.stdout.contains(&format!("wrote {name}")),
            "the example did not write {name}:\n{}",
            self.stdout
        );
        load_png(&self.path(name))
    }
}

/// Runs the built example `name` ([`example_binary`]) with `args` in a fresh directory
/// ([`temp_path`]`(example-<name>-<n>)`) through [`child_command`], with this process's
/// environment (`VGPU_BACKEND` included).
///
/// # Panics
/// If it cannot be started or does not exit 0, with its output.
pub fn run_example(name: &str, args: &[&str]) -> ExampleRun {
    static RUNS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = temp_path(&format!("example-{name}-{n}"));
    std::fs::create_dir_all(&dir).expect("create the example's directory");
    let output = child_command(example_binary(name))
        .args(args)
        .current_dir(&dir)
        .output()
        .unwrap_or_else(|e| panic!("cannot start the {name} example: {e}"));
    let run = ExampleRun {
        dir,
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    };
    assert!(
        output.status.success(),
        "the {name} example {args:?} failed ({}):\n--- stdout:\n{}\n--- stderr:\n{}",
        output.status,
        run.stdout,
        run.stderr
    );
    run
}

/// The counters of a line an example printed with `vgpu_examples::counter_line`: after the
/// first `": "`, items `<number> <name>` separated by `", "`, as (name, number) pairs.
///
/// # Panics
/// If an item does not start with a number.
pub fn parse_counters(line: &str) -> std::collections::HashMap<String, u64> {
    let (_, items) = line.split_once(": ").unwrap_or(("", line));
    items
        .split(", ")
        .map(|item| {
            let (number, name) = item
                .split_once(' ')
                .unwrap_or_else(|| panic!("{item:?} in {line:?}: not `<number> <name>`"));
            let number = number
                .parse()
                .unwrap_or_else(|e| panic!("{item:?} in {line:?}: {e}"));
            (name.to_owned(), number)
        })
        .collect()
}
