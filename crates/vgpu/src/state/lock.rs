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

use std::cell::RefCell;

use parking_lot::{ReentrantMutex, ReentrantMutexGuard};

use super::State;
use crate::descriptors::GpuId;

/// A `Gpu`'s state, shared by the `Gpu`, its clones and the records that must reach it.
pub(crate) struct SharedState {
    /// The owning `Gpu`'s identity (copied into every record it creates).
    pub(crate) id: GpuId,
    cell: ReentrantMutex<RefCell<State>>,
}

/// The state held for a pass or a bundle recording: other threads wait until it is dropped;
/// this thread borrows the state once per recorded operation.
pub(crate) type HeldState<'a> = ReentrantMutexGuard<'a, RefCell<State>>;

impl SharedState {
    pub(crate) fn new(id: GpuId, state: State) -> SharedState {
        SharedState {
            id,
            cell: ReentrantMutex::new(RefCell::new(state)),
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
