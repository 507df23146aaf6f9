//! [`TextureError`]: errors of textures (kinds, views, writes, read-back, mipmaps), caught before
//! wgpu sees them; and their codes.

use vgpu_core::{CodeInfo, ErrorCode};

/// Errors of textures and their views, writes, read-back and mipmaps. Each is caught before wgpu
/// sees the call; a refused call changes nothing (the texture keeps its contents).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TextureError {
    /// A texture description wgpu would refuse: a dimension, layer, mip or sample count out of
    /// range for the texture's kind or the device.
    #[error("VGPU-TEXTURE-DESC: texture {label:?}: {problem}; expected {expected}")]
    Desc {
        /// The texture's label.
        label: String,
        /// What is wrong.
        problem: String,
        /// What would be accepted.
        expected: String,
    },
}

impl ErrorCode for TextureError {
    fn code(&self) -> &'static str {
        match self {
            TextureError::Desc { .. } => "VGPU-TEXTURE-DESC",
        }
    }
}

/// The codes of [`TextureError`].
pub(crate) const CODES: &[CodeInfo] = &[CodeInfo {
    code: "VGPU-TEXTURE-DESC",
    variant: "TextureError::Desc",
    meaning: "A texture description is out of range for its kind or the device (size, layers, mip levels, sample count).",
    fix: "Follow the `expected` part of the message: e.g. a cube needs 6 layers of square faces, mips at most log2(size)+1.",
}];
