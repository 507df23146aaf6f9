//! The integration tests of vgpu-bind, in one test binary (one link, not one per file). All are
//! tier 1 (wgpu's noop device).
//!
//! `alloc_free_hits` declares this binary's global allocator: it counts only on a thread that
//! switched counting on, so the other tests (and their threads) run uncounted beside it.

mod alloc_free_hits;
mod cache_noop;
mod common;
mod eviction_24k;
mod invalidation_epoch;
mod recorded_after_eviction;
