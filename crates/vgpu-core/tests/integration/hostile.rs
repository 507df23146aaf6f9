//! Tier 0 (pure CPU): malformed and hostile WGSL and values return `Err`, never panic.
//!
//! A deterministic generator (xorshift, fixed seeds) produces over a thousand inputs: empty and
//! random sources, token soup, mutated valid shaders, deep nesting of every kind, huge arrays,
//! unknown types, absurd binding numbers; and random value trees (NaN, ±inf, 1e40 for integers,
//! wrong lengths, deep nesting, huge arrays, odd field names) packed against many types.
//! Every call runs under `catch_unwind`.

#![allow(clippy::unwrap_used, reason = "an unwrap in a test is an assertion")]

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;

use vgpu_core::{PackContext, Shader, ShaderError, Stage, Value, WritePlan};

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

const VALID: &[&str] = &[
    r#"
struct Light { pos: vec3<f32>, color: vec3<f32>, intensity: f32 }
struct Scene { view: mat4x4<f32>, lights: array<Light, 4>, count: u32, tint: vec4<f32> }
@group(0) @binding(0) var<uniform> scene: Scene;
@group(0) @binding(1) var tex: texture_2d<f32>;
@group(0) @binding(2) var samp: sampler;
struct VsOut { @builtin(position) pos: vec4<f32>, @location(0) uv: vec2<f32> }
@vertex fn vs_main(@location(0) p: vec3<f32>, @location(1) uv: vec2<f32>) -> VsOut {
    var o: VsOut;
    o.pos = scene.view * vec4<f32>(p, 1.0);
    o.uv = uv;
    return o;
}
@fragment fn fs_main(i: VsOut) -> @location(0) vec4<f32> {
    var c = vec3<f32>(0.0);
    for (var k = 0u; k < scene.count; k++) { c += scene.lights[k].color * scene.lights[k].intensity; }
    return textureSample(tex, samp, i.uv) * vec4<f32>(c, 1.0) * scene.tint;
}
"#,
    r#"
struct P { pos: vec4<f32>, vel: vec4<f32> }
struct Ps { n: u32, ps: array<P> }
@group(0) @binding(0) var<storage, read> src: Ps;
@group(0) @binding(1) var<storage, read_write> dst: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read_write> counter: atomic<u32>;
@compute @workgroup_size(64)
fn cs_main(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x >= src.n { return; }
    dst[id.x] = src.ps[id.x].pos + src.ps[id.x].vel;
    atomicAdd(&counter, 1u);
}
"#,
    r#"
struct M { a: mat3x3<f32>, b: mat2x2<f32>, c: array<vec3<f32>, 3>, @align(16) d: f32, @size(32) e: vec2<i32> }
@group(1) @binding(3) var<uniform> m: M;
@compute @workgroup_size(1, 2, 3) fn cs_main() { _ = m.a; }
"#,
];

const TOKENS: &[&str] = &[
    "struct",
    "fn",
    "var",
    "let",
    "const",
    "override",
    "alias",
    "@group(0)",
    "@binding(0)",
    "@vertex",
    "@fragment",
    "@compute",
    "@workgroup_size(1)",
    "@location(0)",
    "@builtin(position)",
    "<uniform>",
    "<storage, read_write>",
    "vec4<f32>",
    "mat4x4<f32>",
    "array<f32, 4>",
    "array<u32>",
    "f32",
    "u32",
    "i32",
    "bool",
    "f16",
    "atomic<u32>",
    "texture_2d<f32>",
    "sampler",
    "{",
    "}",
    "(",
    ")",
    "[",
    "]",
    "<",
    ">",
    ";",
    ":",
    ",",
    ".",
    "=",
    "+",
    "-",
    "*",
    "/",
    "->",
    "return",
    "if",
    "else",
    "for",
    "loop",
    "break",
    "x",
    "y",
    "S",
    "main",
    "1.0",
    "0u",
    "-1",
    "1e40",
    "4294967296u",
    "0x7fffffff",
    "enable f16;",
    "_",
    "&",
    "ptr<function, f32>",
    "//",
    "/*",
    "*/",
    "\n",
    " ",
    "\u{0}",
    "é",
    "🦀",
];

fn guarded<T>(what: &str, f: impl FnOnce() -> T) -> T {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(v) => v,
        Err(_) => panic!("panicked on {what}"),
    }
}

/// Builds a shader and, when it is valid, exercises its reflection: entry points, pipeline
/// layouts, and packing of a few random values into every buffer binding.
fn exercise(label: &str, src: &str, rng: &mut Rng) -> Result<(), ShaderError> {
    let shader = guarded(label, || Shader::new(label, src))?;
    guarded(label, || {
        for stage in [Stage::Vertex, Stage::Fragment, Stage::Compute] {
            if let Ok(e) = shader.entry_point(stage, None) {
                let _ = shader.pipeline_layout(&[e], |b| b.group == 0);
            }
        }
        let eps: Vec<_> = shader.entry_points().iter().collect();
        let _ = shader.pipeline_layout(&eps, |_| true);
        for b in shader.bindings() {
            if let Some(plan) = &b.plan {
                for _ in 0..3 {
                    let v = random_value(rng, 0);
                    check_pack(plan, &v);
                }
            }
        }
    });
    Ok(())
}

fn check_pack(plan: &Arc<WritePlan>, v: &Value) {
    let ctx = PackContext::new("hostile", "b");
    let cap = plan.size().min(1 << 16) + 64;
    let mut dst = vec![0x5Au8; cap];
    let before = dst.clone();
    match plan.pack(v, &mut dst, &ctx) {
        Ok(n) => assert!(n <= dst.len()),
        Err(e) => {
            assert!(e.to_string().starts_with("VGPU-SET-"), "{e}");
            assert_eq!(dst, before, "a rejected value wrote bytes");
        }
    }
    let mut dst2 = before.clone();
    if plan.pack_partial(v, &mut dst2, &ctx).is_err() {
        assert_eq!(dst2, before, "a rejected partial value wrote bytes");
    }
}

fn long_name() -> &'static str {
    static NAME: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    NAME.get_or_init(|| "x".repeat(300))
}

fn random_value(rng: &mut Rng, depth: usize) -> Value {
    let floats = [
        0.0f32,
        -0.0,
        1.5,
        -3.0,
        f32::NAN,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::MAX,
        f32::MIN_POSITIVE,
        65504.0,
        65520.0,
        16_777_217.0,
        4_294_967_296.0,
    ];
    let len = *rng.pick(&[0usize, 1, 2, 3, 4, 9, 12, 16, 17, 64, 1000]);
    match rng.below(if depth > 6 { 7 } else { 10 }) {
        0 => Value::F32(*rng.pick(&floats)),
        1 => Value::F64(*rng.pick(&[
            1e40,
            -1e40,
            f64::NAN,
            0.5,
            4294967295.0,
            -2147483649.0,
            1e300,
        ])),
        2 => Value::I32(*rng.pick(&[0, -1, i32::MIN, i32::MAX, 16_777_217])),
        3 => Value::U32(*rng.pick(&[0, 1, u32::MAX, 2_147_483_648])),
        4 => Value::from((0..len).map(|_| *rng.pick(&floats)).collect::<Vec<f32>>()),
        5 => Value::from((0..len).map(|i| i as i32 - 2).collect::<Vec<i32>>()),
        6 => Value::from((0..len).map(|i| i as u32).collect::<Vec<u32>>()),
        7 => Value::Array(
            (0..len.min(20))
                .map(|_| random_value(rng, depth + 1))
                .collect(),
        ),
        _ => {
            let names = [
                "view",
                "lights",
                "count",
                "tint",
                "pos",
                "color",
                "intensity",
                "n",
                "ps",
                "vel",
                "a",
                "b",
                "c",
                "d",
                "e",
                "",
                "🦀",
                long_name(),
            ];
            let n = rng.below(6);
            Value::Struct(
                (0..n)
                    .map(|_| {
                        (
                            std::borrow::Cow::Borrowed(*rng.pick(&names)),
                            random_value(rng, depth + 1),
                        )
                    })
                    .collect(),
            )
        }
    }
}

/// A plausible value for a layout (so packing reaches deep), then randomly damaged.
fn shaped_value(rng: &mut Rng, layout: &vgpu_core::TypeLayout, depth: usize) -> Value {
    use vgpu_core::LayoutKind as K;
    if depth > 8 || rng.chance(3) {
        return random_value(rng, 7);
    }
    match &layout.kind {
        K::Scalar(_) | K::Atomic(_) => Value::F32(*rng.pick(&[1.0, 2.5, -1.0, f32::NAN])),
        K::Vector { components, .. } => {
            let n = *components as usize + usize::from(rng.chance(5));
            Value::from(vec![0.25f32; n])
        }
        K::Matrix { columns, rows, .. } => {
            Value::from(vec![1.0f32; *columns as usize * *rows as usize])
        }
        K::Array {
            element, length, ..
        } => {
            let n = length.map_or(rng.below(5), |l| l as usize + usize::from(rng.chance(5)));
            Value::Array(
                (0..n.min(64))
                    .map(|_| shaped_value(rng, element, depth + 1))
                    .collect(),
            )
        }
        K::Struct { members } => {
            let mut fields = Vec::new();
            for m in members.iter() {
                if rng.chance(5) {
                    continue;
                }
                let name: String = if rng.chance(3) {
                    format!("{}x", m.name)
                } else {
                    m.name.to_string()
                };
                fields.push((name.into(), shaped_value(rng, &m.layout, depth + 1)));
            }
            Value::Struct(fields)
        }
        _ => Value::F32(0.0),
    }
}

fn mutate(rng: &mut Rng, src: &str) -> String {
    let mut b = src.as_bytes().to_vec();
    for _ in 0..1 + rng.below(4) {
        if b.is_empty() {
            break;
        }
        let i = rng.below(b.len());
        match rng.below(5) {
            0 => b[i] = (rng.next() & 0x7f) as u8,
            1 => b.truncate(i),
            2 => {
                let j = (i + rng.below(40)).min(b.len());
                b.drain(i..j);
            }
            3 => {
                let j = (i + rng.below(40)).min(b.len());
                let chunk = b[i..j].to_vec();
                b.splice(i..i, chunk);
            }
            _ => {
                let tok = rng.pick(TOKENS).as_bytes().to_vec();
                b.splice(i..i, tok);
            }
        }
    }
    String::from_utf8_lossy(&b).into_owned()
}

fn deep_sources() -> Vec<(String, String)> {
    let mut v = Vec::new();
    for n in [10usize, 100, 1_000, 10_000, 100_000] {
        v.extend(nested_sources(n));
    }
    v.extend(absurd_sources());
    v.push(("too large".to_owned(), "x".repeat(1 << 20)));
    v
}

/// Sources nesting one construct `n` deep (parentheses, blocks, operators, templates, calls,
/// comments; struct and const chains up to 10 000).
fn nested_sources(n: usize) -> Vec<(String, String)> {
    let mut v = Vec::new();
    v.push((
        format!("parens {n}"),
        format!(
            "fn f() -> f32 {{ return {}1.0{}; }}",
            "(".repeat(n),
            ")".repeat(n)
        ),
    ));
    v.push((
        format!("braces {n}"),
        format!("fn f() {{ {}{} }}", "{".repeat(n), "}".repeat(n)),
    ));
    v.push((
        format!("unary {n}"),
        format!("fn f(a: f32) -> f32 {{ return {}a; }}", "- ".repeat(n)),
    ));
    v.push((
        format!("not {n}"),
        format!("fn f(a: bool) -> bool {{ return {}a; }}", "! ".repeat(n)),
    ));
    v.push((
        format!("binary {n}"),
        format!("fn f(a: f32) -> f32 {{ return a{}; }}", " + a".repeat(n)),
    ));
    v.push((
        format!("swizzle {n}"),
        format!(
            "fn f(a: vec4<f32>) -> vec4<f32> {{ return a{}; }}",
            ".xyzw".repeat(n)
        ),
    ));
    v.push((
        format!("index {n}"),
        format!(
            "fn f(a: array<f32, 4>) -> f32 {{ var b = a; return b{}; }}",
            "[0]".repeat(n)
        ),
    ));
    v.push((
        format!("template {n}"),
        format!("alias T = {}f32{};", "array<".repeat(n), ", 2>".repeat(n)),
    ));
    v.push((
        format!("ifs {n}"),
        format!(
            "fn f(a: f32) {{ {} }}",
            "if a > 0.0 {".repeat(n) + &"}".repeat(n)
        ),
    ));
    v.push((
        format!("calls {n}"),
        format!(
            "fn f(a: f32) -> f32 {{ return {}a{}; }}",
            "abs(".repeat(n),
            ")".repeat(n)
        ),
    ));
    v.push((
        format!("comment {n}"),
        format!("{}x{}", "/*".repeat(n), "*/".repeat(n)),
    ));
    if n <= 10_000 {
        let mut s = String::from("struct S0 { a: f32 }\n");
        for i in 1..n {
            s += &format!("struct S{i} {{ a: S{} }}\n", i - 1);
        }
        s += &format!("@group(0) @binding(0) var<storage> u: S{};\n", n - 1);
        v.push((format!("struct chain {n}"), s));
        let mut s = String::new();
        for i in 0..n {
            s += &format!("const c{i} = c{} + 1;\n", i + 1);
        }
        s += &format!("const c{n} = 1;\n");
        v.push((format!("const chain reversed {n}"), s));
    }
    v
}

/// Huge arrays, unknown types, absurd numbers.
fn absurd_sources() -> Vec<(String, String)> {
    let mut v = Vec::new();
    for (name, src) in [
        (
            "huge array",
            "@group(0) @binding(0) var<storage> u: array<f32, 4294967295>;",
        ),
        (
            "huge uniform array",
            "struct S { a: array<vec4<f32>, 1000000000> }\n@group(0) @binding(0) var<uniform> u: S;",
        ),
        (
            "huge nested array",
            "@group(0) @binding(0) var<storage> u: array<array<array<vec4<f32>, 65536>, 65536>, 65536>;",
        ),
        (
            "zero array",
            "@group(0) @binding(0) var<storage> u: array<f32, 0>;",
        ),
        (
            "negative array",
            "@group(0) @binding(0) var<storage> u: array<f32, -1>;",
        ),
        ("unknown type", "@group(0) @binding(0) var<uniform> u: Foo;"),
        (
            "unknown generic",
            "@group(0) @binding(0) var<uniform> u: vec5<f32>;",
        ),
        (
            "bool uniform",
            "@group(0) @binding(0) var<uniform> u: vec2<bool>;",
        ),
        (
            "huge group",
            "@group(4294967295) @binding(4294967295) var<uniform> u: f32;\n@compute @workgroup_size(1) fn cs_main() { _ = u; }",
        ),
        (
            "huge workgroup",
            "@compute @workgroup_size(4294967295, 4294967295, 4294967295) fn cs_main() {}",
        ),
        (
            "huge align",
            "struct S { @align(2147483648) a: f32 }\n@group(0) @binding(0) var<storage> u: S;",
        ),
        (
            "huge size",
            "struct S { @size(4294967295) a: f32, b: f32 }\n@group(0) @binding(0) var<storage> u: S;",
        ),
        (
            "overflowing literal",
            "const x = 99999999999999999999999999999999999999u;",
        ),
        (
            "f16 without feature",
            "enable f16;\n@group(0) @binding(0) var<storage> u: f16;",
        ),
        ("nul", "\u{0}\u{0}\u{0}"),
        ("only comment", "// nothing"),
        ("unterminated comment", "/* never closed"),
        (
            "binding array",
            "@group(0) @binding(0) var t: binding_array<texture_2d<f32>, 4>;",
        ),
        (
            "external texture",
            "@group(0) @binding(0) var t: texture_external;",
        ),
        (
            "workgroup var binding",
            "@group(0) @binding(0) var<workgroup> w: f32;",
        ),
        (
            "private var binding",
            "@group(0) @binding(0) var<private> p: f32;",
        ),
        ("ptr param", "fn f(p: ptr<storage, f32>) {}"),
        ("recursive fn", "fn f() { f(); }"),
        ("recursive struct", "struct S { a: S }"),
    ] {
        v.push((name.to_owned(), src.to_owned()));
    }
    v
}

#[test]
fn hostile_wgsl_never_panics() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut sources: Vec<(String, String)> = vec![
        ("empty".to_owned(), String::new()),
        ("spaces".to_owned(), " \n\t ".to_owned()),
    ];
    // Random bytes.
    for i in 0..150 {
        let n = rng.below(400);
        let bytes: Vec<u8> = (0..n).map(|_| rng.next() as u8).collect();
        sources.push((
            format!("random bytes {i}"),
            String::from_utf8_lossy(&bytes).into_owned(),
        ));
    }
    // Token soup.
    for i in 0..200 {
        let n = rng.below(80);
        let s: String = (0..n)
            .map(|_| *rng.pick(TOKENS))
            .collect::<Vec<_>>()
            .join(" ");
        sources.push((format!("token soup {i}"), s));
    }
    // Mutated valid shaders.
    for i in 0..300 {
        let base = rng.pick(VALID);
        sources.push((format!("mutant {i}"), mutate(&mut rng, base)));
    }
    sources.extend(deep_sources());

    let (mut ok, mut err) = (0, 0);
    for (label, src) in &sources {
        match exercise(label, src, &mut rng) {
            Ok(()) => ok += 1,
            Err(e) => {
                let code = vgpu_core::ErrorCode::code(&e);
                assert!(code.starts_with("VGPU-SHADER-"), "{label}: {e}");
                assert_ne!(code, "VGPU-SHADER-INTERNAL", "{label}: naga panicked: {e}");
                err += 1;
            }
        }
    }
    eprintln!("accepted {ok}, rejected {err}");
    assert!(
        err > ok,
        "most hostile inputs must be rejected ({ok} accepted, {err} rejected)"
    );
    // The valid ones are still accepted.
    for src in VALID {
        assert!(Shader::new("valid", src).is_ok());
    }
}

#[test]
fn specific_hostile_sources_are_errors_with_the_right_code() {
    let cases: &[(&str, String, &str)] = &[
        ("too large", "x".repeat(1 << 20), "VGPU-SHADER-LIMIT"),
        (
            "unary chain",
            format!(
                "fn f(a: f32) -> f32 {{ return {}a; }}",
                "- ".repeat(100_000)
            ),
            "VGPU-SHADER-LIMIT",
        ),
        (
            "binary chain",
            format!(
                "fn f(a: f32) -> f32 {{ return a{}; }}",
                " + a".repeat(100_000)
            ),
            "VGPU-SHADER-LIMIT",
        ),
        (
            "unknown type",
            "@group(0) @binding(0) var<uniform> u: Foo;".to_owned(),
            "VGPU-SHADER-PARSE",
        ),
        (
            "bool",
            "@group(0) @binding(0) var<uniform> u: vec2<bool>;".to_owned(),
            "VGPU-SHADER-HOST-SHAREABLE",
        ),
        (
            "random",
            "\u{7f}\u{1}garbage!!".to_owned(),
            "VGPU-SHADER-PARSE",
        ),
    ];
    for (name, src, code) in cases {
        let err = guarded(name, || Shader::new(name, src)).unwrap_err();
        assert_eq!(vgpu_core::ErrorCode::code(&err), *code, "{name}: {err}");
    }
    // Structs nested deeper than the supported depth.
    let mut s = String::from("struct S0 { a: f32 }\n");
    for i in 1..100 {
        s += &format!("struct S{i} {{ a: S{} }}\n", i - 1);
    }
    s += "@group(0) @binding(0) var<storage> u: S99;\n";
    let err = Shader::new("deep struct", &s).unwrap_err();
    assert_eq!(
        vgpu_core::ErrorCode::code(&err),
        "VGPU-SHADER-LIMIT",
        "{err}"
    );
    // An empty source is a valid module without entry points: asking for one is an error.
    let empty = Shader::new("empty", "").unwrap();
    for stage in [Stage::Vertex, Stage::Fragment, Stage::Compute] {
        assert_eq!(
            vgpu_core::ErrorCode::code(&empty.entry_point(stage, None).unwrap_err()),
            "VGPU-SHADER-ENTRY-POINT"
        );
    }
}

#[test]
fn hostile_values_never_panic_and_never_write_when_rejected() {
    let shaders: Vec<Shader> = VALID
        .iter()
        .map(|s| Shader::new("valid", s).unwrap())
        .chain([
            Shader::new(
                "more",
                "struct In { h: vec3<u32>, m: mat3x2<f32> }\n\
                 struct S { a: array<In, 3>, b: array<array<vec3<f32>, 2>, 2>, c: i32 }\n\
                 @group(0) @binding(0) var<storage> s: S;\n\
                 @group(0) @binding(1) var<storage> r: array<f32>;\n\
                 @group(0) @binding(2) var<uniform> v: vec3<f32>;\n\
                 @group(0) @binding(3) var<storage> m: mat4x4<f32>;\n",
            )
            .unwrap(),
            Shader::with_features(
                "f16",
                "enable f16;\nstruct H { a: f16, b: vec3<f16>, c: array<f16, 5> }\n@group(0) @binding(0) var<storage> h: H;",
                wgpu::Features::SHADER_F16,
            )
            .unwrap(),
        ])
        .collect();
    let plans: Vec<Arc<WritePlan>> = shaders
        .iter()
        .flat_map(|s| s.bindings().iter().filter_map(|b| b.plan.clone()))
        .collect();
    assert!(plans.len() >= 9);
    let mut rng = Rng(0x0123_4567_89ab_cdef);
    for i in 0..1200 {
        let plan = &plans[i % plans.len()];
        let v = if i % 2 == 0 {
            shaped_value(&mut rng, plan.layout(), 0)
        } else {
            random_value(&mut rng, 0)
        };
        guarded("value", || check_pack(plan, &v));
    }
    // Deep nesting and huge values.
    let mut deep = Value::F32(1.0);
    for _ in 0..1000 {
        deep = Value::Array(vec![deep]);
    }
    let mut deep_struct = Value::F32(1.0);
    for _ in 0..1000 {
        deep_struct = Value::Struct(vec![("a".into(), deep_struct)]);
    }
    let huge = Value::from(vec![0.5f32; 1 << 20]);
    let huge_array = Value::Array(vec![Value::F32(1.0); 100_000]);
    for plan in &plans {
        for v in [
            &deep,
            &deep_struct,
            &huge,
            &huge_array,
            &Value::Struct(Vec::new()),
            &Value::Array(Vec::new()),
        ] {
            guarded("special value", || check_pack(plan, v));
        }
    }
}

/// A wide type: `S{k+1} { a: S{k}, b: S{k} }` is 30 lines of WGSL but 2^levels leaves as a
/// tree. Every walk over it (host-shareability, layouts, plans, GL hazards, layout equality)
/// must be linear in its distinct types. `gap` puts an `@size` gap after every `a` (a GL hazard
/// for every `b`).
fn wide_type_shader(levels: usize, gap: bool) -> String {
    let mut s = String::from("struct S0 { a: vec4f }\n");
    let mut size = 16u64;
    for k in 1..=levels {
        let attr = if gap {
            format!("@size({}) ", size + 16)
        } else {
            String::new()
        };
        s.push_str(&format!(
            "struct S{k} {{ {attr}a: S{p}, b: S{p} }}\n",
            p = k - 1
        ));
        size = if gap { 2 * size + 16 } else { 2 * size };
    }
    s.push_str(&format!(
        "@group(0) @binding(0) var<uniform> u: S{levels};\n\
         @compute @workgroup_size(1) fn main() {{ _ = u.a; }}\n"
    ));
    s
}

/// The type nodes the layout walks visit on this thread while `f` runs
/// ([`vgpu_core::visited_type_nodes`]), with `f`'s value.
fn visits<T>(f: impl FnOnce() -> T) -> (u64, T) {
    let before = vgpu_core::visited_type_nodes();
    let value = f();
    (vgpu_core::visited_type_nodes() - before, value)
}

/// A bound linear in the distinct types of a wide type of `levels` levels (`S0` … `S{levels}`
/// and the `vec4f`, each struct with two members): a few visits per type per walk, far below
/// the 2^levels leaves of its tree.
fn linear_bound(levels: usize) -> u64 {
    16 * (levels as u64 + 2)
}

/// Counted, not timed: every walk over a wide type visits a number of nodes linear in its
/// levels (the count grows by the same step per level), where a walk of the tree would visit
/// 2^levels leaves.
#[test]
fn wide_types_are_walked_linearly() {
    let levels = 16;
    let shader = |label: &str, levels: usize, gap: bool| {
        visits(|| Shader::new(label, &wide_type_shader(levels, gap)).unwrap())
    };
    // Reflection: layouts, the host-shareability check and the write plan of the binding.
    let (parse, a) = shader("wide", levels, false);
    assert!(parse <= linear_bound(levels), "{parse} visits");
    // One level more costs the same few visits: linear, not doubling.
    let (smaller, _) = shader("wide smaller", levels - 1, false);
    let (larger, _) = shader("wide larger", levels + 1, false);
    assert_eq!(
        parse - smaller,
        larger - parse,
        "{smaller}, {parse}, {larger} visits"
    );
    let (_, b) = shader("wide again", levels, false);
    let la = a.bindings()[0].layout.clone().unwrap();
    let lb = b.bindings()[0].layout.clone().unwrap();
    // Two shaders, two distinct layout trees: structurally equal.
    let (n, equal) = visits(|| la == lb);
    assert!(equal);
    assert!(n <= linear_bound(levels), "equality: {n} visits");
    let (_, gapped) = shader("wide gaps", levels, true);
    let lg = gapped.bindings()[0].layout.clone().unwrap();
    let (n, equal) = visits(|| la == lg);
    assert!(!equal);
    assert!(n <= linear_bound(levels), "inequality: {n} visits");
    let (n, hazards) = visits(|| lg.gl_hazards(true));
    assert_eq!(hazards.len(), vgpu_core::MAX_GL_HAZARDS, "{hazards:?}");
    assert!(n <= linear_bound(levels), "GL hazards: {n} visits");
    let (n, hazards) = visits(|| la.gl_hazards(true));
    assert_eq!(hazards, Vec::<String>::new());
    assert!(n <= linear_bound(levels), "GL hazards (none): {n} visits");
}
