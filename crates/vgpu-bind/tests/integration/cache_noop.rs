//! Tier 1 (wgpu noop device): cache keys, hits, misses, targeted eviction, LRU bounds, errors.
#![allow(clippy::unwrap_used, reason = "an unwrap in a test is an assertion")]

use std::num::{NonZeroU32, NonZeroU64};
use std::sync::Arc;

use crate::common::*;
use vgpu_bind::{BindEntry, BindError, BindingStore, CacheConfig, LayoutKey, ResourceKey};
use vgpu_core::{ErrorCode, GpuContext};

#[test]
fn hit_only_for_identical_layout_and_entries() {
    let (ctx, mut store, layout) = two_uniform_store();
    let a = uniform_buffer(&ctx, 1024, "a");
    let b = uniform_buffer(&ctx, 1024, "b");
    let ka = store.register_buffer(&a, "a");
    let kb = store.register_buffer(&b, "b");
    let base = [slot(0, ka, 0), slot(1, kb, 0)];

    let s0 = ctx.stats().snapshot();
    let (id, _) = store.get_or_create(layout, &base).unwrap();
    let (id_again, _) = store.get_or_create(layout, &base).unwrap();
    assert_eq!(id, id_again);
    let d = ctx.stats().snapshot() - s0;
    assert_eq!(
        (d.cache_misses, d.cache_hits, d.bind_groups_created),
        (1, 1, 1)
    );

    // Each differing component is a different key: offset, size, resource, whole-range size.
    let variants = [
        [slot(0, ka, 256), slot(1, kb, 0)],
        [
            BindEntry::buffer(0, ka, 0, NonZeroU64::new(512)),
            slot(1, kb, 0),
        ],
        [slot(0, kb, 0), slot(1, kb, 0)],
        [BindEntry::new(0, ka), slot(1, kb, 0)],
    ];
    let s1 = ctx.stats().snapshot();
    let mut ids = vec![id];
    for v in &variants {
        let (vid, _) = store.get_or_create(layout, v).unwrap();
        assert!(!ids.contains(&vid), "{v:?} must not reuse another group");
        ids.push(vid);
    }
    let d = ctx.stats().snapshot() - s1;
    assert_eq!(d.cache_hits, 0);
    assert_eq!(d.cache_misses, variants.len() as u64);
    assert_eq!(d.bind_groups_created, variants.len() as u64);
    assert_eq!(store.len(), 1 + variants.len());
    assert_eq!(store.layout_len(layout), 1 + variants.len());
}

#[test]
fn keys_are_order_insensitive() {
    let (ctx, mut store, layout) = two_uniform_store();
    let a = uniform_buffer(&ctx, 256, "a");
    let b = uniform_buffer(&ctx, 256, "b");
    let ka = store.register_buffer(&a, "a");
    let kb = store.register_buffer(&b, "b");
    let s0 = ctx.stats().snapshot();
    let (x, _) = store
        .get_or_create(layout, &[BindEntry::new(0, ka), BindEntry::new(1, kb)])
        .unwrap();
    let (y, _) = store
        .get_or_create(layout, &[BindEntry::new(1, kb), BindEntry::new(0, ka)])
        .unwrap();
    assert_eq!(x, y);
    let d = ctx.stats().snapshot() - s0;
    assert_eq!(
        (d.cache_misses, d.cache_hits, d.bind_groups_created),
        (1, 1, 1)
    );
    // Swapping the resources between bindings is a different group.
    let (z, _) = store
        .get_or_create(layout, &[BindEntry::new(1, ka), BindEntry::new(0, kb)])
        .unwrap();
    assert_ne!(x, z);
    assert_eq!(store.len(), 2);
}

#[test]
fn layouts_are_isolated() {
    let ctx = GpuContext::noop();
    let mut store = BindingStore::new(ctx.clone());
    // Two layouts with identical descriptions are still two layouts.
    let l1 = store.create_layout(&[uniform_entry(0)], "l1").unwrap();
    let l2 = store.create_layout(&[uniform_entry(0)], "l2").unwrap();
    assert_ne!(l1, l2);
    let buf = uniform_buffer(&ctx, 256, "u");
    let k = store.register_buffer(&buf, "u");
    let s0 = ctx.stats().snapshot();
    let (g1, _) = store.get_or_create(l1, &[BindEntry::new(0, k)]).unwrap();
    let (g2, _) = store.get_or_create(l2, &[BindEntry::new(0, k)]).unwrap();
    assert_ne!(g1, g2);
    let d = ctx.stats().snapshot() - s0;
    assert_eq!(
        (d.cache_misses, d.cache_hits, d.bind_groups_created),
        (2, 0, 2)
    );
    assert_eq!((store.layout_len(l1), store.layout_len(l2)), (1, 1));

    // Destroying one layout evicts only its groups; its key turns stale.
    let s1 = ctx.stats().snapshot();
    assert_eq!(store.destroy_layout(l1), 1);
    assert_eq!(store.destroy_layout(l1), 0);
    let d = ctx.stats().snapshot() - s1;
    assert_eq!((d.cache_evictions, d.cache_eviction_visits), (1, 1));
    assert_eq!(
        (store.layout_len(l1), store.layout_len(l2), store.len()),
        (0, 1, 1)
    );
    let err = store
        .get_or_create(l1, &[BindEntry::new(0, k)])
        .unwrap_err();
    assert_eq!(err.code(), "VGPU-BIND-STALE-LAYOUT");
    assert!(err.to_string().contains("\"l1\""), "{err}");
    let (g2_again, _) = store.get_or_create(l2, &[BindEntry::new(0, k)]).unwrap();
    assert_eq!(g2, g2_again);
    // The index no longer references l1's group: only l2's group depends on the buffer.
    assert_eq!(store.cache().dependents(k), 1);
}

#[test]
fn a_b_a_reuses_a() {
    let (ctx, mut store, layout) = two_uniform_store();
    let page = uniform_buffer(&ctx, 512, "page");
    let obj = uniform_buffer(&ctx, 256, "obj");
    let kp = store.register_buffer(&page, "page");
    let ko = store.register_buffer(&obj, "obj");
    let a = [slot(0, kp, 0), BindEntry::new(1, ko)];
    let b = [slot(0, kp, 256), BindEntry::new(1, ko)];
    let s0 = ctx.stats().snapshot();
    let (ia, _) = store.get_or_create(layout, &a).unwrap();
    let (ib, _) = store.get_or_create(layout, &b).unwrap();
    let (ia2, _) = store.get_or_create(layout, &a).unwrap();
    let (ib2, _) = store.get_or_create(layout, &b).unwrap();
    assert_eq!((ia, ib), (ia2, ib2));
    assert_ne!(ia, ib);
    let d = ctx.stats().snapshot() - s0;
    assert_eq!(
        (d.cache_misses, d.cache_hits, d.bind_groups_created),
        (2, 2, 2)
    );
}

#[test]
fn destroy_evicts_exactly_dependents_and_the_key_turns_stale() {
    let (ctx, mut store, layout) = two_uniform_store();
    let (page, objects) = fill_grid(&ctx, &mut store, layout, 4, 5);
    assert_eq!(store.len(), 20);
    assert_eq!(store.cache().dependents(objects[2]), 4);
    assert_eq!(store.cache().dependents(page), 20);

    let s0 = ctx.stats().snapshot();
    assert_eq!(store.destroy(objects[2]), 4);
    let d = ctx.stats().snapshot() - s0;
    assert_eq!((d.cache_evictions, d.cache_eviction_visits), (4, 4));
    assert_eq!(store.len(), 16);
    assert_eq!(store.cache().dependents(page), 16);
    assert!(!store.registry().contains(objects[2]));
    // Destroying again is a no-op.
    assert_eq!(store.destroy(objects[2]), 0);

    // The stale key never hits again, and says which resource it was.
    let s1 = ctx.stats().snapshot();
    let err = store
        .get_or_create(layout, &[slot(0, page, 0), BindEntry::new(1, objects[2])])
        .unwrap_err();
    assert_eq!(err.code(), "VGPU-BIND-STALE-RESOURCE");
    let msg = err.to_string();
    assert!(msg.starts_with("VGPU-BIND-STALE-RESOURCE"), "{msg}");
    assert!(
        msg.contains("\"object 2\"") && msg.contains("binding 1"),
        "{msg}"
    );
    let d = ctx.stats().snapshot() - s1;
    assert_eq!((d.cache_hits, d.bind_groups_created), (0, 0));
    assert_eq!(store.len(), 16);

    // Other objects' groups still hit.
    let s2 = ctx.stats().snapshot();
    store
        .get_or_create(layout, &[slot(0, page, 256), BindEntry::new(1, objects[3])])
        .unwrap();
    let d = ctx.stats().snapshot() - s2;
    assert_eq!((d.cache_hits, d.cache_misses), (1, 0));
}

#[test]
fn stale_key_stays_stale_after_its_slot_is_reused() {
    let ctx = GpuContext::noop();
    let mut store = BindingStore::new(ctx.clone());
    let layout = store.create_layout(&[uniform_entry(0)], "one").unwrap();
    let old = uniform_buffer(&ctx, 256, "old");
    let k_old = store.register_buffer(&old, "old");
    store
        .get_or_create(layout, &[BindEntry::new(0, k_old)])
        .unwrap();
    assert_eq!(store.destroy(k_old), 1);
    // The freed slot is reused by the next registration, with a new generation.
    let new = uniform_buffer(&ctx, 256, "new");
    let k_new = store.register_buffer(&new, "new");
    assert_ne!(k_old, k_new);
    let err = store
        .get_or_create(layout, &[BindEntry::new(0, k_old)])
        .unwrap_err();
    assert_eq!(err.code(), "VGPU-BIND-STALE-RESOURCE");
    assert!(err.to_string().contains("\"old\""), "{err}");
    // Re-registering the old buffer object gives a fresh live key.
    let k_old2 = store.register_buffer(&old, "old again");
    assert_ne!(k_old2, k_old);
    store
        .get_or_create(layout, &[BindEntry::new(0, k_old2)])
        .unwrap();
}

#[test]
fn registering_the_same_object_twice_gives_the_same_key() {
    let ctx = GpuContext::noop();
    let mut store = BindingStore::new(ctx.clone());
    let b = uniform_buffer(&ctx, 1024, "b");
    let k1 = store.register_buffer(&b, "b");
    let k2 = store.register_buffer(&b.clone(), "b twice");
    assert_eq!(k1, k2);
    let r1 = store
        .register_buffer_range(&b, 256, NonZeroU64::new(256), "r")
        .unwrap();
    let r2 = store
        .register_buffer_range(&b, 256, NonZeroU64::new(256), "r")
        .unwrap();
    assert_eq!(r1, r2);
    assert_ne!(r1, k1);
    assert_eq!(
        store.registry().buffer(r1).map(|(_, o, s)| (o, s)),
        Some((256, 256))
    );
    assert_eq!(store.registry().find_buffer(&b, 0, 1024), Some(k1));
    let s = store.register_sampler(&sampler(&ctx), "s");
    assert_eq!(store.registry().resource_count(), 3);
    assert_eq!(store.registry().label(s), Some("s"));
}

#[test]
fn lru_bound_evicts_least_recently_used() {
    let ctx = GpuContext::noop();
    let mut store = BindingStore::with_config(ctx.clone(), CacheConfig::new(3, 100));
    let layout = store.create_layout(&[uniform_entry(0)], "one").unwrap();
    let page = uniform_buffer(&ctx, 256 * 8, "page");
    let kp = store.register_buffer(&page, "page");
    let at = |i: u64| [slot(0, kp, i * 256)];

    let (a, _) = store.get_or_create(layout, &at(0)).unwrap();
    let (b, _) = store.get_or_create(layout, &at(1)).unwrap();
    let (c, _) = store.get_or_create(layout, &at(2)).unwrap();
    // Touch A: B is now the least recently used.
    assert_eq!(store.get_or_create(layout, &at(0)).unwrap().0, a);
    let s0 = ctx.stats().snapshot();
    store.get_or_create(layout, &at(3)).unwrap();
    let d = ctx.stats().snapshot() - s0;
    assert_eq!((d.cache_evictions, d.cache_eviction_visits), (1, 1));
    assert_eq!(store.len(), 3);
    assert_eq!(store.cache().dependents(kp), 3);

    let s1 = ctx.stats().snapshot();
    assert_eq!(store.get_or_create(layout, &at(0)).unwrap().0, a);
    assert_eq!(store.get_or_create(layout, &at(2)).unwrap().0, c);
    let d = ctx.stats().snapshot() - s1;
    assert_eq!((d.cache_hits, d.cache_misses), (2, 0));
    // B was evicted: a miss, a new group with a new id (ids are never reused).
    let (b2, _) = store.get_or_create(layout, &at(1)).unwrap();
    assert_ne!(b2, b);
    let d = ctx.stats().snapshot() - s1;
    assert_eq!(
        (d.cache_misses, d.bind_groups_created, d.cache_evictions),
        (1, 1, 1)
    );
    assert_eq!(store.len(), 3);
}

#[test]
fn per_layout_bound_evicts_that_layouts_lru_only() {
    let ctx = GpuContext::noop();
    let mut store = BindingStore::with_config(ctx.clone(), CacheConfig::new(100, 2));
    let l1 = store.create_layout(&[uniform_entry(0)], "l1").unwrap();
    let l2 = store.create_layout(&[uniform_entry(0)], "l2").unwrap();
    let page = uniform_buffer(&ctx, 256 * 8, "page");
    let kp = store.register_buffer(&page, "page");
    let at = |i: u64| [slot(0, kp, i * 256)];
    let (l2_old, _) = store.get_or_create(l2, &at(0)).unwrap(); // globally least recent
    let (a, _) = store.get_or_create(l1, &at(0)).unwrap();
    store.get_or_create(l1, &at(1)).unwrap();
    store.get_or_create(l1, &at(0)).unwrap(); // touch a: at(1) is l1's LRU
    let s0 = ctx.stats().snapshot();
    store.get_or_create(l1, &at(2)).unwrap();
    let d = ctx.stats().snapshot() - s0;
    assert_eq!(d.cache_evictions, 1);
    assert_eq!((store.layout_len(l1), store.layout_len(l2)), (2, 1));
    let s1 = ctx.stats().snapshot();
    assert_eq!(store.get_or_create(l2, &at(0)).unwrap().0, l2_old);
    assert_eq!(store.get_or_create(l1, &at(0)).unwrap().0, a);
    assert_eq!((ctx.stats().snapshot() - s1).cache_hits, 2);
    store.get_or_create(l1, &at(1)).unwrap();
    assert_eq!((ctx.stats().snapshot() - s1).cache_misses, 1);
}

#[test]
fn default_bounds_allow_24k_entries() {
    let c = CacheConfig::default();
    assert!(c.max_entries.get() >= 24_000);
    assert_eq!(c.max_entries.get(), CacheConfig::DEFAULT_MAX_ENTRIES);
    assert_eq!(
        c.max_entries_per_layout.get(),
        CacheConfig::DEFAULT_MAX_ENTRIES_PER_LAYOUT
    );
    assert_eq!(CacheConfig::new(0, 0).max_entries.get(), 1);
}

#[test]
fn clear_evicts_everything_and_keys_stay_valid() {
    let (ctx, mut store, layout) = two_uniform_store();
    let (page, objects) = fill_grid(&ctx, &mut store, layout, 3, 2);
    let s0 = ctx.stats().snapshot();
    assert_eq!(store.clear(), 6);
    assert!(store.is_empty());
    assert_eq!(store.cache().indexed_resources(), 0);
    assert_eq!((ctx.stats().snapshot() - s0).cache_evictions, 6);
    store
        .get_or_create(layout, &[slot(0, page, 0), BindEntry::new(1, objects[0])])
        .unwrap();
    assert_eq!(store.len(), 1);
}

/// A request the store refuses: its entries, the code of its error, and a check of what else
/// the error says.
type Refused<'a> = (
    &'a [BindEntry],
    &'static str,
    &'a dyn Fn(&BindError) -> bool,
);

/// A store with the `material` layout (a uniform buffer, a texture, a sampler at bindings 0, 1,
/// 2) and one resource of each kind: `[u, t, s]`, labelled `params`, `albedo` and `linear`.
fn material_store(ctx: &Arc<GpuContext>) -> (BindingStore, LayoutKey, [ResourceKey; 3]) {
    let mut store = BindingStore::new(ctx.clone());
    let layout = store
        .create_layout(
            &[uniform_entry(0), texture_entry(1), sampler_entry(2)],
            "material",
        )
        .unwrap();
    let u = store.register_buffer(&uniform_buffer(ctx, 256, "u"), "params");
    let t = store.register_texture_view(&texture_view(ctx), "albedo");
    let s = store.register_sampler(&sampler(ctx), "linear");
    (store, layout, [u, t, s])
}

#[test]
fn wrong_kind_is_an_error_naming_binding_and_label() {
    let ctx = GpuContext::noop();
    let (mut store, layout, [u, t, s]) = material_store(&ctx);
    let s0 = ctx.stats().snapshot();
    let ok = [
        BindEntry::new(0, u),
        BindEntry::new(1, t),
        BindEntry::new(2, s),
    ];
    store.get_or_create(layout, &ok).unwrap();

    let err = store
        .get_or_create(
            layout,
            &[
                BindEntry::new(0, u),
                BindEntry::new(1, s),
                BindEntry::new(2, s),
            ],
        )
        .unwrap_err();
    assert_eq!(err.code(), "VGPU-BIND-WRONG-KIND");
    let msg = err.to_string();
    assert!(
        msg.contains("binding 1") && msg.contains("a texture view") && msg.contains("\"linear\""),
        "{msg}"
    );
    let err = store
        .get_or_create(
            layout,
            &[
                BindEntry::new(0, t),
                BindEntry::new(1, t),
                BindEntry::new(2, s),
            ],
        )
        .unwrap_err();
    assert!(
        matches!(
            err,
            BindError::WrongKind {
                binding: 0,
                expected: "a buffer",
                ..
            }
        ),
        "{err}"
    );

    // Entries that do not match the layout, each with its code and what else its error says.
    let (new, range) = (BindEntry::new, BindEntry::buffer);
    let any = |_: &BindError| true;
    let missing_1 = |e: &BindError| matches!(e, BindError::MissingBinding { binding: 1, .. });
    let unknown_7 = |e: &BindError| matches!(e, BindError::UnknownBinding { binding: 7, .. });
    let cases: [Refused<'_>; 4] = [
        (
            &[new(0, u), range(1, t, 16, None), new(2, s)],
            "VGPU-BIND-RANGE-NOT-BUFFER",
            &any,
        ),
        (
            &[new(0, u), new(2, s)],
            "VGPU-BIND-MISSING-BINDING",
            &missing_1,
        ),
        (
            &[new(0, u), new(1, t), new(2, s), new(7, s)],
            "VGPU-BIND-UNKNOWN-BINDING",
            &unknown_7,
        ),
        (
            &[new(0, u), new(1, t), new(1, t), new(2, s)],
            "VGPU-BIND-DUPLICATE-BINDING",
            &any,
        ),
    ];
    for (entries, code, says) in cases {
        let err = store.get_or_create(layout, entries).unwrap_err();
        assert!(says(&err), "{err}");
        assert_eq!(err.code(), code);
    }

    let d = ctx.stats().snapshot() - s0;
    assert_eq!(d.bind_groups_created, 1, "failed calls create nothing");
    assert_eq!(store.len(), 1);
}

/// `err` is a `VGPU-BIND-RANGE` error whose bound is `expected` and whose request is `actual`.
#[track_caller]
fn assert_range(err: &BindError, expected: u64, actual: u64) {
    assert!(
        matches!(
            err,
            BindError::Range { expected: e, actual: a, .. } if (*e, *a) == (expected, actual)
        ),
        "{err}"
    );
}

#[test]
fn out_of_range_buffers_are_errors_with_expected_and_actual() {
    let ctx = GpuContext::noop();
    let mut store = BindingStore::new(ctx.clone());
    let layout = store.create_layout(&[uniform_entry(0)], "one").unwrap();
    let buf = uniform_buffer(&ctx, 1024, "ubo");
    let k = store.register_buffer(&buf, "ubo");
    let s0 = ctx.stats().snapshot();

    let err = store
        .get_or_create(
            layout,
            &[BindEntry::buffer(0, k, 768, NonZeroU64::new(512))],
        )
        .unwrap_err();
    assert_eq!(err.code(), "VGPU-BIND-RANGE");
    assert_range(&err, 1024, 1280);
    let msg = err.to_string();
    assert!(
        msg.contains("\"ubo\"") && msg.contains("1024") && msg.contains("1280"),
        "{msg}"
    );

    let err = store
        .get_or_create(layout, &[BindEntry::buffer(0, k, 2048, None)])
        .unwrap_err();
    assert_range(&err, 1024, 2048);
    let err = store
        .get_or_create(layout, &[BindEntry::buffer(0, k, 1024, None)])
        .unwrap_err();
    assert_range(&err, 1, 0);

    let err = store
        .get_or_create(layout, &[BindEntry::buffer(0, k, 16, NonZeroU64::new(64))])
        .unwrap_err();
    assert!(
        matches!(
            err,
            BindError::Alignment {
                expected: 256,
                actual: 16,
                ..
            }
        ),
        "{err}"
    );
    assert_eq!(err.code(), "VGPU-BIND-ALIGNMENT");

    // A registered range: offsets are relative to it and bounded by it.
    let r = store
        .register_buffer_range(&buf, 512, NonZeroU64::new(256), "ubo[512..768]")
        .unwrap();
    let err = store
        .get_or_create(layout, &[BindEntry::buffer(0, r, 0, NonZeroU64::new(512))])
        .unwrap_err();
    assert_range(&err, 256, 512);
    let err = store
        .register_buffer_range(&buf, 512, NonZeroU64::new(1024), "too long")
        .unwrap_err();
    assert_range(&err, 1024, 1536);

    assert_eq!((ctx.stats().snapshot() - s0).bind_groups_created, 0);
    // The registered range binds at its absolute offset.
    store
        .get_or_create(layout, &[BindEntry::new(0, r)])
        .unwrap();
    assert!(ctx.take_uncaptured_errors().is_empty());
}

#[test]
fn device_validation_errors_are_wrapped() {
    let ctx = GpuContext::noop();
    let mut store = BindingStore::new(ctx.clone());
    let layout = store.create_layout(&[uniform_entry(0)], "one").unwrap();
    // A buffer without UNIFORM usage: only wgpu knows it cannot back a uniform binding.
    let storage = ctx
        .create_buffer(&wgpu::BufferDescriptor {
            label: Some("storage only"),
            size: 256,
            usage: wgpu::BufferUsages::STORAGE,
            mapped_at_creation: false,
        })
        .unwrap();
    let k = store.register_buffer(&storage, "storage only");
    let s0 = ctx.stats().snapshot();
    let err = store
        .get_or_create(layout, &[BindEntry::new(0, k)])
        .unwrap_err();
    assert_eq!(err.code(), "VGPU-BIND-DEVICE");
    assert!(err.to_string().contains("VGPU-DEVICE-VALIDATION"), "{err}");
    let d = ctx.stats().snapshot() - s0;
    assert_eq!((d.bind_groups_created, d.cache_misses), (0, 1));
    assert!(store.is_empty());
    assert_eq!(store.cache().indexed_resources(), 0);

    // An invalid layout description is wrapped as well.
    let bad = wgpu::BindGroupLayoutEntry {
        count: NonZeroU32::new(0x7fff_ffff),
        ..uniform_entry(0)
    };
    let err = store.create_layout(&[bad], "bad").unwrap_err();
    assert_eq!(err.code(), "VGPU-BIND-DEVICE");
}

#[test]
fn invalidation_epoch_moves_exactly_on_destroy_and_clear() {
    let (ctx, mut store, layout) = two_uniform_store();
    let (page, objects) = fill_grid(&ctx, &mut store, layout, 2, 3);
    let e0 = store.invalidation_epoch();
    // Hits and misses leave it unchanged.
    store
        .get_or_create(layout, &[slot(0, page, 0), BindEntry::new(1, objects[0])])
        .unwrap();
    let lone = store.register_buffer(&uniform_buffer(&ctx, 256, "lone"), "lone");
    store
        .get_or_create(layout, &[slot(0, page, 0), BindEntry::new(1, lone)])
        .unwrap();
    let e1 = store.invalidation_epoch();
    assert_eq!(e0, e1);
    // Destroying a live key moves it, even with no dependents; a stale key does not.
    let other = store.register_buffer(&uniform_buffer(&ctx, 256, "unused"), "unused");
    assert_eq!(store.destroy(other), 0);
    let e2 = store.invalidation_epoch();
    assert_ne!(e2, e1);
    assert_eq!(store.destroy(other), 0);
    assert_eq!(store.invalidation_epoch(), e2);
    assert_eq!(store.destroy(objects[1]), 2);
    let e3 = store.invalidation_epoch();
    assert_ne!(e3, e2);
    // Clearing moves it.
    assert!(store.clear() > 0);
    assert_ne!(store.invalidation_epoch(), e3);
}
