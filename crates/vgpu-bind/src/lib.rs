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
//! - Every hit, miss, creation, eviction and eviction visit is counted in the context's
//!   [`vgpu_core::Stats`].
//!
//! ## Counters
//!
//! One number here says "something moved" (name — what moves it — who reads it):
//!
//! - **invalidation epoch** ([`BindingStore::invalidation_epoch`]) — every destroy of a live
//!   resource or layout key and every clear; never a capacity (LRU) eviction, a hit or a miss —
//!   a caller that memoized a group from [`get_or_create`](BindingStore::get_or_create) (vgpu's
//!   group memos), which binds it without a lookup while the epoch holds.
//!
//! Nothing else here counts these events (a clear destroys no key), and vgpu-uniforms' stamp
//! clock cannot stand in for it: group memos checked against a clock that moves with every
//! value's stamp would be looked up again whenever any value moved slot (a per-pass camera,
//! every frame).
//! A [`BindGroupId`] comes from a counter too, but names a group rather than a move: ids are
//! never reused, so two equal ids are one group.

mod cache;
mod config;
mod entry;
mod error;
mod error_codes;
mod registry;
mod resource;
mod stale_labels;
mod store;

pub use cache::BindGroupCache;
pub use config::CacheConfig;
pub use entry::{BindEntry, BindGroupId, INLINE_ENTRIES, SORT_ON_STACK};
pub use error::BindError;
pub use error_codes::ERROR_CODES;
pub use registry::{BindRegistry, LayoutKey, ResourceKey};
pub use resource::ResourceKind;
pub use store::BindingStore;
