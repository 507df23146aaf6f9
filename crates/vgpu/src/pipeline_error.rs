//! [`PipelineError`]: errors of render state, color attachments, stencil, override constants,
//! claimed groups and pipeline preparation, caught before wgpu sees them; and their codes.

use vgpu_core::{CodeInfo, ErrorCode};

/// Errors of a draw's or compute's pipeline state, checked before wgpu sees it.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum PipelineError {
    /// A feature the adapter lacks was needed (unclipped depth, multi-draw-indirect-count, …).
    #[error(
        "VGPU-FEATURE-MISSING: {label:?}: {what} needs the device feature {feature:?}, which this device was not created with (the adapter may lack it); request it in GpuOptions::features where the adapter has it"
    )]
    FeatureMissing {
        /// The draw, compute or pass label.
        label: String,
        /// What needed it.
        what: &'static str,
        /// The missing feature.
        feature: wgpu::Features,
    },
}

impl ErrorCode for PipelineError {
    fn code(&self) -> &'static str {
        match self {
            PipelineError::FeatureMissing { .. } => "VGPU-FEATURE-MISSING",
        }
    }
}

/// The codes of [`PipelineError`].
pub(crate) const CODES: &[CodeInfo] = &[CodeInfo {
    code: "VGPU-FEATURE-MISSING",
    variant: "PipelineError::FeatureMissing",
    meaning: "A state or call needs a device feature the `Gpu` was not created with (unclipped depth: `DEPTH_CLIP_CONTROL`; multi-draw-indirect-count: `MULTI_DRAW_INDIRECT_COUNT`; …).",
    fix: "Request the feature in `GpuOptions::features` on an adapter that has it, or do without the state or call.",
}];
