//! [`CacheConfig`]: the bounds of the bind-group cache.

use std::num::NonZeroUsize;

/// Bounds of the cache. Reaching a bound evicts the least recently used entry (of the layout,
/// or of the whole cache). Defaults: 65 536 entries overall, 32 768 per layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CacheConfig {
    /// Most live entries in the whole cache.
    pub max_entries: NonZeroUsize,
    /// Most live entries of one layout.
    pub max_entries_per_layout: NonZeroUsize,
}

impl CacheConfig {
    /// Default overall bound.
    pub const DEFAULT_MAX_ENTRIES: usize = 65_536;
    /// Default per-layout bound.
    pub const DEFAULT_MAX_ENTRIES_PER_LAYOUT: usize = 32_768;

    /// Bounds `max_entries` overall and `max_entries_per_layout` per layout (0 counts as 1).
    pub fn new(max_entries: usize, max_entries_per_layout: usize) -> Self {
        CacheConfig {
            max_entries: NonZeroUsize::new(max_entries).unwrap_or(NonZeroUsize::MIN),
            max_entries_per_layout: NonZeroUsize::new(max_entries_per_layout)
                .unwrap_or(NonZeroUsize::MIN),
        }
    }
}

impl Default for CacheConfig {
    fn default() -> Self {
        CacheConfig::new(
            Self::DEFAULT_MAX_ENTRIES,
            Self::DEFAULT_MAX_ENTRIES_PER_LAYOUT,
        )
    }
}
