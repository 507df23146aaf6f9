//! Owners and the submission cycle: creating and removing owners; beginning, finishing (the
//! upload of every slot and storage buffer a submission changed) and cancelling a submission;
//! and what a submission's end frees (deferred slots and buffers, idle extra slots, empty pages).

use slotmap::Key as _;
use vgpu_core::Label;

use crate::{AddressSpace, BufferKey, OwnerKey, PageKey, UniformsError};

use super::owner::{Extras, Owner, stale};
use super::submission::home_may_be_bound;
use super::{SlotRef, UniformEngine};

impl UniformEngine {
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
