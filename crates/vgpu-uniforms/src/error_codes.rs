//! What each `VGPU-UNIFORMS-…` code means and how it is usually fixed.

use vgpu_core::CodeInfo;

/// The codes of [`UniformsError`](crate::UniformsError).
pub const ERROR_CODES: &[CodeInfo] = &[
    CodeInfo {
        code: "VGPU-UNIFORMS-STALE-OWNER",
        variant: "UniformsError::StaleOwner",
        meaning: "An owner key was used after its owner was removed, or with another engine.",
        fix: "Keep the key only while its owner exists; create a new owner.",
    },
    CodeInfo {
        code: "VGPU-UNIFORMS-SIZE-MISMATCH",
        variant: "UniformsError::SizeMismatch",
        meaning: "A uniform owner was set with another number of bytes than its first set fixed.",
        fix: "Set the same WGSL type every time; create another block for another type.",
    },
    CodeInfo {
        code: "VGPU-UNIFORMS-NEVER-SET",
        variant: "UniformsError::NeverSet",
        meaning: "An owner was bound, pinned or updated in place before any bytes were set.",
        fix: "Set the owner's value first.",
    },
    CodeInfo {
        code: "VGPU-UNIFORMS-EMPTY",
        variant: "UniformsError::Empty",
        meaning: "A set gave zero bytes to a new or storage owner; a binding cannot be empty.",
        fix: "Give at least one element.",
    },
    CodeInfo {
        code: "VGPU-UNIFORMS-LIMIT",
        variant: "UniformsError::Limit",
        meaning: "A value is larger than the device allows for one binding of its address space (`max_uniform_buffer_binding_size`, `max_storage_buffer_binding_size`) or for one buffer (`max_buffer_size`).",
        fix: "Use a storage buffer for large data, or split the value.",
    },
    CodeInfo {
        code: "VGPU-UNIFORMS-NO-SUBMISSION",
        variant: "UniformsError::NoSubmission",
        meaning: "The engine was asked to resolve or finish with no submission open.",
        fix: "Call `begin_submission` first (vgpu's frames do this for you).",
    },
    CodeInfo {
        code: "VGPU-UNIFORMS-SUBMISSION-OPEN",
        variant: "UniformsError::SubmissionOpen",
        meaning: "A submission was begun while another is open.",
        fix: "Finish or cancel the open submission first.",
    },
];
