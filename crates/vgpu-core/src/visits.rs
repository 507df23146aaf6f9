//! A per-thread count of the type nodes the layout walks visit (building layouts, finding
//! non-host-shareable members, compiling write plans, GL hazards, layout equality, shape
//! differences): one per call of a walk's step, memo hits included. Not for users: the
//! complexity tests read it to check that a walk is linear in the distinct types of a layout
//! (no wall clock involved).

use std::cell::Cell;

thread_local! {
    static VISITS: Cell<u64> = const { Cell::new(0) };
}

/// Counts one visited node on this thread.
#[inline]
pub(crate) fn visit() {
    VISITS.with(|v| v.set(v.get().wrapping_add(1)));
}

/// The number of type nodes the layout walks have visited on this thread so far (see the
/// module's doc). Compare two readings around an operation on one thread.
#[doc(hidden)]
pub fn visited_type_nodes() -> u64 {
    VISITS.with(Cell::get)
}
