//! [`ImageError`]: errors of decoding image files into textures (the `image` feature); and their
//! codes.

use vgpu_core::{CodeInfo, ErrorCode};

/// Errors of decoding image files into textures (`Gpu::texture_from_image`). Decoding runs with
/// limits, so a hostile header allocates nothing sized by it.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ImageError {
    /// The bytes are not an image vgpu can decode (truncated, corrupt, or an unknown format).
    #[error("VGPU-IMAGE-DECODE: image {label:?}: {reason}")]
    Decode {
        /// The image's label (its path, or the label given).
        label: String,
        /// What the decoder said.
        reason: String,
    },
}

impl ErrorCode for ImageError {
    fn code(&self) -> &'static str {
        match self {
            ImageError::Decode { .. } => "VGPU-IMAGE-DECODE",
        }
    }
}

/// The codes of [`ImageError`].
pub(crate) const CODES: &[CodeInfo] = &[CodeInfo {
    code: "VGPU-IMAGE-DECODE",
    variant: "ImageError::Decode",
    meaning: "Image bytes could not be decoded: truncated, corrupt, or a format vgpu does not read.",
    fix: "Give a complete PNG, JPEG or Radiance HDR file (with the `image` feature on).",
}];
