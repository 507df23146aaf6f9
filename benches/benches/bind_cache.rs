//! Cost of a bind-group cache hit with 10, 1 000 and 100 000 live entries (noop device).
//!
//! `cargo bench -p vgpu-benches --bench bind_cache`
//!
//! Each live entry is (binding 0: a 256-byte slot of a shared page buffer, binding 1: one
//! per-object buffer), like a draw's per-view + per-object groups. Two access patterns:
//! - `same key`: one group asked for again and again (a pass re-binding its camera group);
//! - `all keys`: every live group once per sweep, in order (a frame drawing every object).
//!
//! A hit is a hash of the layout key, a hash + compare of the sorted entries, and an O(1)
//! recency-list touch, so ns/hit should stay flat as the cache grows (beyond what cache-memory
//! misses cost for the larger working set of `all keys`). Prints a table; times are the median
//! of several runs.

use std::hint::black_box;
use std::num::NonZeroU64;
use std::time::Instant;

use vgpu_bind::{BindEntry, BindingStore, CacheConfig, LayoutKey};
use vgpu_core::GpuContext;

const RUNS: usize = 7;
const HITS_PER_RUN: usize = 1_000_000;

fn uniform(binding: u32) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::VERTEX_FRAGMENT,
        ty: wgpu::BindingType::Buffer {
            ty: wgpu::BufferBindingType::Uniform,
            has_dynamic_offset: false,
            min_binding_size: None,
        },
        count: None,
    }
}

fn buffer(ctx: &GpuContext, size: u64, label: &str) -> Result<wgpu::Buffer, String> {
    ctx.create_buffer(&wgpu::BufferDescriptor {
        label: Some(label),
        size,
        usage: wgpu::BufferUsages::UNIFORM,
        mapped_at_creation: false,
    })
    .map_err(|e| e.to_string())
}

struct Filled {
    store: BindingStore,
    layout: LayoutKey,
    keys: Vec<[BindEntry; 2]>,
    fill_ns_per_miss: f64,
}

/// A store holding `live` distinct groups of one layout.
fn fill(live: usize) -> Result<Filled, String> {
    let ctx = GpuContext::noop();
    let mut store = BindingStore::with_config(ctx.clone(), CacheConfig::new(live * 2, live * 2));
    let layout = store
        .create_layout(&[uniform(0), uniform(1)], "view + object")
        .map_err(|e| e.to_string())?;
    let slots = live.min(1_000);
    let objects = live.div_ceil(slots);
    let page = buffer(&ctx, slots as u64 * 256, "page")?;
    let page = store.register_buffer(&page, "page");
    let mut object_keys = Vec::with_capacity(objects);
    for i in 0..objects {
        let b = buffer(&ctx, 256, "object")?;
        object_keys.push(store.register_buffer(&b, &format!("object {i}")));
    }
    let keys: Vec<[BindEntry; 2]> = (0..live)
        .map(|i| {
            [
                BindEntry::buffer(0, page, (i % slots) as u64 * 256, NonZeroU64::new(256)),
                BindEntry::new(1, object_keys[i / slots]),
            ]
        })
        .collect();
    let start = Instant::now();
    for k in &keys {
        store.get_or_create(layout, k).map_err(|e| e.to_string())?;
    }
    let fill_ns_per_miss = start.elapsed().as_nanos() as f64 / live as f64;
    if store.len() != live {
        return Err(format!("expected {live} live entries, got {}", store.len()));
    }
    Ok(Filled {
        store,
        layout,
        keys,
        fill_ns_per_miss,
    })
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Median ns per hit over `RUNS` runs of `HITS_PER_RUN` hits, asking for `keys[i % len]`.
fn time_hits(f: &mut Filled, keys: &[[BindEntry; 2]]) -> Result<f64, String> {
    let sweeps = HITS_PER_RUN.div_ceil(keys.len());
    let hits = sweeps * keys.len();
    let before = f.store.ctx().stats().snapshot();
    let mut samples = Vec::with_capacity(RUNS);
    for _ in 0..RUNS {
        let start = Instant::now();
        let mut acc = 0u64;
        for _ in 0..sweeps {
            for k in keys {
                let (id, group) = f
                    .store
                    .get_or_create(f.layout, black_box(k))
                    .map_err(|e| e.to_string())?;
                black_box(group);
                acc = acc.wrapping_add(id.get());
            }
        }
        black_box(acc);
        samples.push(start.elapsed().as_nanos() as f64 / hits as f64);
    }
    let d = f.store.ctx().stats().snapshot() - before;
    if d.cache_misses != 0 || d.cache_hits != (hits * RUNS) as u64 {
        return Err(format!(
            "expected only hits, got {} hits and {} misses",
            d.cache_hits, d.cache_misses
        ));
    }
    Ok(median(samples))
}

fn main() -> Result<(), String> {
    println!("bind-group cache hit cost (noop device, median of {RUNS} runs)");
    println!(
        "{:>12} {:>16} {:>16} {:>16}",
        "live entries", "same key ns/hit", "all keys ns/hit", "fill ns/miss"
    );
    for live in [10usize, 1_000, 100_000] {
        let mut f = fill(live)?;
        let hot = [f.keys[live / 2]];
        let same = time_hits(&mut f, &hot)?;
        let keys = std::mem::take(&mut f.keys);
        let all = time_hits(&mut f, &keys)?;
        println!(
            "{live:>12} {same:>16.1} {all:>16.1} {:>16.0}",
            f.fill_ns_per_miss
        );
    }
    Ok(())
}
