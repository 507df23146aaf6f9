//! Pooled uniform pages with CPU shadows, and the live storage buffers of storage owners.
//!
//! A page is one `UNIFORM | COPY_DST | COPY_SRC` buffer serving one size class (a slot size, a
//! multiple of the device's offset alignment, and a content stride, the value size rounded up to
//! 16 bytes), with a compact CPU shadow: `stride` bytes per slot, not `slot_size` (a 64-byte
//! matrix in a 256-byte slot keeps 64 bytes on the CPU). The shadow is the snapshot store: a
//! slot's bytes are copied there when an operation binds them, and the slot's bit in the page's
//! dirty bitset stays set until the bytes reach the GPU (spread back to the slot size in the
//! queue's staging memory). Invariant: a slot whose dirty bit is clear holds on the GPU exactly
//! what the shadow holds for its content's length (`slot_len`; writes only happen through
//! [`Pool::write`], bits are cleared only by [`Pool::upload`] after the upload, or by
//! [`Pool::free`], after which the slot's content is treated as unknown). [`Pool::store`] puts
//! bytes in a shadow without counting them as content (length 0) until
//! [`Pool::mark_dirty`], so the invariant holds for a home slot that keeps a value before its
//! first upload.

use std::sync::Arc;

use slotmap::SlotMap;
use vgpu_core::GpuContext;

use crate::{BufferKey, PageKey, StorageKey, UniformsError};

/// Where a slot lives: page, index in the page, byte offset in the page buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SlotLoc {
    pub(crate) page: PageKey,
    pub(crate) index: u32,
    pub(crate) offset: u32,
}

/// One uniform page.
struct Page {
    buffer: wgpu::Buffer,
    /// `stride` bytes per slot, in slot order.
    shadow: Box<[u8]>,
    class: usize,
    slot_size: u32,
    /// Shadow bytes per slot: the most a slot of the page holds (a multiple of 16, at most
    /// `slot_size`).
    stride: u32,
    /// Free slot indices; popped from the end (lowest index first on a fresh page).
    free: Vec<u32>,
    /// Bytes of content each slot holds (for trimming the last slot of a dirty run; 0 for bytes
    /// only stored, see [`Pool::store`]).
    slot_len: Box<[u32]>,
    /// One bit per slot: shadow bytes not yet uploaded.
    dirty: Box<[u64]>,
    /// Listed in `Pool::dirty_pages` (some slot awaits upload).
    in_dirty_list: bool,
    /// Listed in its size class's `open_pages` (some slot is free).
    in_open_list: bool,
    /// Listed in `Pool::empty_pages` (no slot in use).
    in_empty_list: bool,
    /// Slots in use.
    live_slots: u32,
    /// Last submission in which a slot of this page was bound and later freed (a page is never
    /// released by the submission that bound it).
    last_bound: u64,
}

impl Page {
    /// Slot `i`'s first `len` bytes of shadow (`None` past what a slot of the page holds).
    #[inline(always)]
    fn slot(&self, i: usize, len: usize) -> Option<&[u8]> {
        if len > self.stride as usize {
            return None;
        }
        let start = i * self.stride as usize;
        self.shadow.get(start..start + len)
    }

    /// Whether slot `i` holds exactly `bytes` as content (counted in `slot_len`: what its
    /// upload carries).
    #[inline(always)]
    fn held(&self, i: usize, bytes: &[u8]) -> bool {
        self.slot_len.get(i) == Some(&(bytes.len() as u32))
            && self.slot(i, bytes.len()) == Some(bytes)
    }

    /// Copies `bytes` into slot `i`'s shadow as its content; `false`, with nothing done, when
    /// they are longer than what a slot of the page holds (the engine allocates slots by size:
    /// never), or, with `unless_held`, when the slot holds them already. One slice for the
    /// compare and the copy (a changed value's path at every finish).
    #[inline(always)]
    fn set_content(&mut self, i: usize, bytes: &[u8], unless_held: bool) -> bool {
        let start = i * self.stride as usize;
        if bytes.len() > self.stride as usize {
            return false;
        }
        let (Some(shadow), Some(len)) = (
            self.shadow.get_mut(start..start + bytes.len()),
            self.slot_len.get_mut(i),
        ) else {
            return false;
        };
        if unless_held && *len as usize == bytes.len() && *shadow == *bytes {
            return false;
        }
        shadow.copy_from_slice(bytes);
        *len = bytes.len() as u32;
        true
    }

    /// Marks slot `i` dirty and lists the page (its key `key`) in `dirty_pages` once.
    #[inline(always)]
    fn set_dirty(&mut self, i: usize, key: PageKey, dirty_pages: &mut Vec<PageKey>) {
        if let Some(word) = self.dirty.get_mut(i / 64) {
            *word |= 1u64 << (i % 64);
        }
        if !self.in_dirty_list {
            self.in_dirty_list = true;
            dirty_pages.push(key);
        }
    }
}

/// The pages of one size class: a slot size and a shadow stride.
struct SizeClass {
    slot_size: u32,
    stride: u32,
    /// Pages of this class with at least one free slot (may hold stale keys, checked on use).
    open_pages: Vec<PageKey>,
}

/// Pages, size classes, storage buffers and the per-submission dirty lists.
pub(crate) struct Pool {
    ctx: Arc<GpuContext>,
    pages: SlotMap<PageKey, Page>,
    classes: Vec<SizeClass>,
    storage: SlotMap<StorageKey, wgpu::Buffer>,
    dirty_pages: Vec<PageKey>,
    empty_pages: Vec<PageKey>,
    released: Vec<BufferKey>,
    /// Scratch for storage uploads whose size is not a multiple of 4: the bytes, zero-padded.
    padded: Vec<u8>,
    page_size: u64,
    alignment: u32,
    max_buffer_size: u64,
    live_slots: usize,
}

const COPY_ALIGN: u32 = wgpu::COPY_BUFFER_ALIGNMENT as u32;

#[inline]
pub(crate) fn round_up(value: u64, align: u64) -> u64 {
    value.div_ceil(align) * align
}

impl Pool {
    pub(crate) fn new(ctx: Arc<GpuContext>, page_size: u64) -> Self {
        let limits = ctx.limits();
        let alignment = limits.min_uniform_buffer_offset_alignment.max(COPY_ALIGN);
        Pool {
            ctx,
            pages: SlotMap::with_key(),
            classes: Vec::new(),
            storage: SlotMap::with_key(),
            dirty_pages: Vec::new(),
            empty_pages: Vec::new(),
            released: Vec::new(),
            padded: Vec::new(),
            page_size,
            alignment,
            max_buffer_size: limits.max_buffer_size,
            live_slots: 0,
        }
    }

    pub(crate) fn ctx(&self) -> &Arc<GpuContext> {
        &self.ctx
    }

    pub(crate) fn alignment(&self) -> u32 {
        self.alignment
    }

    pub(crate) fn slot_size_for(&self, len: usize) -> u32 {
        round_up(len as u64, u64::from(self.alignment)) as u32
    }

    /// Shadow bytes per slot for values of `len` bytes: `len` rounded up to 16 (at most the slot
    /// size, which is a multiple of 16 or a whole slot).
    pub(crate) fn stride_for(&self, len: usize) -> u32 {
        let slot_size = self.slot_size_for(len);
        (round_up(len.max(1) as u64, 16) as u32).min(slot_size)
    }

    pub(crate) fn slots_per_page(&self, slot_size: u32) -> u32 {
        // Dynamic offsets are u32: a page never exceeds u32::MAX bytes.
        let page = self
            .page_size
            .min(self.max_buffer_size)
            .min(u64::from(u32::MAX));
        (page / u64::from(slot_size)).clamp(1, u64::from(u32::MAX)) as u32
    }

    pub(crate) fn page_buffer(&self, key: PageKey) -> Option<&wgpu::Buffer> {
        self.pages.get(key).map(|p| &p.buffer)
    }

    pub(crate) fn storage_buffer(&self, key: StorageKey) -> Option<&wgpu::Buffer> {
        self.storage.get(key)
    }

    pub(crate) fn page_count(&self) -> usize {
        self.pages.len()
    }

    pub(crate) fn empty_page_count(&self) -> usize {
        self.pages.values().filter(|p| p.live_slots == 0).count()
    }

    pub(crate) fn storage_count(&self) -> usize {
        self.storage.len()
    }

    pub(crate) fn live_slots(&self) -> usize {
        self.live_slots
    }

    /// `(slot size, pages)` per size class (a slot size and a stride), for bound checks.
    pub(crate) fn pages_per_class(&self) -> impl Iterator<Item = (u32, usize)> + '_ {
        self.classes.iter().enumerate().map(|(i, c)| {
            (
                c.slot_size,
                self.pages.values().filter(|p| p.class == i).count(),
            )
        })
    }

    pub(crate) fn drain_released(&mut self) -> std::vec::Drain<'_, BufferKey> {
        self.released.drain(..)
    }

    /// Takes a free slot for `len` bytes, creating a page only when every page of the size class
    /// is full. The slot's content is unknown: callers must [`write`](Self::write) it before use.
    ///
    /// A page the device refuses (over its `max_buffer_size`, out of memory) or a lost device
    /// (`VGPU-DEVICE-LOST`, checked before a page is created) fails with nothing changed: no
    /// page, no size class, no counter.
    pub(crate) fn alloc(&mut self, len: usize) -> Result<SlotLoc, UniformsError> {
        let slot_size = self.slot_size_for(len);
        let stride = self.stride_for(len);
        let found = self
            .classes
            .iter()
            .position(|c| c.slot_size == slot_size && c.stride == stride);
        if let Some(class) = found
            && let Some(loc) = self.alloc_in_open_page(class, slot_size)
        {
            return Ok(loc);
        }
        let slots = self.slots_per_page(slot_size);
        let size = u64::from(slots) * u64::from(slot_size);
        // A new page: the device is checked first (a destroyed device would hand out an invalid
        // buffer without an error).
        self.ctx.check_device("creating a uniform page")?;
        let buffer = self.ctx.create_buffer(&wgpu::BufferDescriptor {
            label: Some("vgpu uniform page"),
            size,
            // COPY_SRC: lets tests and diagnostics read back what the GPU holds.
            usage: wgpu::BufferUsages::UNIFORM
                | wgpu::BufferUsages::COPY_DST
                | wgpu::BufferUsages::COPY_SRC,
            // Zeroed and marked initialized by wgpu before any bind group sees it. A page's
            // groups bind it with dynamic offsets, for which wgpu requires the whole buffer
            // initialized: a group made over a page not yet (fully) written keeps an init
            // action for the page's whole range, and wgpu checks it under the page's lock at
            // every `set_bind_group` and every replay of a bundle, per draw (and threads
            // finishing passes at once contend for that lock).
            mapped_at_creation: true,
        })?;
        buffer.unmap();
        let class = match found {
            Some(i) => i,
            None => {
                self.classes.push(SizeClass {
                    slot_size,
                    stride,
                    open_pages: Vec::new(),
                });
                self.classes.len() - 1
            }
        };
        self.ctx.stats().pages_created.bump();
        let mut free: Vec<u32> = (0..slots).rev().collect();
        let index = free.pop().unwrap_or(0);
        let key = self.pages.insert(Page {
            buffer,
            shadow: vec![0; slots as usize * stride as usize].into_boxed_slice(),
            class,
            slot_size,
            stride,
            in_open_list: !free.is_empty(),
            free,
            slot_len: vec![0; slots as usize].into_boxed_slice(),
            dirty: vec![0; (slots as usize).div_ceil(64)].into_boxed_slice(),
            in_dirty_list: false,
            in_empty_list: false,
            live_slots: 1,
            last_bound: 0,
        });
        if self.pages[key].in_open_list {
            self.classes[class].open_pages.push(key);
        }
        self.live_slots += 1;
        Ok(SlotLoc {
            page: key,
            index,
            offset: index * slot_size,
        })
    }

    /// A free slot of an existing page of size class `class`, if one has any.
    fn alloc_in_open_page(&mut self, class: usize, slot_size: u32) -> Option<SlotLoc> {
        while let Some(&key) = self.classes[class].open_pages.last() {
            let Some(page) = self.pages.get_mut(key) else {
                self.classes[class].open_pages.pop();
                continue;
            };
            match page.free.pop() {
                Some(index) => {
                    page.live_slots += 1;
                    if page.free.is_empty() {
                        page.in_open_list = false;
                        self.classes[class].open_pages.pop();
                    }
                    self.live_slots += 1;
                    return Some(SlotLoc {
                        page: key,
                        index,
                        offset: index * slot_size,
                    });
                }
                None => {
                    page.in_open_list = false;
                    self.classes[class].open_pages.pop();
                }
            }
        }
        None
    }

    /// Returns a slot to its page. `bound_in` is the submission that bound it last if that
    /// submission is ending now (the page is then kept at least until the next end).
    pub(crate) fn free(&mut self, loc: SlotLoc, bound_in: Option<u64>) {
        let Some(page) = self.pages.get_mut(loc.page) else {
            return;
        };
        let i = loc.index as usize;
        page.dirty[i / 64] &= !(1u64 << (i % 64));
        page.slot_len[i] = 0;
        page.free.push(loc.index);
        page.live_slots -= 1;
        self.live_slots -= 1;
        if let Some(s) = bound_in {
            page.last_bound = page.last_bound.max(s);
        }
        if !page.in_open_list {
            page.in_open_list = true;
            self.classes[page.class].open_pages.push(loc.page);
        }
        if page.live_slots == 0 && !page.in_empty_list {
            page.in_empty_list = true;
            self.empty_pages.push(loc.page);
        }
    }

    /// The shadow's `len` bytes of the slot at `offset` (a slot's start) of `page`; `None` if
    /// the page is gone, `offset` is not a slot's start or `len` exceeds what a slot holds.
    pub(crate) fn shadow(&self, page: PageKey, offset: u32, len: usize) -> Option<&[u8]> {
        let page = self.pages.get(page)?;
        if !offset.is_multiple_of(page.slot_size) {
            return None;
        }
        page.slot((offset / page.slot_size) as usize, len)
    }

    /// True when the shadow at `loc` holds exactly `bytes` (a bitwise compare).
    #[inline]
    pub(crate) fn holds(&self, loc: SlotLoc, bytes: &[u8]) -> bool {
        self.pages
            .get(loc.page)
            .is_some_and(|page| page.held(loc.index as usize, bytes))
    }

    /// The shadow's `len` bytes at `loc` (an owner's latest bytes, in its home slot).
    #[inline]
    pub(crate) fn slot_bytes(&self, loc: SlotLoc, len: usize) -> Option<&[u8]> {
        self.pages.get(loc.page)?.slot(loc.index as usize, len)
    }

    /// Copies `bytes` into the shadow at `loc` as bytes the slot does not hold yet: a home slot
    /// no operation has bound keeps its owner's bytes there, not counted as the slot's content
    /// (its upload does not carry them, and [`holds`](Self::holds) and
    /// [`write_if_changed`](Self::write_if_changed) do not see them) until
    /// [`mark_dirty`](Self::mark_dirty) at its first bind.
    pub(crate) fn store(&mut self, loc: SlotLoc, bytes: &[u8]) {
        let Some(page) = self.pages.get_mut(loc.page) else {
            return;
        };
        let i = loc.index as usize;
        if page.set_content(i, bytes, false) {
            // Not content yet (see above).
            if let Some(l) = page.slot_len.get_mut(i) {
                *l = 0;
            }
        }
    }

    /// The shadow at `loc` holds `len` bytes of content, to upload: the next
    /// [`upload`](Self::upload) writes them.
    pub(crate) fn mark_dirty(&mut self, loc: SlotLoc, len: usize) {
        let Some(page) = self.pages.get_mut(loc.page) else {
            return;
        };
        let i = loc.index as usize;
        if let Some(l) = page.slot_len.get_mut(i) {
            *l = len.min(page.stride as usize) as u32;
        }
        page.set_dirty(i, loc.page, &mut self.dirty_pages);
    }

    /// [`write`](Self::write) unless the shadow at `loc` already holds `bytes` (one page
    /// lookup for both).
    pub(crate) fn write_if_changed(&mut self, loc: SlotLoc, bytes: &[u8]) {
        self.write_inner(loc, bytes, true);
    }

    /// Copies `bytes` into the shadow at `loc` and marks the slot dirty.
    pub(crate) fn write(&mut self, loc: SlotLoc, bytes: &[u8]) {
        self.write_inner(loc, bytes, false);
    }

    #[inline(always)]
    fn write_inner(&mut self, loc: SlotLoc, bytes: &[u8], unless_held: bool) {
        let Some(page) = self.pages.get_mut(loc.page) else {
            return;
        };
        let i = loc.index as usize;
        if page.set_content(i, bytes, unless_held) {
            page.set_dirty(i, loc.page, &mut self.dirty_pages);
        }
    }

    /// Uploads every dirty run of every dirty page: one `write_buffer` per contiguous run of dirty
    /// slots, the last slot trimmed to its content (rounded up to 4 bytes): straight from the
    /// shadow when its stride is the slot size, else each slot's content written at its place in
    /// the queue's staging view (the bytes between a slot's content and the next slot are left
    /// unspecified: no shader reads them, a binding's size is its value's).
    pub(crate) fn upload(&mut self) {
        for n in 0..self.dirty_pages.len() {
            let key = self.dirty_pages[n];
            let Some(page) = self.pages.get_mut(key) else {
                continue;
            };
            page.in_dirty_list = false;
            let slots = page.slot_len.len();
            let slot_size = page.slot_size as usize;
            let mut i = 0usize;
            while i < slots {
                let bits = page.dirty[i / 64] >> (i % 64);
                if bits == 0 {
                    i = (i / 64 + 1) * 64;
                    continue;
                }
                i += bits.trailing_zeros() as usize;
                let start = i;
                loop {
                    let bits = page.dirty[i / 64] >> (i % 64);
                    let ones = (!bits).trailing_zeros() as usize;
                    let ended = ones < 64 - i % 64;
                    i += ones;
                    if ended || i >= slots {
                        break;
                    }
                }
                let last = page.slot_len[i - 1] as u64;
                let from = start * slot_size;
                let to = (i - 1) * slot_size + round_up(last, u64::from(COPY_ALIGN)) as usize;
                let stride = page.stride as usize;
                if stride == slot_size {
                    self.ctx
                        .write_buffer(&page.buffer, from as u64, &page.shadow[from..to]);
                    continue;
                }
                let (shadow, slot_len) = (&page.shadow, &page.slot_len);
                self.ctx
                    .write_buffer_with(&page.buffer, from as u64, to - from, |view| {
                        for (n, slot) in (start..i).enumerate() {
                            let len = (slot_len[slot] as usize)
                                .next_multiple_of(COPY_ALIGN as usize)
                                .min(stride);
                            let at = n * slot_size;
                            view.slice(at..at + len)
                                .copy_from_slice(&shadow[slot * stride..slot * stride + len]);
                        }
                    });
            }
            page.dirty.fill(0);
        }
        self.dirty_pages.clear();
    }

    /// Creates the live buffer of a storage owner (`STORAGE | COPY_DST | COPY_SRC`, `len` rounded up to 4).
    pub(crate) fn create_storage(
        &mut self,
        label: &str,
        len: usize,
    ) -> Result<StorageKey, UniformsError> {
        self.ctx.check_device("creating a storage buffer")?;
        let buffer = self.ctx.create_buffer(&wgpu::BufferDescriptor {
            label: Some(label),
            size: round_up(len as u64, u64::from(COPY_ALIGN)),
            usage: wgpu::BufferUsages::STORAGE
                | wgpu::BufferUsages::COPY_DST
                | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        })?;
        Ok(self.storage.insert(buffer))
    }

    /// Uploads a storage owner's bytes (padded to 4 bytes through a reused scratch).
    pub(crate) fn upload_storage(&mut self, key: StorageKey, bytes: &[u8]) {
        let Some(buffer) = self.storage.get(key) else {
            return;
        };
        if bytes.len().is_multiple_of(COPY_ALIGN as usize) {
            self.ctx.write_buffer(buffer, 0, bytes);
        } else {
            self.padded.clear();
            self.padded.extend_from_slice(bytes);
            self.padded.resize(
                round_up(bytes.len() as u64, u64::from(COPY_ALIGN)) as usize,
                0,
            );
            self.ctx.write_buffer(buffer, 0, &self.padded);
        }
    }

    /// Drops a storage buffer and reports it in the released list.
    pub(crate) fn release_storage(&mut self, key: StorageKey) {
        if self.storage.remove(key).is_some() {
            self.released.push(BufferKey::Storage(key));
        }
    }

    /// Releases empty pages beyond `budget`, oldest-emptied first, never one bound by
    /// submission `ending`.
    pub(crate) fn release_idle(&mut self, budget: usize, ending: u64) {
        let pages = &mut self.pages;
        self.empty_pages.retain(|&key| match pages.get_mut(key) {
            Some(p) if p.live_slots == 0 => true,
            Some(p) => {
                p.in_empty_list = false;
                false
            }
            None => false,
        });
        let mut excess = self.empty_pages.len().saturating_sub(budget);
        let mut n = 0;
        while excess > 0 && n < self.empty_pages.len() {
            let key = self.empty_pages[n];
            let eligible = self.pages.get(key).is_some_and(|p| p.last_bound < ending);
            if !eligible {
                n += 1;
                continue;
            }
            self.empty_pages.remove(n);
            if let Some(page) = self.pages.remove(key) {
                let open = &mut self.classes[page.class].open_pages;
                if let Some(at) = open.iter().position(|&k| k == key) {
                    open.swap_remove(at);
                }
                self.released.push(BufferKey::Page(key));
            }
            excess -= 1;
        }
    }
}
