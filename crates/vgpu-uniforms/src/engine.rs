//! The [`UniformEngine`]: owners, revisions, per-submission capture and upload.

use std::sync::Arc;

use slotmap::{Key as _, SlotMap};
use vgpu_core::{GpuContext, Label};

use crate::pool::{Pool, SlotLoc, round_up};
use crate::{AddressSpace, BufferKey, EngineConfig, OwnerKey, PageKey, StorageKey, UniformsError};

/// Where an operation finds an owner's bytes: a buffer and a byte offset in it (the dynamic
/// offset for a page, 0 for a storage buffer).
///
/// Invariant: valid for the submission it was resolved in; the buffer holds the bytes the owner
/// had at `resolve` time once [`UniformEngine::finish_submission`] has run (for a pinned or
/// storage owner: the latest bytes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SlotRef {
    /// The page or storage buffer.
    pub buffer: BufferKey,
    /// Byte offset in the buffer: a multiple of the device's
    /// `min_uniform_buffer_offset_alignment` for pages, 0 for storage buffers.
    pub offset: u32,
}

impl SlotRef {
    fn page(loc: SlotLoc) -> Self {
        SlotRef {
            buffer: BufferKey::Page(loc.page),
            offset: loc.offset,
        }
    }
}

/// An extra (non-home) slot retained by an owner.
#[derive(Clone, Copy, Debug)]
struct ExtraSlot {
    loc: SlotLoc,
    /// The owner revision whose bytes the slot's shadow holds (the bytes decide: revisions only
    /// short-cut the compare).
    revision: u64,
    /// Last submission that bound it.
    last_used: u64,
}

/// An owner's extra slots, boxed: most owners never have one, and the owner record (one per
/// draw value) keeps 8 bytes for them instead of a vector's 24.
#[derive(Debug, Default)]
#[allow(
    clippy::box_collection,
    reason = "8 bytes in every owner record where a vector takes 24: the box is the point"
)]
struct Extras(Option<Box<Vec<ExtraSlot>>>);

impl Extras {
    fn as_slice(&self) -> &[ExtraSlot] {
        self.0.as_deref().map_or(&[], Vec::as_slice)
    }

    fn iter(&self) -> std::slice::Iter<'_, ExtraSlot> {
        self.as_slice().iter()
    }

    fn iter_mut(&mut self) -> std::slice::IterMut<'_, ExtraSlot> {
        self.0
            .as_deref_mut()
            .map_or(&mut [][..], Vec::as_mut_slice)
            .iter_mut()
    }

    fn len(&self) -> usize {
        self.as_slice().len()
    }

    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Adds a slot; the first one makes room for `capacity`.
    fn push(&mut self, slot: ExtraSlot, capacity: usize) {
        self.0
            .get_or_insert_with(|| Box::new(Vec::with_capacity(capacity)))
            .push(slot);
    }

    fn retain(&mut self, keep: impl FnMut(&ExtraSlot) -> bool) {
        if let Some(v) = self.0.as_deref_mut() {
            v.retain(keep);
        }
    }

    /// Removes slot `at`, the last one taking its place (`None`: there is no slot `at`).
    fn swap_remove(&mut self, at: usize) -> Option<ExtraSlot> {
        let v = self.0.as_deref_mut()?;
        (at < v.len()).then(|| v.swap_remove(at))
    }
}

/// One uniform or storage owner. `repr(C)`: the fields `resolve`'s fast path reads come first
/// (64 bytes). Not aligned to cache lines: the owners of 100 000 draws pack densely (144 bytes
/// a slot instead of 256). A value set once keeps its bytes in its home slot's shadow only.
#[derive(Debug)]
#[repr(C)]
struct Owner {
    /// Bumped exactly when a set changes the bytes bitwise (0: never set).
    revision: u64,
    /// Submission in which the owner was last bound (0: never).
    bound_in: u64,
    /// The revision bound last in `bound_in` (0: the home slot counts as bound there with no
    /// revision of its own, after an unpin).
    bound_revision: u64,
    /// Revision whose bytes the home slot's shadow holds (0: none yet).
    home_revision: u64,
    /// Where `bound_revision` was bound in `bound_in`.
    bound_slot: SlotRef,
    /// Pins held (render bundles that recorded the home slot).
    pins: u32,
    /// The index of the owner's stamp in [`UniformEngine::stamps`].
    stamp_slot: u32,
    /// The persistent home slot of a uniform owner (taken at the first set, whose bytes its
    /// shadow keeps; uploaded after the first resolve or pin).
    home: Option<SlotLoc>,
    /// Names the owner in errors and its storage buffer (inline when short: no allocation).
    label: Label,
    space: AddressSpace,
    /// Queued in `writes_at_finish`: the finish uploads a storage owner's bytes, or writes a
    /// uniform owner's latest bytes to its home slot.
    write_at_finish: bool,
    /// Length of the value in bytes; 0 until the first set (which fixes a uniform owner's
    /// size; a storage owner's changes with a set of another size).
    len: u32,
    /// A CPU copy of the latest bytes: a storage owner's always; a uniform owner's from its
    /// second set on (sets compare against it, and it keeps a value changed while its home slot
    /// is bound). `None`: the home slot's shadow is the only copy (a value set once, as most
    /// of a static scene's are: one copy of its bytes, not two).
    bytes: Option<Box<[u8]>>,
    extras: Extras,
    storage: Option<StorageKey>,
}

impl Owner {
    /// The CPU copy of the latest bytes, made from the home slot's shadow the first time it is
    /// needed (the owner's second set, a pin).
    #[inline]
    fn copy(&mut self, pool: &Pool) -> &mut [u8] {
        if self.bytes.is_none() {
            self.bytes = Some(copy_of_home(self, pool));
        }
        self.bytes.as_deref_mut().unwrap_or_default()
    }

    /// The CPU copy of the latest bytes, where the caller knows there is one (empty if not).
    #[inline]
    fn cpu(&self) -> &[u8] {
        self.bytes.as_deref().unwrap_or_default()
    }
}

/// Whether `a` and `b` hold the same bytes. A value of at most 64 bytes, a whole number of 16-byte
/// words, is compared word by word with the differences folded without a branch: inlined into a
/// caller whose length is a constant (a typed value's `size_of`), a few vector instructions
/// instead of a call to `bcmp`, which counts in a set that finds its value unchanged. Other
/// lengths go to `bcmp`.
#[inline(always)]
fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    const WORD: usize = 16;
    let len = b.len();
    if a.len() != len {
        return false;
    }
    if len > 4 * WORD || !len.is_multiple_of(WORD) {
        return a == b;
    }
    let word = |s: &[u8], i: usize| {
        let mut w = [0u8; WORD];
        w.copy_from_slice(&s[i * WORD..(i + 1) * WORD]);
        u128::from_ne_bytes(w)
    };
    let mut differ = 0u128;
    for i in 0..len / WORD {
        differ |= word(a, i) ^ word(b, i);
    }
    differ == 0
}

/// The bytes of a uniform owner set once, from its home slot's shadow (empty if it has none).
#[cold]
#[inline(never)]
fn copy_of_home(owner: &Owner, pool: &Pool) -> Box<[u8]> {
    latest(owner, pool).into()
}

/// The owner's latest bytes: its CPU copy, or its home slot's shadow (empty before the first
/// set).
fn latest<'a>(owner: &'a Owner, pool: &'a Pool) -> &'a [u8] {
    match (&owner.bytes, owner.home) {
        (Some(bytes), _) => bytes,
        (None, Some(home)) => pool
            .slot_bytes(home, owner.len as usize)
            .unwrap_or_default(),
        (None, None) => &[],
    }
}

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

/// Revision-tracked owners with per-submission capture into pooled uniform pages.
///
/// Protocol, per submission (frame):
///
/// 1. [`begin_submission`](Self::begin_submission).
/// 2. Any number of [`set_bytes`](Self::set_bytes) / [`update`](Self::update) and, for each
///    recorded operation and each owner it binds, [`resolve`](Self::resolve): the operation binds
///    the returned buffer at the returned (dynamic) offset.
/// 3. [`finish_submission`](Self::finish_submission) **before** submitting the command buffers
///    recorded in step 2 (it queues the uploads; `Queue::write_buffer` lands before the next
///    submit), or [`cancel_submission`](Self::cancel_submission) if they are dropped.
/// 4. [`drain_released`](Self::drain_released): evict bind groups that use those buffers.
///
/// See the crate docs for the capture rules and the bounds on slots and pages.
pub struct UniformEngine {
    /// Owners in slots that hold the value next to its version: one bounds check and one
    /// version compare per lookup. Owners created one after another (a scene's objects) sit
    /// next to each other.
    owners: SlotMap<OwnerKey, Owner>,
    pool: Pool,
    config: EngineConfig,
    limits: SizeLimits,
    submission: u64,
    open: bool,
    /// Owners whose latest bytes the finish writes: storage owners (upload), pinned owners (live
    /// home slot), owners set while their home slot was not bound (home slot).
    writes_at_finish: Vec<OwnerKey>,
    /// Owners that hold at least one extra slot (scanned at the end of each submission).
    owners_with_extras: Vec<OwnerKey>,
    /// Slots the open submission may read that lost their owner (removal, a pin that moved the
    /// home): freed when the submission ends.
    slots_freed_at_end: Vec<SlotLoc>,
    /// Storage buffers the open submission may read that lost their owner (removal, a resize):
    /// released when the submission ends. `Some(bytes)`: bytes not uploaded yet, that the
    /// operations recorded in it read (uploaded by the finish, dropped by a cancel).
    storage_released_at_end: Vec<(StorageKey, Option<Box<[u8]>>)>,
    /// The bytes `update` packs into (reused, grows to the largest owner).
    scratch: Vec<u8>,
    /// Extra slots held by all owners.
    retained_slots: usize,
    /// Owner stamps; see [`UniformEngine::stamps`].
    stamps: Stamps,
    /// The last submission declared by [`UniformEngine::memos_in_use`].
    memos_declared_in: u64,
    /// Sets whose bytes equalled the owner's, since the last
    /// [`take_unchanged_sets`](UniformEngine::take_unchanged_sets).
    unchanged_sets: u64,
}

/// The stamp slot no owner takes (see [`UniformEngine::fixed_stamp`]) and its stamp.
const FIXED_STAMP_SLOT: u32 = 0;
const FIXED_STAMP: u64 = 1;

/// Owner stamps by stamp slot, the free stamp slots, and the next stamp to hand out.
///
/// Every live owner holds one stamp slot, a dense index given at creation (slots freed by
/// removals are reused first, so the table stays as large as the peak number of live owners,
/// plus the fixed slot 0). Stamps are never reused: a slot gets a new stamp when its owner's
/// slot may have moved, and again when the owner is removed, before the slot is reused, so a
/// memo taken under an owner never matches its successor in that slot.
#[derive(Debug)]
struct Stamps {
    /// The current stamp of each stamp slot (never shrinks).
    by_slot: Vec<u64>,
    /// Stamp slots of removed owners, reused by the next owners created.
    free: Vec<u32>,
    /// The next stamp to hand out (stamps start at 1; never reused).
    next: u64,
    /// One plus the renewals of slots not marked shared: the value clock
    /// ([`UniformEngine::value_clock`]).
    value_next: u64,
}

/// The bit a shared owner's stamps carry ([`UniformEngine::mark_shared`]): stamps count up from
/// 1 and never reach it, and they are only compared for equality.
const SHARED_STAMP: u64 = 1 << 63;

impl Stamps {
    /// A stamp slot for a new owner, with a new stamp.
    fn take_slot(&mut self) -> u32 {
        let slot = match self.free.pop() {
            Some(slot) => slot,
            None => {
                // Live owners are slotmap entries, whose count fits in a u32.
                let slot = self.by_slot.len() as u32;
                self.by_slot.push(0);
                slot
            }
        };
        self.renew(slot);
        slot
    }

    /// Gives the slot's owner a new stamp: memos taken under the old one no longer hold.
    fn renew(&mut self, slot: u32) {
        if let Some(stamp) = self.by_slot.get_mut(slot as usize) {
            let shared = *stamp & SHARED_STAMP;
            *stamp = self.next | shared;
            self.next += 1;
            if shared == 0 {
                self.value_next += 1;
            }
        }
    }

    /// Frees a removed owner's slot, after a last renewal that moves the value clock too
    /// (memos taken under the owner never match the slot's next owner, which starts unshared).
    fn release_slot(&mut self, slot: u32) {
        if let Some(stamp) = self.by_slot.get_mut(slot as usize) {
            *stamp &= !SHARED_STAMP;
        }
        self.renew(slot);
        self.free.push(slot);
    }
}

impl std::fmt::Debug for UniformEngine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("UniformEngine")
            .field("config", &self.config)
            .field("submission", &self.submission)
            .field("open", &self.open)
            .field("gauges", &self.gauges())
            .finish_non_exhaustive()
    }
}

/// `VGPU-UNIFORMS-NEVER-SET` for `operation` on `owner` (out of line: the set paths stay small).
#[cold]
#[inline(never)]
fn never_set(owner: &Owner, operation: &'static str) -> UniformsError {
    UniformsError::NeverSet {
        label: owner.label.to_string(),
        operation,
    }
}

#[cold]
fn stale(key: OwnerKey) -> UniformsError {
    UniformsError::StaleOwner {
        key: format!("{:?}", key.data()),
    }
}

impl UniformEngine {
    /// An engine on `ctx` with `config`. Allocates nothing on the device until owners are bound.
    pub fn new(ctx: Arc<GpuContext>, config: EngineConfig) -> Self {
        let limits = ctx.limits();
        let pool = Pool::new(ctx, config.page_size);
        let limits = SizeLimits::new(&limits, pool.alignment());
        UniformEngine {
            owners: SlotMap::with_key(),
            pool,
            config: EngineConfig {
                retain_submissions: config.retain_submissions.max(1),
                ..config
            },
            limits,
            submission: 0,
            open: false,
            writes_at_finish: Vec::new(),
            owners_with_extras: Vec::new(),
            slots_freed_at_end: Vec::new(),
            storage_released_at_end: Vec::new(),
            scratch: Vec::new(),
            retained_slots: 0,
            // Slot 0 is the fixed stamp slot: never given to an owner, never renewed.
            stamps: Stamps {
                by_slot: vec![FIXED_STAMP],
                free: Vec::new(),
                next: FIXED_STAMP + 1,
                value_next: 1,
            },
            memos_declared_in: 0,
            unchanged_sets: 0,
        }
    }

    /// How many sets ([`set_bytes`](Self::set_bytes), [`update`](Self::update),
    /// [`overwrite`](Self::overwrite), [`update_sized`](Self::update_sized)) found the owner
    /// already holding the bytes given (nothing changed) since the last call; resets the count.
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

    // ----- owners -------------------------------------------------------------------------------

    /// Creates an owner with no bytes yet; its first set fixes its size. `label` names it in
    /// errors.
    pub fn create_owner(&mut self, label: &str, space: AddressSpace) -> OwnerKey {
        let stamp_slot = self.stamps.take_slot();
        self.owners.insert(Owner {
            label: Label::new(label),
            space,
            bytes: None,
            len: 0,
            revision: 0,
            home: None,
            home_revision: 0,
            extras: Extras::default(),
            pins: 0,
            stamp_slot,
            storage: None,
            write_at_finish: false,
            bound_in: 0,
            bound_revision: 0,
            bound_slot: SlotRef {
                buffer: BufferKey::Page(PageKey::null()),
                offset: 0,
            },
        })
    }

    /// Removes an owner and frees its slots. Safe while a submission is open: slots (and a storage
    /// buffer) that submission bound stay reserved, and uploaded, until it ends. The key is stale
    /// at once.
    pub fn remove_owner(&mut self, key: OwnerKey) -> Result<(), UniformsError> {
        let owner = self.owners.remove(key).ok_or_else(|| stale(key))?;
        self.stamps.release_slot(owner.stamp_slot);
        let sub = self.submission_state();
        if let Some(home) = owner.home {
            // Operations of this submission may have bound the home slot (memos included), and a
            // pinned home may be read by a bundle replayed in it.
            if home_may_be_bound(&owner, sub) || (sub.open.is_some() && owner.pins > 0) {
                // Its home slot took bytes at a set, written at the finish: operations of this
                // submission read them, so they are written now.
                if owner.write_at_finish && owner.storage.is_none() {
                    self.pool.write_if_changed(home, owner.cpu());
                }
                self.slots_freed_at_end.push(home);
            } else {
                self.pool.free(home, None);
            }
        }
        for extra in owner.extras.iter() {
            // Extra slots are never memoized past their submission (the owner is restamped).
            if sub.open == Some(extra.last_used) {
                self.slots_freed_at_end.push(extra.loc);
            } else {
                self.pool.free(extra.loc, None);
            }
            self.retained_slots -= 1;
        }
        if let Some(storage) = owner.storage {
            if sub.open.is_some() {
                let pending = owner.bytes.filter(|_| owner.write_at_finish);
                self.storage_released_at_end.push((storage, pending));
            } else {
                self.pool.release_storage(storage);
            }
        }
        Ok(())
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

    // ----- set ----------------------------------------------------------------------------------

    /// Sets the owner's bytes. Returns `Ok(true)` when they changed (the revision was bumped),
    /// `Ok(false)` when they are bitwise equal to the current bytes. The first set fixes the size
    /// of a uniform owner: a later set of another size fails with `VGPU-UNIFORMS-SIZE-MISMATCH`
    /// and changes nothing. A storage owner's value replaces the whole buffer (a runtime-sized
    /// array that grew or shrank): a set of another size gives it a new storage buffer of that
    /// size, hence a new [`BufferKey`] (bind groups built on the old one must not be reused), a
    /// new revision and a new stamp, and queues the upload; the old buffer is released at once
    /// if no submission is open, else when the open one ends (operations recorded in it keep
    /// reading the bytes they were recorded with), and reported by
    /// [`drain_released`](Self::drain_released) then. Zero bytes fail with
    /// `VGPU-UNIFORMS-EMPTY` on an owner never set or a storage owner (a set uniform owner
    /// reports `VGPU-UNIFORMS-SIZE-MISMATCH`), more than the device's binding limit with
    /// `VGPU-UNIFORMS-LIMIT`; either changes nothing.
    ///
    /// Uniform owners whose home slot no operation of the open submission may have bound (none
    /// is open, or the owner was not bound in it and [`memos_in_use`](Self::memos_in_use) was not
    /// declared): the home slot takes the bytes (its shadow is written once, at the next finish,
    /// with the latest bytes, and only if it does not hold them already), so the owner's slot
    /// and stamp do not change. Otherwise only the owner's bytes change and the capture happens
    /// at [`resolve`](Self::resolve); a pinned owner's home slot is written through at the next
    /// finish. Storage owners: marks the buffer for upload at the end of the submission (live).
    pub fn set_bytes(&mut self, key: OwnerKey, bytes: &[u8]) -> Result<bool, UniformsError> {
        let sub = self.submission_state();
        let owner = self.owners.get_mut(key).ok_or_else(|| stale(key))?;
        if owner.len == 0 {
            self::first_set(
                owner,
                key,
                bytes,
                &mut self.pool,
                &mut self.stamps,
                &mut self.writes_at_finish,
                self.limits,
            )?;
            return Ok(true);
        }
        if owner.len as usize != bytes.len() {
            if owner.space == AddressSpace::Uniform {
                return Err(size_mismatch(owner, bytes.len()));
            }
            self.resize_storage(key, bytes)?;
            return Ok(true);
        }
        let changed = commit_if_changed(
            owner,
            key,
            bytes,
            || sub,
            &mut self.pool,
            &mut self.stamps,
            &mut self.writes_at_finish,
        );
        self.unchanged_sets += u64::from(!changed);
        Ok(changed)
    }

    /// The open submission, as a set, a pin or a removal sees it.
    fn submission_state(&self) -> SubmissionState {
        SubmissionState::new(self.open, self.submission, self.memos_declared_in)
    }

    /// Packs in place: `f` gets a scratch copy of the owner's current bytes; on `Ok` the scratch is
    /// compared bitwise and committed only if it differs (returns whether it did). On `Err`, or
    /// when the owner was never set, nothing changes. Allocates nothing once the scratch has grown
    /// to the largest owner.
    pub fn update<E: From<UniformsError>>(
        &mut self,
        key: OwnerKey,
        f: impl FnOnce(&mut [u8]) -> Result<(), E>,
    ) -> Result<bool, E> {
        self.update_inner(key, None, f)
    }

    /// Like [`update`](Self::update) for a writer that overwrites every byte (a typed value
    /// written with its padding): `f` gets the owner's size of scratch bytes *not* initialized
    /// from the owner's bytes, so this skips that copy. On an owner never set, fails with
    /// `VGPU-UNIFORMS-NEVER-SET` as `update` does. Allocates nothing once the scratch has grown
    /// to the largest owner.
    #[inline]
    pub fn overwrite<E: From<UniformsError>>(
        &mut self,
        key: OwnerKey,
        f: impl FnOnce(&mut [u8]) -> Result<(), E>,
    ) -> Result<bool, E> {
        match self.overwrite_set(key, f) {
            Some(result) => result,
            None => Err(self.not_writable(key, "overwrite").into()),
        }
    }

    /// [`overwrite`](Self::overwrite) with a writer that cannot fail, for a caller that keeps
    /// an owner's key: `None`, with nothing done, when the key is stale or the owner was never
    /// set (the caller then takes its full path). Builds no error, allocates nothing once the
    /// scratch has grown to the largest owner.
    #[inline]
    pub fn overwrite_if_set(&mut self, key: OwnerKey, f: impl FnOnce(&mut [u8])) -> Option<bool> {
        let result = self.overwrite_set(key, |bytes| {
            f(bytes);
            Ok::<(), std::convert::Infallible>(())
        })?;
        Some(result.unwrap_or_else(|never| match never {}))
    }

    /// [`set_bytes`](Self::set_bytes) for a caller that keeps an owner's key and has its value's
    /// bytes as they are (a typed value whose memory is its WGSL layout): compared with the
    /// owner's bytes directly and committed only if they differ, no scratch copy. Returns whether
    /// they changed; `None`, with nothing done, when the key is stale, the owner was never set or
    /// holds another size (the caller then takes its full path). Builds no error, allocates
    /// nothing but an owner's CPU copy at its second set.
    ///
    /// Small enough to inline into a caller's loop: an owner set more than once (which keeps a
    /// CPU copy) is compared here, and only a change is committed out of line.
    #[inline(always)]
    pub fn set_bytes_if_set(&mut self, key: OwnerKey, bytes: &[u8]) -> Option<bool> {
        let owner = self.owners.get_mut(key)?;
        match owner.bytes.as_deref() {
            Some(latest) if same_bytes(latest, bytes) => {
                self.unchanged_sets += 1;
                Some(false)
            }
            Some(latest) if latest.len() == bytes.len() => {
                let sub = SubmissionState::new(self.open, self.submission, self.memos_declared_in);
                commit_out_of_line(
                    owner,
                    key,
                    bytes,
                    sub,
                    &mut self.pool,
                    &mut self.stamps,
                    &mut self.writes_at_finish,
                );
                Some(true)
            }
            _ => self.set_bytes_if_set_once(key, bytes),
        }
    }

    /// [`set_bytes_if_set`](Self::set_bytes_if_set) of an owner without a CPU copy: a set owner of
    /// this size takes [`set_bytes`](Self::set_bytes); one never set, or of another size, `None`.
    #[inline(never)]
    fn set_bytes_if_set_once(&mut self, key: OwnerKey, bytes: &[u8]) -> Option<bool> {
        let owner = self.owners.get(key)?;
        if owner.len == 0 || owner.len as usize != bytes.len() {
            return None;
        }
        self.set_bytes(key, bytes).ok()
    }

    /// Writes `bytes` at `offset` of the owner's value (one member of it), in place: compares
    /// that range first and, when it differs, commits as [`update`](Self::update) does (same
    /// revision, stamp and upload bookkeeping). Returns whether it changed; `None`, with nothing
    /// done, when the key is stale, the owner was never set or the range lies outside its bytes
    /// (the caller then takes its full path). Neither copies the rest of the value nor allocates.
    #[inline]
    pub fn write_range_if_changed(
        &mut self,
        key: OwnerKey,
        offset: usize,
        bytes: &[u8],
    ) -> Option<bool> {
        let owner = self.owners.get_mut(key)?;
        let end = offset.checked_add(bytes.len())?;
        if owner.len == 0 {
            return None;
        }
        if owner.copy(&self.pool).get(offset..end)? == bytes {
            self.unchanged_sets += 1;
            return Some(false);
        }
        let sub = SubmissionState::new(self.open, self.submission, self.memos_declared_in);
        write_queued_home_now(owner, sub, &mut self.pool);
        owner
            .copy(&self.pool)
            .get_mut(offset..end)?
            .copy_from_slice(bytes);
        record_change(
            owner,
            key,
            sub,
            &mut self.stamps,
            &mut self.writes_at_finish,
        );
        Some(true)
    }

    /// The body of the overwrites: `None` when the key is stale or the owner never set.
    #[inline(always)]
    fn overwrite_set<E>(
        &mut self,
        key: OwnerKey,
        f: impl FnOnce(&mut [u8]) -> Result<(), E>,
    ) -> Option<Result<bool, E>> {
        let owner = self.owners.get_mut(key)?;
        let len = owner.len as usize;
        if len == 0 {
            return None;
        }
        if self.scratch.len() < len {
            self.scratch.resize(len, 0);
        }
        let scratch = &mut self.scratch[..len];
        if let Err(e) = f(scratch) {
            return Some(Err(e));
        }
        if !commit_if_changed(
            owner,
            key,
            scratch,
            || SubmissionState::new(self.open, self.submission, self.memos_declared_in),
            &mut self.pool,
            &mut self.stamps,
            &mut self.writes_at_finish,
        ) {
            self.unchanged_sets += 1;
            return Some(Ok(false));
        }
        Some(Ok(true))
    }

    /// Why `operation` cannot write the owner `key`: stale, or never set.
    #[cold]
    #[inline(never)]
    fn not_writable(&self, key: OwnerKey, operation: &'static str) -> UniformsError {
        match self.owners.get(key) {
            Some(owner) => never_set(owner, operation),
            None => stale(key),
        }
    }

    /// Like [`update`](Self::update), but also works on an owner never set: its scratch then starts
    /// as `size` zero bytes and a successful `f` is the first set. On a uniform owner already
    /// set, `size` must equal its size (`VGPU-UNIFORMS-SIZE-MISMATCH` otherwise). On a storage
    /// owner already set, another `size` replaces its buffer as a [`set_bytes`](Self::set_bytes)
    /// of that size does: the scratch starts as the current bytes, cut or zero-extended to
    /// `size`, and a successful `f` commits them to a new buffer (even if they happen to equal
    /// the old bytes' prefix). The size is checked before `f` runs.
    pub fn update_sized<E: From<UniformsError>>(
        &mut self,
        key: OwnerKey,
        size: usize,
        f: impl FnOnce(&mut [u8]) -> Result<(), E>,
    ) -> Result<bool, E> {
        self.update_inner(key, Some(size), f)
    }

    fn update_inner<E: From<UniformsError>>(
        &mut self,
        key: OwnerKey,
        size: Option<usize>,
        f: impl FnOnce(&mut [u8]) -> Result<(), E>,
    ) -> Result<bool, E> {
        let sub = self.submission_state();
        let owner = self.owners.get_mut(key).ok_or_else(|| stale(key))?;
        let first = owner.len == 0;
        let mut resize = false;
        self.scratch.clear();
        match (first, size) {
            (true, None) => {
                return Err(UniformsError::NeverSet {
                    label: owner.label.to_string(),
                    operation: "update",
                }
                .into());
            }
            (true, Some(size)) => {
                check_size(owner, size, self.limits)?;
                self.scratch.resize(size, 0);
            }
            (false, Some(size)) if size != owner.len as usize => {
                if owner.space == AddressSpace::Uniform {
                    return Err(size_mismatch(owner, size).into());
                }
                check_size(owner, size, self.limits)?;
                let current = owner.copy(&self.pool);
                let kept = size.min(current.len());
                self.scratch.extend_from_slice(&current[..kept]);
                self.scratch.resize(size, 0);
                resize = true;
            }
            (false, _) => self.scratch.extend_from_slice(owner.copy(&self.pool)),
        }
        f(&mut self.scratch)?;
        if first {
            self::first_set(
                owner,
                key,
                &self.scratch,
                &mut self.pool,
                &mut self.stamps,
                &mut self.writes_at_finish,
                self.limits,
            )?;
            return Ok(true);
        }
        if resize {
            let scratch = std::mem::take(&mut self.scratch);
            let resized = self.resize_storage(key, &scratch);
            self.scratch = scratch;
            resized?;
            return Ok(true);
        }
        let changed = commit_if_changed(
            owner,
            key,
            &self.scratch,
            || sub,
            &mut self.pool,
            &mut self.stamps,
            &mut self.writes_at_finish,
        );
        self.unchanged_sets += u64::from(!changed);
        Ok(changed)
    }

    /// Replaces a storage owner's bytes with `bytes` of another length, and its buffer with a new
    /// one of that size. The old buffer may be bound by operations recorded in the open
    /// submission: it is released when that submission ends, after the finish uploaded the bytes
    /// those operations read if they were still queued (as [`remove_owner`](Self::remove_owner)
    /// does); with no submission open it is released at once. Nothing changes on error.
    fn resize_storage(&mut self, key: OwnerKey, bytes: &[u8]) -> Result<(), UniformsError> {
        let open = self.open;
        let owner = self.owners.get_mut(key).ok_or_else(|| stale(key))?;
        check_size(owner, bytes.len(), self.limits)?;
        let new = self.pool.create_storage(&owner.label, bytes.len())?;
        let old_bytes = owner.bytes.replace(bytes.into());
        owner.len = bytes.len() as u32;
        if let Some(old) = owner.storage.replace(new) {
            if open {
                let pending = old_bytes.filter(|_| owner.write_at_finish);
                self.storage_released_at_end.push((old, pending));
            } else {
                self.pool.release_storage(old);
            }
        }
        owner.revision += 1;
        queue_at_finish(owner, key, &mut self.writes_at_finish);
        self.stamps.renew(owner.stamp_slot);
        Ok(())
    }

    // ----- pin ----------------------------------------------------------------------------------

    /// Pins an owner to its home slot for a render bundle and makes it live: every later set
    /// writes through to the returned home slot (uploaded at the next finish), so a bundle that
    /// recorded it reads the latest value on every replay. Operations resolved meanwhile still
    /// get snapshot slots. If operations of the open submission may have bound the home slot,
    /// the first pin moves the owner to a new home (the old one keeps their snapshot and is
    /// freed when the submission ends). Pins nest; each needs an [`unpin`](Self::unpin), after
    /// which a home a bundle may have read in the open submission counts as bound in it.
    /// Storage owners are already live; pinning them only returns their buffer (a set of another
    /// size replaces it: a bundle that recorded the old one must be recorded again).
    pub fn pin(&mut self, key: OwnerKey) -> Result<SlotRef, UniformsError> {
        let sub = self.submission_state();
        let owner = self.owners.get_mut(key).ok_or_else(|| stale(key))?;
        if owner.len == 0 {
            return Err(UniformsError::NeverSet {
                label: owner.label.to_string(),
                operation: "pin",
            });
        }
        // Sets write a pinned owner's home through from its CPU copy.
        owner.copy(&self.pool);
        self.stamps.renew(owner.stamp_slot);
        if let Some(storage) = owner.storage {
            owner.pins += 1;
            return Ok(SlotRef {
                buffer: BufferKey::Storage(storage),
                offset: 0,
            });
        }
        // A home that operations of the open submission may have bound keeps their snapshot: the
        // first pin moves the owner to a new, live home (the old one is freed at the end).
        let home = match owner.home {
            Some(home) if owner.pins > 0 || !home_may_be_bound(owner, sub) => home,
            old => {
                let home = self.pool.alloc(owner.len as usize)?;
                if let Some(old) = old {
                    // Its queued bytes are the ones the operations that bound it read.
                    if owner.write_at_finish {
                        self.pool.write_if_changed(old, owner.cpu());
                    }
                    self.slots_freed_at_end.push(old);
                }
                owner.home = Some(home);
                owner.home_revision = 0;
                home
            }
        };
        if owner.home_revision != owner.revision || owner.write_at_finish {
            self.pool.write_if_changed(home, owner.cpu());
        }
        owner.home_revision = owner.revision;
        owner.pins += 1;
        Ok(SlotRef::page(home))
    }

    /// Undoes one [`pin`](Self::pin). The owner goes back to snapshot capture once no pin is left.
    pub fn unpin(&mut self, key: OwnerKey) -> Result<(), UniformsError> {
        let owner = self.owners.get_mut(key).ok_or_else(|| stale(key))?;
        owner.pins = owner.pins.saturating_sub(1);
        if self.open && owner.pins == 0 {
            // A bundle replayed in this submission may read the home slot: it counts as bound
            // (a later set captures; a removal frees it at the end), with no revision of its own.
            owner.bound_in = self.submission;
            owner.bound_revision = 0;
        }
        self.stamps.renew(owner.stamp_slot);
        Ok(())
    }

    // ----- submissions --------------------------------------------------------------------------

    /// Opens a submission and returns its id (ids increase by one per submission).
    pub fn begin_submission(&mut self) -> Result<u64, UniformsError> {
        if self.open {
            return Err(UniformsError::SubmissionOpen {
                open: self.submission,
            });
        }
        self.submission += 1;
        self.open = true;
        Ok(self.submission)
    }

    /// The id of the open submission, if any.
    pub fn open_submission(&self) -> Option<u64> {
        self.open.then_some(self.submission)
    }

    /// The index of `key`'s stamp in [`stamps`](Self::stamps); `None` once the owner is
    /// removed. Given at [`create_owner`](Self::create_owner) and fixed for the owner's life;
    /// dense (below the peak number of live owners), and reused by a later owner only after the
    /// removed owner's stamp there was renewed.
    #[inline]
    pub fn stamp_slot(&self, key: OwnerKey) -> Option<u32> {
        self.owners.get(key).map(|o| o.stamp_slot)
    }

    /// Owner stamps, indexed by [`stamp_slot`](Self::stamp_slot). The slice never shrinks, so an
    /// index once returned by `stamp_slot` stays in bounds. A stamp is never reused; an owner
    /// gets a new one whenever a [`resolve`](Self::resolve) made earlier could return another
    /// slot now: when a set changes its bytes (except a set that goes to its home slot, which
    /// keeps the slot), when a storage owner's size changes (a new buffer), on pin, unpin and
    /// removal, and at the end of a submission in which it was bound to a slot other than its
    /// home. A removed owner's stamp slot is renewed before a later owner reuses it.
    ///
    /// Contract: if `resolve(k)` returned `slot` and the stamp read right after it at
    /// `stamp_slot(k)` is still there, then `k` is live and `resolve(k)` would return `slot`
    /// again, in this submission or a later one. A caller may therefore memoize
    /// `(stamp slot, stamp, slot)` and bind `slot` without resolving while
    /// `stamps()[stamp slot]` equals the stamp, provided it has called
    /// [`memos_in_use`](Self::memos_in_use) in the open submission first. Stamps are for
    /// equality only (a shared owner's carry a high bit; see [`mark_shared`](Self::mark_shared)).
    #[inline]
    pub fn stamps(&self) -> &[u64] {
        &self.stamps.by_slot
    }

    /// The stamp clock: the stamp the next renewal hands out. It moves whenever any owner's
    /// stamp moves (a stamp is never renewed without it) and never goes back, so while it is
    /// unchanged every stamp read under it still holds: a caller that checked its memoized stamps
    /// at one clock value may skip the checks while the clock has that value.
    #[inline]
    pub fn stamp_clock(&self) -> u64 {
        self.stamps.next
    }

    /// The value clock: like [`stamp_clock`](Self::stamp_clock), but it moves only when the
    /// stamp of an owner *not* marked shared ([`mark_shared`](Self::mark_shared)) moves, and never
    /// goes back. While it is unchanged, every stamp of an unshared owner read under it still
    /// holds, whatever shared owners did: a caller that checked its memoized stamps of unshared
    /// owners at one value may skip those checks while the clock has that value (and check its
    /// shared owners another way).
    #[inline]
    pub fn value_clock(&self) -> u64 {
        self.stamps.value_next
    }

    /// Moves both clocks ([`stamp_clock`](Self::stamp_clock) and
    /// [`value_clock`](Self::value_clock)) without moving any stamp: for a change outside the
    /// engine that memos checked against the clocks also depend on (a bind group they hold was
    /// destroyed), so that such a check fails once and looks again.
    pub fn invalidate_memos(&mut self) {
        self.stamps.next += 1;
        self.stamps.value_next += 1;
    }

    /// Marks `key` shared (a value many operations bind, such as a camera block): its stamp's
    /// moves leave the [`value_clock`](Self::value_clock) alone. Stale keys are ignored.
    pub fn mark_shared(&mut self, key: OwnerKey) {
        if let Some(owner) = self.owners.get(key) {
            let slot = owner.stamp_slot;
            if let Some(stamp) = self.stamps.by_slot.get_mut(slot as usize) {
                *stamp |= SHARED_STAMP;
            }
            // A new stamp: memos taken before the mark do not match.
            self.stamps.renew(slot);
        }
    }

    /// A stamp slot whose stamp never moves (no owner has it), with that stamp: a memo of
    /// something that holds no value (a group of user-owned resources) takes it, so a check
    /// written for values' stamps always passes for it.
    pub fn fixed_stamp(&self) -> (u32, u64) {
        (FIXED_STAMP_SLOT, FIXED_STAMP)
    }

    /// Declares that operations recorded from now on in the open submission may bind memoized
    /// slots without resolving (see [`stamps`](Self::stamps)). Such an operation does not mark
    /// the owner as bound, so for the rest of the submission the engine treats every home slot
    /// as possibly bound: a value changed afterwards is captured into another slot instead of
    /// overwriting its home, and a removed owner's home is freed only when the submission ends.
    pub fn memos_in_use(&mut self) {
        if self.open {
            self.memos_declared_in = self.submission;
        }
    }

    /// Where an operation recorded now finds the owner's bytes.
    ///
    /// Rules (uniform owners, not pinned): the first revision bound in a submission uses the
    /// owner's persistent home slot; a later, different revision in the same submission uses a
    /// retained extra slot whose content equals the bytes, else the least recently used extra not
    /// bound in this submission (overwritten), else a new slot. The same revision bound again
    /// gets the same slot. A slot never holds two contents in one submission. Bytes are copied
    /// into the page shadow only when the slot does not already hold them; they reach the GPU at
    /// [`finish_submission`](Self::finish_submission).
    ///
    /// Steady state (the revision bound last in this submission, or the home slot already holding
    /// the bytes) is a slotmap lookup and integer compares: no allocation, hashing or scan.
    #[inline]
    pub fn resolve(&mut self, key: OwnerKey) -> Result<SlotRef, UniformsError> {
        if let Some(slot) = self.resolve_steady(key) {
            return Ok(slot);
        }
        if !self.open {
            return Err(UniformsError::NoSubmission {
                operation: "resolve",
            });
        }
        self.resolve_slow(key)
    }

    /// The steady-state part of [`resolve`](Self::resolve): `Some` when the owner's slot for
    /// this submission is already known (the revision bound last in this submission, or the
    /// home slot already holding the bytes); `None` when the full `resolve` must run (which
    /// also reports errors). Returns a small value, so the per-draw path carries no error.
    #[inline]
    pub fn resolve_steady(&mut self, key: OwnerKey) -> Option<SlotRef> {
        if !self.open {
            return None;
        }
        let s = self.submission;
        let owner = self.owners.get_mut(key)?;
        if owner.revision == 0 {
            return None;
        }
        if owner.bound_in == s {
            return (owner.bound_revision == owner.revision).then_some(owner.bound_slot);
        }
        if owner.home_revision == owner.revision && owner.pins == 0 {
            let home = owner.home?;
            owner.bound_in = s;
            owner.bound_revision = owner.revision;
            owner.bound_slot = SlotRef::page(home);
            return Some(owner.bound_slot);
        }
        None
    }

    #[inline(never)]
    fn resolve_slow(&mut self, key: OwnerKey) -> Result<SlotRef, UniformsError> {
        let s = self.submission;
        let owner = self.owners.get_mut(key).ok_or_else(|| stale(key))?;
        if owner.len == 0 {
            return Err(UniformsError::NeverSet {
                label: owner.label.to_string(),
                operation: "resolve",
            });
        }
        let rev = owner.revision;
        if let Some(storage) = owner.storage {
            owner.bound_in = s;
            owner.bound_revision = rev;
            owner.bound_slot = SlotRef {
                buffer: BufferKey::Storage(storage),
                offset: 0,
            };
            return Ok(owner.bound_slot);
        }
        let pool = &mut self.pool;
        let bound_in_this_submission = owner.bound_in == s;
        let home = home_slot(owner, owner.len as usize, pool)?;
        // First revision of this submission: home. A pinned owner's home is live (written
        // through on every set, read by bundles), so its operations always get snapshot slots.
        if owner.pins == 0 && !bound_in_this_submission {
            if owner.home_revision != rev {
                match &owner.bytes {
                    Some(bytes) => pool.write_if_changed(home, bytes),
                    // Set once: its shadow keeps the bytes, stored at the first set.
                    None => pool.mark_dirty(home, owner.len as usize),
                }
            }
            owner.home_revision = rev;
            owner.bound_in = s;
            owner.bound_revision = rev;
            owner.bound_slot = SlotRef::page(home);
            return Ok(owner.bound_slot);
        }
        // A second, different revision in this submission (set since it was bound, so it has
        // its CPU copy). The home slot keeps the content it was bound with; reuse it only if
        // that content is these bytes.
        owner.copy(pool);
        let home_holds_them =
            owner.pins == 0 && (owner.home_revision == rev || pool.holds(home, owner.cpu()));
        let loc = if home_holds_them {
            owner.home_revision = rev;
            home
        } else if let Some(e) = owner.extras.iter_mut().find(|e| e.revision == rev) {
            e.last_used = s;
            e.loc
        } else if let Some(e) = owner
            .extras
            .iter_mut()
            .find(|e| pool.holds(e.loc, owner.bytes.as_deref().unwrap_or_default()))
        {
            e.revision = rev;
            e.last_used = s;
            e.loc
        } else {
            let lru = owner
                .extras
                .iter_mut()
                .filter(|e| e.last_used != s)
                .min_by_key(|e| e.last_used);
            let loc = match lru {
                Some(e) => {
                    e.revision = rev;
                    e.last_used = s;
                    e.loc
                }
                None => {
                    let loc = pool.alloc(owner.len as usize)?;
                    owner.extras.push(
                        ExtraSlot {
                            loc,
                            revision: rev,
                            last_used: s,
                        },
                        self.config.max_extra_slots.max(1),
                    );
                    self.retained_slots += 1;
                    // Listed while it has extras (they only go at the end of a submission).
                    if owner.extras.len() == 1 {
                        self.owners_with_extras.push(key);
                    }
                    loc
                }
            };
            pool.write(loc, owner.cpu());
            pool.ctx().stats().slots_captured.bump();
            loc
        };
        owner.bound_in = s;
        owner.bound_revision = rev;
        owner.bound_slot = SlotRef::page(loc);
        Ok(owner.bound_slot)
    }

    /// Ends the open submission: uploads every dirty page range (one `write_buffer` per
    /// contiguous run of dirty slots, from the shadow) and every changed storage owner (once,
    /// latest bytes), then frees deferred slots, reclaims idle extra slots and releases empty
    /// pages beyond the idle budget. Call it before submitting the submission's command buffers.
    pub fn finish_submission(&mut self) -> Result<(), UniformsError> {
        if !self.open {
            return Err(UniformsError::NoSubmission {
                operation: "finish_submission",
            });
        }
        for n in 0..self.writes_at_finish.len() {
            let key = self.writes_at_finish[n];
            if let Some(owner) = self.owners.get_mut(key) {
                if !owner.write_at_finish {
                    continue; // written earlier (`write_queued_home_now`)
                }
                owner.write_at_finish = false;
                if let Some(storage) = owner.storage {
                    self.pool.upload_storage(storage, owner.cpu());
                } else {
                    if let Some(home) = owner.home {
                        self.pool.write_if_changed(home, owner.cpu());
                        owner.home_revision = owner.revision;
                    }
                }
            }
        }
        self.writes_at_finish.clear();
        self.pool.upload();
        for n in 0..self.storage_released_at_end.len() {
            if let (storage, Some(bytes)) = &self.storage_released_at_end[n] {
                self.pool.upload_storage(*storage, bytes);
            }
        }
        self.end_submission();
        Ok(())
    }

    /// Drops the open submission (its command buffers will not be submitted): uploads nothing and
    /// keeps every owner's bytes and revision. Shadow bytes captured by it stay marked dirty, so
    /// they are uploaded before any later submission that binds them. No-op when none is open.
    pub fn cancel_submission(&mut self) {
        if !self.open {
            return;
        }
        for (_, bytes) in &mut self.storage_released_at_end {
            *bytes = None;
        }
        self.end_submission();
    }

    /// Buffers released since the last call (pages beyond the idle budget, storage buffers of
    /// removed owners and the old buffers of resized storage owners), each reported once no
    /// submission may read it any more. Their keys are never reused for another buffer; evict
    /// every bind group that uses them.
    pub fn drain_released(&mut self) -> impl Iterator<Item = BufferKey> + '_ {
        self.pool.drain_released()
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

    /// The buffer a [`SlotRef`] points into.
    pub fn buffer(&self, key: BufferKey) -> Option<&wgpu::Buffer> {
        match key {
            BufferKey::Page(k) => self.pool.page_buffer(k),
            BufferKey::Storage(k) => self.pool.storage_buffer(k),
        }
    }

    fn end_submission(&mut self) {
        let s = self.submission;
        self.open = false;
        for loc in self.slots_freed_at_end.drain(..) {
            self.pool.free(loc, Some(s));
        }
        for (storage, _) in self.storage_released_at_end.drain(..) {
            self.pool.release_storage(storage);
        }
        // Reclaim extra slots idle for `retain_submissions`, and any beyond the per-owner bound
        // (least recently used first).
        let retain = self.config.retain_submissions;
        let max = self.config.max_extra_slots;
        let mut n = 0;
        while n < self.owners_with_extras.len() {
            let key = self.owners_with_extras[n];
            let Some(owner) = self.owners.get_mut(key) else {
                self.owners_with_extras.swap_remove(n);
                continue;
            };
            // Bound to a snapshot slot in this submission: the next one binds another slot.
            if owner.extras.iter().any(|e| e.last_used == s) {
                self.stamps.renew(owner.stamp_slot);
            }
            let pool = &mut self.pool;
            let before = owner.extras.len();
            owner.extras.retain(|e| {
                let idle = s - e.last_used >= retain;
                if idle {
                    pool.free(e.loc, None);
                }
                !idle
            });
            while owner.extras.len() > max {
                let Some((at, _)) = owner
                    .extras
                    .iter()
                    .enumerate()
                    .min_by_key(|(_, e)| e.last_used)
                else {
                    break;
                };
                let Some(e) = owner.extras.swap_remove(at) else {
                    break;
                };
                pool.free(e.loc, (e.last_used == s).then_some(s));
            }
            self.retained_slots -= before - owner.extras.len();
            if owner.extras.is_empty() {
                self.owners_with_extras.swap_remove(n);
            } else {
                n += 1;
            }
        }
        self.pool.release_idle(self.config.idle_page_budget, s);
    }
}

fn size_mismatch(owner: &Owner, actual: usize) -> UniformsError {
    UniformsError::SizeMismatch {
        label: owner.label.to_string(),
        expected: owner.len as usize,
        actual,
    }
}

/// The largest owner of each address space the device can hold, with the name of the limit
/// that sets it: the binding size limit, or `max_buffer_size` where that is smaller (a uniform
/// owner needs one page slot, a storage owner one buffer, and the device refuses larger
/// buffers).
#[derive(Clone, Copy, Debug)]
struct SizeLimits {
    uniform: (&'static str, u64),
    storage: (&'static str, u64),
}

impl SizeLimits {
    fn new(limits: &wgpu::Limits, slot_alignment: u32) -> Self {
        let smaller = |binding: (&'static str, u64), buffer: (&'static str, u64)| {
            if buffer.1 < binding.1 {
                buffer
            } else {
                binding
            }
        };
        // A uniform owner takes a whole slot (a multiple of the slot alignment) of a page.
        let align = u64::from(slot_alignment.max(1));
        let page = limits.max_buffer_size / align * align;
        let page_name = if page == limits.max_buffer_size {
            "max_buffer_size"
        } else {
            "max_buffer_size (in whole slots of min_uniform_buffer_offset_alignment)"
        };
        SizeLimits {
            uniform: smaller(
                (
                    "max_uniform_buffer_binding_size",
                    limits.max_uniform_buffer_binding_size,
                ),
                (page_name, page),
            ),
            storage: smaller(
                (
                    "max_storage_buffer_binding_size",
                    limits.max_storage_buffer_binding_size,
                ),
                // Storage buffers are sized in multiples of 4 bytes.
                ("max_buffer_size", limits.max_buffer_size / 4 * 4),
            ),
        }
    }
}

fn check_size(owner: &Owner, len: usize, limits: SizeLimits) -> Result<(), UniformsError> {
    if len == 0 {
        return Err(UniformsError::Empty {
            label: owner.label.to_string(),
        });
    }
    let (limit, max) = match owner.space {
        AddressSpace::Uniform => limits.uniform,
        AddressSpace::Storage => limits.storage,
    };
    // An owner's length is kept in 32 bits (`Owner::len`).
    let (limit, max) = if max > u64::from(u32::MAX) {
        ("4 GiB (the largest value vgpu keeps)", u64::from(u32::MAX))
    } else {
        (limit, max)
    };
    if len as u64 > max {
        return Err(UniformsError::Limit {
            label: owner.label.to_string(),
            space: owner.space,
            limit,
            expected: max,
            actual: len as u64,
        });
    }
    Ok(())
}

/// The first set of an owner: validates the size, creates a storage buffer if needed, then
/// commits (revision 1). Nothing changes on error.
fn first_set(
    owner: &mut Owner,
    key: OwnerKey,
    bytes: &[u8],
    pool: &mut Pool,
    stamps: &mut Stamps,
    writes_at_finish: &mut Vec<OwnerKey>,
    limits: SizeLimits,
) -> Result<(), UniformsError> {
    check_size(owner, bytes.len(), limits)?;
    if owner.space == AddressSpace::Storage {
        owner.storage = Some(pool.create_storage(&owner.label, bytes.len())?);
        owner.bytes = Some(bytes.into());
    } else {
        // The home slot is taken now, not at the first resolve: a frame's recording creates
        // no page for values set before it (pages and their shadows are allocated outside the
        // frame). Its shadow keeps the bytes (the only copy until a second set); they are
        // uploaded after the first resolve marks the slot dirty (`record_change` queues nothing
        // for it).
        let home = home_slot(owner, bytes.len(), pool)?;
        pool.store(home, bytes);
    }
    owner.len = bytes.len() as u32;
    // Never bound before (it had no bytes).
    let sub = SubmissionState {
        open: None,
        memos_in_use: false,
    };
    record_change(owner, key, sub, stamps, writes_at_finish);
    Ok(())
}

/// A uniform owner's home slot for values of `len` bytes: the one its first set took, or (an
/// owner that has none) a new one, not written yet (`home_revision` 0).
fn home_slot(owner: &mut Owner, len: usize, pool: &mut Pool) -> Result<SlotLoc, UniformsError> {
    if let Some(home) = owner.home {
        return Ok(home);
    }
    let home = pool.alloc(len)?;
    owner.home = Some(home);
    owner.home_revision = 0;
    Ok(home)
}

/// The open submission (if any), as a set, a pin or a removal sees it.
#[derive(Clone, Copy, Debug)]
struct SubmissionState {
    /// The id of the open submission; `None` between submissions.
    open: Option<u64>,
    /// Operations recorded in it may hold memoized slots ([`UniformEngine::memos_in_use`]).
    memos_in_use: bool,
}

impl SubmissionState {
    /// From the engine's fields (a caller holding an owner borrowed takes them one by one).
    #[inline(always)]
    fn new(open: bool, submission: u64, memos_declared_in: u64) -> Self {
        SubmissionState {
            open: open.then_some(submission),
            memos_in_use: open && memos_declared_in == submission,
        }
    }
}

/// True if an operation of the open submission may have bound the owner's home slot (it did,
/// or memos are in use there and any operation may bind it without resolving).
fn home_may_be_bound(owner: &Owner, sub: SubmissionState) -> bool {
    sub.memos_in_use || sub.open.is_some_and(|s| owner.bound_in == s)
}

/// Before the bytes of an owner change: if its home slot took the current bytes at a set (a
/// write queued for the finish) and an operation of the open submission may have bound it
/// since, the queued write is done now, into the home slot's shadow, with the bytes those
/// operations saw (the finish would otherwise write the later bytes there).
fn write_queued_home_now(owner: &mut Owner, sub: SubmissionState, pool: &mut Pool) {
    if owner.write_at_finish
        && owner.pins == 0
        && owner.storage.is_none()
        && home_may_be_bound(owner, sub)
    {
        if let Some(home) = owner.home {
            pool.write_if_changed(home, owner.cpu());
        }
        owner.write_at_finish = false;
    }
}

/// Queues the owner for [`UniformEngine::finish_submission`].
fn queue_at_finish(owner: &mut Owner, key: OwnerKey, writes_at_finish: &mut Vec<OwnerKey>) {
    if !owner.write_at_finish {
        owner.write_at_finish = true;
        writes_at_finish.push(key);
    }
}

/// [`commit`]s `bytes` unless the owner holds them already (bitwise); returns whether it did.
/// The submission state is taken only for a commit: a set of unchanged bytes ends at the
/// compare.
#[inline(always)]
fn commit_if_changed(
    owner: &mut Owner,
    key: OwnerKey,
    bytes: &[u8],
    sub: impl FnOnce() -> SubmissionState,
    pool: &mut Pool,
    stamps: &mut Stamps,
    writes_at_finish: &mut Vec<OwnerKey>,
) -> bool {
    if *owner.copy(pool) == *bytes {
        return false;
    }
    commit(owner, key, bytes, sub(), pool, stamps, writes_at_finish);
    true
}

/// [`commit`], kept out of the callers that inline a compare (`set_bytes_if_set`).
#[inline(never)]
fn commit_out_of_line(
    owner: &mut Owner,
    key: OwnerKey,
    bytes: &[u8],
    sub: SubmissionState,
    pool: &mut Pool,
    stamps: &mut Stamps,
    writes_at_finish: &mut Vec<OwnerKey>,
) {
    commit(owner, key, bytes, sub, pool, stamps, writes_at_finish);
}

/// Replaces the owner's bytes with `bytes` (which differ from them) and does the bookkeeping.
#[inline]
fn commit(
    owner: &mut Owner,
    key: OwnerKey,
    bytes: &[u8],
    sub: SubmissionState,
    pool: &mut Pool,
    stamps: &mut Stamps,
    writes_at_finish: &mut Vec<OwnerKey>,
) {
    write_queued_home_now(owner, sub, pool);
    owner.copy(pool).copy_from_slice(bytes);
    record_change(owner, key, sub, stamps, writes_at_finish);
}

/// Bookkeeping after the owner's bytes changed: bump the revision; a storage owner is queued for
/// upload; a pinned owner's home slot is written through at the next finish; an unpinned owner
/// whose home slot the open submission may not have bound takes the bytes in its home slot
/// (written at the next finish; its slot, hence its stamp, stays); any other owner gets a new
/// stamp (its next resolve captures), and counts as bound in the open submission if memos are in
/// use there (a memo may hold its home slot).
#[inline]
fn record_change(
    owner: &mut Owner,
    key: OwnerKey,
    sub: SubmissionState,
    stamps: &mut Stamps,
    writes_at_finish: &mut Vec<OwnerKey>,
) {
    owner.revision += 1;
    if owner.storage.is_some() {
        queue_at_finish(owner, key, writes_at_finish);
        return;
    }
    if owner.pins > 0 {
        // Written through to the live home slot at the next finish (once, latest bytes, and
        // only if the slot does not already hold them).
        queue_at_finish(owner, key, writes_at_finish);
        stamps.renew(owner.stamp_slot);
        return;
    }
    if owner.home.is_some() && owner.home_revision == 0 {
        // A home taken at the first set and never written (nothing resolved the owner, so no
        // operation or memo holds its slot): the first resolve writes it.
        return;
    }
    if owner.home.is_some() && !home_may_be_bound(owner, sub) {
        owner.home_revision = owner.revision;
        queue_at_finish(owner, key, writes_at_finish);
        return;
    }
    if let (Some(s), true, Some(_)) = (sub.open, sub.memos_in_use, owner.home) {
        owner.bound_in = s;
    }
    stamps.renew(owner.stamp_slot);
}

// The owners of 100 000 draws pack densely (see `Owner`): a field added must fit or move out of
// line. Checked at compile time: this crate has no unit tests (`[lib] test = false`), so the
// test that pinned it until now never ran.
const _: () = assert!(std::mem::size_of::<Owner>() <= 136);
