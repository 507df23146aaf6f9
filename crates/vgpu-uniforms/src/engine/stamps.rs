//! Stamps: what a caller that memoized an owner's slot checks instead of resolving, the stamp
//! slots that index them, and the two clocks that say whether any stamp moved (see the
//! "Counters" list of the crate docs).

use crate::OwnerKey;

use super::UniformEngine;

/// The stamp slot no owner takes (see [`UniformEngine::fixed_stamp`]) and its stamp.
const FIXED_STAMP_SLOT: u32 = 0;
const FIXED_STAMP: u64 = 1;

/// Owner stamps by stamp slot, the free stamp slots, and the two clocks.
///
/// Every live owner holds one stamp slot, a dense index given at creation (slots freed by
/// removals are reused first, so the table stays as large as the peak number of live owners,
/// plus the fixed slot 0). Stamps are never reused: a slot gets a new stamp when its owner's
/// slot may have moved, and again when the owner is removed, before the slot is reused, so a
/// memo taken under an owner never matches its successor in that slot.
#[derive(Debug)]
pub(super) struct Stamps {
    /// The current stamp of each stamp slot (never shrinks).
    by_slot: Vec<u64>,
    /// Stamp slots of removed owners, reused by the next owners created.
    free: Vec<u32>,
    /// The stamp clock ([`UniformEngine::stamp_clock`]): the next stamp to hand out (stamps
    /// start at 1; never reused).
    clock: u64,
    /// The value clock ([`UniformEngine::value_clock`]): one plus the renewals of slots not
    /// marked shared, and the moves of [`UniformEngine::invalidate_memos`].
    value_clock: u64,
}

/// The bit a shared owner's stamps carry ([`UniformEngine::mark_shared`]): stamps count up from
/// 1 and never reach it, and they are only compared for equality.
const SHARED_STAMP: u64 = 1 << 63;

impl Stamps {
    /// The stamps of an engine with no owner: only the fixed slot 0, never given to an owner,
    /// never renewed.
    pub(super) fn new() -> Self {
        Stamps {
            by_slot: vec![FIXED_STAMP],
            free: Vec::new(),
            clock: FIXED_STAMP + 1,
            value_clock: 1,
        }
    }

    /// A stamp slot for a new owner, with a new stamp.
    pub(super) fn take_slot(&mut self) -> u32 {
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
    pub(super) fn renew(&mut self, slot: u32) {
        if let Some(stamp) = self.by_slot.get_mut(slot as usize) {
            let shared = *stamp & SHARED_STAMP;
            *stamp = self.clock | shared;
            self.clock += 1;
            if shared == 0 {
                self.value_clock += 1;
            }
        }
    }

    /// Frees a removed owner's slot, after a last renewal that moves the value clock too
    /// (memos taken under the owner never match the slot's next owner, which starts unshared).
    pub(super) fn release_slot(&mut self, slot: u32) {
        if let Some(stamp) = self.by_slot.get_mut(slot as usize) {
            *stamp &= !SHARED_STAMP;
        }
        self.renew(slot);
        self.free.push(slot);
    }
}

impl UniformEngine {
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
        self.stamps.clock
    }

    /// The value clock: like [`stamp_clock`](Self::stamp_clock), but it moves only when the
    /// stamp of an owner *not* marked shared ([`mark_shared`](Self::mark_shared)) moves, and never
    /// goes back. While it is unchanged, every stamp of an unshared owner read under it still
    /// holds, whatever shared owners did: a caller that checked its memoized stamps of unshared
    /// owners at one value may skip those checks while the clock has that value (and check its
    /// shared owners another way).
    #[inline]
    pub fn value_clock(&self) -> u64 {
        self.stamps.value_clock
    }

    /// Moves both clocks ([`stamp_clock`](Self::stamp_clock) and
    /// [`value_clock`](Self::value_clock)) without moving any stamp: for a change outside the
    /// engine that memos checked against the clocks also depend on (a bind group they hold was
    /// destroyed), so that such a check fails once and looks again.
    pub fn invalidate_memos(&mut self) {
        self.stamps.clock += 1;
        self.stamps.value_clock += 1;
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
}
