//! Cost of packing a value through a compiled write plan (no device).
//!
//! `cargo bench -p vgpu-benches --bench pack`
//!
//! Two types: `Object { world: mat4x4<f32> }` (64 bytes, the seed's per-draw struct) and a
//! 1 KiB struct (`view`, `proj`, `array<mat4x4<f32>, 6>`, `array<Light, 16>` with vec3 padding).
//! Rows:
//! - `Value → plan.pack`: the dynamic path (validate the whole value, then write; padding
//!   zeroed). The value is built once, outside the loop.
//! - `value! + pack`: the same, building the value every time (its one `Vec` allocation).
//! - `pack_partial (1 field)`: one member of the previous bytes replaced (a struct value).
//! - `pack_member (1 field)`: the same through the member shorthand (no struct value).
//! - `Pod → plan.pack_pod`: the typed path (size check + one copy).
//! - `memcpy`: `copy_from_slice` of the same number of bytes, the floor.
//!
//! Prints ns per pack (median of several runs) and heap allocations per pack (counting
//! allocator): every row except `value! + pack` must show 0.

use std::hint::black_box;
use std::time::Instant;

use vgpu_benches::allocations;
use vgpu_core::{PackContext, Shader, Value, WritePlan, value};

const RUNS: usize = 7;

const WGSL: &str = r#"
struct Object { world: mat4x4<f32> }
struct Light { pos: vec3<f32>, intensity: f32, color: vec3<f32>, range: f32 }
struct Big {
    view: mat4x4<f32>,
    proj: mat4x4<f32>,
    bones: array<mat4x4<f32>, 6>,
    lights: array<Light, 16>,
}
@group(0) @binding(0) var<uniform> object: Object;
@group(0) @binding(1) var<uniform> big: Big;
"#;

#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct Light {
    pos: [f32; 3],
    intensity: f32,
    color: [f32; 3],
    range: f32,
}

#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct Big {
    view: [[f32; 4]; 4],
    proj: [[f32; 4]; 4],
    bones: [[[f32; 4]; 4]; 6],
    lights: [Light; 16],
}

struct Row {
    name: &'static str,
    bytes: usize,
    ns: f64,
    allocs: f64,
}

/// Median ns per iteration and allocations per iteration of `f` run `iters` times.
fn time(iters: usize, mut f: impl FnMut()) -> (f64, f64) {
    for _ in 0..iters / 10 {
        f();
    }
    let mut samples = Vec::with_capacity(RUNS);
    let a0 = allocations();
    for _ in 0..RUNS {
        let t = Instant::now();
        for _ in 0..iters {
            f();
        }
        samples.push(t.elapsed().as_nanos() as f64 / iters as f64);
    }
    let allocs = (allocations() - a0) as f64 / (RUNS * iters) as f64;
    samples.sort_by(f64::total_cmp);
    (samples[RUNS / 2], allocs)
}

fn plan(shader: &Shader, name: &str) -> std::sync::Arc<WritePlan> {
    match shader.binding(name).and_then(|b| b.plan.clone()) {
        Some(p) => p,
        None => panic!("binding {name} has no plan"),
    }
}

fn mat(seed: f32) -> [[f32; 4]; 4] {
    let mut m = [[0.0; 4]; 4];
    for (c, col) in m.iter_mut().enumerate() {
        for (r, x) in col.iter_mut().enumerate() {
            *x = seed + (c * 4 + r) as f32;
        }
    }
    m
}

fn main() {
    let shader = match Shader::new("pack-bench", WGSL) {
        Ok(s) => s,
        Err(e) => panic!("{e}"),
    };
    let object = plan(&shader, "object");
    let big = plan(&shader, "big");
    assert_eq!(object.size(), 64);
    assert_eq!(big.size(), 1024);
    let ctx = PackContext::new("bench", "object");
    let mut rows = Vec::new();

    // 64 bytes.
    let world = mat(1.0);
    let v = value! { world: world };
    let mut dst = vec![0u8; 64];
    let (ns, allocs) = time(2_000_000, || {
        let r = object.pack(black_box(&v), black_box(&mut dst), &ctx);
        black_box(r.is_ok());
    });
    rows.push(Row {
        name: "Value → plan.pack",
        bytes: 64,
        ns,
        allocs,
    });
    let (ns, allocs) = time(1_000_000, || {
        let v = value! { world: black_box(world) };
        let r = object.pack(&v, black_box(&mut dst), &ctx);
        black_box(r.is_ok());
    });
    rows.push(Row {
        name: "value! + pack",
        bytes: 64,
        ns,
        allocs,
    });
    let (ns, allocs) = time(2_000_000, || {
        let r = object.pack_pod(black_box(&world), black_box(&mut dst), &ctx);
        black_box(r.is_ok());
    });
    rows.push(Row {
        name: "Pod → plan.pack_pod",
        bytes: 64,
        ns,
        allocs,
    });
    let src = bytemuck::bytes_of(&world).to_vec();
    let (ns, allocs) = time(2_000_000, || {
        black_box(&mut dst[..]).copy_from_slice(black_box(&src[..]));
    });
    rows.push(Row {
        name: "memcpy",
        bytes: 64,
        ns,
        allocs,
    });

    // 1 KiB.
    let lights: Vec<Value> = (0..16)
        .map(|i| {
            let f = i as f32;
            value! { pos: [f, f + 1.0, f + 2.0], intensity: 1.0, color: [0.5, 0.5, f], range: 10.0 }
        })
        .collect();
    let bones: Vec<Value> = (0..6).map(|i| Value::from(mat(i as f32))).collect();
    let vb = value! { view: mat(0.5), proj: mat(0.25), bones: bones, lights: lights };
    let ctx = PackContext::new("bench", "big");
    let mut dst = vec![0u8; 1024];
    let (ns, allocs) = time(200_000, || {
        let r = big.pack(black_box(&vb), black_box(&mut dst), &ctx);
        black_box(r.is_ok());
    });
    rows.push(Row {
        name: "Value → plan.pack",
        bytes: 1024,
        ns,
        allocs,
    });
    let partial = value! { view: mat(2.0) };
    let (ns, allocs) = time(2_000_000, || {
        let r = big.pack_partial(black_box(&partial), black_box(&mut dst), &ctx);
        black_box(r.is_ok());
    });
    rows.push(Row {
        name: "pack_partial (1 field)",
        bytes: 64,
        ns,
        allocs,
    });
    let view = Value::from(mat(3.0));
    let (ns, allocs) = time(2_000_000, || {
        let r = big.pack_member(0, black_box(&view), black_box(&mut dst), &ctx);
        black_box(r.is_ok());
    });
    rows.push(Row {
        name: "pack_member (1 field)",
        bytes: 64,
        ns,
        allocs,
    });
    let pod = Big {
        view: mat(0.5),
        proj: mat(0.25),
        bones: [mat(0.0); 6],
        lights: [Light {
            pos: [1.0, 2.0, 3.0],
            intensity: 1.0,
            color: [0.5; 3],
            range: 10.0,
        }; 16],
    };
    let (ns, allocs) = time(1_000_000, || {
        let r = big.pack_pod(black_box(&pod), black_box(&mut dst), &ctx);
        black_box(r.is_ok());
    });
    rows.push(Row {
        name: "Pod → plan.pack_pod",
        bytes: 1024,
        ns,
        allocs,
    });
    let src = bytemuck::bytes_of(&pod).to_vec();
    let (ns, allocs) = time(1_000_000, || {
        black_box(&mut dst[..]).copy_from_slice(black_box(&src[..]));
    });
    rows.push(Row {
        name: "memcpy",
        bytes: 1024,
        ns,
        allocs,
    });

    println!(
        "{:<26} {:>7} {:>12} {:>13}",
        "case", "bytes", "ns/pack", "allocs/pack"
    );
    for r in &rows {
        println!(
            "{:<26} {:>7} {:>12.1} {:>13.3}",
            r.name, r.bytes, r.ns, r.allocs
        );
    }
}
