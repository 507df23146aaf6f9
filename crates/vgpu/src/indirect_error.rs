//! [`IndirectError`]: errors of indirect and multi-draw calls, caught before wgpu sees them; and
//! their codes.

use vgpu_core::{CodeInfo, ErrorCode};

/// Errors of indirect draws: the argument buffer's usage, alignment and range.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum IndirectError {
    /// The argument buffer lacks `INDIRECT` usage.
    #[error(
        "VGPU-INDIRECT-USAGE: draw {draw:?}: buffer {buffer:?} has usage {actual:?}; expected INDIRECT"
    )]
    Usage {
        /// The draw's label.
        draw: String,
        /// The buffer's label.
        buffer: String,
        /// The buffer's usage.
        actual: wgpu::BufferUsages,
    },
}

impl ErrorCode for IndirectError {
    fn code(&self) -> &'static str {
        match self {
            IndirectError::Usage { .. } => "VGPU-INDIRECT-USAGE",
        }
    }
}

/// The codes of [`IndirectError`].
pub(crate) const CODES: &[CodeInfo] = &[CodeInfo {
    code: "VGPU-INDIRECT-USAGE",
    variant: "IndirectError::Usage",
    meaning: "An indirect draw's argument buffer was created without `INDIRECT` usage.",
    fix: "Create the buffer with `wgpu::BufferUsages::INDIRECT`.",
}];
