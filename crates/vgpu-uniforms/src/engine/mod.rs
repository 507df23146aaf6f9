//! The [`UniformEngine`]: owners, revisions, per-submission capture and upload.
//!
//! This module holds the engine's state ([`UniformEngine`], [`SlotRef`]); its `impl` is split
//! by job, one child module per job:
//!
//! - `lifecycle`: owners and the submission cycle. Create and remove owners; begin, finish (the
//!   upload) and cancel a submission; what a submission's end frees.
//! - `writes`: sets. `set_bytes`, `update`, `overwrite`, their sized form, and the paths that
//!   write only into an owner that already holds a value (`replace_bytes`, `replace_with`,
//!   `write_range_if_changed`); a storage owner's resize.
//! - `resolve`: where an operation finds an owner's bytes. The home slot, retained snapshot
//!   slots, pins.
//! - `stamps`: the memo stamps, their slots and the two clocks; `memos_in_use`.
//! - `inspect`: read-only queries. An owner's label, revision, bytes and binding size; gauges;
//!   the buffers slots point into.
//!
//! and the parts those jobs share, which hold no `impl UniformEngine`:
//!
//! - `commit`: what a changed value does (the revision, the home slot or a later capture, the
//!   stamp, the write queued for the finish).
//! - `owner`: the owner record and its retained extra slots.
//! - `submission`: the open submission as a set, a pin or a removal sees it.
//! - `limits`: the largest value an owner may hold on the device.

use std::sync::Arc;

use slotmap::SlotMap;
use vgpu_core::GpuContext;

use crate::pool::{Pool, SlotLoc};
use crate::{BufferKey, EngineConfig, OwnerKey, StorageKey};

mod commit;
mod inspect;
mod lifecycle;
mod limits;
mod owner;
mod resolve;
mod stamps;
mod submission;
mod writes;

pub use inspect::EngineGauges;

use limits::SizeLimits;
use owner::Owner;
use stamps::Stamps;
use submission::SubmissionState;

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
            stamps: Stamps::new(),
            memos_declared_in: 0,
            unchanged_sets: 0,
        }
    }

    /// The open submission, as a set, a pin or a removal sees it.
    fn submission_state(&self) -> SubmissionState {
        SubmissionState::new(self.open, self.submission, self.memos_declared_in)
    }
}
