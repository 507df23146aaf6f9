//! What a change of an owner's bytes does: the revision moves; the home slot takes the bytes
//! when no operation of the open submission may have bound it (written at the finish), else the
//! stamp moves and the next resolve captures them; a storage or pinned owner is queued for the
//! finish. Free functions on the owner and the engine's parts, so the set paths can hold an
//! owner borrowed while they run.

use crate::pool::Pool;
use crate::{AddressSpace, OwnerKey, UniformsError};

use super::limits::{SizeLimits, check_size};
use super::owner::{Owner, home_slot};
use super::stamps::Stamps;
use super::submission::{SubmissionState, home_may_be_bound};

/// The first set of an owner: validates the size, creates a storage buffer if needed, then
/// commits (revision 1). Nothing changes on error.
pub(super) fn first_set(
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

/// Before the bytes of an owner change: if its home slot took the current bytes at a set (a
/// write queued for the finish) and an operation of the open submission may have bound it
/// since, the queued write is done now, into the home slot's shadow, with the bytes those
/// operations saw (the finish would otherwise write the later bytes there).
pub(super) fn write_queued_home_now(owner: &mut Owner, sub: SubmissionState, pool: &mut Pool) {
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

/// Queues the owner for
/// [`UniformEngine::finish_submission`](super::UniformEngine::finish_submission).
pub(super) fn queue_at_finish(
    owner: &mut Owner,
    key: OwnerKey,
    writes_at_finish: &mut Vec<OwnerKey>,
) {
    if !owner.write_at_finish {
        owner.write_at_finish = true;
        writes_at_finish.push(key);
    }
}

/// [`commit`]s `bytes` unless the owner holds them already (bitwise); returns whether it did.
/// The submission state is taken only for a commit: a set of unchanged bytes ends at the
/// compare.
#[inline(always)]
pub(super) fn commit_if_changed(
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

/// [`commit`], kept out of the callers that inline a compare (`replace_bytes`).
#[inline(never)]
pub(super) fn commit_out_of_line(
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
pub(super) fn record_change(
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
