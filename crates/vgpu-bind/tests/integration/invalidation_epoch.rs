//! Tier 1 (wgpu noop device): the invalidation epoch that memoized bind groups are checked
//! against moves on destroy and clear, never on a capacity (LRU) eviction.
#![allow(clippy::unwrap_used, reason = "an unwrap in a test is an assertion")]

use crate::common::*;
use vgpu_bind::{BindingStore, CacheConfig};
use vgpu_core::GpuContext;

/// Binds `group` in a compute pass and submits it: the validation error wgpu raises, if any
/// (a destroyed or invalid group's).
fn bind_in_a_pass(ctx: &GpuContext, group: &wgpu::BindGroup) -> Option<String> {
    let scope = ctx.device().push_error_scope(wgpu::ErrorFilter::Validation);
    let mut encoder = ctx.device().create_command_encoder(&Default::default());
    {
        let mut pass = encoder.begin_compute_pass(&Default::default());
        pass.set_bind_group(0, group, &[]);
    }
    ctx.queue().submit([encoder.finish()]);
    pollster::block_on(scope.pop()).map(|e| e.to_string())
}

/// A cache of 3 entries (2 per layout) fills up and evicts least recently used entries, overall
/// and per layout: the epoch does not move, eviction counters do, and a memoized group of an
/// evicted entry is still a live group the caller can bind. Destroying the resource those
/// evicted entries used moves it, though nothing is left to evict; so does destroying a layout.
#[test]
fn lru_eviction_leaves_the_epoch_unchanged_and_destroy_moves_it() {
    let ctx = GpuContext::noop();
    let mut store = BindingStore::with_config(ctx.clone(), CacheConfig::new(3, 2));
    let l1 = store.create_layout(&[uniform_entry(0)], "l1").unwrap();
    let l2 = store.create_layout(&[uniform_entry(0)], "l2").unwrap();
    let old_page = uniform_buffer(&ctx, 256 * 8, "old page");
    let old = store.register_buffer(&old_page, "old page");
    let page = uniform_buffer(&ctx, 256 * 8, "page");
    let kp = store.register_buffer(&page, "page");

    let epoch = store.invalidation_epoch();
    // Memoize a group on `old`, as a caller does.
    let (memo_id, memo_group) = {
        let (id, group) = store.get_or_create(l1, &[slot(0, old, 0)]).unwrap();
        (id, group.clone())
    };
    let s0 = ctx.stats().snapshot();
    // Per-layout bound (2): the third l1 group evicts l1's least recently used, the memo's.
    let mut ids = vec![
        store.get_or_create(l1, &[slot(0, kp, 0)]).unwrap().0,
        store.get_or_create(l1, &[slot(0, kp, 256)]).unwrap().0,
    ];
    assert_eq!(store.cache().dependents(old), 0);
    // Overall bound (3): more groups of l2 evict across layouts.
    for i in 0..4 {
        ids.push(store.get_or_create(l2, &[slot(0, kp, i * 256)]).unwrap().0);
    }
    let d = ctx.stats().snapshot() - s0;
    assert!(d.cache_evictions >= 3, "evictions: {}", d.cache_evictions);
    assert_eq!(d.cache_evictions, d.cache_eviction_visits);
    assert_eq!(store.len(), 3);
    assert_eq!(
        store.invalidation_epoch(),
        epoch,
        "a capacity eviction invalidated memos"
    );
    // The memo stays valid: the caller holds the group (retired groups are the store's own
    // references; recorded_after_eviction.rs records an evicted group), and its id is never
    // given to another group.
    assert!(!ids.contains(&memo_id));
    assert_eq!(bind_in_a_pass(&ctx, &memo_group), None, "the memo binds");

    // Releasing retired groups does not move it either, and the memo (now held by the caller
    // alone) still binds.
    store.release_retired();
    assert_eq!(store.invalidation_epoch(), epoch);
    assert_eq!(bind_in_a_pass(&ctx, &memo_group), None, "the memo binds");

    // Destroying the resource the memo used moves it, though nothing is left to evict.
    assert_eq!(store.cache().dependents(old), 0);
    assert_eq!(store.destroy(old), 0);
    let after_destroy = store.invalidation_epoch();
    assert_ne!(after_destroy, epoch);
    // Destroying it again (a stale key) changes nothing.
    assert_eq!(store.destroy(old), 0);
    assert_eq!(store.invalidation_epoch(), after_destroy);
    // Destroying a layout moves it.
    store.destroy_layout(l2);
    let after_layout = store.invalidation_epoch();
    assert_ne!(after_layout, after_destroy);
    assert_eq!(store.destroy_layout(l2), 0);
    assert_eq!(store.invalidation_epoch(), after_layout);
    // Clearing moves it, even an empty cache.
    store.clear();
    let after_clear = store.invalidation_epoch();
    assert_ne!(after_clear, after_layout);
    store.clear();
    assert_ne!(store.invalidation_epoch(), after_clear);
    assert_eq!(ctx.take_uncaptured_errors(), vec![]);
}

/// Over a long run of capacity evictions (a 24-entry cache cycling through 240 groups), the
/// epoch never moves.
#[test]
fn churn_through_a_small_cache_never_moves_the_epoch() {
    let ctx = GpuContext::noop();
    let mut store = BindingStore::with_config(ctx.clone(), CacheConfig::new(24, 24));
    let layout = store.create_layout(&[uniform_entry(0)], "one").unwrap();
    let page = uniform_buffer(&ctx, 256 * 240, "page");
    let kp = store.register_buffer(&page, "page");
    let epoch = store.invalidation_epoch();
    let s0 = ctx.stats().snapshot();
    for round in 0..3 {
        for i in 0..240 {
            store
                .get_or_create(layout, &[slot(0, kp, i * 256)])
                .unwrap();
        }
        assert_eq!(store.invalidation_epoch(), epoch, "round {round}");
        store.release_retired();
    }
    let d = ctx.stats().snapshot() - s0;
    assert_eq!(d.cache_evictions, 3 * 240 - 24);
    assert_eq!(store.len(), 24);
}
