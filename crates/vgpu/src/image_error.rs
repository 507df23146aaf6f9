//! [`ImageError`]: errors of decoding image files into textures (the `image` feature); and their
//! codes.

use vgpu_core::{CodeInfo, ErrorCode};

/// Errors of decoding image files into textures (`Gpu::texture_from_image`,
/// `Gpu::cube_from_images`, `Gpu::array_from_images`). Decoding runs with limits, and the size
/// an image's header claims is checked before anything sized by it is allocated.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ImageError {
    /// The bytes are not an image vgpu can decode (truncated or corrupt).
    #[error("VGPU-IMAGE-DECODE: image {label:?}: {reason}")]
    Decode {
        /// The image's label (its path, or the label given).
        label: String,
        /// What the decoder said.
        reason: String,
    },
    /// The bytes are not PNG, JPEG or Radiance HDR (or their format is not recognized).
    #[error("VGPU-IMAGE-FORMAT: image {label:?}: {reason}; vgpu reads PNG, JPEG and Radiance HDR")]
    Format {
        /// The image's label.
        label: String,
        /// What was found (`no known signature`, or the format's name).
        reason: String,
    },
    /// The image's header claims a size the device cannot hold in one texture (more than
    /// `max_texture_dimension_2d` on a side), or no texel at all. Nothing was decoded.
    #[error(
        "VGPU-IMAGE-TOO-LARGE: image {label:?} is {}x{} texels; the device's textures are at most \
         {max}x{max} (max_texture_dimension_2d)",
        size.0,
        size.1
    )]
    TooLarge {
        /// The image's label.
        label: String,
        /// `(width, height)` as the header claims.
        size: (u32, u32),
        /// The device's `max_texture_dimension_2d`.
        max: u32,
    },
    /// Decoding the image would take more memory than `ImageOptions::max_bytes` allows (checked
    /// from the header, before decoding).
    #[error(
        "VGPU-IMAGE-MEMORY-LIMIT: image {label:?} ({}x{} texels) needs {needed} bytes decoded; \
         the limit is {limit} bytes (ImageOptions::max_bytes)",
        size.0,
        size.1
    )]
    MemoryLimit {
        /// The image's label.
        label: String,
        /// `(width, height)` as the header claims.
        size: (u32, u32),
        /// Bytes the decoded image (and its texture data) would take.
        needed: u64,
        /// `ImageOptions::max_bytes`.
        limit: u64,
    },
    /// The file could not be read.
    #[error("VGPU-IMAGE-IO: image file {path:?} could not be read: {reason}")]
    Io {
        /// The path given.
        path: std::path::PathBuf,
        /// The system's error.
        reason: String,
    },
    /// The images of a cube or an array do not fit together: faces of different sizes or
    /// formats, a cube face that is not square, or no image at all.
    #[error("VGPU-IMAGE-LAYERS: {label:?}: {layer}: expected {expected}, got {actual}")]
    Layers {
        /// The texture's label.
        label: String,
        /// Which layer or face (`"face -Y (index 3)"`, `"layer 2"`).
        layer: String,
        /// What it must be (the first image's size and format, or `square`).
        expected: String,
        /// What it is.
        actual: String,
    },
}

impl ErrorCode for ImageError {
    fn code(&self) -> &'static str {
        match self {
            ImageError::Decode { .. } => "VGPU-IMAGE-DECODE",
            ImageError::Format { .. } => "VGPU-IMAGE-FORMAT",
            ImageError::TooLarge { .. } => "VGPU-IMAGE-TOO-LARGE",
            ImageError::MemoryLimit { .. } => "VGPU-IMAGE-MEMORY-LIMIT",
            ImageError::Io { .. } => "VGPU-IMAGE-IO",
            ImageError::Layers { .. } => "VGPU-IMAGE-LAYERS",
        }
    }
}

/// The codes of [`ImageError`].
pub(crate) const CODES: &[CodeInfo] = &[
    CodeInfo {
        code: "VGPU-IMAGE-DECODE",
        variant: "ImageError::Decode",
        meaning: "Image bytes could not be decoded: truncated or corrupt.",
        fix: "Give a complete PNG, JPEG or Radiance HDR file (with the `image` feature on).",
    },
    CodeInfo {
        code: "VGPU-IMAGE-FORMAT",
        variant: "ImageError::Format",
        meaning: "The bytes are not a PNG, JPEG or Radiance HDR image (found from their first \
                  bytes, not a file name).",
        fix: "Convert the image to PNG, JPEG or HDR, or decode it yourself and use \
              `Gpu::texture_with_data`.",
    },
    CodeInfo {
        code: "VGPU-IMAGE-TOO-LARGE",
        variant: "ImageError::TooLarge",
        meaning: "The image's header claims more texels on a side than the device's \
                  `max_texture_dimension_2d` (or none); nothing was decoded.",
        fix: "Downscale the image, split it into tiles, or ask for higher limits \
              (`GpuOptions`).",
    },
    CodeInfo {
        code: "VGPU-IMAGE-MEMORY-LIMIT",
        variant: "ImageError::MemoryLimit",
        meaning: "Decoding the image would take more memory than `ImageOptions::max_bytes` \
                  (checked from its header, before decoding).",
        fix: "Raise `ImageOptions::max_bytes` if the image is trusted, or downscale it.",
    },
    CodeInfo {
        code: "VGPU-IMAGE-IO",
        variant: "ImageError::Io",
        meaning: "An image file could not be read (missing, a directory, no permission).",
        fix: "Check the path named in the message (relative paths are from the working \
              directory).",
    },
    CodeInfo {
        code: "VGPU-IMAGE-LAYERS",
        variant: "ImageError::Layers",
        meaning: "The images of a cube or an array do not fit together: different sizes or \
                  decoded formats, a cube face that is not square, or no image.",
        fix: "Give images of one size and kind (all 8-bit, all 16-bit or all HDR); cube faces \
              square, six of them in the order +X, -X, +Y, -Y, +Z, -Z.",
    },
];
