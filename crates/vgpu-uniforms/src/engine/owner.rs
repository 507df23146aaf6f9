//! The owner record: an owner's bytes and the slots that hold them (its home slot and the extra
//! slots it retains), with the errors that name an owner.

use slotmap::Key as _;
use vgpu_core::Label;

use crate::pool::{Pool, SlotLoc};
use crate::{AddressSpace, OwnerKey, StorageKey, UniformsError};

use super::SlotRef;

/// An extra (non-home) slot retained by an owner.
#[derive(Clone, Copy, Debug)]
pub(super) struct ExtraSlot {
    pub(super) loc: SlotLoc,
    /// The owner revision whose bytes the slot's shadow holds (the bytes decide: revisions only
    /// short-cut the compare).
    pub(super) revision: u64,
    /// Last submission that bound it.
    pub(super) last_used: u64,
}

/// An owner's extra slots, boxed: most owners never have one, and the owner record (one per
/// draw value) keeps 8 bytes for them instead of a vector's 24.
#[derive(Debug, Default)]
#[expect(
    clippy::box_collection,
    reason = "8 bytes in every owner record where a vector takes 24: the box is the point"
)]
pub(super) struct Extras(Option<Box<Vec<ExtraSlot>>>);

impl Extras {
    fn as_slice(&self) -> &[ExtraSlot] {
        self.0.as_deref().map_or(&[], Vec::as_slice)
    }

    pub(super) fn iter(&self) -> std::slice::Iter<'_, ExtraSlot> {
        self.as_slice().iter()
    }

    pub(super) fn iter_mut(&mut self) -> std::slice::IterMut<'_, ExtraSlot> {
        self.0
            .as_deref_mut()
            .map_or(&mut [][..], Vec::as_mut_slice)
            .iter_mut()
    }

    pub(super) fn len(&self) -> usize {
        self.as_slice().len()
    }

    pub(super) fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Adds a slot; the first one makes room for `capacity`.
    pub(super) fn push(&mut self, slot: ExtraSlot, capacity: usize) {
        self.0
            .get_or_insert_with(|| Box::new(Vec::with_capacity(capacity)))
            .push(slot);
    }

    pub(super) fn retain(&mut self, keep: impl FnMut(&ExtraSlot) -> bool) {
        if let Some(v) = self.0.as_deref_mut() {
            v.retain(keep);
        }
    }

    /// Removes slot `at`, the last one taking its place (`None`: there is no slot `at`).
    pub(super) fn swap_remove(&mut self, at: usize) -> Option<ExtraSlot> {
        let v = self.0.as_deref_mut()?;
        (at < v.len()).then(|| v.swap_remove(at))
    }
}

/// One uniform or storage owner. `repr(C)`: the fields `resolve`'s fast path reads come first
/// (64 bytes). Not aligned to cache lines: the owners of 100 000 draws pack densely (144 bytes
/// a slot instead of 256). A value set once keeps its bytes in its home slot's shadow only.
#[derive(Debug)]
#[repr(C)]
pub(super) struct Owner {
    /// Bumped exactly when a set changes the bytes bitwise (0: never set).
    pub(super) revision: u64,
    /// Submission in which the owner was last bound (0: never).
    pub(super) bound_in: u64,
    /// The revision bound last in `bound_in` (0: the home slot counts as bound there with no
    /// revision of its own, after an unpin).
    pub(super) bound_revision: u64,
    /// Revision whose bytes the home slot's shadow holds (0: none yet).
    pub(super) home_revision: u64,
    /// Where `bound_revision` was bound in `bound_in`.
    pub(super) bound_slot: SlotRef,
    /// Pins held (render bundles that recorded the home slot).
    pub(super) pins: u32,
    /// The index of the owner's stamp in [`UniformEngine::stamps`](super::UniformEngine::stamps).
    pub(super) stamp_slot: u32,
    /// The persistent home slot of a uniform owner (taken at the first set, whose bytes its
    /// shadow keeps; uploaded after the first resolve or pin).
    pub(super) home: Option<SlotLoc>,
    /// Names the owner in errors and its storage buffer (inline when short: no allocation).
    pub(super) label: Label,
    pub(super) space: AddressSpace,
    /// Queued in `writes_at_finish`: the finish uploads a storage owner's bytes, or writes a
    /// uniform owner's latest bytes to its home slot.
    pub(super) write_at_finish: bool,
    /// Length of the value in bytes; 0 until the first set (which fixes a uniform owner's
    /// size; a storage owner's changes with a set of another size).
    pub(super) len: u32,
    /// A CPU copy of the latest bytes: a storage owner's always; a uniform owner's from its
    /// second set on (sets compare against it, and it keeps a value changed while its home slot
    /// is bound). `None`: the home slot's shadow is the only copy (a value set once, as most
    /// of a static scene's are: one copy of its bytes, not two).
    pub(super) bytes: Option<Box<[u8]>>,
    pub(super) extras: Extras,
    pub(super) storage: Option<StorageKey>,
}

impl Owner {
    /// The CPU copy of the latest bytes, made from the home slot's shadow the first time it is
    /// needed (the owner's second set, a pin).
    #[inline]
    pub(super) fn copy(&mut self, pool: &Pool) -> &mut [u8] {
        if self.bytes.is_none() {
            self.bytes = Some(copy_of_home(self, pool));
        }
        self.bytes.as_deref_mut().unwrap_or_default()
    }

    /// The CPU copy of the latest bytes, where the caller knows there is one (empty if not).
    #[inline]
    pub(super) fn cpu(&self) -> &[u8] {
        self.bytes.as_deref().unwrap_or_default()
    }
}

/// The bytes of a uniform owner set once, from its home slot's shadow (empty if it has none).
#[cold]
#[inline(never)]
fn copy_of_home(owner: &Owner, pool: &Pool) -> Box<[u8]> {
    latest(owner, pool).into()
}

/// The owner's latest bytes: its CPU copy, or its home slot's shadow (empty before the first
/// set).
pub(super) fn latest<'a>(owner: &'a Owner, pool: &'a Pool) -> &'a [u8] {
    match (&owner.bytes, owner.home) {
        (Some(bytes), _) => bytes,
        (None, Some(home)) => pool
            .slot_bytes(home, owner.len as usize)
            .unwrap_or_default(),
        (None, None) => &[],
    }
}

/// `VGPU-UNIFORMS-NEVER-SET` for `operation` on `owner` (out of line: the set paths stay small).
#[cold]
#[inline(never)]
pub(super) fn never_set(owner: &Owner, operation: &'static str) -> UniformsError {
    UniformsError::NeverSet {
        label: owner.label.to_string(),
        operation,
    }
}

#[cold]
pub(super) fn stale(key: OwnerKey) -> UniformsError {
    UniformsError::StaleOwner {
        key: format!("{:?}", key.data()),
    }
}

pub(super) fn size_mismatch(owner: &Owner, actual: usize) -> UniformsError {
    UniformsError::SizeMismatch {
        label: owner.label.to_string(),
        expected: owner.len as usize,
        actual,
    }
}

/// A uniform owner's home slot for values of `len` bytes: the one its first set took, or (an
/// owner that has none) a new one, not written yet (`home_revision` 0).
pub(super) fn home_slot(
    owner: &mut Owner,
    len: usize,
    pool: &mut Pool,
) -> Result<SlotLoc, UniformsError> {
    if let Some(home) = owner.home {
        return Ok(home);
    }
    let home = pool.alloc(len)?;
    owner.home = Some(home);
    owner.home_revision = 0;
    Ok(home)
}

// The owners of 100 000 draws pack densely (see `Owner`): a field added must fit or move out of
// line. Checked at compile time: this crate has no unit tests (`[lib] test = false`), so the
// test that pinned it until now never ran.
const _: () = assert!(size_of::<Owner>() <= 136);
