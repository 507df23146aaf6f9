//! A bind group's entries and name: one entry ([`BindEntry`]), the sorted tuple the cache keys
//! a group by (`EntriesKey`), how many entries are held inline or sorted on the stack, and the
//! id a created group gets ([`BindGroupId`]).

use std::num::NonZeroU64;

use smallvec::SmallVec;

use crate::registry::ResourceKey;

/// Entries kept inline in a stored cache key; groups with more entries still work (one more heap
/// allocation per miss).
pub const INLINE_ENTRIES: usize = 4;

/// Entries a lookup can sort on the stack. A hit never allocates for entries given in binding
/// order (any count), or in any order up to this count.
pub const SORT_ON_STACK: usize = 16;

/// One entry of a bind group: a registered resource at a binding number.
///
/// `offset` and `size` apply to buffers only (relative to the registered range; `size: None`
/// means the rest of it); texture views and samplers take `offset: 0, size: None`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct BindEntry {
    /// The binding number in the layout (`@binding(N)`).
    pub binding: u32,
    /// The registered resource.
    pub resource: ResourceKey,
    /// Byte offset into the registered buffer range.
    pub offset: u64,
    /// Byte size of the bound range; `None` = to the end of the registered range.
    pub size: Option<NonZeroU64>,
}

impl BindEntry {
    /// A texture view or sampler (or a whole buffer range) at `binding`.
    pub fn new(binding: u32, resource: ResourceKey) -> Self {
        BindEntry {
            binding,
            resource,
            offset: 0,
            size: None,
        }
    }

    /// `size` bytes of a buffer at `offset` (`size: None` = to the end of the registered range).
    pub fn buffer(
        binding: u32,
        resource: ResourceKey,
        offset: u64,
        size: Option<NonZeroU64>,
    ) -> Self {
        BindEntry {
            binding,
            resource,
            offset,
            size,
        }
    }
}

/// The cache key of a group: its entries sorted by binding, inline up to [`INLINE_ENTRIES`].
pub(crate) type EntriesKey = SmallVec<[BindEntry; INLINE_ENTRIES]>;

/// A unique id of a created bind group. Ids are never reused (a counter), so two equal ids
/// mean the same `wgpu::BindGroup`: a pass can skip a `set_bind_group` of the id already bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct BindGroupId(pub(crate) NonZeroU64);

impl BindGroupId {
    /// The id as a number (≥ 1).
    pub fn get(self) -> u64 {
        self.0.get()
    }
}
