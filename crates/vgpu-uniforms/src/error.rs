//! Errors of the uniforms area (`VGPU-UNIFORMS-…`).

use vgpu_core::{DeviceError, ErrorCode};

use crate::AddressSpace;

/// Everything the [`UniformEngine`](crate::UniformEngine) can reject. A rejected call changes
/// nothing: no bytes, no revision, no slot.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum UniformsError {
    /// The owner key was removed (or belongs to another engine).
    #[error(
        "VGPU-UNIFORMS-STALE-OWNER: uniform owner {key} was removed or belongs to another engine"
    )]
    StaleOwner {
        /// The key, formatted (`OwnerKey(…)`).
        key: String,
    },
    /// A set of a uniform owner gave a different number of bytes than its first set (storage
    /// owners take a set of another size: it replaces their buffer).
    #[error(
        "VGPU-UNIFORMS-SIZE-MISMATCH: uniform owner {label:?}: expected {expected} bytes (fixed by its first set), got {actual}"
    )]
    SizeMismatch {
        /// The owner's label.
        label: String,
        /// The owner's size in bytes.
        expected: usize,
        /// The size given.
        actual: usize,
    },
    /// The owner was bound, pinned or updated in place before any bytes were set.
    #[error(
        "VGPU-UNIFORMS-NEVER-SET: uniform owner {label:?} has no bytes yet; set it before {operation}"
    )]
    NeverSet {
        /// The owner's label.
        label: String,
        /// What was attempted (`resolve`, `pin`, `update`, `binding_size`).
        operation: &'static str,
    },
    /// A set gave zero bytes to an owner never set, or to a storage owner (a binding cannot be
    /// empty).
    #[error("VGPU-UNIFORMS-EMPTY: uniform owner {label:?}: a binding needs at least 1 byte, got 0")]
    Empty {
        /// The owner's label.
        label: String,
    },
    /// The owner is larger than the device allows for one binding of its address space, or for
    /// one buffer (`max_buffer_size`, where that is smaller: a uniform owner needs a page slot, a
    /// storage owner a buffer of its size). Checked at the set, so a value the device could never
    /// hold is refused before any page is asked for.
    #[error(
        "VGPU-UNIFORMS-LIMIT: uniform owner {label:?} ({space:?}): {actual} bytes exceed the device's {limit} of {expected}"
    )]
    Limit {
        /// The owner's label.
        label: String,
        /// Uniform or storage.
        space: AddressSpace,
        /// The limit's wgpu name (`max_uniform_buffer_binding_size`,
        /// `max_storage_buffer_binding_size` or `max_buffer_size`).
        limit: &'static str,
        /// The limit.
        expected: u64,
        /// The owner's size.
        actual: u64,
    },
    /// `resolve` or `finish_submission` was called with no submission open.
    #[error(
        "VGPU-UNIFORMS-NO-SUBMISSION: {operation} needs an open submission; call begin_submission first"
    )]
    NoSubmission {
        /// What was attempted.
        operation: &'static str,
    },
    /// `begin_submission` was called while a submission is open.
    #[error(
        "VGPU-UNIFORMS-SUBMISSION-OPEN: submission {open} is still open; finish or cancel it before beginning another"
    )]
    SubmissionOpen {
        /// The id of the open submission.
        open: u64,
    },
    /// The device refused to create a page or storage buffer, or was lost. Carries the device's
    /// own error and its code (`VGPU-DEVICE-OUT-OF-MEMORY`, `VGPU-DEVICE-LOST`, …): one device
    /// failure has one code whatever found it.
    #[error(transparent)]
    Device(#[from] DeviceError),
}

impl ErrorCode for UniformsError {
    fn code(&self) -> &'static str {
        match self {
            UniformsError::StaleOwner { .. } => "VGPU-UNIFORMS-STALE-OWNER",
            UniformsError::SizeMismatch { .. } => "VGPU-UNIFORMS-SIZE-MISMATCH",
            UniformsError::NeverSet { .. } => "VGPU-UNIFORMS-NEVER-SET",
            UniformsError::Empty { .. } => "VGPU-UNIFORMS-EMPTY",
            UniformsError::Limit { .. } => "VGPU-UNIFORMS-LIMIT",
            UniformsError::NoSubmission { .. } => "VGPU-UNIFORMS-NO-SUBMISSION",
            UniformsError::SubmissionOpen { .. } => "VGPU-UNIFORMS-SUBMISSION-OPEN",
            UniformsError::Device(e) => e.code(),
        }
    }
}
