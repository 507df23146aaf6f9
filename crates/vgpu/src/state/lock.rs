//! The lock around a `Gpu`'s [`State`].
//!
//! **Why re-entrant.** A pass holds the state for its whole closure, so recording a draw costs
//! no lock; user code inside that closure may still call vgpu (`draw.set`, `camera.set` between
//! two draws: each draw must see the value as it was when it was recorded). Those calls come from
//! the thread that holds the pass, so the lock is a re-entrant mutex (other threads wait for the
//! pass to end), and the state sits in a `RefCell` inside it: every access borrows it for the
//! duration of one vgpu call, never across user code.
//!
//! Rules: (1) never call user code while the state is borrowed; (2) never drop a record whose
//! `Drop` locks the state while it is borrowed: push it to [`State::deferred`], which
//! [`SharedState::with`] drops once the borrow ended. Both hold by construction: user closures
//! run only in the handle floor, between borrows.

use std::cell::{Cell, RefCell};
use std::sync::atomic::{AtomicBool, AtomicU32};

use parking_lot::{ReentrantMutex, ReentrantMutexGuard};

use super::State;
use crate::descriptors::GpuId;

/// A `Gpu`'s state, shared by the `Gpu`, its clones and the records that must reach it.
pub(crate) struct SharedState {
    /// The owning `Gpu`'s identity (copied into every record it creates).
    pub(crate) id: GpuId,
    cell: ReentrantMutex<Guarded>,
    /// Frames give large render passes encoders of their own, finished in parallel
    /// (`frame_encoders.rs`; [`GpuOptions::parallel_finish`](crate::GpuOptions::parallel_finish)).
    pub(crate) parallel_finish: AtomicBool,
    /// The draws each of the last frame's first [`PASS_SIZES`] render passes recorded, by the
    /// pass's place in the frame (a frame's passes predict the next frame's).
    pub(crate) pass_draws: [AtomicU32; PASS_SIZES],
}

/// How many of a frame's render passes have their size remembered (later ones share the
/// frame's encoder).
pub(crate) const PASS_SIZES: usize = 8;

/// What the lock guards: the state, and the cursor of a pass replaying an auto-bundle
/// (`state/auto_bundle/pass.rs`): the number of its draws matched so far, or [`NOT_REPLAYING`].
/// Every call of user code into vgpu borrows the state through [`SharedState::with`] or its kin,
/// which interrupt a replay (the cursor is kept in `interrupted_at`, the replay cursor set to
/// [`NOT_REPLAYING`]): the pass's next draw then finds no entry at the cursor and checks again
/// what moved. So a replayed draw costs a compare with the sequence, and no borrow of the state.
pub(crate) struct Guarded {
    state: RefCell<State>,
    replay: Cell<usize>,
    interrupted_at: Cell<usize>,
}

/// The replay cursor of no pass replaying (no sequence has an entry there).
pub(crate) const NOT_REPLAYING: usize = usize::MAX;

impl Guarded {
    /// The cursor of the pass replaying now ([`NOT_REPLAYING`] when none is, or a call into
    /// vgpu interrupted it).
    #[inline(always)]
    pub(crate) fn replay_cursor(&self) -> usize {
        self.replay.get()
    }

    /// Moves the replay cursor (a pass begins or goes on replaying, or stops).
    #[inline(always)]
    pub(crate) fn set_replay_cursor(&self, cursor: usize) {
        self.replay.set(cursor);
        self.interrupted_at.set(NOT_REPLAYING);
    }

    /// Moves the replay cursor on by one matched entry (to `cursor`).
    #[inline(always)]
    pub(crate) fn advance_replay(&self, cursor: usize) {
        self.replay.set(cursor);
    }

    /// The cursor of a replay a call into vgpu interrupted ([`NOT_REPLAYING`] if none was).
    pub(crate) fn interrupted_at(&self) -> usize {
        self.interrupted_at.get()
    }

    /// A call into vgpu: interrupts a replay (see the type's doc).
    #[inline(always)]
    pub(crate) fn count_call(&self) {
        let cursor = self.replay.get();
        if cursor != NOT_REPLAYING {
            self.interrupted_at.set(cursor);
            self.replay.set(NOT_REPLAYING);
        }
    }
}

impl std::ops::Deref for Guarded {
    type Target = RefCell<State>;
    #[inline(always)]
    fn deref(&self) -> &RefCell<State> {
        &self.state
    }
}

/// The state held for a pass or a bundle recording: other threads wait until it is dropped;
/// this thread borrows the state once per recorded operation.
pub(crate) type HeldState<'a> = ReentrantMutexGuard<'a, Guarded>;

impl SharedState {
    pub(crate) fn new(id: GpuId, state: State) -> SharedState {
        SharedState {
            id,
            cell: ReentrantMutex::new(Guarded {
                state: RefCell::new(state),
                replay: Cell::new(NOT_REPLAYING),
                interrupted_at: Cell::new(NOT_REPLAYING),
            }),
            parallel_finish: AtomicBool::new(true),
            pass_draws: [const { AtomicU32::new(0) }; PASS_SIZES],
        }
    }

    /// Runs `f` on the locked state, then drops what it released (see the module doc).
    #[inline]
    pub(crate) fn with<R>(&self, f: impl FnOnce(&mut State) -> R) -> R {
        let held = self.cell.lock();
        Self::with_held(&held, f)
    }

    /// Like [`with`](Self::with) on a state this thread already holds (no lock taken).
    #[inline]
    pub(crate) fn with_held<R>(held: &HeldState<'_>, f: impl FnOnce(&mut State) -> R) -> R {
        held.count_call();
        let (result, released) = {
            let mut state = held.borrow_mut();
            let result = f(&mut state);
            // Usually nothing: no empty vector to drop then.
            let released =
                (!state.deferred.is_empty()).then(|| std::mem::take(&mut state.deferred));
            (result, released)
        };
        if let Some(released) = released {
            drop_released(released);
        }
        result
    }

    /// Like [`with_held`](Self::with_held) for an `f` that releases nothing (it pushes nothing to
    /// `State::deferred`): no look at the released records afterwards.
    #[inline(always)]
    pub(crate) fn with_held_releasing_nothing<R>(
        held: &HeldState<'_>,
        f: impl FnOnce(&mut State) -> R,
    ) -> R {
        held.count_call();
        let mut state = held.borrow_mut();
        let result = f(&mut state);
        debug_assert!(state.deferred.is_empty(), "released while promising not to");
        result
    }

    /// Holds the state for a pass or a bundle recording (see [`HeldState`]).
    pub(crate) fn hold(&self) -> HeldState<'_> {
        self.cell.lock()
    }
}

/// Drops what the state released (`State::deferred`), out of the borrow (their `Drop` may lock
/// the state). Generic over the records, so that the lock names no record type.
#[cold]
#[inline(never)]
fn drop_released<T>(released: Vec<T>) {
    drop(released);
}
