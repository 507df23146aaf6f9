//! # vgpu-bind
//!
//! A resource registry and a bind-group cache keyed by generational slotmap keys (docs/design.md
//! §4).
//!
//! - [`BindingStore::register_buffer`] (and `_range`, `_texture_view`, `_sampler`,
//!   [`create_layout`](BindingStore::create_layout) / [`register_layout`](BindingStore::register_layout))
//!   give `Copy + Eq + Hash` keys ([`ResourceKey`], [`LayoutKey`]) that turn stale when the
//!   resource is destroyed and never resolve again.
//! - [`BindingStore::get_or_create`] returns the cached bind group of (layout, entries), keyed by
//!   nested `ahash` maps (layout → ahash of the entries sorted by binding → entry holding the
//!   full tuple inline in a `SmallVec`, compared on lookup). A hit
//!   allocates nothing, builds no string and runs no maintenance.
//! - [`BindingStore::destroy`] evicts exactly the groups that use a resource, through an inverted
//!   index, never a scan. The cache is bounded ([`CacheConfig`]) with O(1) least-recently-used
//!   eviction. Evicting a group never invalidates a pass, command buffer or bundle that recorded
//!   it: evicted groups are retired and dropped only by [`BindingStore::release_retired`], which
//!   the owner calls when no render bundle encoder is open (wgpu resolves a bundle encoder's
//!   groups only in `finish()`).
//! - [`BindingStore::invalidation_epoch`] moves only when a resource or layout is destroyed or
//!   the cache is cleared, never on a capacity (LRU) eviction: a caller that memoized a group
//!   keeps using it while the epoch holds.
//! - Every hit, miss, creation, eviction and eviction visit is counted in the context's
//!   [`vgpu_core::Stats`].

mod cache;
mod error;
mod error_codes;
mod registry;
mod store;

pub use cache::{
    BindEntry, BindGroupCache, BindGroupId, CacheConfig, INLINE_ENTRIES, SORT_ON_STACK,
};
pub use error::BindError;
pub use error_codes::ERROR_CODES;
pub use registry::{BindRegistry, LayoutKey, ResourceKey, ResourceKind};
pub use store::BindingStore;
