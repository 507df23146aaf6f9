//! The open submission as a set, a pin or a removal sees it: which one is open, whether its
//! operations may hold memoized slots, and so whether an owner's home slot may be bound in it.

use super::owner::Owner;

/// The open submission (if any), as a set, a pin or a removal sees it.
#[derive(Clone, Copy, Debug)]
pub(super) struct SubmissionState {
    /// The id of the open submission; `None` between submissions.
    pub(super) open: Option<u64>,
    /// Operations recorded in it may hold memoized slots
    /// ([`UniformEngine::memos_in_use`](super::UniformEngine::memos_in_use)).
    pub(super) memos_in_use: bool,
}

impl SubmissionState {
    /// From the engine's fields (a caller holding an owner borrowed takes them one by one).
    #[inline(always)]
    pub(super) fn new(open: bool, submission: u64, memos_declared_in: u64) -> Self {
        SubmissionState {
            open: open.then_some(submission),
            memos_in_use: open && memos_declared_in == submission,
        }
    }
}

/// True if an operation of the open submission may have bound the owner's home slot (it did,
/// or memos are in use there and any operation may bind it without resolving).
pub(super) fn home_may_be_bound(owner: &Owner, sub: SubmissionState) -> bool {
    sub.memos_in_use || sub.open.is_some_and(|s| owner.bound_in == s)
}
