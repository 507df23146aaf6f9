//! Read-only queries: an owner's label, space, revision, bytes and binding size; the engine's
//! configuration and gauges; the buffers that slots point into.

use std::sync::Arc;

use vgpu_core::GpuContext;

use crate::pool::round_up;
use crate::{AddressSpace, BufferKey, EngineConfig, OwnerKey, PageKey, StorageKey, UniformsError};

use super::UniformEngine;
use super::owner::{latest, stale};

/// Gauges of an engine at one instant.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EngineGauges {
    /// Live owners.
    pub owners: usize,
    /// Uniform pages held (including empty ones kept for reuse).
    pub pages: usize,
    /// Pages with no live slot (kept within the idle budget, released at submission end).
    pub empty_pages: usize,
    /// Slots in use (home + extra + slots of removed owners awaiting the end of the submission).
    pub live_slots: usize,
    /// Extra slots retained by owners.
    pub retained_slots: usize,
    /// Live storage buffers.
    pub storage_buffers: usize,
}

impl UniformEngine {
    /// How many sets ([`set_bytes`](Self::set_bytes), [`update`](Self::update),
    /// [`overwrite`](Self::overwrite), [`update_sized`](Self::update_sized),
    /// [`replace_bytes`](Self::replace_bytes), [`replace_with`](Self::replace_with),
    /// [`write_range_if_changed`](Self::write_range_if_changed)) found the owner already holding
    /// the bytes given (nothing changed) since the last call; resets the count.
    /// A plain counter under the engine's `&mut`: no atomic per set.
    pub fn take_unchanged_sets(&mut self) -> u64 {
        std::mem::take(&mut self.unchanged_sets)
    }

    /// The device context.
    pub fn context(&self) -> &Arc<GpuContext> {
        self.pool.ctx()
    }

    /// The configuration in force (`retain_submissions` raised to at least 1).
    pub fn config(&self) -> &EngineConfig {
        &self.config
    }

    /// Slot alignment: the device's `min_uniform_buffer_offset_alignment` (at least 4). Every
    /// page offset is a multiple of it.
    pub fn slot_alignment(&self) -> u32 {
        self.pool.alignment()
    }

    /// Slots per page for owners of `len` bytes.
    pub fn slots_per_page(&self, len: usize) -> u32 {
        self.pool
            .slots_per_page(self.pool.slot_size_for(len.max(1)))
    }

    /// The current gauges (O(pages) for `empty_pages`; the rest are O(1)).
    pub fn gauges(&self) -> EngineGauges {
        EngineGauges {
            owners: self.owners.len(),
            pages: self.pool.page_count(),
            empty_pages: self.pool.empty_page_count(),
            live_slots: self.pool.live_slots(),
            retained_slots: self.retained_slots,
            storage_buffers: self.pool.storage_count(),
        }
    }

    /// `(slot size, pages)` for every size class seen so far (O(pages × classes); for tests and
    /// diagnostics).
    pub fn pages_per_class(&self) -> Vec<(u32, usize)> {
        self.pool.pages_per_class().collect()
    }

    /// True while `key` names a live owner.
    pub fn contains(&self, key: OwnerKey) -> bool {
        self.owners.contains_key(key)
    }

    /// The owner's label.
    pub fn label(&self, key: OwnerKey) -> Option<&str> {
        self.owners.get(key).map(|o| &*o.label)
    }

    /// The owner's address space.
    pub fn space(&self, key: OwnerKey) -> Option<AddressSpace> {
        self.owners.get(key).map(|o| o.space)
    }

    /// The owner's revision: 0 before the first set, then bumped exactly when a set changes the
    /// bytes bitwise.
    pub fn revision(&self, key: OwnerKey) -> Option<u64> {
        self.owners.get(key).map(|o| o.revision)
    }

    /// The owner's current bytes (empty before the first set).
    pub fn bytes(&self, key: OwnerKey) -> Option<&[u8]> {
        self.owners.get(key).map(|o| latest(o, &self.pool))
    }

    /// True while the owner is pinned (see [`pin`](Self::pin)).
    pub fn is_pinned(&self, key: OwnerKey) -> bool {
        self.owners.get(key).is_some_and(|o| o.pins > 0)
    }

    /// The size to bind: the owner's byte length (rounded up to 4 for storage, as wgpu requires);
    /// for a storage owner, the length of its latest set.
    pub fn binding_size(&self, key: OwnerKey) -> Result<wgpu::BufferSize, UniformsError> {
        let owner = self.owners.get(key).ok_or_else(|| stale(key))?;
        let len = match owner.space {
            AddressSpace::Uniform => u64::from(owner.len),
            AddressSpace::Storage => round_up(u64::from(owner.len), 4),
        };
        wgpu::BufferSize::new(len).ok_or_else(|| UniformsError::NeverSet {
            label: owner.label.to_string(),
            operation: "binding_size",
        })
    }

    /// A page's buffer, while the page lives.
    pub fn page_buffer(&self, key: PageKey) -> Option<&wgpu::Buffer> {
        self.pool.page_buffer(key)
    }

    /// The CPU shadow of `len` bytes at `offset` of page `page` (what the page's buffer holds
    /// there once every dirty slot is uploaded, i.e. after
    /// [`finish_submission`](Self::finish_submission)); `None` if the page was released or the
    /// range does not fit it. For tests and diagnostics: a slot's bytes are meaningful only
    /// while an operation may read it.
    pub fn shadow_bytes(&self, page: PageKey, offset: u32, len: usize) -> Option<&[u8]> {
        self.pool.shadow(page, offset, len)
    }

    /// A storage owner's buffer, while the owner (or the submission that bound it) lives.
    pub fn storage_buffer(&self, key: StorageKey) -> Option<&wgpu::Buffer> {
        self.pool.storage_buffer(key)
    }

    /// The buffer a [`SlotRef`](crate::SlotRef) points into.
    pub fn buffer(&self, key: BufferKey) -> Option<&wgpu::Buffer> {
        match key {
            BufferKey::Page(k) => self.pool.page_buffer(k),
            BufferKey::Storage(k) => self.pool.storage_buffer(k),
        }
    }
}
