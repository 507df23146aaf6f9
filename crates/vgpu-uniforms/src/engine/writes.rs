//! Sets: [`UniformEngine::set_bytes`], [`update`](UniformEngine::update) and
//! [`overwrite`](UniformEngine::overwrite) (errors typed), their sized form for a first set or a
//! storage owner's new size, and the paths a caller that keeps an owner's key takes first,
//! which write only into an owner that already holds a value and return `None` otherwise:
//! [`replace_bytes`](UniformEngine::replace_bytes) (a typed value's bytes as they lie, compared
//! word by word inline), [`replace_with`](UniformEngine::replace_with) (a writer of every
//! byte) and [`write_range_if_changed`](UniformEngine::write_range_if_changed) (one member).

use crate::{AddressSpace, OwnerKey, UniformsError};

use super::UniformEngine;
use super::commit::{
    commit_if_changed, commit_out_of_line, first_set, queue_at_finish, record_change,
    write_queued_home_now,
};
use super::limits::check_size;
use super::owner::{never_set, size_mismatch, stale};
use super::submission::SubmissionState;

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

impl UniformEngine {
    /// Sets the owner's bytes. Returns `Ok(true)` when they changed (the revision was bumped),
    /// `Ok(false)` when they are bitwise equal to the current bytes. The first set fixes the size
    /// of a uniform owner: a later set of another size fails with `VGPU-UNIFORMS-SIZE-MISMATCH`
    /// and changes nothing. A storage owner's value replaces the whole buffer (a runtime-sized
    /// array that grew or shrank): a set of another size gives it a new storage buffer of that
    /// size, hence a new [`BufferKey`](crate::BufferKey) (bind groups built on the old one must
    /// not be reused), a new revision and a new stamp, and queues the upload; the old buffer is
    /// released at once if no submission is open, else when the open one ends (operations
    /// recorded in it keep reading the bytes they were recorded with), and reported by
    /// [`drain_released`](Self::drain_released) then. Zero bytes fail with `VGPU-UNIFORMS-EMPTY`
    /// on an owner never set or a storage owner (a set uniform owner reports
    /// `VGPU-UNIFORMS-SIZE-MISMATCH`), more than the device's binding limit with
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
            first_set(
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

    /// Replaces the value of an owner that already holds one with what `f` writes:
    /// [`overwrite`](Self::overwrite) with a writer that cannot fail, for a caller that keeps
    /// an owner's key. Returns whether the bytes changed; `None`, with nothing done, when the
    /// key is stale or the owner holds no value yet (the caller then takes its full path).
    /// Builds no error, allocates nothing once the scratch has grown to the largest owner.
    #[inline]
    pub fn replace_with(&mut self, key: OwnerKey, f: impl FnOnce(&mut [u8])) -> Option<bool> {
        let result = self.overwrite_set(key, |bytes| {
            f(bytes);
            Ok::<(), std::convert::Infallible>(())
        })?;
        Some(result.unwrap_or_else(|never| match never {}))
    }

    /// Replaces the value of an owner that already holds one of this size with `bytes`:
    /// [`set_bytes`](Self::set_bytes) for a caller that keeps an owner's key and has its value's
    /// bytes as they are (a typed value whose memory is its WGSL layout), compared with the
    /// owner's bytes directly and committed only if they differ, no scratch copy. Returns whether
    /// they changed; `None`, with nothing done, when the key is stale, the owner holds no value
    /// yet or holds one of another size (the caller then takes its full path). Builds no error,
    /// allocates nothing but an owner's CPU copy at its second set.
    ///
    /// Small enough to inline into a caller's loop: an owner set more than once (which keeps a
    /// CPU copy) is compared here, and only a change is committed out of line.
    #[inline(always)]
    pub fn replace_bytes(&mut self, key: OwnerKey, bytes: &[u8]) -> Option<bool> {
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
            _ => self.replace_bytes_set_once(key, bytes),
        }
    }

    /// [`replace_bytes`](Self::replace_bytes) of an owner without a CPU copy (set once, or never):
    /// a set owner of this size takes [`set_bytes`](Self::set_bytes); one never set, or of
    /// another size, `None`.
    #[inline(never)]
    fn replace_bytes_set_once(&mut self, key: OwnerKey, bytes: &[u8]) -> Option<bool> {
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
            first_set(
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
}
