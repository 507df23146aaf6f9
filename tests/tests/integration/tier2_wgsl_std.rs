//! vgpu's WGSL standard library (`vgpu::wgsl`): every module validates through naga alone and
//! all concatenated (tier 1, noop device too), and every function computes on the device what
//! a CPU reference written here computes (tier 2: a compute kernel evaluates the function on
//! 320 inputs, a deterministic pseudo-random set plus edge values, and writes a storage buffer
//! that is read back; the kernels are validated on the noop device too).
//!
//! The references: the hashes and noises mirror the WGSL algorithm in `f32`/`u32` (a lattice or
//! branch decision must be the same on both sides); the smooth functions (color, math,
//! sampling, lighting) are the textbook formula evaluated in `f64` from the same `f32` inputs,
//! so the tolerance bounds the device's own error. A tolerance `abs + rel` allows
//! `|gpu - cpu| <= abs + rel * |cpu|`; each test prints the largest error it saw (`--nocapture`).
//!
//! | function | tolerance | why |
//! |---|---|---|
//! | `pcg`, `pcg2d`, `pcg3d`, `pcg4d` | exact | u32 arithmetic wraps identically everywhere |
//! | `hash11`, `hash21`, `hash22`, `hash31`, `hash33`, `hash44` | exact | integer hash of the bit pattern; 24 bits × 2^-24 converts exactly |
//! | `value_noise2`, `value_noise3` | 1e-5 abs | lattice values exact; the fade and `mix` may contract to FMA differently (a few f32 ulps of values ≤ 1) |
//! | `gradient_noise2`, `gradient_noise3` | 1e-5 abs | as value noise, plus a dot product of the gradient |
//! | `fbm2`, `fbm3` | 1e-4 abs | up to 6 octaves of gradient noise summed and normalized: the per-octave rounding differences add up |
//! | `srgb_to_linear(3)`, `linear_to_srgb(3)` | 1e-5 abs + 1e-5 rel | `pow` is exp2(y log2 x) on GPUs (Vulkan: a few ulps relative, more for large x); rel for HDR inputs up to 100 |
//! | `rgb_to_hsv` | 1e-5 abs (hue: circular distance) | one division (2.5 ulp); a hue of 1 - ε and 0 are the same hue |
//! | `hsv_to_rgb` | 1e-5 abs + 1e-5 rel | floor/min/clamp and two multiplies |
//! | `luminance` | 1e-6 abs + 1e-6 rel | a dot product |
//! | `tonemap_reinhard`, `tonemap_reinhard_extended`, `tonemap_aces` | 1e-5 abs + 1e-5 rel | one or two divisions (2.5 ulp each), results ≤ 1 |
//! | `PI`, `TAU`, `HALF_PI`, `INV_PI`, `E` | exact | the `f32` nearest the constant, as Rust's `std::f32::consts` |
//! | `rotate2`, `rotate_x`, `rotate_y`, `rotate_z`, `rotate_axis`, `quat_from_axis_angle` | 1e-3 abs | `sin`/`cos`: Vulkan allows 2^-11 absolute error on [-π, π] (the tested angles); entries ≤ 1 |
//! | `quat_mul`, `quat_rotate`, `quat_conjugate` | 1e-5 abs + 1e-5 rel | products and sums of unit-scale values |
//! | `remap`, `remap_clamped` | 1e-5 abs + 1e-5 rel | one division; ranges up to 100 wide |
//! | `poisson_disk` | exact | a constant table (compared with the literals parsed from the module) |
//! | `poisson_disk_rotated`, `sample_cosine_hemisphere(_around)` | 1e-3 abs | `sin`/`cos` (2^-11 on [-π, π], above); results ≤ 1 |
//! | `cosine_hemisphere_pdf` | 1e-6 abs + 1e-6 rel | one division |
//! | `sample_bicubic` at texel centers | 1/255 abs | must return the texel: the merged tap lands on the center, the outer taps weigh 0 |
//! | `sample_bicubic`, `sample_bicubic_bspline` elsewhere | 2/255 abs | each bilinear tap of an 8-bit texture may be off by up to 1/255 (llvmpipe filters unorm8 in 8-bit fixed point; hardware has 8-bit fractional weights), times the sum of the filter's \|weights\| (≤ 1.6 for Catmull-Rom, 1 for the B-spline) |
//! | `lambert`, `lambert_brdf` | 1e-6 abs + 1e-6 rel | a dot product / a multiply |
//! | `blinn_phong` | 1e-6 abs + 1e-3 rel | `pow` with exponents up to 256: exp2's error on 256 log2(x) is relative ~1e-4 |
//! | `ggx_distribution`, `smith_ggx_correlated`, `smith_ggx_visibility` | 1e-6 abs + 1e-3 rel | near grazing (cosines down to 1e-4) and small alpha (0.01) the values span 1e-6..1e3; sqrt and division errors are relative |
//! | `fresnel_schlick` | 1e-5 abs + 1e-5 rel | a fifth power by multiplies |
//! | `cook_torrance_ggx` | 1e-5 abs + 1e-3 rel | D·V·F of `normalize`d vectors: the dot products' rounding (1e-7) relative to 1 - n·h (≥ alpha², alpha ≥ 0.05) |
//! | `fullscreen_position`, `fullscreen_uv` | every pixel drawn; uv at pixel centers within 1/255 | an 8-bit target |

use std::fmt::Debug;

use vgpu::{BufferDesc, Compute, ComputeDesc, DrawDesc, Gpu, SamplerDesc, TextureDesc, wgsl};
use vgpu_tests::each_gpu;

/// The source of standard module `name`.
fn source(name: &str) -> &'static str {
    wgsl::module(name)
        .unwrap_or_else(|| panic!("no standard module {name}"))
        .source
}

// ---------------------------------------------------------------------------------------------
// Tier 1: the modules themselves.

/// The module names the standard library must have.
const NAMES: [&str; 7] = [
    "hash",
    "noise",
    "color",
    "math",
    "sampling",
    "lighting",
    "fullscreen",
];

/// Identifiers that WESL reserves for its imports: a module must not use them.
const WESL_RESERVED: [&str; 5] = ["import", "as", "package", "super", "self"];

/// Whether naga's GLSL backend would write `word` as a name GLSL refuses: it renames `gl` to
/// `gl_1`, and GLSL reserves the `gl_` prefix (and names with `__`).
fn glsl_unsafe(word: &str) -> bool {
    word == "gl" || word.starts_with("gl_") || word.contains("__")
}

/// `src` without its `//` comments (the WGSL here has no block comments).
fn strip_comments(src: &str) -> String {
    src.lines()
        .map(|l| l.split_once("//").map_or(l, |(code, _)| code))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The identifiers (and keywords) of `code`, in order.
fn identifiers(code: &str) -> Vec<&str> {
    code.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| w.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_'))
        .collect()
}

#[test]
fn every_module_validates_alone_and_all_together() {
    let gpu = Gpu::noop();
    let mut all = String::new();
    for m in wgsl::MODULES {
        let shader = gpu
            .shader(m.name, m.source)
            .unwrap_or_else(|e| panic!("module {} does not validate alone: {e}", m.name));
        let r = shader.reflection();
        assert!(
            r.entry_points().is_empty(),
            "module {} has entry points",
            m.name
        );
        assert!(r.bindings().is_empty(), "module {} has bindings", m.name);
        all.push_str(m.source);
        all.push('\n');
    }
    // `saturate` on a vector: no module shadows a built-in with a narrower function.
    all.push_str(
        "@compute @workgroup_size(1) fn main() { let v = saturate(vec3f(2.0)); let u = v.x; }",
    );
    gpu.shader("all modules", &all)
        .unwrap_or_else(|e| panic!("the modules concatenated do not validate: {e}"));
}

#[test]
fn module_names_are_unique_and_looked_up() {
    let names: Vec<&str> = wgsl::MODULES.iter().map(|m| m.name).collect();
    assert_eq!(names, NAMES, "the standard modules, in order");
    for m in wgsl::MODULES {
        let found = wgsl::module(m.name).expect("a listed module is found");
        assert_eq!(
            (found.name, found.source),
            (m.name, m.source),
            "module({}) is that module",
            m.name
        );
        assert!(!m.doc.is_empty(), "module {} has a doc line", m.name);
    }
    assert!(wgsl::module("nope").is_none());
    assert!(wgsl::module("").is_none());
    assert!(wgsl::module("Noise").is_none(), "names are case-sensitive");
}

#[test]
fn function_and_constant_names_are_unique_across_modules() {
    let gpu = Gpu::noop();
    let mut seen: Vec<(String, &str)> = Vec::new();
    for m in wgsl::MODULES {
        let shader = gpu.shader(m.name, m.source).unwrap();
        let module = shader.reflection().module();
        let functions = module.functions.iter().filter_map(|(_, f)| f.name.clone());
        let constants = module.constants.iter().filter_map(|(_, c)| c.name.clone());
        let mut count = 0;
        for name in functions.chain(constants) {
            count += 1;
            if let Some((_, other)) = seen.iter().find(|(n, _)| *n == name) {
                panic!("`{name}` is declared by both {other} and {}", m.name);
            }
            seen.push((name, m.name));
        }
        assert!(count > 0, "module {} declares nothing", m.name);
    }
}

#[test]
fn modules_use_no_wesl_reserved_word_bind_nothing_and_document_every_item() {
    for m in wgsl::MODULES {
        let code = strip_comments(m.source);
        for word in identifiers(&code) {
            assert!(
                !WESL_RESERVED.contains(&word),
                "module {} uses the identifier `{word}`",
                m.name
            );
            assert!(
                !glsl_unsafe(word),
                "module {}: `{word}` breaks the GL backend",
                m.name
            );
        }
        for attr in ["@group", "@binding", "@vertex", "@fragment", "@compute"] {
            assert!(!code.contains(attr), "module {} has {attr}", m.name);
        }
        let lines: Vec<&str> = m.source.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            if line.starts_with("fn ") || line.starts_with("const ") {
                let above = if i > 0 { lines[i - 1] } else { "" };
                assert!(
                    above.starts_with("//"),
                    "module {}: `{line}` has no `//` comment above it",
                    m.name
                );
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The harness: a compute kernel over `inputs` into `outputs`, and the comparison.

/// A deterministic pseudo-random generator (SplitMix64).
struct Rng(u64);

impl Rng {
    fn u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn u32(&mut self) -> u32 {
        (self.u64() >> 32) as u32
    }
    /// Uniform in [lo, hi).
    fn f32(&mut self, lo: f32, hi: f32) -> f32 {
        let t = (self.u64() >> 40) as f32 / (1u64 << 24) as f32;
        lo + (hi - lo) * t
    }
    /// A unit vector (normalized in f64, then rounded to f32).
    fn unit(&mut self) -> [f32; 3] {
        loop {
            let v = [
                self.f32(-1.0, 1.0),
                self.f32(-1.0, 1.0),
                self.f32(-1.0, 1.0),
            ];
            let len = (v.iter().map(|&x| f64::from(x).powi(2)).sum::<f64>()).sqrt();
            if (0.1..=1.0).contains(&len) {
                return v.map(|x| (f64::from(x) / len) as f32);
            }
        }
    }
}

/// Number of test cases per kernel (five workgroups of 64).
const CASES: usize = 320;

/// The bits of four floats.
fn bits(v: [f32; 4]) -> [u32; 4] {
    v.map(f32::to_bits)
}

/// The floats of four bit patterns.
fn floats(v: [u32; 4]) -> [f32; 4] {
    v.map(f32::from_bits)
}

/// A kernel evaluating standard-library functions: `prefix` (module sources, extra bindings),
/// then `inputs`/`outputs` storage arrays of `ty` (`vec4f` or `vec4u`) and a `main` running
/// `body` once per case `i`, which reads `inputs[ii + k]` (`per_in` per case) and writes
/// `outputs[oo + k]` (`per_out` per case).
struct Kernel<'a> {
    prefix: String,
    body: &'a str,
    ty: &'a str,
    per_in: usize,
    per_out: usize,
}

impl Kernel<'_> {
    fn new<'a>(modules: &[&str], body: &'a str, per_in: usize, per_out: usize) -> Kernel<'a> {
        Kernel {
            prefix: modules
                .iter()
                .map(|m| source(m))
                .collect::<Vec<_>>()
                .join("\n"),
            body,
            ty: "vec4f",
            per_in,
            per_out,
        }
    }

    fn wgsl(&self, cases: usize) -> String {
        let (prefix, ty, body) = (&self.prefix, self.ty, self.body);
        let (per_in, per_out) = (self.per_in, self.per_out);
        format!(
            "{prefix}
@group(0) @binding(0) var<storage, read> inputs: array<{ty}>;
@group(0) @binding(1) var<storage, read_write> outputs: array<{ty}>;
@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) id: vec3u) {{
    let i = id.x;
    if i >= {cases}u {{ return; }}
    let ii = i * {per_in}u;
    let oo = i * {per_out}u;
    {body}
}}"
        )
    }

    /// Runs over `inputs` (`per_in` words per case) after `bind` set the extra bindings; the
    /// outputs (`per_out` words per case), or `None` on the noop device (where the kernel is
    /// still validated and dispatched).
    fn run(
        &self,
        gpu: &Gpu,
        inputs: &[[u32; 4]],
        bind: &dyn Fn(&Compute),
    ) -> Option<Vec<[u32; 4]>> {
        assert_eq!(inputs.len() % self.per_in, 0);
        let cases = inputs.len() / self.per_in;
        let shader = gpu
            .shader("wgsl std kernel", &self.wgsl(cases))
            .unwrap_or_else(|e| panic!("kernel: {e}"));
        let k = gpu.compute(&shader, ComputeDesc::default()).unwrap();
        let input = gpu
            .buffer_init(
                "inputs",
                bytemuck::cast_slice(inputs),
                wgpu::BufferUsages::STORAGE,
            )
            .unwrap();
        let output = gpu
            .buffer(&BufferDesc {
                label: "outputs".into(),
                size: (cases * self.per_out * 16) as u64,
                usage: wgpu::BufferUsages::STORAGE,
            })
            .unwrap();
        k.set("inputs", &input).unwrap();
        k.set("outputs", &output).unwrap();
        bind(&k);
        let groups = cases.div_ceil(64) as u32;
        gpu.frame(|f| f.compute_pass(|c| c.dispatch(&k, groups, 1, 1)))
            .unwrap();
        if gpu.is_noop() {
            return None;
        }
        Some(bytemuck::pod_collect_to_vec(
            &output.read_blocking().unwrap(),
        ))
    }

    /// [`run`](Self::run) on float inputs and outputs, without extra bindings.
    fn run_f32(&self, gpu: &Gpu, inputs: &[[f32; 4]]) -> Option<Vec<[f32; 4]>> {
        let words: Vec<[u32; 4]> = inputs.iter().copied().map(bits).collect();
        let out = self.run(gpu, &words, &|_| {})?;
        Some(out.into_iter().map(floats).collect())
    }
}

/// An allowed error: `|gpu - cpu| <= abs + rel * |cpu|`.
#[derive(Clone, Copy, Debug)]
struct Tol {
    abs: f64,
    rel: f64,
}

const EXACT: Tol = Tol { abs: 0.0, rel: 0.0 };

const fn tol(abs: f64, rel: f64) -> Tol {
    Tol { abs, rel }
}

/// Compares one function's device values with the CPU's and remembers the largest error.
struct Check {
    name: &'static str,
    tol: Tol,
    max_err: f64,
    /// The largest error as a fraction of the error allowed at its value.
    max_used: f64,
    count: usize,
}

impl Check {
    fn new(name: &'static str, tol: Tol) -> Check {
        Check {
            name,
            tol,
            max_err: 0.0,
            max_used: 0.0,
            count: 0,
        }
    }

    #[track_caller]
    fn value(&mut self, input: &dyn Debug, gpu: f32, cpu: f64) {
        let err = (f64::from(gpu) - cpu).abs();
        let allowed = self.tol.abs + self.tol.rel * cpu.abs();
        assert!(
            gpu.is_finite() == cpu.is_finite() && (err <= allowed || gpu as f64 == cpu),
            "{}({input:?}): GPU {gpu:e} vs CPU {cpu:e}: |error| {err:e} > tolerance {:?} \
             (allowed {allowed:e})",
            self.name,
            self.tol,
        );
        if err.is_finite() {
            self.max_err = self.max_err.max(err);
            if allowed > 0.0 {
                self.max_used = self.max_used.max(err / allowed);
            }
        }
        self.count += 1;
    }

    #[track_caller]
    fn values(&mut self, input: &dyn Debug, gpu: &[f32], cpu: &[f64]) {
        assert_eq!(gpu.len(), cpu.len());
        for (&g, &c) in gpu.iter().zip(cpu) {
            self.value(input, g, c);
        }
    }
}

impl Drop for Check {
    fn drop(&mut self) {
        if !std::thread::panicking() && self.count > 0 {
            eprintln!(
                "{}: {} values, max |GPU - CPU| = {:.2e}, at most {:.1}% of the tolerance {:?}",
                self.name,
                self.count,
                self.max_err,
                self.max_used * 100.0,
                self.tol
            );
        }
    }
}

/// `v` widened to f64.
fn wide<const N: usize>(v: [f32; N]) -> [f64; N] {
    v.map(f64::from)
}

// ---------------------------------------------------------------------------------------------
// hash

fn pcg(v: u32) -> u32 {
    let state = v.wrapping_mul(747_796_405).wrapping_add(2_891_336_453);
    let word = ((state >> ((state >> 28) + 4)) ^ state).wrapping_mul(277_803_737);
    (word >> 22) ^ word
}

fn pcg2d(v: [u32; 2]) -> [u32; 2] {
    let m = 1_664_525u32;
    let mut q = v.map(|x| x.wrapping_mul(m).wrapping_add(1_013_904_223));
    for _ in 0..2 {
        q[0] = q[0].wrapping_add(q[1].wrapping_mul(m));
        q[1] = q[1].wrapping_add(q[0].wrapping_mul(m));
        q = q.map(|x| x ^ (x >> 16));
    }
    q
}

fn pcg3d(v: [u32; 3]) -> [u32; 3] {
    let mut q = v.map(|x| x.wrapping_mul(1_664_525).wrapping_add(1_013_904_223));
    let mix = |q: &mut [u32; 3]| {
        q[0] = q[0].wrapping_add(q[1].wrapping_mul(q[2]));
        q[1] = q[1].wrapping_add(q[2].wrapping_mul(q[0]));
        q[2] = q[2].wrapping_add(q[0].wrapping_mul(q[1]));
    };
    mix(&mut q);
    q = q.map(|x| x ^ (x >> 16));
    mix(&mut q);
    q
}

fn pcg4d(v: [u32; 4]) -> [u32; 4] {
    let mut q = v.map(|x| x.wrapping_mul(1_664_525).wrapping_add(1_013_904_223));
    let mix = |q: &mut [u32; 4]| {
        q[0] = q[0].wrapping_add(q[1].wrapping_mul(q[3]));
        q[1] = q[1].wrapping_add(q[2].wrapping_mul(q[0]));
        q[2] = q[2].wrapping_add(q[0].wrapping_mul(q[1]));
        q[3] = q[3].wrapping_add(q[1].wrapping_mul(q[2]));
    };
    mix(&mut q);
    q = q.map(|x| x ^ (x >> 16));
    mix(&mut q);
    q
}

/// The top 24 bits of `h` in [0, 1).
fn unit(h: u32) -> f32 {
    (h >> 8) as f32 * (1.0 / 16_777_216.0)
}

/// Edge values and pseudo-random values for the integer hashes.
fn u32_inputs() -> Vec<[u32; 4]> {
    let edges = [
        0,
        1,
        2,
        0x7FFF_FFFF,
        0x8000_0000,
        u32::MAX,
        12345,
        0xDEAD_BEEF,
    ];
    let mut rng = Rng(1);
    let mut v: Vec<[u32; 4]> = edges
        .iter()
        .map(|&e| [e, e, e, e])
        .chain(edges.iter().map(|&e| [e, 0, 1, u32::MAX]))
        .collect();
    while v.len() < CASES {
        v.push([rng.u32(), rng.u32(), rng.u32(), rng.u32()]);
    }
    v
}

#[test]
fn integer_hashes_match_the_cpu_exactly() {
    each_gpu(|gpu| {
        let mut kernel = Kernel::new(
            &["hash"],
            "let x = inputs[ii];
             outputs[oo] = vec4u(pcg(x.x), pcg(x.y), pcg(x.z), pcg(x.w));
             outputs[oo + 1u] = vec4u(pcg2d(x.xy), pcg2d(x.zw));
             outputs[oo + 2u] = vec4u(pcg3d(x.xyz), pcg3d(x.yzw).x);
             outputs[oo + 3u] = pcg4d(x);",
            1,
            4,
        );
        kernel.ty = "vec4u";
        let inputs = u32_inputs();
        let Some(out) = kernel.run(gpu, &inputs, &|_| {}) else {
            return;
        };
        for (i, x) in inputs.iter().enumerate() {
            let o = &out[i * 4..i * 4 + 4];
            let [a, b] = pcg2d([x[0], x[1]]);
            let [c, d] = pcg2d([x[2], x[3]]);
            let p3 = pcg3d([x[0], x[1], x[2]]);
            let expected = [
                x.map(pcg),
                [a, b, c, d],
                [p3[0], p3[1], p3[2], pcg3d([x[1], x[2], x[3]])[0]],
                pcg4d(*x),
            ];
            for (k, name) in ["pcg", "pcg2d", "pcg3d", "pcg4d"].iter().enumerate() {
                assert_eq!(
                    o[k], expected[k],
                    "{name}({x:?}): GPU {:?} vs CPU {:?} (tolerance: exact)",
                    o[k], expected[k]
                );
            }
        }
        eprintln!(
            "pcg, pcg2d, pcg3d, pcg4d: {} inputs, all exact",
            inputs.len()
        );
    });
}

/// Edge values and pseudo-random values for float inputs: 0, -0, ±1, large, tiny, and
/// uniform in [-range, range).
fn f32_inputs(seed: u64, range: f32) -> Vec<[f32; 4]> {
    let edges = [
        0.0, -0.0, 1.0, -1.0, 0.5, 1e30, -1e30, 1e-30, 65536.0, -12345.678,
    ];
    let mut rng = Rng(seed);
    let mut v: Vec<[f32; 4]> = edges.iter().map(|&e| [e, e, e, e]).collect();
    v.extend(edges.iter().map(|&e| [e, 1.0, -1.0, 0.0]));
    while v.len() < CASES {
        let mut r = || rng.f32(-range, range);
        v.push([r(), r(), r(), r()]);
    }
    v
}

#[test]
fn float_hashes_match_the_cpu_exactly_and_lie_in_0_1() {
    each_gpu(|gpu| {
        let kernel = Kernel::new(
            &["hash"],
            "let x = inputs[ii];
             outputs[oo] = vec4f(hash11(x.x), hash21(x.xy), hash31(x.xyz), 0.0);
             outputs[oo + 1u] = vec4f(hash22(x.xy), hash22(x.zw));
             outputs[oo + 2u] = vec4f(hash33(x.xyz), 0.0);
             outputs[oo + 3u] = hash44(x);",
            1,
            4,
        );
        let inputs = f32_inputs(2, 1000.0);
        let Some(out) = kernel.run_f32(gpu, &inputs) else {
            return;
        };
        let mut checks = [
            Check::new("hash11", EXACT),
            Check::new("hash21", EXACT),
            Check::new("hash31", EXACT),
            Check::new("hash22", EXACT),
            Check::new("hash33", EXACT),
            Check::new("hash44", EXACT),
        ];
        for (i, x) in inputs.iter().enumerate() {
            let o = &out[i * 4..i * 4 + 4];
            let b = bits(*x);
            let h22a = pcg2d([b[0], b[1]]).map(unit);
            let h22b = pcg2d([b[2], b[3]]).map(unit);
            let h33 = pcg3d([b[0], b[1], b[2]]).map(unit);
            let h44 = pcg4d(b).map(unit);
            checks[0].value(&x[0], o[0][0], f64::from(unit(pcg(b[0]))));
            checks[1].value(&[x[0], x[1]], o[0][1], f64::from(h22a[0]));
            checks[2].value(&[x[0], x[1], x[2]], o[0][2], f64::from(h33[0]));
            let h22 = [h22a[0], h22a[1], h22b[0], h22b[1]];
            checks[3].values(x, &o[1], &wide(h22));
            checks[4].values(x, &o[2][..3], &wide(h33));
            checks[5].values(x, &o[3], &wide(h44));
            for v in o.iter().flatten() {
                assert!((0.0..1.0).contains(v), "a float hash of {x:?} is {v}");
            }
        }
    });
}

// ---------------------------------------------------------------------------------------------
// noise (the reference mirrors the WGSL in f32)

fn noise_cell(c: [i32; 3]) -> u32 {
    pcg3d(c.map(|x| x as u32))[0]
}

fn noise_cell_value(c: [i32; 3]) -> f32 {
    unit(noise_cell(c))
}

fn fade(t: f32) -> f32 {
    t * t * t * (t * (t * 6.0 - 15.0) + 10.0)
}

/// WGSL's `mix`: a (1 - t) + b t.
fn mix(a: f32, b: f32, t: f32) -> f32 {
    a * (1.0 - t) + b * t
}

fn grad2(h: u32, d: [f32; 2]) -> f32 {
    let s = if h & 1 == 0 { 1.0 } else { -1.0 };
    let t = if h & 2 == 0 { 1.0 } else { -1.0 };
    if h & 4 != 0 {
        (s * d[0] + t * d[1]) * std::f32::consts::FRAC_1_SQRT_2
    } else if h & 2 != 0 {
        s * d[1]
    } else {
        s * d[0]
    }
}

fn grad3(h: u32, d: [f32; 3]) -> f32 {
    let k = h & 15;
    let u = if k < 8 { d[0] } else { d[1] };
    let v = if k < 4 {
        d[1]
    } else if k == 12 || k == 14 {
        d[0]
    } else {
        d[2]
    };
    (if k & 1 == 0 { u } else { -u }) + (if k & 2 == 0 { v } else { -v })
}

/// The lattice cell of `p` and the offset in it.
fn cell<const N: usize>(p: [f32; N]) -> ([i32; N], [f32; N]) {
    let i = p.map(f32::floor);
    let f = std::array::from_fn(|k| p[k] - i[k]);
    (i.map(|x| x as i32), f)
}

fn value_noise2(p: [f32; 2]) -> f32 {
    let ([x, y], f) = cell(p);
    let v = |dx, dy| noise_cell_value([x + dx, y + dy, 0]);
    let u = f.map(fade);
    mix(
        mix(v(0, 0), v(1, 0), u[0]),
        mix(v(0, 1), v(1, 1), u[0]),
        u[1],
    )
}

fn value_noise3(p: [f32; 3]) -> f32 {
    let ([x, y, z], f) = cell(p);
    let v = |dx, dy, dz| noise_cell_value([x + dx, y + dy, z + dz]);
    let u = f.map(fade);
    let x00 = mix(v(0, 0, 0), v(1, 0, 0), u[0]);
    let x10 = mix(v(0, 1, 0), v(1, 1, 0), u[0]);
    let x01 = mix(v(0, 0, 1), v(1, 0, 1), u[0]);
    let x11 = mix(v(0, 1, 1), v(1, 1, 1), u[0]);
    mix(mix(x00, x10, u[1]), mix(x01, x11, u[1]), u[2])
}

fn gradient_noise2(p: [f32; 2]) -> f32 {
    let ([x, y], f) = cell(p);
    let g = |dx: i32, dy: i32| {
        let h = noise_cell([x + dx, y + dy, 0]);
        grad2(h, [f[0] - dx as f32, f[1] - dy as f32])
    };
    let u = f.map(fade);
    mix(
        mix(g(0, 0), g(1, 0), u[0]),
        mix(g(0, 1), g(1, 1), u[0]),
        u[1],
    ) * std::f32::consts::SQRT_2
}

fn gradient_noise3(p: [f32; 3]) -> f32 {
    let ([x, y, z], f) = cell(p);
    let g = |dx: i32, dy: i32, dz: i32| {
        let h = noise_cell([x + dx, y + dy, z + dz]);
        grad3(h, [f[0] - dx as f32, f[1] - dy as f32, f[2] - dz as f32])
    };
    let u = f.map(fade);
    let y0 = mix(
        mix(g(0, 0, 0), g(1, 0, 0), u[0]),
        mix(g(0, 1, 0), g(1, 1, 0), u[0]),
        u[1],
    );
    let y1 = mix(
        mix(g(0, 0, 1), g(1, 0, 1), u[0]),
        mix(g(0, 1, 1), g(1, 1, 1), u[0]),
        u[1],
    );
    mix(y0, y1, u[2])
}

fn fbm<const N: usize>(
    noise: fn([f32; N]) -> f32,
    p: [f32; N],
    octaves: u32,
    lacunarity: f32,
    gain: f32,
) -> f32 {
    let (mut sum, mut amplitude, mut frequency, mut total) = (0.0, 1.0, 1.0, 0.0);
    for _ in 0..octaves {
        sum += amplitude * noise(p.map(|x| x * frequency));
        total += amplitude;
        frequency *= lacunarity;
        amplitude *= gain;
    }
    if total > 0.0 { sum / total } else { 0.0 }
}

#[test]
fn noise_matches_the_cpu_and_stays_in_range() {
    each_gpu(|gpu| {
        let kernel = Kernel::new(
            &["noise"],
            "let a = inputs[ii];
             let b = inputs[ii + 1u];
             let octaves = u32(b.z);
             outputs[oo] = vec4f(value_noise2(a.xy), value_noise3(a.xyz),
                                 gradient_noise2(a.xy), gradient_noise3(a.xyz));
             outputs[oo + 1u] = vec4f(fbm2(a.xy, octaves, b.x, b.y),
                                      fbm3(a.xyz, octaves, b.x, b.y), 0.0, 0.0);",
            2,
            2,
        );
        let mut rng = Rng(3);
        let edges = [
            [0.0, 0.0, 0.0],
            [1.0, 2.0, 3.0],
            [-1.0, -2.0, -3.0],
            [0.5, 0.5, 0.5],
            [-0.5, 0.25, -0.75],
            [1000.25, -4096.5, 65536.75],
            [-123456.7, 54321.1, 7.0],
            [1e-7, -1e-7, 0.999_999_9],
        ];
        let mut inputs = Vec::new();
        for i in 0..CASES {
            let p = match edges.get(i) {
                Some(&e) => e,
                None if i.is_multiple_of(8) => [(i / 8) as f32, -((i / 3) as f32), (i % 5) as f32],
                None => [
                    rng.f32(-50.0, 50.0),
                    rng.f32(-50.0, 50.0),
                    rng.f32(-50.0, 50.0),
                ],
            };
            let octaves = (i % 7) as f32; // 0 to 6
            let lacunarity = [2.0, 1.9, 3.0][i % 3];
            let gain = [0.5, 0.6, 0.35, 1.0][i % 4];
            inputs.push([p[0], p[1], p[2], 0.0]);
            inputs.push([lacunarity, gain, octaves, 0.0]);
        }
        let Some(out) = kernel.run_f32(gpu, &inputs) else {
            return;
        };
        let mut value2 = Check::new("value_noise2", tol(1e-5, 0.0));
        let mut value3 = Check::new("value_noise3", tol(1e-5, 0.0));
        let mut grad2 = Check::new("gradient_noise2", tol(1e-5, 0.0));
        let mut grad3 = Check::new("gradient_noise3", tol(1e-5, 0.0));
        let mut fbm2 = Check::new("fbm2", tol(1e-4, 0.0));
        let mut fbm3 = Check::new("fbm3", tol(1e-4, 0.0));
        for i in 0..CASES {
            let (a, b) = (inputs[2 * i], inputs[2 * i + 1]);
            let (o, f) = (out[2 * i], out[2 * i + 1]);
            let (p2, p3) = ([a[0], a[1]], [a[0], a[1], a[2]]);
            let fbm_in = (p3, b[2] as u32, b[0], b[1]);
            let cpu = |v: f32| f64::from(v);
            value2.value(&p2, o[0], cpu(value_noise2(p2)));
            value3.value(&p3, o[1], cpu(value_noise3(p3)));
            grad2.value(&p2, o[2], cpu(gradient_noise2(p2)));
            grad3.value(&p3, o[3], cpu(gradient_noise3(p3)));
            let octaves = b[2] as u32;
            let f2 = fbm(gradient_noise2, p2, octaves, b[0], b[1]);
            fbm2.value(&fbm_in, f[0], cpu(f2));
            fbm3.value(
                &fbm_in,
                f[1],
                cpu(fbm(gradient_noise3, p3, octaves, b[0], b[1])),
            );
            // The documented ranges.
            assert!(
                (0.0..=1.0).contains(&o[0]),
                "value_noise2({p2:?}) = {}",
                o[0]
            );
            assert!(
                (0.0..=1.0).contains(&o[1]),
                "value_noise3({p3:?}) = {}",
                o[1]
            );
            assert!(o[2].abs() <= 1.0, "gradient_noise2({p2:?}) = {}", o[2]);
            assert!(o[3].abs() <= 1.1, "gradient_noise3({p3:?}) = {}", o[3]);
            assert!(
                f[0].abs() <= 1.0 && f[1].abs() <= 1.1,
                "fbm({fbm_in:?}) = {f:?}"
            );
            // Gradient noise vanishes on the lattice.
            if p3.iter().all(|x| x.fract() == 0.0) {
                assert_eq!((o[2], o[3]), (0.0, 0.0), "gradient noise at {p3:?}");
            }
        }
    });
}

/// The ranges the noise module documents, on a dense CPU sample of the references (which the
/// device matches, above): value noise in [0, 1], 2D gradient noise in [-1, 1], 3D gradient
/// noise in about [-1, 1] (|n| < 1.1).
#[test]
fn documented_noise_ranges_hold_on_a_dense_sample() {
    let mut rng = Rng(10);
    let (mut lo, mut hi) = ([f32::MAX; 4], [f32::MIN; 4]);
    for _ in 0..100_000 {
        let p = [
            rng.f32(-20.0, 20.0),
            rng.f32(-20.0, 20.0),
            rng.f32(-20.0, 20.0),
        ];
        let v = [
            value_noise2([p[0], p[1]]),
            value_noise3(p),
            gradient_noise2([p[0], p[1]]),
            gradient_noise3(p),
        ];
        for k in 0..4 {
            lo[k] = lo[k].min(v[k]);
            hi[k] = hi[k].max(v[k]);
        }
    }
    eprintln!("noise ranges seen (value2, value3, gradient2, gradient3): {lo:?} to {hi:?}");
    assert!(lo[0] >= 0.0 && hi[0] <= 1.0 && lo[1] >= 0.0 && hi[1] <= 1.0);
    assert!(
        lo[2] >= -1.0 && hi[2] <= 1.0,
        "gradient_noise2: {} to {}",
        lo[2],
        hi[2]
    );
    assert!(
        lo[3] > -1.1 && hi[3] < 1.1,
        "gradient_noise3: {} to {}",
        lo[3],
        hi[3]
    );
    // The ranges are used, not a small part of them.
    assert!(
        hi[2] - lo[2] > 1.2 && hi[3] - lo[3] > 1.2,
        "{lo:?} to {hi:?}"
    );
}

// ---------------------------------------------------------------------------------------------
// color (f64 references)

fn srgb_to_linear(c: f64) -> f64 {
    // The branch point is the f32 literal 0.04045, as in the WGSL.
    if c <= f64::from(0.04045f32) {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

fn linear_to_srgb(c: f64) -> f64 {
    if c <= f64::from(0.003_130_8_f32) {
        c * 12.92
    } else {
        1.055 * c.powf(1.0 / 2.4) - 0.055
    }
}

fn rgb_to_hsv([r, g, b]: [f64; 3]) -> [f64; 3] {
    let hi = r.max(g).max(b);
    let lo = r.min(g).min(b);
    let d = hi - lo;
    let mut h = 0.0;
    if d > 0.0 {
        h = if hi == r {
            (g - b) / d
        } else if hi == g {
            (b - r) / d + 2.0
        } else {
            (r - g) / d + 4.0
        };
        h = (h / 6.0).rem_euclid(1.0);
    }
    let s = if hi > 0.0 { d / hi } else { 0.0 };
    [h, s, hi]
}

/// The textbook sector formula (not the WGSL's branchless one).
fn hsv_to_rgb([h, s, v]: [f64; 3]) -> [f64; 3] {
    let h6 = h.rem_euclid(1.0) * 6.0;
    let c = v * s;
    let x = c * (1.0 - ((h6 % 2.0) - 1.0).abs());
    let m = v - c;
    let [r, g, b] = match h6 as u32 {
        0 => [c, x, 0.0],
        1 => [x, c, 0.0],
        2 => [0.0, c, x],
        3 => [0.0, x, c],
        4 => [x, 0.0, c],
        _ => [c, 0.0, x],
    };
    [r + m, g + m, b + m]
}

fn aces(x: f64) -> f64 {
    let x = x.max(0.0);
    ((x * (2.51 * x + 0.03)) / (x * (2.43 * x + 0.59) + 0.14)).clamp(0.0, 1.0)
}

#[test]
fn color_matches_the_cpu() {
    each_gpu(|gpu| {
        let kernel = Kernel::new(
            &["color"],
            "let c = inputs[ii];
             outputs[oo] = vec4f(srgb_to_linear(c.x), linear_to_srgb(c.x), luminance(c.xyz), 0.0);
             outputs[oo + 1u] = vec4f(srgb_to_linear3(c.xyz), 0.0);
             outputs[oo + 2u] = vec4f(linear_to_srgb3(c.xyz), 0.0);
             outputs[oo + 3u] = vec4f(rgb_to_hsv(c.xyz), 0.0);
             outputs[oo + 4u] = vec4f(hsv_to_rgb(c.xyz), 0.0);
             outputs[oo + 5u] = vec4f(tonemap_reinhard(c.xyz), 0.0);
             outputs[oo + 6u] = vec4f(tonemap_reinhard_extended(c.xyz, c.w), 0.0);
             outputs[oo + 7u] = vec4f(tonemap_aces(c.xyz), 0.0);",
            1,
            8,
        );
        let mut rng = Rng(4);
        let edges: [[f32; 3]; 12] = [
            [0.0; 3],
            [1.0; 3],
            [0.5; 3],
            [1.0, 0.0, 0.0],
            [0.0, 1.0, 0.0],
            [0.0, 0.0, 1.0],
            [1.0, 1.0, 0.0],
            [1.0, 0.0, 1.0],
            [0.04045, 0.003_130_8, 0.04],
            [-0.25, -1.0, -0.001],
            [100.0, 16.0, 2.0],
            [0.2, 0.2, 0.200_001],
        ];
        let mut inputs = Vec::new();
        for i in 0..CASES {
            let c = match edges.get(i) {
                Some(&e) => e,
                None if i.is_multiple_of(10) => {
                    [rng.f32(-0.5, 0.0), rng.f32(1.0, 100.0), rng.f32(0.0, 1.0)]
                }
                None => [rng.f32(0.0, 1.0), rng.f32(0.0, 1.0), rng.f32(0.0, 1.0)],
            };
            inputs.push([c[0], c[1], c[2], rng.f32(0.5, 20.0)]);
        }
        let Some(out) = kernel.run_f32(gpu, &inputs) else {
            return;
        };
        let pow = tol(1e-5, 1e-5);
        let mut s2l = Check::new("srgb_to_linear", pow);
        let mut l2s = Check::new("linear_to_srgb", pow);
        let mut s2l3 = Check::new("srgb_to_linear3", pow);
        let mut l2s3 = Check::new("linear_to_srgb3", pow);
        let mut lum = Check::new("luminance", tol(1e-6, 1e-6));
        let mut hsv = Check::new("rgb_to_hsv", tol(1e-5, 0.0));
        let mut rgb = Check::new("hsv_to_rgb", tol(1e-5, 1e-5));
        let mut reinhard = Check::new("tonemap_reinhard", tol(1e-5, 1e-5));
        let mut extended = Check::new("tonemap_reinhard_extended", tol(1e-5, 1e-5));
        let mut aces_check = Check::new("tonemap_aces", tol(1e-5, 1e-5));
        for (i, x) in inputs.iter().enumerate() {
            let o = &out[i * 8..i * 8 + 8];
            let c = [x[0], x[1], x[2]];
            let w = wide(c);
            s2l.value(&x[0], o[0][0], srgb_to_linear(w[0]));
            l2s.value(&x[0], o[0][1], linear_to_srgb(w[0]));
            lum.value(&c, o[0][2], 0.2126 * w[0] + 0.7152 * w[1] + 0.0722 * w[2]);
            s2l3.values(&c, &o[1][..3], &w.map(srgb_to_linear));
            l2s3.values(&c, &o[2][..3], &w.map(linear_to_srgb));
            // Hue: the circular distance (a hue of 1 - ε is the hue 0).
            let h = rgb_to_hsv(w);
            let dh = (f64::from(o[3][0]) - h[0]).rem_euclid(1.0);
            hsv.value(&c, dh.min(1.0 - dh) as f32, 0.0);
            hsv.values(&c, &o[3][1..3], &h[1..]);
            assert!(
                (0.0..1.0).contains(&o[3][0]),
                "rgb_to_hsv({c:?}) hue {}",
                o[3][0]
            );
            rgb.values(&c, &o[4][..3], &hsv_to_rgb(w));
            reinhard.values(&c, &o[5][..3], &w.map(|v| v / (1.0 + v)));
            let white = f64::from(x[3]);
            let ext = w.map(|v| v * (1.0 + v / (white * white)) / (1.0 + v));
            extended.values(&(c, x[3]), &o[6][..3], &ext);
            aces_check.values(&c, &o[7][..3], &w.map(aces));
        }
    });
}

// ---------------------------------------------------------------------------------------------
// math (f64 references)

type Mat3 = [[f64; 3]; 3];

/// Column-major, as WGSL's `mat3x3f`.
fn rotation_axis(a: [f64; 3], angle: f64) -> Mat3 {
    let (s, c) = angle.sin_cos();
    let t = 1.0 - c;
    // R = c I + s [a]x + t a a^T; entry (row r, column k).
    let cross = [[0.0, -a[2], a[1]], [a[2], 0.0, -a[0]], [-a[1], a[0], 0.0]];
    std::array::from_fn(|k| {
        std::array::from_fn(|r| {
            let identity = if r == k { c } else { 0.0 };
            identity + s * cross[r][k] + t * a[r] * a[k]
        })
    })
}

fn quat_mul(a: [f64; 4], b: [f64; 4]) -> [f64; 4] {
    [
        a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
        a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
        a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
        a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2],
    ]
}

/// q v q* through two Hamilton products.
fn quat_rotate(q: [f64; 4], v: [f64; 3]) -> [f64; 3] {
    let conj = [-q[0], -q[1], -q[2], q[3]];
    let r = quat_mul(quat_mul(q, [v[0], v[1], v[2], 0.0]), conj);
    [r[0], r[1], r[2]]
}

fn quat4(rng: &mut Rng) -> [f32; 4] {
    let axis = rng.unit().map(f64::from);
    let angle = f64::from(rng.f32(-3.0, 3.0)) / 2.0;
    let (s, c) = angle.sin_cos();
    [axis[0] * s, axis[1] * s, axis[2] * s, c].map(|x| x as f32)
}

#[test]
fn math_matches_the_cpu() {
    each_gpu(|gpu| {
        let kernel = Kernel::new(
            &["math"],
            "let a = inputs[ii];
             let b = inputs[ii + 1u];
             let q1 = inputs[ii + 2u];
             let q2 = inputs[ii + 3u];
             let r = inputs[ii + 4u];
             outputs[oo] = vec4f(PI, TAU, HALF_PI, INV_PI);
             outputs[oo + 1u] = vec4f(E, 0.0, 0.0, 0.0);
             let m2 = rotate2(a.w);
             outputs[oo + 2u] = vec4f(m2[0], m2[1]);
             let mx = rotate_x(a.w);
             let my = rotate_y(a.w);
             let mz = rotate_z(a.w);
             let ma = rotate_axis(a.xyz, a.w);
             for (var k = 0u; k < 3u; k++) {
                 outputs[oo + 3u + k] = vec4f(mx[k], 0.0);
                 outputs[oo + 6u + k] = vec4f(my[k], 0.0);
                 outputs[oo + 9u + k] = vec4f(mz[k], 0.0);
                 outputs[oo + 12u + k] = vec4f(ma[k], 0.0);
             }
             outputs[oo + 15u] = quat_from_axis_angle(a.xyz, a.w);
             outputs[oo + 16u] = quat_mul(q1, q2);
             outputs[oo + 17u] = vec4f(quat_rotate(q1, b.xyz), 0.0);
             outputs[oo + 18u] = quat_conjugate(q1);
             outputs[oo + 19u] = vec4f(remap(r.x, r.y, r.z, r.w, b.w),
                                       remap_clamped(r.x, r.y, r.z, r.w, b.w), 0.0, 0.0);",
            5,
            20,
        );
        let mut rng = Rng(5);
        let pi = std::f32::consts::PI;
        let edge_angles = [0.0, pi, -pi, pi / 2.0, -pi / 2.0, 1.0, -1.0, 1e-4];
        let mut inputs = Vec::new();
        for i in 0..CASES {
            let axis = match i {
                0 => [1.0, 0.0, 0.0],
                1 => [0.0, 1.0, 0.0],
                2 => [0.0, 0.0, 1.0],
                _ => rng.unit(),
            };
            let angle = edge_angles
                .get(i)
                .copied()
                .unwrap_or_else(|| rng.f32(-pi, pi));
            let v = [
                rng.f32(-10.0, 10.0),
                rng.f32(-10.0, 10.0),
                rng.f32(-10.0, 10.0),
            ];
            let (lo, hi) = (rng.f32(-50.0, 50.0), rng.f32(-50.0, 50.0));
            let x = if i < 8 {
                [
                    lo,
                    hi,
                    lo - 1.0,
                    hi + 1.0,
                    0.0,
                    100.0,
                    -100.0,
                    (lo + hi) / 2.0,
                ][i]
            } else {
                rng.f32(-100.0, 100.0)
            };
            let (to_lo, to_hi) = (rng.f32(-10.0, 10.0), rng.f32(-10.0, 10.0));
            let (q1, q2) = (quat4(&mut rng), quat4(&mut rng));
            inputs.push([axis[0], axis[1], axis[2], angle]);
            inputs.push([v[0], v[1], v[2], to_hi]);
            inputs.push(q1);
            inputs.push(q2);
            inputs.push([x, lo, hi + if lo == hi { 1.0 } else { 0.0 }, to_lo]);
        }
        let Some(out) = kernel.run_f32(gpu, &inputs) else {
            return;
        };
        let trig = tol(1e-3, 0.0);
        let mut consts = Check::new("PI, TAU, HALF_PI, INV_PI, E", EXACT);
        let mut rot2 = Check::new("rotate2", trig);
        let mut rotx = Check::new("rotate_x", trig);
        let mut roty = Check::new("rotate_y", trig);
        let mut rotz = Check::new("rotate_z", trig);
        let mut rota = Check::new("rotate_axis", trig);
        let mut qaa = Check::new("quat_from_axis_angle", trig);
        let mut qmul = Check::new("quat_mul", tol(1e-5, 1e-5));
        let mut qrot = Check::new("quat_rotate", tol(1e-5, 1e-5));
        let mut qconj = Check::new("quat_conjugate", EXACT);
        let mut remap = Check::new("remap", tol(1e-5, 1e-5));
        let mut remap_c = Check::new("remap_clamped", tol(1e-5, 1e-5));
        let flat = |m: Mat3| -> Vec<f64> { m.iter().flatten().copied().collect() };
        let got =
            |o: &[[f32; 4]]| -> Vec<f32> { o.iter().flat_map(|c| &c[..3]).copied().collect() };
        for i in 0..CASES {
            let x = &inputs[i * 5..i * 5 + 5];
            let o = &out[i * 20..i * 20 + 20];
            use std::f32::consts as k;
            let expected = [k::PI, k::TAU, k::FRAC_PI_2, k::FRAC_1_PI, k::E];
            let gpu_consts = [o[0][0], o[0][1], o[0][2], o[0][3], o[1][0]];
            consts.values(&"constants", &gpu_consts, &wide(expected));
            let axis = wide([x[0][0], x[0][1], x[0][2]]);
            let angle = f64::from(x[0][3]);
            let (s, c) = angle.sin_cos();
            rot2.values(&angle, &o[2], &[c, s, -s, c]);
            let ex = [[1.0, 0.0, 0.0], [0.0, c, s], [0.0, -s, c]];
            let ey = [[c, 0.0, -s], [0.0, 1.0, 0.0], [s, 0.0, c]];
            let ez = [[c, s, 0.0], [-s, c, 0.0], [0.0, 0.0, 1.0]];
            rotx.values(&angle, &got(&o[3..6]), &flat(ex));
            roty.values(&angle, &got(&o[6..9]), &flat(ey));
            rotz.values(&angle, &got(&o[9..12]), &flat(ez));
            // The named rotations are the axis rotations about +X, +Y, +Z.
            for (axis_k, m) in [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]
                .iter()
                .zip([ex, ey, ez])
            {
                let r = rotation_axis(*axis_k, angle);
                for (a, b) in flat(r).iter().zip(flat(m)) {
                    assert!(
                        (a - b).abs() < 1e-12,
                        "CPU references disagree for {axis_k:?}"
                    );
                }
            }
            rota.values(
                &(axis, angle),
                &got(&o[12..15]),
                &flat(rotation_axis(axis, angle)),
            );
            let (hs, hc) = (angle / 2.0).sin_cos();
            let q = [axis[0] * hs, axis[1] * hs, axis[2] * hs, hc];
            qaa.values(&(axis, angle), &o[15], &q);
            let (q1, q2) = (wide(x[2]), wide(x[3]));
            qmul.values(&(q1, q2), &o[16], &quat_mul(q1, q2));
            let v = wide([x[1][0], x[1][1], x[1][2]]);
            qrot.values(&(q1, v), &o[17][..3], &quat_rotate(q1, v));
            qconj.values(&q1, &o[18], &[-q1[0], -q1[1], -q1[2], q1[3]]);
            let [xv, lo, hi, to_lo] = wide(x[4]);
            let to_hi = f64::from(x[1][3]);
            let t = (xv - lo) / (hi - lo);
            let args = (xv, lo, hi, to_lo, to_hi);
            remap.value(&args, o[19][0], to_lo + t * (to_hi - to_lo));
            remap_c.value(&args, o[19][1], to_lo + t.clamp(0.0, 1.0) * (to_hi - to_lo));
        }
    });
}

// ---------------------------------------------------------------------------------------------
// sampling

/// The Poisson disk as written in the module (each literal rounded as naga does: to f64, then
/// to f32).
fn poisson_literals() -> Vec<[f32; 2]> {
    let src = source("sampling");
    let start = src
        .find("const POISSON_DISK:")
        .expect("the POISSON_DISK constant");
    let table = &src[start..src[start..].find(");").unwrap() + start];
    table
        .lines()
        .filter_map(|l| l.trim().strip_prefix("vec2f(")?.strip_suffix("),"))
        .map(|pair| {
            let (x, y) = pair.split_once(',').unwrap();
            let parse = |s: &str| s.trim().parse::<f64>().unwrap() as f32;
            [parse(x), parse(y)]
        })
        .collect()
}

#[test]
fn the_poisson_disk_is_16_well_spread_points_in_the_unit_disk() {
    let points = poisson_literals();
    assert_eq!(points.len(), 16);
    for (i, p) in points.iter().enumerate() {
        assert!(
            p[0].hypot(p[1]) < 1.0,
            "point {i} {p:?} is outside the unit disk"
        );
        for q in &points[i + 1..] {
            let d = (p[0] - q[0]).hypot(p[1] - q[1]);
            assert!(d >= 0.43, "points {p:?} and {q:?} are {d} apart");
        }
    }
}

#[test]
fn sampling_matches_the_cpu() {
    each_gpu(|gpu| {
        let kernel = Kernel::new(
            &["sampling"],
            "let a = inputs[ii];
             let b = inputs[ii + 1u];
             let index = u32(a.w);
             outputs[oo] = vec4f(poisson_disk(index), poisson_disk_rotated(index, a.z));
             outputs[oo + 1u] = vec4f(sample_cosine_hemisphere(a.xy), cosine_hemisphere_pdf(b.w));
             outputs[oo + 2u] = vec4f(sample_cosine_hemisphere_around(b.xyz, a.xy), 0.0);",
            2,
            3,
        );
        let mut rng = Rng(6);
        let pi = std::f32::consts::PI;
        let edges_u = [
            [0.0, 0.0],
            [0.999_999_9, 0.999_999_9],
            [0.5, 0.5],
            [0.0, 0.75],
            [1e-6, 0.25],
        ];
        let edge_normals = [
            [0.0, 0.0, 1.0],
            [0.0, 0.0, -1.0],
            [1.0, 0.0, 0.0],
            [0.0, 1.0, 0.0],
            [0.0, -1.0, 0.0],
        ];
        let mut inputs = Vec::new();
        for i in 0..CASES {
            let u = edges_u
                .get(i)
                .copied()
                .unwrap_or_else(|| [rng.f32(0.0, 1.0), rng.f32(0.0, 1.0)]);
            let angle = if i < 16 { 0.0 } else { rng.f32(-pi, pi) };
            let n = edge_normals
                .get(i % 40)
                .copied()
                .unwrap_or_else(|| rng.unit());
            let cos_theta = rng.f32(-0.5, 1.0);
            inputs.push([u[0], u[1], angle, (i % 37) as f32]);
            inputs.push([n[0], n[1], n[2], cos_theta]);
        }
        let Some(out) = kernel.run_f32(gpu, &inputs) else {
            return;
        };
        let points = poisson_literals();
        let trig = tol(1e-3, 0.0);
        let mut disk = Check::new("poisson_disk", EXACT);
        let mut disk_rot = Check::new("poisson_disk_rotated", trig);
        let mut hemi = Check::new("sample_cosine_hemisphere", trig);
        let mut pdf = Check::new("cosine_hemisphere_pdf", tol(1e-6, 1e-6));
        let mut around = Check::new("sample_cosine_hemisphere_around", trig);
        for i in 0..CASES {
            let (a, b) = (inputs[2 * i], inputs[2 * i + 1]);
            let o = &out[3 * i..3 * i + 3];
            let index = a[3] as usize;
            let p = points[index % 16];
            disk.values(&index, &o[0][..2], &wide(p));
            let (s, c) = f64::from(a[2]).sin_cos();
            let [px, py] = wide(p);
            disk_rot.values(
                &(index, a[2]),
                &o[0][2..],
                &[c * px - s * py, s * px + c * py],
            );
            let [u0, u1] = wide([a[0], a[1]]);
            let r = u0.sqrt();
            let phi = std::f64::consts::TAU * u1;
            let local = [r * phi.cos(), r * phi.sin(), (1.0 - u0).max(0.0).sqrt()];
            hemi.values(&[a[0], a[1]], &o[1][..3], &local);
            pdf.value(
                &b[3],
                o[1][3],
                f64::from(b[3]).max(0.0) / std::f64::consts::PI,
            );
            // Around n: any orthonormal basis gives the same cos(theta) to n, and the same
            // length; the reference checks those, and the Duff et al. basis itself.
            let n = wide([b[0], b[1], b[2]]);
            let sgn = if n[2] >= 0.0 { 1.0 } else { -1.0 };
            let k = -1.0 / (sgn + n[2]);
            let m = n[0] * n[1] * k;
            let t = [1.0 + sgn * n[0] * n[0] * k, sgn * m, -sgn * n[0]];
            let bt = [m, sgn + n[1] * n[1] * k, -n[1]];
            let world: [f64; 3] =
                std::array::from_fn(|j| local[0] * t[j] + local[1] * bt[j] + local[2] * n[j]);
            around.values(&(n, [a[0], a[1]]), &o[2][..3], &world);
            let dot: f32 = (0..3).map(|j| o[2][j] * b[j]).sum();
            assert!(
                dot >= -1e-3,
                "sample_cosine_hemisphere_around({n:?}) below the surface"
            );
            let len = o[2][..3].iter().map(|x| x * x).sum::<f32>().sqrt();
            assert!(
                (len - 1.0).abs() < 1e-3,
                "sample_cosine_hemisphere_around: length {len}"
            );
        }
    });
}

/// 4×4 RGBA8 texels of the bicubic test, high contrast (0 and 255 among them).
fn bicubic_texels() -> Vec<u8> {
    let mut rng = Rng(7);
    (0..4 * 4 * 4)
        .map(|i| match i % 7 {
            0 => 0,
            3 => 255,
            _ => rng.u32() as u8,
        })
        .collect()
}

/// The CPU bicubic of `texels` (4×4, clamped at the edges) at `uv` with per-axis `weights`,
/// channels in [0, 1].
fn bicubic_cpu(texels: &[u8], uv: [f32; 2], weights: fn(f64) -> [f64; 4]) -> [f64; 4] {
    let pos = wide(uv).map(|x| x * 4.0 - 0.5);
    let base = pos.map(f64::floor);
    let wx = weights(pos[0] - base[0]);
    let wy = weights(pos[1] - base[1]);
    let texel = |x: f64, y: f64, ch: usize| {
        let (x, y) = (x.clamp(0.0, 3.0) as usize, y.clamp(0.0, 3.0) as usize);
        f64::from(texels[(y * 4 + x) * 4 + ch]) / 255.0
    };
    std::array::from_fn(|ch| {
        let mut sum = 0.0;
        for (j, wy) in wy.iter().enumerate() {
            for (i, wx) in wx.iter().enumerate() {
                let (x, y) = (base[0] - 1.0 + i as f64, base[1] - 1.0 + j as f64);
                sum += wx * wy * texel(x, y, ch);
            }
        }
        sum
    })
}

/// Catmull-Rom weights of the 4 texels around a fractional position `f`.
fn catmull_rom(f: f64) -> [f64; 4] {
    [
        0.5 * (-f + 2.0 * f * f - f * f * f),
        0.5 * (2.0 - 5.0 * f * f + 3.0 * f * f * f),
        0.5 * (f + 4.0 * f * f - 3.0 * f * f * f),
        0.5 * (-f * f + f * f * f),
    ]
}

/// Cubic B-spline weights of the 4 texels around a fractional position `f`.
fn b_spline(f: f64) -> [f64; 4] {
    let g = 1.0 - f;
    [
        g * g * g / 6.0,
        (3.0 * f * f * f - 6.0 * f * f + 4.0) / 6.0,
        (-3.0 * f * f * f + 3.0 * f * f + 3.0 * f + 1.0) / 6.0,
        f * f * f / 6.0,
    ]
}

#[test]
fn bicubic_sampling_interpolates_texel_centers_and_matches_the_cpu() {
    each_gpu(|gpu| {
        let mut kernel = Kernel::new(
            &["sampling"],
            "let uv = inputs[ii].xy;
             outputs[oo] = sample_bicubic(tex, samp, uv);
             outputs[oo + 1u] = sample_bicubic_bspline(tex, samp, uv);",
            1,
            2,
        );
        kernel.prefix.push_str(
            "\n@group(0) @binding(2) var tex: texture_2d<f32>;
             @group(0) @binding(3) var samp: sampler;",
        );
        let texels = bicubic_texels();
        let desc = TextureDesc::new(4, 4, wgpu::TextureFormat::Rgba8Unorm).label("4x4");
        let texture = gpu.texture_with_data(&desc, &texels).unwrap();
        let sampler = gpu.sampler(&SamplerDesc::default()).unwrap();
        // Texel centers first (16), then a grid through centers, edges and midpoints, then
        // random points, some outside [0, 1] (clamped to the edge).
        let mut uvs: Vec<[f32; 2]> = Vec::new();
        for y in 0..4 {
            for x in 0..4 {
                uvs.push([(x as f32 + 0.5) / 4.0, (y as f32 + 0.5) / 4.0]);
            }
        }
        for y in 0..=8 {
            for x in 0..=8 {
                uvs.push([x as f32 / 8.0, y as f32 / 8.0]);
            }
        }
        let mut rng = Rng(8);
        while uvs.len() < CASES {
            let r = if uvs.len().is_multiple_of(10) {
                0.2
            } else {
                0.0
            };
            uvs.push([rng.f32(-r, 1.0 + r), rng.f32(-r, 1.0 + r)]);
        }
        let inputs: Vec<[u32; 4]> = uvs
            .iter()
            .map(|uv| bits([uv[0], uv[1], 0.0, 0.0]))
            .collect();
        let bind = |k: &Compute| {
            k.set("tex", &texture).unwrap();
            k.set("samp", &sampler).unwrap();
        };
        let Some(out) = kernel.run(gpu, &inputs, &bind) else {
            return;
        };
        let out: Vec<[f32; 4]> = out.into_iter().map(floats).collect();
        let mut centers = Check::new("sample_bicubic at texel centers", tol(1.0 / 255.0, 0.0));
        let mut cr_grid = Check::new("sample_bicubic on the 1/8 grid", tol(2.0 / 255.0, 0.0));
        let mut bs_grid = Check::new(
            "sample_bicubic_bspline on the 1/8 grid",
            tol(2.0 / 255.0, 0.0),
        );
        let mut cr = Check::new("sample_bicubic at random points", tol(2.0 / 255.0, 0.0));
        let mut bs = Check::new(
            "sample_bicubic_bspline at random points",
            tol(2.0 / 255.0, 0.0),
        );
        for (i, uv) in uvs.iter().enumerate() {
            let (o_cr, o_bs) = (out[2 * i], out[2 * i + 1]);
            if i < 16 {
                let texel: Vec<f64> = texels[i * 4..i * 4 + 4]
                    .iter()
                    .map(|&t| f64::from(t) / 255.0)
                    .collect();
                centers.values(uv, &o_cr, &texel);
            }
            let (cr, bs) = if i < 16 + 81 {
                (&mut cr_grid, &mut bs_grid)
            } else {
                (&mut cr, &mut bs)
            };
            cr.values(uv, &o_cr, &bicubic_cpu(&texels, *uv, catmull_rom));
            bs.values(uv, &o_bs, &bicubic_cpu(&texels, *uv, b_spline));
        }
    });
}

// ---------------------------------------------------------------------------------------------
// lighting (f64 references)

fn dot3(a: [f64; 3], b: [f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn ggx_d(n_dot_h: f64, alpha: f64) -> f64 {
    let a2 = alpha * alpha;
    let d = n_dot_h * n_dot_h * (a2 - 1.0) + 1.0;
    a2 / (std::f64::consts::PI * d * d)
}

/// Smith's G2, height-correlated, from the Λ functions (Heitz 2014, eq. 99).
fn smith_g2(n_dot_v: f64, n_dot_l: f64, alpha: f64) -> f64 {
    let lambda = |c: f64| {
        let tan2 = (1.0 - c * c) / (c * c);
        (-1.0 + (1.0 + alpha * alpha * tan2).sqrt()) / 2.0
    };
    1.0 / (1.0 + lambda(n_dot_v) + lambda(n_dot_l))
}

fn schlick(cos_theta: f64, f0: [f64; 3]) -> [f64; 3] {
    let m = (1.0 - cos_theta).clamp(0.0, 1.0);
    f0.map(|f| f + (1.0 - f) * m.powi(5))
}

/// A unit vector at cosine `c` to the unit `n` (an arbitrary azimuth from `rng`).
fn at_cosine(rng: &mut Rng, n: [f32; 3], c: f32) -> [f32; 3] {
    let n = wide(n);
    let mut t = wide(rng.unit());
    let d = dot3(t, n);
    t = std::array::from_fn(|k| t[k] - d * n[k]);
    let len = dot3(t, t).sqrt();
    let s = (1.0 - f64::from(c).powi(2)).sqrt();
    std::array::from_fn(|k| (f64::from(c) * n[k] + s * t[k] / len) as f32)
}

#[test]
fn lighting_matches_the_cpu() {
    each_gpu(|gpu| {
        let kernel = Kernel::new(
            &["lighting"],
            "let a = inputs[ii];
             let b = inputs[ii + 1u];
             let c = inputs[ii + 2u];
             let d = inputs[ii + 3u];
             let e = inputs[ii + 4u];
             let n = a.xyz;
             let l = b.xyz;
             let v = c.xyz;
             let alpha = a.w;
             outputs[oo] = vec4f(lambert(n, l), blinn_phong(n, l, v, b.w),
                                 ggx_distribution(d.w, e.w),
                                 smith_ggx_correlated(e.x, e.y, e.w));
             outputs[oo + 1u] = vec4f(smith_ggx_visibility(e.x, e.y, e.w), 0.0, 0.0, 0.0);
             outputs[oo + 2u] = vec4f(lambert_brdf(d.xyz), 0.0);
             outputs[oo + 3u] = vec4f(fresnel_schlick(e.z, d.xyz), 0.0);
             outputs[oo + 4u] = vec4f(cook_torrance_ggx(n, v, l, alpha, d.xyz), 0.0);",
            5,
            5,
        );
        let mut rng = Rng(9);
        let grazing = [1e-3, 2e-3, 0.01, 0.05];
        let mut inputs = Vec::new();
        for i in 0..CASES {
            let n = rng.unit();
            // Light and view: in the upper hemisphere mostly, some grazing, some below.
            let mut towards = |k: usize| match (i + k) % 8 {
                0 => at_cosine(&mut rng, n, grazing[(i / 8) % 4]),
                1 => at_cosine(&mut rng, n, -rng_f(0.01, 1.0, i)),
                _ => at_cosine(&mut rng, n, rng_f(0.01, 1.0, i + k * 7)),
            };
            let l = towards(0);
            let v = towards(3);
            let alpha = rng.f32(0.05, 1.0);
            let shininess = [1.0, 8.0, 32.0, 256.0][i % 4];
            let f0 = [rng.f32(0.02, 1.0), rng.f32(0.02, 1.0), rng.f32(0.02, 1.0)];
            // Direct inputs of D, G2, V: edge values (normal incidence, grazing, small alpha)
            // for half of the cases, random values for the other half.
            let edge = i.is_multiple_of(2);
            let pick =
                |edges: [f32; 4], k: usize, random: f32| if edge { edges[k % 4] } else { random };
            let n_dot_h = pick([1.0, 0.999, 0.99, 0.0], i / 2, rng.f32(0.0, 1.0));
            let n_dot_v = pick([1e-4, 1e-3, 0.5, 1.0], i / 8, rng.f32(1e-4, 1.0));
            let n_dot_l = pick([1.0, 1e-4, 0.01, 0.3], i / 32, rng.f32(1e-4, 1.0));
            let cos_theta = rng.f32(-0.1, 1.1);
            let width = pick([0.01, 0.05, 0.5, 1.0], i / 128 + i / 2, rng.f32(0.01, 1.0));
            inputs.push([n[0], n[1], n[2], alpha]);
            inputs.push([l[0], l[1], l[2], shininess]);
            inputs.push([v[0], v[1], v[2], 0.0]);
            inputs.push([f0[0], f0[1], f0[2], n_dot_h]);
            inputs.push([n_dot_v, n_dot_l, cos_theta, width]);
        }
        let Some(out) = kernel.run_f32(gpu, &inputs) else {
            return;
        };
        let mut lambert = Check::new("lambert", tol(1e-6, 1e-6));
        let mut lambert_brdf = Check::new("lambert_brdf", tol(1e-6, 1e-6));
        let mut blinn = Check::new("blinn_phong", tol(1e-6, 1e-3));
        let mut ggx = Check::new("ggx_distribution", tol(1e-6, 1e-3));
        let mut g2 = Check::new("smith_ggx_correlated", tol(1e-6, 1e-3));
        let mut vis = Check::new("smith_ggx_visibility", tol(1e-6, 1e-3));
        let mut fresnel = Check::new("fresnel_schlick", tol(1e-5, 1e-5));
        let mut cook = Check::new("cook_torrance_ggx", tol(1e-5, 1e-3));
        for i in 0..CASES {
            let x = &inputs[i * 5..i * 5 + 5];
            let o = &out[i * 5..i * 5 + 5];
            let n = wide([x[0][0], x[0][1], x[0][2]]);
            let l = wide([x[1][0], x[1][1], x[1][2]]);
            let v = wide([x[2][0], x[2][1], x[2][2]]);
            let f0 = wide([x[3][0], x[3][1], x[3][2]]);
            let alpha = f64::from(x[0][3]);
            let shininess = f64::from(x[1][3]);
            let [n_dot_v, n_dot_l, cos_theta, width] = wide(x[4]);
            let n_dot_h = f64::from(x[3][3]);
            lambert.value(&(n, l), o[0][0], dot3(n, l).max(0.0));
            let hl = {
                let h: [f64; 3] = std::array::from_fn(|k| l[k] + v[k]);
                let len = dot3(h, h).sqrt();
                h.map(|c| c / len)
            };
            let spec = if dot3(n, l) > 0.0 {
                dot3(n, hl).max(0.0).powf(shininess)
            } else {
                0.0
            };
            blinn.value(&(n, l, v, shininess), o[0][1], spec);
            ggx.value(&(n_dot_h, width), o[0][2], ggx_d(n_dot_h, width));
            let g = smith_g2(n_dot_v, n_dot_l, width);
            g2.value(&(n_dot_v, n_dot_l, width), o[0][3], g);
            vis.value(
                &(n_dot_v, n_dot_l, width),
                o[1][0],
                g / (4.0 * n_dot_v * n_dot_l),
            );
            let pi = std::f64::consts::PI;
            lambert_brdf.values(&f0, &o[2][..3], &f0.map(|a| a / pi));
            fresnel.values(&(cos_theta, f0), &o[3][..3], &schlick(cos_theta, f0));
            let brdf = if dot3(n, l) <= 0.0 || dot3(n, v) <= 0.0 {
                [0.0; 3]
            } else {
                let (nl, nv) = (dot3(n, l), dot3(n, v));
                let d = ggx_d(dot3(n, hl).max(0.0), alpha);
                let g = smith_g2(nv, nl, alpha);
                let f = schlick(dot3(v, hl).max(0.0), f0);
                f.map(|f| d * g * f / (4.0 * nl * nv))
            };
            cook.values(&(n, v, l, alpha, f0), &o[4][..3], &brdf);
        }
    });
}

/// A value in [lo, hi) picked by `i` (deterministic, no generator state).
fn rng_f(lo: f32, hi: f32, i: usize) -> f32 {
    lo + (hi - lo) * ((i * 7919 % 1000) as f32 / 1000.0)
}

// ---------------------------------------------------------------------------------------------
// fullscreen

#[test]
fn the_fullscreen_triangle_covers_the_target_with_uv_from_the_top_left() {
    each_gpu(|gpu| {
        let wgsl = format!(
            "{}
struct VsOut {{ @builtin(position) position: vec4f, @location(0) uv: vec2f }}
@vertex fn vs_main(@builtin(vertex_index) i: u32) -> VsOut {{
    return VsOut(fullscreen_position(i), fullscreen_uv(i));
}}
@fragment fn fs_main(in: VsOut) -> @location(0) vec4f {{
    return vec4f(in.uv, 0.0, 1.0);
}}",
            source("fullscreen")
        );
        let shader = gpu.shader("fullscreen", &wgsl).unwrap();
        // Back faces culled: the triangle is counter-clockwise (front-facing), as documented.
        let draw = gpu
            .draw(
                &shader,
                DrawDesc {
                    label: "fullscreen".into(),
                    vertex_count: Some(3),
                    cull_mode: Some(wgpu::Face::Back),
                    ..Default::default()
                },
            )
            .unwrap();
        let target = gpu.target(8, 8).unwrap();
        gpu.frame(|f| f.pass(&target, |p| p.draw(&draw))).unwrap();
        if gpu.is_noop() {
            return;
        }
        let image = target.read_rgba8().unwrap();
        let mut worst = 0;
        for y in 0..8 {
            for x in 0..8 {
                let px = image.pixel(x, y).unwrap();
                let expected = [x, y].map(|c| ((c as f64 + 0.5) / 8.0 * 255.0).round() as i32);
                let err = (i32::from(px[0]) - expected[0])
                    .abs()
                    .max((i32::from(px[1]) - expected[1]).abs());
                assert!(
                    px[3] == 255 && px[2] == 0 && err <= 1,
                    "fullscreen_uv at pixel ({x},{y}): GPU {px:?} vs CPU uv {expected:?}/255, \
                     alpha 255 (drawn), tolerance 1/255"
                );
                worst = worst.max(err);
            }
        }
        eprintln!("fullscreen_position, fullscreen_uv: 64 pixels drawn, max uv error {worst}/255");
    });
}
