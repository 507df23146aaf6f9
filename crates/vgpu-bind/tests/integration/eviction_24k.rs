//! Tier 1 (wgpu noop device): targeted eviction among 24 000 live bind groups.
#![allow(clippy::unwrap_used, reason = "an unwrap in a test is an assertion")]

use crate::common::*;
use vgpu_bind::BindEntry;
use vgpu_core::ErrorCode;

/// 240 page slots × 100 objects = 24 000 distinct groups of one layout.
const SLOTS: u64 = 240;
const OBJECTS: usize = 100;

#[test]
fn evicting_one_resource_visits_only_its_dependents() {
    let (ctx, mut store, layout) = two_uniform_store();
    let (page, objects) = fill_grid(&ctx, &mut store, layout, SLOTS, OBJECTS);
    assert_eq!(store.len(), 24_000);
    assert_eq!(store.layout_len(layout), 24_000);
    let victim = objects[37];
    let dependents = store.cache().dependents(victim);
    assert_eq!(dependents, SLOTS as usize);

    let s0 = ctx.stats().snapshot();
    let evicted = store.destroy(victim);
    let d = ctx.stats().snapshot() - s0;
    assert_eq!(evicted, dependents);
    assert_eq!(
        d.cache_eviction_visits, dependents as u64,
        "eviction must not scan the cache"
    );
    assert_eq!(d.cache_evictions, dependents as u64);
    assert_eq!(store.len(), 24_000 - dependents);
    assert_eq!(store.cache().dependents(page), 24_000 - dependents);

    // Every other group still hits; the victim's never does.
    let s1 = ctx.stats().snapshot();
    for s in 0..SLOTS {
        let other = [slot(0, page, s * 256), BindEntry::new(1, objects[36])];
        store.get_or_create(layout, &other).unwrap();
        let err = store
            .get_or_create(layout, &[slot(0, page, s * 256), BindEntry::new(1, victim)])
            .unwrap_err();
        assert_eq!(err.code(), "VGPU-BIND-STALE-RESOURCE");
    }
    let d = ctx.stats().snapshot() - s1;
    assert_eq!((d.cache_hits, d.bind_groups_created), (SLOTS, 0));
}

#[test]
fn destroying_every_resource_empties_cache_and_index() {
    let (ctx, mut store, layout) = two_uniform_store();
    let (page, objects) = fill_grid(&ctx, &mut store, layout, SLOTS, OBJECTS);
    assert_eq!(store.len(), 24_000);
    assert_eq!(store.cache().indexed_resources(), OBJECTS + 1);

    let s0 = ctx.stats().snapshot();
    for &object in &objects {
        assert_eq!(store.destroy(object), SLOTS as usize);
    }
    // Every group used the page too, but none is left to evict.
    assert_eq!(store.destroy(page), 0);
    let d = ctx.stats().snapshot() - s0;
    assert_eq!(d.cache_evictions, 24_000);
    assert_eq!(d.cache_eviction_visits, 24_000);
    assert!(store.is_empty());
    assert_eq!(store.layout_len(layout), 0);
    assert_eq!(store.cache().indexed_resources(), 0);
    assert_eq!(store.registry().resource_count(), 0);
}
