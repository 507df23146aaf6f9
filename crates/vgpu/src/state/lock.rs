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

use parking_lot::{ReentrantMutex, ReentrantMutexGuard};

use super::State;
use crate::descriptors::GpuId;

/// A `Gpu`'s state, shared by the `Gpu`, its clones and the records that must reach it.
pub(crate) struct SharedState {
    /// The owning `Gpu`'s identity (copied into every record it creates).
    pub(crate) id: GpuId,
    cell: ReentrantMutex<Guarded>,
}

/// What the lock guards: the state, and the number of calls that borrowed it through
/// [`SharedState::with`] and its kin (every call of user code into vgpu). A pass replaying an
/// auto-bundle compares that number per draw, instead of borrowing the state: while it did not
/// move, nothing was set, rebound or destroyed since the bundle was validated
/// (`state/auto_bundle/pass.rs`).
pub(crate) struct Guarded {
    state: RefCell<State>,
    calls: Cell<u64>,
}

impl Guarded {
    /// The number of calls that borrowed the state so far.
    #[inline(always)]
    pub(crate) fn calls(&self) -> u64 {
        self.calls.get()
    }

    #[inline(always)]
    fn count_call(&self) {
        self.calls.set(self.calls.get().wrapping_add(1));
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
                calls: Cell::new(0),
            }),
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
