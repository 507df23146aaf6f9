//! The public error type: one enum wrapping each area's errors, all with stable `VGPU-…` codes.

pub use vgpu_core::{DeviceError, ErrorCode};

/// Errors of offscreen targets, read-back and image output.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TargetError {
    /// A target was asked for with a zero or over-limit size.
    #[error(
        "VGPU-TARGET-SIZE: target {label:?}: size {actual:?} is invalid; expected 1..={max} per side"
    )]
    Size {
        /// Target label.
        label: String,
        /// Requested size.
        actual: (u32, u32),
        /// The device's `max_texture_dimension_2d`.
        max: u32,
    },
    /// The format cannot be used as a color attachment, depth attachment, or read back.
    #[error(
        "VGPU-TARGET-FORMAT: target {label:?}: format {actual:?} cannot be used for {usage}; expected {expected}"
    )]
    Format {
        /// Target label.
        label: String,
        /// What the format was used for.
        usage: &'static str,
        /// What would be accepted.
        expected: &'static str,
        /// The format given.
        actual: wgpu::TextureFormat,
    },
    /// Writing a PNG failed.
    #[error("VGPU-TARGET-PNG: writing {path:?}: {description}")]
    Png {
        /// The output path.
        path: String,
        /// What went wrong.
        description: String,
    },
}

impl ErrorCode for TargetError {
    fn code(&self) -> &'static str {
        match self {
            TargetError::Size { .. } => "VGPU-TARGET-SIZE",
            TargetError::Format { .. } => "VGPU-TARGET-FORMAT",
            TargetError::Png { .. } => "VGPU-TARGET-PNG",
        }
    }
}

/// Every error vgpu returns. Match on the area, or call [`ErrorCode::code`].
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// Device selection, creation, or wgpu validation.
    #[error(transparent)]
    Device(#[from] DeviceError),
    /// Targets, read-back and images.
    #[error(transparent)]
    Target(#[from] TargetError),
}

impl ErrorCode for Error {
    fn code(&self) -> &'static str {
        match self {
            Error::Device(e) => e.code(),
            Error::Target(e) => e.code(),
        }
    }
}

impl Error {
    /// The stable `VGPU-…` code of this error.
    pub fn code(&self) -> &'static str {
        ErrorCode::code(self)
    }
}

/// `Result` with vgpu's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;
