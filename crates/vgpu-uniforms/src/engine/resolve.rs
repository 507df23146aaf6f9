//! Where an operation finds an owner's bytes ([`UniformEngine::resolve`]): the home slot for
//! the first revision bound in a submission, a retained extra slot (matched by revision, then by
//! content, else the least recently used one, else a new one) for a later one; and pins, which
//! make an owner's home slot live for render bundles while operations keep getting snapshots.

use crate::{BufferKey, OwnerKey, UniformsError};

use super::owner::{ExtraSlot, home_slot, stale};
use super::submission::home_may_be_bound;
use super::{SlotRef, UniformEngine};

impl UniformEngine {
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
}
