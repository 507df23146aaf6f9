//! [`BindGroupCache`]: bind groups keyed by (layout key → sorted entries), bounded with O(1) LRU,
//! plus the inverted index (resource → entries) that makes eviction targeted.
//!
//! Protocol:
//! 1. [`lookup`](BindGroupCache::lookup) hashes the layout key, then the sorted entries slice
//!    (borrowed, never copied) with ahash, and compares the slice with the tuple stored in the
//!    entry the layout's map points at (following a hash-collision chain, nearly always of
//!    length 1). A hit moves the entry to the front of the global and the per-layout recency
//!    lists (a few pointer writes) and allocates nothing.
//! 2. On a miss the store validates and creates the group, then
//!    [`insert`](BindGroupCache::insert) first evicts the least recently used entry of the layout
//!    (if the layout is at its bound) and of the whole cache (if the cache is at its bound), then
//!    links the new entry into both lists and into the index of every resource it uses.
//! 3. Destroying a resource removes its index set and evicts exactly the entries in it;
//!    destroying a layout walks that layout's list. No operation scans the cache.
//! 4. An evicted entry's `wgpu::BindGroup` handle is *retired*, not dropped: it is kept until
//!    [`release_retired`](crate::BindingStore::release_retired). Render passes and finished
//!    bundles hold their own references, but a `wgpu::RenderBundleEncoder` only records ids and
//!    resolves them in `finish()` (gfx-rs/wgpu#8234): dropping the last handle of a group it
//!    recorded before `finish()` makes wgpu panic. Release retired groups when no bundle encoder
//!    that used this cache is still open (e.g. once per frame, after recording).

use std::num::NonZeroU64;

use ahash::{AHashMap, AHashSet};
use slotmap::SlotMap;
use smallvec::SmallVec;
use vgpu_core::Stats;

use crate::config::CacheConfig;
use crate::entry::{BindEntry, BindGroupId, EntriesKey};
use crate::registry::{LayoutKey, ResourceKey};

slotmap::new_key_type! {
    /// Key of a cache entry (internal).
    pub(crate) struct EntryKey;
}

#[derive(Clone, Copy, Debug, Default)]
struct Links {
    prev: Option<EntryKey>,
    next: Option<EntryKey>,
}

/// Head = most recently used, tail = least recently used.
#[derive(Clone, Copy, Debug, Default)]
struct Ends {
    head: Option<EntryKey>,
    tail: Option<EntryKey>,
}

#[derive(Clone, Copy, Debug)]
enum List {
    All,
    Layout,
}

#[derive(Debug)]
struct CacheEntry {
    id: BindGroupId,
    group: wgpu::BindGroup,
    layout: LayoutKey,
    key: EntriesKey,
    hash: u64,
    next_same_hash: Option<EntryKey>,
    all: Links,
    in_layout: Links,
}

impl CacheEntry {
    fn links(&mut self, list: List) -> &mut Links {
        match list {
            List::All => &mut self.all,
            List::Layout => &mut self.in_layout,
        }
    }
}

/// One layout's entries: the second level of the nested key. `map` is keyed by the ahash of the
/// sorted entries tuple and points at the first entry with that hash; entries whose tuples
/// collide on the hash are chained through `CacheEntry::next_same_hash`, and a lookup compares
/// the full tuple stored in the entry. (Keeping the tuple once, in the entry, instead of in the
/// table keeps the table at 16 bytes per entry, so it stays cache-resident at 100 000 entries.)
#[derive(Debug, Default)]
struct LayoutBucket {
    map: AHashMap<u64, EntryKey>,
    len: usize,
    ends: Ends,
}

type Entries = SlotMap<EntryKey, CacheEntry>;

#[inline]
fn hash_of(hasher: &ahash::RandomState, sorted: &[BindEntry]) -> u64 {
    hasher.hash_one(sorted)
}

/// Removes `key` (already taken out of `entries`) from its bucket's hash chain.
/// Removes `key` from its hash chain; returns how many other chain entries it stepped through.
fn unchain(
    entries: &mut Entries,
    bucket: &mut LayoutBucket,
    key: EntryKey,
    hash: u64,
    next: Option<EntryKey>,
) -> u64 {
    let Some(first) = bucket.map.get_mut(&hash) else {
        return 0;
    };
    if *first == key {
        match next {
            Some(next) => *first = next,
            None => {
                bucket.map.remove(&hash);
            }
        }
        return 0;
    }
    let mut cursor = Some(*first);
    let mut steps = 0;
    while let Some(k) = cursor {
        steps += 1;
        let Some(e) = entries.get_mut(k) else {
            return steps;
        };
        if e.next_same_hash == Some(key) {
            e.next_same_hash = next;
            return steps;
        }
        cursor = e.next_same_hash;
    }
    steps
}

fn unlink(entries: &mut Entries, ends: &mut Ends, key: EntryKey, list: List) {
    let Some(entry) = entries.get_mut(key) else {
        return;
    };
    let Links { prev, next } = std::mem::take(entry.links(list));
    match prev.and_then(|p| entries.get_mut(p)) {
        Some(p) => p.links(list).next = next,
        None => ends.head = next,
    }
    match next.and_then(|n| entries.get_mut(n)) {
        Some(n) => n.links(list).prev = prev,
        None => ends.tail = prev,
    }
}

fn push_front(entries: &mut Entries, ends: &mut Ends, key: EntryKey, list: List) {
    let old_head = ends.head;
    if let Some(entry) = entries.get_mut(key) {
        *entry.links(list) = Links {
            prev: None,
            next: old_head,
        };
    } else {
        return;
    }
    match old_head.and_then(|h| entries.get_mut(h)) {
        Some(h) => h.links(list).prev = Some(key),
        None => ends.tail = Some(key),
    }
    ends.head = Some(key);
}

/// The bounded bind-group cache. See the module docs for its protocol.
///
/// Invariants: every entry is in the global list, in its layout's list and map, and in the
/// index set of each resource it uses; the index holds no empty set; `len() ≤ max_entries`
/// and every layout holds `≤ max_entries_per_layout` entries.
#[derive(Debug)]
pub struct BindGroupCache {
    config: CacheConfig,
    entries: Entries,
    all: Ends,
    by_layout: AHashMap<LayoutKey, LayoutBucket>,
    by_resource: AHashMap<ResourceKey, AHashSet<EntryKey>>,
    retired: Vec<wgpu::BindGroup>,
    /// See [`BindGroupCache::invalidation_epoch`].
    invalidation_epoch: u64,
    hasher: ahash::RandomState,
    /// Tests set it to 0 to force every tuple onto one hash chain.
    #[cfg(test)]
    pub(crate) hash_mask: u64,
    next_id: u64,
}

impl BindGroupCache {
    pub(crate) fn new(config: CacheConfig) -> Self {
        BindGroupCache {
            config,
            entries: SlotMap::with_key(),
            all: Ends::default(),
            by_layout: AHashMap::default(),
            by_resource: AHashMap::default(),
            retired: Vec::new(),
            invalidation_epoch: 0,
            hasher: ahash::RandomState::new(),
            #[cfg(test)]
            hash_mask: u64::MAX,
            next_id: 1,
        }
    }

    /// The bounds.
    pub fn config(&self) -> CacheConfig {
        self.config
    }

    /// Live entries (bind groups held by the cache).
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when no entry is live.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Live entries of one layout.
    pub fn layout_len(&self, layout: LayoutKey) -> usize {
        self.by_layout.get(&layout).map_or(0, |b| b.len)
    }

    /// Resources that have at least one dependent entry (size of the inverted index).
    pub fn indexed_resources(&self) -> usize {
        self.by_resource.len()
    }

    /// Grows whenever a resource or layout is destroyed (every destroy of a live key, whether or
    /// not it evicted an entry: a group evicted earlier for capacity may still be memoized by a
    /// caller and use it) and whenever the cache is cleared; never on a least-recently-used
    /// eviction (capacity), a hit or a miss.
    ///
    /// While it is unchanged, every `(id, group)` that `get_or_create` returned is still a valid
    /// bind group of the same (layout, entries), with resources and a layout that are all still
    /// registered: a caller may memoize the pair and bind it without a lookup until it changes.
    /// An entry evicted for capacity does not invalidate such a memo (the caller holds the group,
    /// and ids are never reused); the next lookup of its (layout, entries) simply creates a
    /// group with a new id, which the memo does not need.
    #[inline]
    pub fn invalidation_epoch(&self) -> u64 {
        self.invalidation_epoch
    }

    /// Notes a destroy (or clear): memoized groups may use what it removed.
    pub(crate) fn invalidate(&mut self) {
        self.invalidation_epoch += 1;
    }

    /// Evicted bind groups kept alive until [`release_retired`](crate::BindingStore::release_retired).
    pub fn retired_len(&self) -> usize {
        self.retired.len()
    }

    /// Drops the retired handles (keeps the list's capacity); returns how many.
    pub(crate) fn release_retired(&mut self) -> usize {
        let n = self.retired.len();
        self.retired.clear();
        n
    }

    /// Entries that use `resource`.
    pub fn dependents(&self, resource: ResourceKey) -> usize {
        self.by_resource.get(&resource).map_or(0, |s| s.len())
    }

    /// Step 1: the entry for (`layout`, `sorted`), moved to the front of the recency lists.
    #[inline]
    pub(crate) fn lookup(&mut self, layout: LayoutKey, sorted: &[BindEntry]) -> Option<EntryKey> {
        let bucket = self.by_layout.get_mut(&layout)?;
        let hash = hash_of(&self.hasher, sorted);
        #[cfg(test)]
        let hash = hash & self.hash_mask;
        let mut cursor = bucket.map.get(&hash).copied();
        let key = loop {
            let candidate = cursor?;
            let entry = self.entries.get(candidate)?;
            if *entry.key == *sorted {
                break candidate;
            }
            cursor = entry.next_same_hash;
        };
        if bucket.ends.head != Some(key) {
            unlink(&mut self.entries, &mut bucket.ends, key, List::Layout);
            push_front(&mut self.entries, &mut bucket.ends, key, List::Layout);
        }
        if self.all.head != Some(key) {
            unlink(&mut self.entries, &mut self.all, key, List::All);
            push_front(&mut self.entries, &mut self.all, key, List::All);
        }
        Some(key)
    }

    /// The id and group of a live entry.
    #[inline]
    pub(crate) fn get(&self, key: EntryKey) -> Option<(BindGroupId, &wgpu::BindGroup)> {
        self.entries.get(key).map(|e| (e.id, &e.group))
    }

    /// Step 2: makes room under both bounds, then inserts a new entry for (`layout`, `sorted`).
    pub(crate) fn insert(
        &mut self,
        stats: &Stats,
        layout: LayoutKey,
        sorted: &[BindEntry],
        group: wgpu::BindGroup,
    ) -> EntryKey {
        let layout_tail = self
            .by_layout
            .get(&layout)
            .filter(|b| b.len >= self.config.max_entries_per_layout.get())
            .and_then(|b| b.ends.tail);
        if let Some(victim) = layout_tail {
            self.evict(stats, victim);
        }
        while self.entries.len() >= self.config.max_entries.get() {
            let Some(victim) = self.all.tail else { break };
            self.evict(stats, victim);
        }

        // NonZero: next_id starts at 1 and only grows.
        let id = BindGroupId(NonZeroU64::new(self.next_id).unwrap_or(NonZeroU64::MIN));
        self.next_id += 1;
        let hash = hash_of(&self.hasher, sorted);
        #[cfg(test)]
        let hash = hash & self.hash_mask;
        let entry = self.entries.insert(CacheEntry {
            id,
            group,
            layout,
            key: SmallVec::from_slice(sorted),
            hash,
            next_same_hash: None,
            all: Links::default(),
            in_layout: Links::default(),
        });
        let bucket = self.by_layout.entry(layout).or_default();
        let previous_first = bucket.map.insert(hash, entry);
        bucket.len += 1;
        if let Some(e) = self.entries.get_mut(entry) {
            e.next_same_hash = previous_first;
        }
        push_front(&mut self.entries, &mut bucket.ends, entry, List::Layout);
        push_front(&mut self.entries, &mut self.all, entry, List::All);
        for e in sorted {
            self.by_resource
                .entry(e.resource)
                .or_default()
                .insert(entry);
        }
        entry
    }

    /// Removes one entry from the lists, its layout map and the index (counts one eviction).
    fn evict(&mut self, stats: &Stats, key: EntryKey) {
        unlink(&mut self.entries, &mut self.all, key, List::All);
        if let Some(layout) = self.entries.get(key).map(|e| e.layout)
            && let Some(bucket) = self.by_layout.get_mut(&layout)
        {
            unlink(&mut self.entries, &mut bucket.ends, key, List::Layout);
        }
        let Some(entry) = self.entries.remove(key) else {
            return;
        };
        // The entry itself, and the chain entries stepped through to unlink it.
        stats.cache_eviction_visits.bump();
        if let Some(bucket) = self.by_layout.get_mut(&entry.layout) {
            bucket.len -= 1;
            let steps = unchain(
                &mut self.entries,
                bucket,
                key,
                entry.hash,
                entry.next_same_hash,
            );
            stats.cache_eviction_visits.add(steps);
        }
        self.retired.push(entry.group);
        for e in &entry.key {
            if let Some(set) = self.by_resource.get_mut(&e.resource) {
                set.remove(&key);
                if set.is_empty() {
                    self.by_resource.remove(&e.resource);
                }
            }
        }
        stats.cache_evictions.bump();
    }

    /// Step 3: evicts exactly the entries that use `resource`; returns how many.
    pub(crate) fn evict_resource(&mut self, stats: &Stats, resource: ResourceKey) -> usize {
        let Some(dependents) = self.by_resource.remove(&resource) else {
            return 0;
        };
        let mut evicted = 0;
        for key in dependents {
            if self.entries.contains_key(key) {
                self.evict(stats, key);
                evicted += 1;
            }
        }
        evicted
    }

    /// Step 3: evicts exactly the entries of `layout` (walking its list); returns how many.
    pub(crate) fn evict_layout(&mut self, stats: &Stats, layout: LayoutKey) -> usize {
        let Some(bucket) = self.by_layout.remove(&layout) else {
            return 0;
        };
        let mut evicted = 0;
        let mut cursor = bucket.ends.head;
        while let Some(key) = cursor {
            cursor = self.entries.get(key).and_then(|e| e.in_layout.next);
            self.evict(stats, key);
            evicted += 1;
        }
        evicted
    }

    /// Evicts every entry (each counted as visited and evicted); returns how many. Moves the
    /// invalidation epoch (always: a group evicted earlier may still be memoized).
    pub(crate) fn clear(&mut self, stats: &Stats) -> usize {
        let n = self.entries.len();
        self.invalidate();
        stats.cache_eviction_visits.add(n as u64);
        stats.cache_evictions.add(n as u64);
        self.retired
            .extend(self.entries.drain().map(|(_, entry)| entry.group));
        self.all = Ends::default();
        self.by_layout.clear();
        self.by_resource.clear();
        n
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "an unwrap in a test is an assertion")]

    use crate::{BindEntry, BindingStore};
    use vgpu_core::GpuContext;

    /// Every tuple hashes to 0: lookups must compare full tuples along the chain, and evicting
    /// the first, a middle or the last chain member must keep the others reachable.
    #[test]
    fn hash_collisions_are_resolved_by_full_comparison() {
        let ctx = GpuContext::noop();
        let mut store = BindingStore::new(ctx.clone());
        store.cache.hash_mask = 0;
        let layout = store
            .create_layout(
                &[wgpu::BindGroupLayoutEntry {
                    binding: 0,
                    visibility: wgpu::ShaderStages::VERTEX,
                    ty: wgpu::BindingType::Buffer {
                        ty: wgpu::BufferBindingType::Uniform,
                        has_dynamic_offset: false,
                        min_binding_size: None,
                    },
                    count: None,
                }],
                "one",
            )
            .unwrap();
        let keys: Vec<_> = (0..5)
            .map(|i| {
                let b = ctx
                    .create_buffer(&wgpu::BufferDescriptor {
                        label: None,
                        size: 256,
                        usage: wgpu::BufferUsages::UNIFORM,
                        mapped_at_creation: false,
                    })
                    .unwrap();
                store.register_buffer(&b, &format!("b{i}"))
            })
            .collect();
        let ids: Vec<_> = keys
            .iter()
            .map(|&k| {
                store
                    .get_or_create(layout, &[BindEntry::new(0, k)])
                    .unwrap()
                    .0
            })
            .collect();
        assert_eq!(store.cache.by_layout.get(&layout).unwrap().map.len(), 1);
        // Chain order is newest first: 4, 3, 2, 1, 0. Evict the head, a middle and the tail.
        // Visits: the evicted entry, plus the chain entries stepped through to unlink it.
        for (victim, visits) in [(4, 1), (2, 2), (0, 3)] {
            let s = ctx.stats().snapshot();
            assert_eq!(store.destroy(keys[victim]), 1);
            let d = ctx.stats().snapshot() - s;
            assert_eq!((d.cache_evictions, d.cache_eviction_visits), (1, visits));
        }
        let s0 = ctx.stats().snapshot();
        for i in [1, 3] {
            let (id, _) = store
                .get_or_create(layout, &[BindEntry::new(0, keys[i])])
                .unwrap();
            assert_eq!(id, ids[i]);
        }
        assert_eq!((ctx.stats().snapshot() - s0).cache_hits, 2);
        assert_eq!(store.len(), 2);
        assert_eq!(store.layout_len(layout), 2);
        for i in [1, 3] {
            assert_eq!(store.destroy(keys[i]), 1);
        }
        assert!(store.cache.by_layout.get(&layout).unwrap().map.is_empty());
    }
}
