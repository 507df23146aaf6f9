//! [`ReloadError`]: errors of replacing a shader under live draws ([`Gpu::replace_shader`],
//! hot reload); and their codes.
//!
//! [`Gpu::replace_shader`]: crate::Gpu::replace_shader

use vgpu_core::{CodeInfo, ErrorCode};

/// Errors of moving draws onto another shader. A refused replacement changes nothing: every
/// draw keeps its shader, its values and its pipelines.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ReloadError {
    /// A draw or compute of the replaced shader cannot take the new one: an entry point it
    /// uses is missing, its vertex inputs or fragment outputs differ, an override it sets is
    /// gone, a group it claimed changed layout.
    #[error(
        "VGPU-SHADER-RELOAD: shader {shader:?} cannot replace {replaced:?} under draw {draw:?}: {reason}"
    )]
    Incompatible {
        /// The new shader's label.
        shader: String,
        /// The replaced shader's label.
        replaced: String,
        /// The draw or compute that cannot take it.
        draw: String,
        /// What differs.
        reason: String,
    },
    /// A shader's modules cannot be watched: they are not in a folder on disk, or the folder
    /// cannot be watched (missing, no permission, the system's limit of watches).
    #[error("VGPU-SHADER-WATCH: shader {label:?}: its modules cannot be watched: {reason}")]
    Watch {
        /// The shader's label.
        label: String,
        /// Why.
        reason: String,
    },
}

impl ErrorCode for ReloadError {
    fn code(&self) -> &'static str {
        match self {
            ReloadError::Incompatible { .. } => "VGPU-SHADER-RELOAD",
            ReloadError::Watch { .. } => "VGPU-SHADER-WATCH",
        }
    }
}

/// The codes of [`ReloadError`].
pub(crate) const CODES: &[CodeInfo] = &[
    CodeInfo {
        code: "VGPU-SHADER-RELOAD",
        variant: "ReloadError::Incompatible",
        meaning: "A shader could not replace another under its draws (`Gpu::replace_shader`, hot reload): a draw's entry point is missing from it, or its vertex inputs, fragment outputs, override constants or a claimed group's layout differ from what the draw was made for. Nothing changed: the old shader keeps rendering.",
        fix: "Keep the entry points, vertex inputs and fragment outputs the draws were made with, or make new draws for the new interface.",
    },
    CodeInfo {
        code: "VGPU-SHADER-WATCH",
        variant: "ReloadError::Watch",
        meaning: "`Gpu::watch_shader` could not watch the shader's modules: they are in memory rather than in a folder, or the folder cannot be watched (missing, no permission, the system's limit of file watches).",
        fix: "Give `ShaderModules::folder` with an existing folder; on Linux raise `fs.inotify.max_user_watches` if the limit is reached.",
    },
];
