//! `modules`: sets of WGSL modules generated from the input, composed by `Gpu::shader_from`
//! (WESL `import` and `@if` through the `wesl` crate, vgpu's standard library as package
//! `vgpu`). A set is 1–8 modules with paths from a small vocabulary (valid ones, and `..`,
//! `a//b`, `9x`, the empty path, …); their sources are fragments of valid WGSL (functions,
//! consts, overrides, structs, bindings, entry points) with `@if`/`@elif`/`@else` on them, import
//! statements naming items of the set (absolute, `super::` chains, collections, `as`), missing
//! modules and items, the standard library (`vgpu::hash::pcg`, `vgpu::noise::fbm2`,
//! `vgpu::color::luminance`, missing `vgpu::nope::x`) and an extra package; expressions call
//! what is in scope, or inline paths (`package::a::f0()`), or are of the wrong type; raw input
//! bytes (lossy UTF-8), truncated sources, sources at `MAX_MODULE_BYTES`. Cycles come from
//! modules importing each other's items (and themselves). Features `f`, `g`, `h` are set on,
//! off or left unset; the root is a path of the vocabulary. An accepted shader is made into a
//! draw and a compute (when it has the entry points), and one without bindings drawn in a frame.
//!
//! Invariants: no panic, no hang (libFuzzer's `-timeout`); every `Err` has a `VGPU-` code; a
//! `VGPU-SHADER-MODULE` error's message has its `module:line:column`, and a line other than 0
//! is a place in that module (one of the set or of a package: the line exists, the column is
//! at most one past its end); no uncaptured wgpu error.
//!
//! A panic inside the WESL compiler (crates `wesl`, `wgsl-parse`, `wgsl-types`,
//! `wesl-macros`) is caught by vgpu and returned as `VGPU-SHADER-INTERNAL` ("the WESL compiler
//! panicked"): it is a bug of that crate that vgpu contains. libFuzzer aborts on every panic,
//! even a caught one, so, as naga's panics are (`vgpu_fuzz::context`), such a panic is logged
//! (`contained wesl panic`, with its message and location) and its input saved as
//! `wesl-panic-<hash>` under `$VGPU_FUZZ_CONTAINED_DIR`; `VGPU_FUZZ_WESL_PANICS=abort` makes it
//! a finding (to minimize it). Every other panic is a finding, vgpu's own code called by the
//! WESL compiler (its module resolver) included: the innermost frame of those crates, vgpu's
//! and this target's decides.

#![no_main]

use std::collections::HashMap;
use std::sync::Once;
use std::sync::atomic::{AtomicU64, Ordering};

use arbitrary::{Result as AResult, Unstructured};
use libfuzzer_sys::fuzz_target;
use vgpu::{ComputeDesc, DrawDesc, MAX_MODULE_BYTES, ShaderModules};
use vgpu_core::{ShaderError, Stage};
use vgpu_fuzz::{check_err, fresh_gpu, ok_or_coded, printing, save_contained};

fuzz_target!(|data: &[u8]| {
    // A `Gpu` with fresh state per input: the shared one would keep every accepted shader's
    // pipelines (its caches grow with each new shader), and a crash reproduces from its input
    // alone.
    let gpu = &fresh_gpu();
    contain_wesl_panics();
    let mut u = Unstructured::new(data);
    let Ok(set) = generate(&mut u) else {
        return;
    };
    if printing() {
        eprintln!("{}", set.describe());
    }
    let modules = set.modules();
    let shader = match gpu.shader_from("fuzz", &modules, set.root) {
        Ok(shader) => shader,
        Err(e) => {
            check_err("Gpu::shader_from", &e);
            if printing() {
                eprintln!("{e}");
            }
            match e.code() {
                "VGPU-SHADER-MODULE" => check_place(&set, &e),
                "VGPU-SHADER-INTERNAL" if e.to_string().contains("the WESL compiler panicked") => {
                    save_wesl_panic(data)
                }
                "VGPU-SHADER-INTERNAL" => save_contained(data),
                _ => {}
            }
            return;
        }
    };
    let reflection = shader.reflection();
    let has = |stage| reflection.entry_points().iter().any(|e| e.stage == stage);
    if has(Stage::Vertex) {
        let draw = gpu.draw(&shader, DrawDesc::default());
        if let Ok(draw) = &draw {
            if reflection.bindings().is_empty() {
                let target = &gpu.target(4, 4).expect("a 4x4 target");
                let r = gpu.frame(|f| f.pass(target, |p| p.draw(draw)));
                coded("frame with the shader's draw", &r);
            }
        }
        coded("Gpu::draw", &draw);
    }
    if has(Stage::Compute) {
        let compute = gpu.compute(&shader, ComputeDesc::default());
        coded("Gpu::compute", &compute);
    }
    let errors = gpu.take_uncaptured_errors();
    assert!(
        errors.is_empty(),
        "uncaptured wgpu errors: {errors:?}\n{}",
        set.describe()
    );
});

/// [`ok_or_coded`], printing the message of an `Err` too (`VGPU_FUZZ_PRINT`).
fn coded<T>(what: &str, r: &vgpu::Result<T>) {
    if !ok_or_coded(what, r) && printing() {
        if let Err(e) = r {
            eprintln!("{e}");
        }
    }
}

/// A `VGPU-SHADER-MODULE` error names its place as `module:line:column`, and a place with a
/// line is in a module that exists, within its text.
fn check_place(set: &Set, e: &vgpu::Error) {
    let message = e.to_string();
    let Some(ShaderError::Module {
        module,
        line,
        column,
        ..
    }) = e.as_shader()
    else {
        panic!("VGPU-SHADER-MODULE that is not ShaderError::Module: {message}");
    };
    let place = format!("{module}:{line}:{column}");
    assert!(
        message.contains(&place),
        "VGPU-SHADER-MODULE without its place {place:?}: {message}"
    );
    if *line == 0 {
        return;
    }
    let known = set.sources();
    let Some(source) = known.get(module.as_str()) else {
        panic!(
            "VGPU-SHADER-MODULE at line {line} of {module:?}, not a module of the set \
             (known: {:?}): {message}",
            known.keys().collect::<Vec<_>>()
        );
    };
    let lines: Vec<&str> = source.split('\n').collect();
    let Some(text) = lines.get(*line as usize - 1) else {
        panic!(
            "VGPU-SHADER-MODULE at line {line} of {module:?}, which has {} lines: {message}",
            lines.len()
        );
    };
    let width = text.chars().count() as u32;
    assert!(
        *column >= 1 && *column <= width + 1,
        "VGPU-SHADER-MODULE at {place}, line {line} is {width} characters: {message}"
    );
}

// ---------------------------------------------------------------------------------------------
// Panics of the WESL compiler.

/// WESL compiler panics seen (vgpu turns them into `VGPU-SHADER-INTERNAL`).
static WESL_PANICS: AtomicU64 = AtomicU64::new(0);

/// Files and symbol prefixes of the WESL compiler's crates.
const WESL_FILES: &[&str] = &["/wesl-0.", "/wesl-macros-", "/wgsl-parse-", "/wgsl-types-"];
const WESL_SYMBOLS: &[&str] = &["wesl::", "wesl_macros::", "wgsl_parse::", "wgsl_types::"];

/// Wraps the panic hook (libFuzzer's, behind `vgpu_fuzz`'s naga containment): a panic raised in
/// the WESL compiler's code is logged and counted instead of aborting (vgpu catches it around
/// `wesl::compile_sourcemap`); every other panic goes on to the hook before.
fn contain_wesl_panics() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        if std::env::var("VGPU_FUZZ_WESL_PANICS").is_ok_and(|v| v == "abort") {
            return;
        }
        let before = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if std::thread::current().name() != Some("vgpu-naga") && raised_in_wesl(info) {
                let n = WESL_PANICS.fetch_add(1, Ordering::Relaxed);
                if n < 50 {
                    eprintln!("vgpu-fuzz: contained wesl panic (VGPU-SHADER-INTERNAL): {info}");
                }
                return;
            }
            before(info);
        }));
    });
}

/// Whether the panic was raised by the WESL compiler: its location is in one of its crates or,
/// for a panic located in `std` or another dependency (an index out of bounds, an `unwrap`
/// inlined from `core`), the innermost frame of those crates, vgpu's or this target's is theirs
/// (by the frame's file, or its symbol where the file is missing).
fn raised_in_wesl(info: &std::panic::PanicHookInfo<'_>) -> bool {
    let ours = |file: &str| {
        file.contains("/crates/vgpu")
            || file.contains("fuzz_targets/")
            || file.contains("fuzz/src/")
    };
    let file = info.location().map_or("", |l| l.file());
    if WESL_FILES.iter().any(|w| file.contains(w)) {
        return true;
    }
    if ours(file) {
        return false;
    }
    let trace = std::backtrace::Backtrace::force_capture().to_string();
    // The frames past the panic machinery (the hook's own, this function's, come before it).
    let raised = trace
        .find("panic_with_hook")
        .map_or(&trace[..], |at| &trace[at..]);
    for line in raised.lines().map(str::trim_start) {
        if let Some(file) = line.strip_prefix("at ") {
            if WESL_FILES.iter().any(|w| file.contains(w)) {
                return true;
            }
            if ours(file) {
                return false;
            }
            continue;
        }
        let Some((number, symbol)) = line.split_once(": ") else {
            continue;
        };
        if !number.bytes().all(|b| b.is_ascii_digit()) {
            continue;
        }
        let symbol = symbol.trim_start_matches('<');
        if WESL_SYMBOLS.iter().any(|w| symbol.starts_with(w)) {
            return true;
        }
        if symbol.starts_with("vgpu") {
            return false;
        }
    }
    false
}

/// Saves an input that made the WESL compiler panic under `$VGPU_FUZZ_CONTAINED_DIR`.
fn save_wesl_panic(data: &[u8]) {
    let Some(dir) = std::env::var_os("VGPU_FUZZ_CONTAINED_DIR") else {
        return;
    };
    let dir = std::path::PathBuf::from(dir);
    let _ = std::fs::create_dir_all(&dir);
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in data {
        h = (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
    }
    let _ = std::fs::write(dir.join(format!("wesl-panic-{h:016x}")), data);
}

// ---------------------------------------------------------------------------------------------
// The generator.

/// Module paths: valid ones first (chosen most often), then invalid ones.
const PATHS: &[&str] = &[
    "main",
    "a",
    "b",
    "a/b",
    "c/d/e",
    "c/d",
    "lib",
    "a::b",
    "_x",
    "..",
    "a//b",
    "9x",
    "",
    "a/../b",
    "main.wgsl",
    "c/d/e/",
    "a b",
    "é",
];
/// How many of [`PATHS`] are valid.
const VALID_PATHS: usize = 9;

/// `@if` feature names (and one no module tests).
const FEATURES: &[&str] = &["f", "g", "h", "unused"];

/// Items of the standard library (module, item, how to use it as an `f32`), and missing ones.
const STD_ITEMS: &[(&str, &str, &str)] = &[
    ("hash", "pcg", "f32({}(3u))"),
    ("noise", "fbm2", "{}(vec2f(0.25), 3u, 2.0, 0.5)"),
    ("color", "luminance", "{}(vec3f(0.5))"),
    ("math", "PI", "{}"),
    ("hash", "hash21", "{}(vec2f(1.0, 2.0))"),
    ("sampling", "poisson_disk", "{}(1u).x"),
    ("nope", "x", "{}()"),
    ("noise", "nope", "{}()"),
];

/// What a declared item is, and so how an `f32` expression uses it (`{}` is its name).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    Fn,
    Const,
    Override,
    Struct,
    Uniform,
    UniformStruct,
    Storage,
    Alias,
}

impl Kind {
    fn prefix(self) -> &'static str {
        match self {
            Kind::Fn => "f",
            Kind::Const => "C",
            Kind::Override => "k",
            Kind::Struct => "S",
            Kind::Uniform | Kind::UniformStruct | Kind::Storage => "b",
            Kind::Alias => "T",
        }
    }

    fn usage(self) -> &'static str {
        match self {
            Kind::Fn => "{}()",
            Kind::Const | Kind::Override => "{}",
            Kind::Struct => "{}(1.0, vec4f(0.5)).x",
            Kind::Uniform | Kind::UniformStruct => "{}.x",
            Kind::Storage => "{}[0]",
            Kind::Alias => "{}(1.0)",
        }
    }
}

#[derive(Clone, Debug)]
struct Item {
    kind: Kind,
    name: String,
}

/// A generated set: the shader's own modules, features, an extra package, the root.
#[derive(Debug)]
struct Set {
    modules: Vec<(&'static str, String)>,
    /// `(name, Some(on))` set, `(name, None)` left unset.
    features: Vec<(&'static str, Option<bool>)>,
    /// An extra package (named `lib`, sometimes `vgpu`, replacing the standard library).
    package: Option<(&'static str, Vec<(&'static str, String)>)>,
    root: &'static str,
}

impl Set {
    /// The set as text: features, root, each module's path and source.
    fn describe(&self) -> String {
        let mut out = format!("root {:?}, features {:?}\n", self.root, self.features);
        for (path, source) in &self.modules {
            out.push_str(&format!("--- module {path:?}\n{source}\n"));
        }
        if let Some((name, mods)) = &self.package {
            for (path, source) in mods {
                out.push_str(&format!("--- package {name:?} module {path:?}\n{source}\n"));
            }
        }
        out
    }

    fn modules(&self) -> ShaderModules {
        let mut m = ShaderModules::memory(self.modules.iter().map(|(p, s)| (*p, s.as_str())));
        for (name, on) in &self.features {
            if let Some(on) = on {
                m = m.feature(name, *on);
            }
        }
        if let Some((name, mods)) = &self.package {
            m = m.package(name, mods.iter().map(|(p, s)| (*p, s.as_str())));
        }
        m
    }

    /// Every module's source by the name errors give it: a module of the set by its path's
    /// parts joined with `/` (the first of a path given twice), a package's `pkg::a::b`.
    fn sources(&self) -> HashMap<String, &str> {
        let mut known = HashMap::new();
        for (path, source) in &self.modules {
            if let Some(parts) = parts(path) {
                known.entry(parts.join("/")).or_insert(source.as_str());
            }
        }
        let mut std_replaced = false;
        if let Some((name, mods)) = &self.package {
            std_replaced = *name == vgpu::wgsl::PACKAGE;
            for (path, source) in mods {
                if let Some(parts) = parts(path) {
                    known
                        .entry(format!("{name}::{}", parts.join("::")))
                        .or_insert(source.as_str());
                }
            }
        }
        if !std_replaced {
            for m in vgpu::wgsl::MODULES {
                known
                    .entry(format!("{}::{}", vgpu::wgsl::PACKAGE, m.name))
                    .or_insert(m.source);
            }
        }
        known
    }
}

/// A module path's parts, if each is a name (`[A-Za-z_][A-Za-z0-9_]*`), as vgpu reads paths.
fn parts(path: &str) -> Option<Vec<&str>> {
    let parts: Vec<&str> = path.split("::").flat_map(|p| p.split('/')).collect();
    parts
        .iter()
        .all(|p| {
            let mut c = p.chars();
            c.next()
                .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
                && c.all(|c| c.is_ascii_alphanumeric() || c == '_')
        })
        .then_some(parts)
}

/// One module's plan: its path and the items it declares (known to the modules importing it).
struct Plan {
    path: &'static str,
    items: Vec<Item>,
}

/// True once in `n` (false on an exhausted input, unlike `Unstructured::ratio`).
fn one_in(u: &mut Unstructured<'_>, n: u8) -> AResult<bool> {
    Ok(u.int_in_range(1..=n)? == n)
}

fn pick<'a, T>(u: &mut Unstructured<'_>, items: &'a [T]) -> AResult<&'a T> {
    Ok(&items[u.choose_index(items.len())?])
}

/// A path: a valid one 7 times in 8.
fn path(u: &mut Unstructured<'_>) -> AResult<&'static str> {
    Ok(if one_in(u, 8)? {
        PATHS[u.int_in_range(VALID_PATHS..=PATHS.len() - 1)?]
    } else {
        PATHS[u.int_in_range(0..=VALID_PATHS - 1)?]
    })
}

fn make_plans(u: &mut Unstructured<'_>, n: usize, first: &'static str) -> AResult<Vec<Plan>> {
    let mut plans = Vec::new();
    for i in 0..n {
        let path = if i == 0 { first } else { path(u)? };
        let mut items = Vec::new();
        for _ in 0..u.int_in_range(0u8..=5)? {
            let kind = match u.int_in_range(0u8..=13)? {
                0..=5 => Kind::Fn,
                6 => Kind::Const,
                7 => Kind::Override,
                8 | 9 => Kind::Struct,
                10 => Kind::Uniform,
                11 => Kind::UniformStruct,
                12 => Kind::Storage,
                _ => Kind::Alias,
            };
            let name = format!("{}{}", kind.prefix(), u.int_in_range(0u8..=3)?);
            // A name declared twice in one module is mostly a waste of the input; now and then
            // it is kept (an error).
            if items.iter().any(|i: &Item| i.name == name) && !one_in(u, 16)? {
                continue;
            }
            items.push(Item { kind, name });
        }
        plans.push(Plan { path, items });
    }
    Ok(plans)
}

fn generate(u: &mut Unstructured<'_>) -> AResult<Set> {
    let n = 1 + u.int_in_range(0usize..=7)?;
    let first = if one_in(u, 4)? { path(u)? } else { "main" };
    let plans = make_plans(u, n, first)?;
    let root = if one_in(u, 6)? {
        path(u)?
    } else {
        plans[0].path
    };
    let package = if one_in(u, 5)? {
        let name = match u.int_in_range(0u8..=9)? {
            0..=6 => "lib",
            7 | 8 => "vgpu",
            _ => "package",
        };
        let count = 1 + u.int_in_range(0usize..=1)?;
        let first = path(u)?;
        Some((name, make_plans(u, count, first)?))
    } else {
        None
    };
    let package_plans = package.as_ref().map(|(name, p)| (*name, p.as_slice()));
    let mut modules = Vec::new();
    for plan in &plans {
        let source = Module::new(u, &plans, package_plans, plan, plan.path == root)?.source()?;
        modules.push((plan.path, source));
    }
    let package = match package_plans {
        Some((name, pkg)) => {
            let mut mods = Vec::new();
            for plan in pkg {
                let source = Module::new(u, pkg, None, plan, false)?.source()?;
                mods.push((plan.path, source));
            }
            Some((name, mods))
        }
        None => None,
    };
    let mut features = Vec::new();
    for name in FEATURES {
        let state = match u.int_in_range(0u8..=5)? {
            // An exhausted input sets every feature off: no "not set" error.
            0 | 1 => Some(false),
            2 | 3 => Some(true),
            _ => None,
        };
        features.push((*name, state));
    }
    Ok(Set {
        modules,
        features,
        package,
        root,
    })
}

/// One module's source being written.
struct Module<'a, 'b, 'p> {
    u: &'a mut Unstructured<'b>,
    plans: &'p [Plan],
    package: Option<(&'static str, &'p [Plan])>,
    plan: &'p Plan,
    is_root: bool,
    /// What expressions may use: (name in scope, usage template).
    scope: Vec<(String, &'static str)>,
    /// Struct types in scope (for uniform bindings).
    structs: Vec<String>,
    /// `read_write` storage arrays in scope (for compute writes).
    storage: Vec<String>,
    /// Entry points written, and the stage of the last (0 compute, 1 vertex, 2 fragment).
    entries: u32,
    last_stage: Option<u8>,
    out: String,
}

impl<'a, 'b, 'p> Module<'a, 'b, 'p> {
    fn new(
        u: &'a mut Unstructured<'b>,
        plans: &'p [Plan],
        package: Option<(&'static str, &'p [Plan])>,
        plan: &'p Plan,
        is_root: bool,
    ) -> AResult<Self> {
        Ok(Module {
            u,
            plans,
            package,
            plan,
            is_root,
            scope: Vec::new(),
            structs: Vec::new(),
            storage: Vec::new(),
            entries: 0,
            last_stage: None,
            out: String::new(),
        })
    }

    fn add_scope(&mut self, name: &str, kind: Kind) {
        self.scope.push((name.to_owned(), kind.usage()));
        match kind {
            Kind::Struct => self.structs.push(name.to_owned()),
            Kind::Storage => self.storage.push(name.to_owned()),
            _ => {}
        }
    }

    fn source(mut self) -> AResult<String> {
        // Imports first (WESL's grammar), directives, then declarations.
        for _ in 0..self.u.int_in_range(0u8..=4)? {
            self.import()?;
        }
        if one_in(self.u, 12)? {
            let d = *pick(
                self.u,
                &[
                    "enable f16;\n",
                    "diagnostic(off, derivative_uniformity);\n",
                    "requires readonly_and_readwrite_storage_textures;\n",
                ],
            )?;
            self.out.push_str(d);
        }
        for item in &self.plan.items {
            self.add_scope(&item.name, item.kind);
        }
        let mut decls: Vec<Option<&Item>> = self.plan.items.iter().map(Some).collect();
        // Entry points (None): the root has one unless the input says otherwise.
        let entries = if self.is_root {
            if one_in(self.u, 8)? {
                0
            } else {
                1 + self.u.int_in_range(0u8..=1)?
            }
        } else {
            self.u.int_in_range(0u8..=1)? * self.u.int_in_range(0u8..=1)?
        };
        for _ in 0..entries {
            decls.push(None);
        }
        for decl in decls {
            self.extra()?;
            let alone = self.condition()?;
            match decl {
                Some(item) => {
                    self.declare(item)?;
                    // The same declaration again under `@elif`/`@else`: alternatives.
                    if alone && !one_in(self.u, 3)? {
                        if one_in(self.u, 3)? {
                            let c = self.cond()?;
                            self.out.push_str(&format!("@elif({c}) "));
                            self.declare(item)?;
                        }
                        self.out.push_str("@else ");
                        self.declare(item)?;
                    }
                }
                None => self.entry_point()?,
            }
        }
        self.extra()?;
        let mut out = self.out;
        // A truncated module (a parse error somewhere in it).
        if one_in(self.u, 24)? && !out.is_empty() {
            let mut at = self.u.int_in_range(0..=out.len() - 1)?;
            while !out.is_char_boundary(at) {
                at -= 1;
            }
            out.truncate(at);
        }
        // A module at MAX_MODULE_BYTES (a byte under, at, a byte over), padded by a comment.
        if one_in(self.u, 200)? {
            let delta = self.u.int_in_range(0usize..=2)?;
            let want = MAX_MODULE_BYTES - 1 + delta;
            if out.len() + 4 < want {
                out.push_str("\n/*");
                let pad = want - out.len() - 2;
                out.extend(std::iter::repeat_n('x', pad));
                out.push_str("*/");
            }
        }
        Ok(out)
    }

    /// Something between declarations, now and then: raw input bytes, an import after a
    /// declaration, a `const_assert`.
    fn extra(&mut self) -> AResult<()> {
        match self.u.int_in_range(0u8..=40)? {
            39 | 40 => {
                let n = self.u.int_in_range(0usize..=48)?;
                let bytes = self.u.bytes(n)?;
                self.out.push_str(&String::from_utf8_lossy(bytes));
                self.out.push('\n');
            }
            38 => self.import()?,
            37 => {
                let e = self.expr(1)?;
                self.out.push_str(&format!("const_assert {e} > -100.0;\n"));
            }
            _ => {}
        }
        Ok(())
    }

    /// `@if`, `@elif` or `@else` on the next declaration, sometimes; whether it was a lone
    /// `@if`.
    fn condition(&mut self) -> AResult<bool> {
        match self.u.int_in_range(0u8..=15)? {
            9..=11 => {
                let c = self.cond()?;
                self.out.push_str(&format!("@if({c}) "));
                return Ok(true);
            }
            12 => {
                let c = self.cond()?;
                self.out.push_str(&format!("@elif({c}) "));
            }
            13 | 14 => self.out.push_str("@else "),
            15 => {
                // Two on one declaration (an error).
                let c = self.cond()?;
                self.out.push_str(&format!("@if({c}) @else "));
            }
            _ => {}
        }
        Ok(false)
    }

    fn cond(&mut self) -> AResult<String> {
        Ok(match self.u.int_in_range(0u8..=9)? {
            0..=2 => "f".to_owned(),
            3 => "g".to_owned(),
            4 => "!f".to_owned(),
            5 => "f && g".to_owned(),
            6 => "(g || !h)".to_owned(),
            7 => "true".to_owned(),
            8 => "false".to_owned(),
            _ => "missing_feature".to_owned(),
        })
    }

    /// An import statement naming an item of the set, of the package, of the standard library,
    /// or something missing.
    fn import(&mut self) -> AResult<()> {
        if one_in(self.u, 8)? {
            let c = self.cond()?;
            self.out.push_str(&format!("@if({c}) "));
        }
        match self.u.int_in_range(0u8..=15)? {
            // `package::<module>::<item>` of the set (sometimes this module itself: a cycle).
            0..=5 => {
                let (components, item) = self.target_item()?;
                let alias = self.alias(&item)?;
                self.out.push_str(&format!(
                    "import package::{}::{}{};\n",
                    components.join("::"),
                    item.name,
                    alias.as_ref().map_or(String::new(), |a| format!(" as {a}"))
                ));
                self.add_scope(alias.as_deref().unwrap_or(&item.name), item.kind);
            }
            // The same item relative to this module: `super::` as often as needed.
            6 | 7 => {
                let (components, item) = self.target_item()?;
                let here = parts(self.plan.path).unwrap_or_default();
                let common = here
                    .iter()
                    .zip(&components)
                    .take_while(|(a, b)| a == b)
                    .count();
                // `super` of module `a/b` is `a`: climb to the longest common prefix (at least
                // once: `self::` is not WESL), then down to the target.
                let supers = (here.len() - common).max(1);
                let rest = &components[here.len().saturating_sub(supers)..];
                let mut path = "super::".repeat(supers);
                for c in rest {
                    path.push_str(c);
                    path.push_str("::");
                }
                self.out.push_str(&format!("import {path}{};\n", item.name));
                self.add_scope(&item.name, item.kind);
            }
            // A `super::` chain of any length.
            8 => {
                let (components, item) = self.target_item()?;
                let supers = self.u.int_in_range(1usize..=4)?;
                self.out.push_str(&format!(
                    "import {}{}::{};\n",
                    "super::".repeat(supers),
                    components.join("::"),
                    item.name
                ));
                self.add_scope(&item.name, item.kind);
            }
            // The standard library (missing modules and items among it).
            9 | 10 => {
                let (module, item, usage) = *pick(self.u, STD_ITEMS)?;
                self.out.push_str(&format!(
                    "import {}::{module}::{item};\n",
                    vgpu::wgsl::PACKAGE
                ));
                self.scope.push((item.to_owned(), usage));
            }
            // A collection: `package::{a::x, b::{y, z}}` or `package::a::{x, y}`.
            11 => {
                let (c1, i1) = self.target_item()?;
                let (c2, i2) = self.target_item()?;
                let text = if self.u.arbitrary()? {
                    format!(
                        "import package::{{{}::{}, {}::{{{}}}}};\n",
                        c1.join("::"),
                        i1.name,
                        c2.join("::"),
                        i2.name
                    )
                } else {
                    format!(
                        "import package::{}::{{{}, {}}};\n",
                        c1.join("::"),
                        i1.name,
                        i2.name
                    )
                };
                self.out.push_str(&text);
                self.add_scope(&i1.name, i1.kind);
                self.add_scope(&i2.name, i2.kind);
            }
            // The extra package's items.
            12 => match self.package {
                Some((name, plans)) if !plans.is_empty() => {
                    let plan = pick(self.u, plans)?;
                    let item = self.item_of(plan)?;
                    let components = parts(plan.path).unwrap_or_else(|| vec![plan.path]);
                    self.out.push_str(&format!(
                        "import {name}::{}::{};\n",
                        components.join("::"),
                        item.name
                    ));
                    self.add_scope(&item.name, item.kind);
                }
                _ => self.out.push_str("import lib::a::f0;\n"),
            },
            // A module missing from the set, a package missing, `self::` (no longer WESL).
            13 => {
                let text = *pick(
                    self.u,
                    &[
                        "import package::zz::f0;\n",
                        "import package::a::zz::f0;\n",
                        "import nopkg::a::f0;\n",
                        "import self::f0;\n",
                        "import package::f0;\n",
                        "import vgpu::nope::x;\n",
                        "import vgpu::hash;\n",
                    ],
                )?;
                self.out.push_str(text);
                self.scope.push(("f0".to_owned(), Kind::Fn.usage()));
            }
            // A whole module (`import package::a;`, then `a::f0()`).
            _ => {
                let (components, item) = self.target_item()?;
                if let Some((last, init)) = components.split_last() {
                    let prefix = if init.is_empty() {
                        String::new()
                    } else {
                        format!("{}::", init.join("::"))
                    };
                    self.out
                        .push_str(&format!("import package::{prefix}{last};\n"));
                    self.scope
                        .push((format!("{last}::{}", item.name), item.kind.usage()));
                }
            }
        }
        Ok(())
    }

    /// A module of the set (its path's parts) and an item it declares, or a name it lacks.
    fn target_item(&mut self) -> AResult<(Vec<&'static str>, Item)> {
        let plan = pick(self.u, self.plans)?;
        let item = self.item_of(plan)?;
        let components = parts(plan.path).unwrap_or_else(|| vec![plan.path]);
        Ok((components, item))
    }

    fn item_of(&mut self, plan: &Plan) -> AResult<Item> {
        if plan.items.is_empty() || one_in(self.u, 10)? {
            return Ok(Item {
                kind: Kind::Fn,
                name: format!("f{}", self.u.int_in_range(0u8..=3)?),
            });
        }
        Ok(pick(self.u, &plan.items)?.clone())
    }

    fn alias(&mut self, item: &Item) -> AResult<Option<String>> {
        Ok(if one_in(self.u, 8)? {
            Some(format!("{}_as{}", item.name, self.u.int_in_range(0u8..=1)?))
        } else {
            None
        })
    }

    fn declare(&mut self, item: &Item) -> AResult<()> {
        let name = &item.name;
        let text = match item.kind {
            Kind::Fn => {
                let e = self.expr_without(2, name)?;
                match self.u.int_in_range(0u8..=7)? {
                    7 => {
                        // `@if` on statements.
                        let c = self.cond()?;
                        let e2 = self.expr_without(1, name)?;
                        format!(
                            "fn {name}() -> f32 {{\n    var r = {e};\n    @if({c}) {{ r = {e2}; }}\n    return r;\n}}\n"
                        )
                    }
                    6 => format!("fn {name}(x: f32) -> f32 {{ return x + {e}; }}\n"),
                    _ => format!("fn {name}() -> f32 {{\n    return {e};\n}}\n"),
                }
            }
            Kind::Const => match self.u.int_in_range(0u8..=3)? {
                3 => {
                    let consts: Vec<String> = self
                        .scope
                        .iter()
                        .filter(|(n, t)| *t == "{}" && n != name && n.starts_with('C'))
                        .map(|(n, _)| n.clone())
                        .collect();
                    match consts.first() {
                        Some(c) => format!("const {name}: f32 = {c} * 2.0;\n"),
                        None => format!("const {name} = 2.0;\n"),
                    }
                }
                _ => format!("const {name}: f32 = 1.5;\n"),
            },
            Kind::Override => match self.u.int_in_range(0u8..=3)? {
                3 => format!(
                    "@id({}) override {name}: f32;\n",
                    self.u.int_in_range(0u8..=3)?
                ),
                _ => format!("override {name}: f32 = 0.25;\n"),
            },
            Kind::Struct => format!("struct {name} {{\n    x: f32,\n    y: vec4f,\n}}\n"),
            Kind::Alias => format!("alias {name} = f32;\n"),
            Kind::Uniform | Kind::UniformStruct | Kind::Storage => {
                let group = self.u.int_in_range(0u8..=1)?;
                let binding: u8 = name[1..].parse().unwrap_or(0);
                let ty = match item.kind {
                    Kind::Uniform => "var<uniform>".to_owned() + &format!(" {name}: vec4f"),
                    Kind::UniformStruct => {
                        let s = if self.structs.is_empty() {
                            "S0".to_owned()
                        } else {
                            pick(self.u, &self.structs)?.clone()
                        };
                        format!("var<uniform> {name}: {s}")
                    }
                    _ => format!("var<storage, read_write> {name}: array<f32>"),
                };
                format!("@group({group}) @binding({binding}) {ty};\n")
            }
        };
        self.out.push_str(&text);
        Ok(())
    }

    fn entry_point(&mut self) -> AResult<()> {
        // A name of its own, but now and then one given before (a redefinition).
        let n = if one_in(self.u, 16)? { 0 } else { self.entries };
        self.entries += 1;
        let mut stage = match self.u.int_in_range(0u8..=5)? {
            0..=2 => 0,
            3 | 4 => 1,
            _ => 2,
        };
        // Another stage than the module's last entry point's, mostly (one entry point per
        // stage is what `Gpu::draw`/`Gpu::compute` pick without a name).
        if self.last_stage == Some(stage) && !one_in(self.u, 4)? {
            stage = (stage + 1) % 3;
        }
        self.last_stage = Some(stage);
        let text = match stage {
            0 => {
                let e = self.expr(3)?;
                let body = if !self.storage.is_empty() && one_in(self.u, 2)? {
                    let s = pick(self.u, &self.storage)?.clone();
                    format!("{s}[0] = {e};")
                } else {
                    format!("_ = {e};")
                };
                format!("@compute @workgroup_size(1)\nfn cs{n}() {{\n    {body}\n}}\n")
            }
            1 => {
                let e = self.expr(3)?;
                format!(
                    "@vertex\nfn vs{n}(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {{\n    return vec4f({e}, f32(i), 0.0, 1.0);\n}}\n"
                )
            }
            _ => {
                let e = self.expr(3)?;
                format!(
                    "@fragment\nfn fs{n}() -> @location(0) vec4f {{\n    return vec4f({e});\n}}\n"
                )
            }
        };
        self.out.push_str(&text);
        Ok(())
    }

    /// An `f32` expression that does not use `name` (no recursion) most of the time.
    fn expr_without(&mut self, depth: u32, name: &str) -> AResult<String> {
        if one_in(self.u, 16)? {
            return self.expr(depth);
        }
        let saved = self.scope.clone();
        self.scope.retain(|(n, _)| n != name);
        let e = self.expr(depth);
        self.scope = saved;
        e
    }

    /// An `f32` expression: a literal, what is in scope, the standard library (imported or by an
    /// inline path), an inline path into the set, a sum; sometimes of another type.
    fn expr(&mut self, depth: u32) -> AResult<String> {
        let max = if depth == 0 { 1 } else { 12 };
        Ok(match self.u.int_in_range(0u8..=max)? {
            0 => "1.0".to_owned(),
            1..=5 if !self.scope.is_empty() => {
                let (name, usage) = pick(self.u, &self.scope)?.clone();
                usage.replace("{}", &name)
            }
            1..=5 => "0.5".to_owned(),
            6 => {
                let (module, item, usage) = *pick(self.u, STD_ITEMS)?;
                usage.replace("{}", &format!("{}::{module}::{item}", vgpu::wgsl::PACKAGE))
            }
            7 => {
                let (components, item) = self.target_item()?;
                let path = format!("package::{}::{}", components.join("::"), item.name);
                item.kind.usage().replace("{}", &path)
            }
            8..=10 => {
                let a = self.expr(depth - 1)?;
                let b = self.expr(depth - 1)?;
                format!("({a} + {b})")
            }
            11 => (*pick(
                self.u,
                &["1u", "vec2f(1.0)", "true", "undefined_name", "f0(1.0)"],
            )?)
            .to_owned(),
            _ => format!("max({}, 0.0)", self.expr(depth - 1)?),
        })
    }
}
