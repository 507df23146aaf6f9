//! [`IndirectError`]: errors of indirect and multi-draw calls, caught before wgpu sees them; and
//! their codes.

use vgpu_core::{CodeInfo, ErrorCode};

/// Errors of indirect draws (`Pass::draw_indirect`, `multi_draw_indirect`,
/// `multi_draw_indirect_count`, `BundleRecorder::draw_indirect`): the argument or count buffer's
/// usage, alignment, range and liveness. `what` says which buffer: `"arguments"` or `"count"`.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum IndirectError {
    /// The argument (or count) buffer lacks `INDIRECT` usage.
    #[error(
        "VGPU-INDIRECT-USAGE: draw {draw:?}: {what} buffer {buffer:?} has usage {actual:?}; expected INDIRECT"
    )]
    Usage {
        /// The draw's label.
        draw: String,
        /// The buffer's label.
        buffer: String,
        /// Which buffer: `"arguments"` or `"count"`.
        what: &'static str,
        /// The buffer's usage.
        actual: wgpu::BufferUsages,
    },
    /// The offset into the argument (or count) buffer is not a multiple of 4.
    #[error(
        "VGPU-INDIRECT-ALIGNMENT: draw {draw:?}: {what} buffer {buffer:?}: offset {offset}; expected a multiple of 4"
    )]
    Alignment {
        /// The draw's label.
        draw: String,
        /// The buffer's label.
        buffer: String,
        /// Which buffer: `"arguments"` or `"count"`.
        what: &'static str,
        /// The offset given.
        offset: u64,
    },
    /// The arguments (`count` structs of 16 bytes, 20 for an indexed draw) or the count (4
    /// bytes) read past the end of the buffer.
    #[error(
        "VGPU-INDIRECT-RANGE: draw {draw:?}: {what} buffer {buffer:?}: offset {offset} + {needed} bytes; expected at most the buffer's size {size}"
    )]
    Range {
        /// The draw's label.
        draw: String,
        /// The buffer's label.
        buffer: String,
        /// Which buffer: `"arguments"` or `"count"`.
        what: &'static str,
        /// The offset given.
        offset: u64,
        /// The bytes read from `offset` (saturating at `u64::MAX`).
        needed: u64,
        /// The buffer's size.
        size: u64,
    },
    /// The argument (or count) buffer was destroyed.
    #[error("VGPU-INDIRECT-DESTROYED: draw {draw:?}: {what} buffer {buffer:?} was destroyed")]
    Destroyed {
        /// The draw's label.
        draw: String,
        /// The buffer's label.
        buffer: String,
        /// Which buffer: `"arguments"` or `"count"`.
        what: &'static str,
    },
}

impl ErrorCode for IndirectError {
    fn code(&self) -> &'static str {
        match self {
            IndirectError::Usage { .. } => "VGPU-INDIRECT-USAGE",
            IndirectError::Alignment { .. } => "VGPU-INDIRECT-ALIGNMENT",
            IndirectError::Range { .. } => "VGPU-INDIRECT-RANGE",
            IndirectError::Destroyed { .. } => "VGPU-INDIRECT-DESTROYED",
        }
    }
}

/// The codes of [`IndirectError`].
pub(crate) const CODES: &[CodeInfo] = &[
    CodeInfo {
        code: "VGPU-INDIRECT-USAGE",
        variant: "IndirectError::Usage",
        meaning: "An indirect draw's argument buffer (or a multi-draw's count buffer) was created without `INDIRECT` usage.",
        fix: "Create the buffer with `wgpu::BufferUsages::INDIRECT` (add `STORAGE` where a compute pass writes the arguments).",
    },
    CodeInfo {
        code: "VGPU-INDIRECT-ALIGNMENT",
        variant: "IndirectError::Alignment",
        meaning: "An indirect draw's argument offset (or a multi-draw's count offset) is not a multiple of 4.",
        fix: "Pass an offset that is a multiple of 4 (argument structs are 16 bytes, 20 for indexed draws).",
    },
    CodeInfo {
        code: "VGPU-INDIRECT-RANGE",
        variant: "IndirectError::Range",
        meaning: "An indirect draw reads past its buffer's end: `count` argument structs (16 bytes each, 20 for an indexed draw) from the offset, or the 4-byte count.",
        fix: "Make the buffer larger, or lower the offset or the (maximum) draw count.",
    },
    CodeInfo {
        code: "VGPU-INDIRECT-DESTROYED",
        variant: "IndirectError::Destroyed",
        meaning: "An indirect draw's argument or count buffer was destroyed.",
        fix: "Draw from a live buffer; destroy it only after its last use.",
    },
];
