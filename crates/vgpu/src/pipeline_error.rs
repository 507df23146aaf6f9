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
    /// A draw blends into a color attachment whose format cannot blend.
    #[error(
        "VGPU-DRAW-BLEND: draw {label:?}: attachment {location} is {format:?}, which this device cannot blend; expected no blend for it (DrawDesc::colors) or a blendable format"
    )]
    Blend {
        /// The draw's label.
        label: String,
        /// The attachment index.
        location: u32,
        /// Its format.
        format: wgpu::TextureFormat,
    },
    /// A state the adapter cannot honour (a downlevel capability GL and WebGL2 often lack).
    #[error(
        "VGPU-DOWNLEVEL-MISSING: draw {label:?}: {what} needs the adapter capability {flag:?}, which this adapter lacks (GL and WebGL2 often do)"
    )]
    DownlevelMissing {
        /// The draw's label.
        label: String,
        /// What needed it.
        what: &'static str,
        /// The missing capability.
        flag: wgpu::DownlevelFlags,
    },
    /// A color attachment and the fragment stage's outputs do not match: an output missing for
    /// a written attachment, one of a type the format cannot store, one without an
    /// attachment, or more `DrawDesc::colors` entries than attachments.
    #[error(
        "VGPU-DRAW-COLOR-OUTPUT: draw {label:?}: @location({location}): expected {expected}, got {actual}"
    )]
    ColorOutput {
        /// The draw's label.
        label: String,
        /// The attachment index (`@location`).
        location: u32,
        /// What would match.
        expected: String,
        /// What the shader or draw has.
        actual: String,
    },
    /// A draw tests or writes stencil, but the pass's target has no stencil aspect.
    #[error(
        "VGPU-DRAW-STENCIL: draw {label:?}: its stencil state needs a depth-stencil format such as Depth24PlusStencil8; the target has {format:?}"
    )]
    Stencil {
        /// The draw's label.
        label: String,
        /// The target's depth format (`None`: no depth attachment).
        format: Option<wgpu::TextureFormat>,
    },
    /// A group number the operation's entry points do not use (claims and claimed-group calls).
    #[error(
        "VGPU-GROUP-UNKNOWN: {label:?}: group {group} is not used by its shader's entry points, which use groups 0..{groups}"
    )]
    GroupUnknown {
        /// The draw or compute label.
        label: String,
        /// The group asked for.
        group: u32,
        /// How many groups the entry points use.
        groups: u32,
    },
    /// A claimed-group call (`set_group`, `set_group_offsets`, `create_group`) on a group that
    /// was not claimed.
    #[error(
        "VGPU-GROUP-NOT-CLAIMED: {label:?}: {call} on group {group}, which vgpu manages; claim it first with claim_group({group}, ..)"
    )]
    GroupNotClaimed {
        /// The draw or compute label.
        label: String,
        /// The group.
        group: u32,
        /// The call.
        call: &'static str,
    },
    /// A binding set into a group the caller claimed.
    #[error(
        "VGPU-GROUP-CLAIMED: {label:?}: binding `{binding}` is in group {group}, which was claimed: the caller's bind group provides it (set_group), vgpu no longer sets it"
    )]
    GroupClaimed {
        /// The draw or compute label.
        label: String,
        /// The WGSL binding set.
        binding: String,
        /// Its (claimed) group.
        group: u32,
    },
    /// An operation recorded while a claimed group has no bind group.
    #[error(
        "VGPU-GROUP-UNSET: {label:?} was recorded while its claimed group {group} has no bind group: attach one with set_group({group}, ..)"
    )]
    GroupUnset {
        /// The draw or compute label.
        label: String,
        /// The claimed group.
        group: u32,
    },
    /// Dynamic offsets that the claimed group's layout cannot take (count or alignment).
    #[error("VGPU-GROUP-OFFSETS: {label:?}: group {group}: {detail}")]
    GroupOffsets {
        /// The draw or compute label.
        label: String,
        /// The claimed group.
        group: u32,
        /// What was expected and what was given.
        detail: String,
    },
    /// A bind group's entries (or a claim's layout) that differ from the shader's layout of the
    /// claimed group.
    #[error("VGPU-GROUP-LAYOUT: {label:?}: group {group}: {detail}")]
    GroupLayout {
        /// The draw or compute label.
        label: String,
        /// The claimed group.
        group: u32,
        /// The first difference: the WGSL binding, what it expects and what was given.
        detail: String,
    },
}

impl ErrorCode for PipelineError {
    fn code(&self) -> &'static str {
        match self {
            PipelineError::FeatureMissing { .. } => "VGPU-FEATURE-MISSING",
            PipelineError::DownlevelMissing { .. } => "VGPU-DOWNLEVEL-MISSING",
            PipelineError::Blend { .. } => "VGPU-DRAW-BLEND",
            PipelineError::ColorOutput { .. } => "VGPU-DRAW-COLOR-OUTPUT",
            PipelineError::Stencil { .. } => "VGPU-DRAW-STENCIL",
            PipelineError::GroupUnknown { .. } => "VGPU-GROUP-UNKNOWN",
            PipelineError::GroupNotClaimed { .. } => "VGPU-GROUP-NOT-CLAIMED",
            PipelineError::GroupClaimed { .. } => "VGPU-GROUP-CLAIMED",
            PipelineError::GroupUnset { .. } => "VGPU-GROUP-UNSET",
            PipelineError::GroupOffsets { .. } => "VGPU-GROUP-OFFSETS",
            PipelineError::GroupLayout { .. } => "VGPU-GROUP-LAYOUT",
        }
    }
}

/// The codes of [`PipelineError`].
pub(crate) const CODES: &[CodeInfo] = &[
    CodeInfo {
        code: "VGPU-FEATURE-MISSING",
        variant: "PipelineError::FeatureMissing",
        meaning: "A state or call needs a device feature the `Gpu` was not created with (unclipped depth: `DEPTH_CLIP_CONTROL`; multi-draw-indirect-count: `MULTI_DRAW_INDIRECT_COUNT`; …).",
        fix: "Request the feature in `GpuOptions::features` on an adapter that has it, or do without the state or call.",
    },
    CodeInfo {
        code: "VGPU-DOWNLEVEL-MISSING",
        variant: "PipelineError::DownlevelMissing",
        meaning: "A draw's state needs an adapter capability this adapter lacks (a depth bias clamp needs `DownlevelFlags::DEPTH_BIAS_CLAMP`, which GL and WebGL2 lack).",
        fix: "Leave the state out on such adapters (`gpu.context().adapter().get_downlevel_capabilities()` says which they have), or use another backend.",
    },
    CodeInfo {
        code: "VGPU-DRAW-BLEND",
        variant: "PipelineError::Blend",
        meaning: "A draw blends into a color attachment whose format cannot blend on this device (`Rgba32Float` without `FLOAT32_BLENDABLE`, integer formats).",
        fix: "Give that attachment no blend (`DrawDesc::colors[i].blend = None`), or use a blendable format such as `Rgba16Float`.",
    },
    CodeInfo {
        code: "VGPU-DRAW-COLOR-OUTPUT",
        variant: "PipelineError::ColorOutput",
        meaning: "A draw's fragment outputs do not match the target's color attachments: an output missing for a written attachment, one whose type the format cannot store (float vs i32 vs u32, too few components), one at a location without an attachment, or more `DrawDesc::colors` entries than attachments.",
        fix: "Write one `@location(i)` output per attachment, of the attachment's kind (`vec4f` for unorm and float formats, `vec4<u32>` for uint, …), or draw into a target with matching attachments.",
    },
    CodeInfo {
        code: "VGPU-DRAW-STENCIL",
        variant: "PipelineError::Stencil",
        meaning: "A draw with a stencil state (a compare or operation other than always/keep, or masks) was recorded into a target whose depth format has no stencil aspect.",
        fix: "Give the target a depth-stencil format (`Depth24PlusStencil8`, `Depth32FloatStencil8`), or leave `DrawDesc::stencil` at its default.",
    },
    CodeInfo {
        code: "VGPU-GROUP-UNKNOWN",
        variant: "PipelineError::GroupUnknown",
        meaning: "`claim_group` (or another claimed-group call) named a group number the draw's or compute's entry points do not use.",
        fix: "Claim one of the groups the shader's entry points use (`@group(n)` of a binding they read).",
    },
    CodeInfo {
        code: "VGPU-GROUP-NOT-CLAIMED",
        variant: "PipelineError::GroupNotClaimed",
        meaning: "`set_group`, `set_group_offsets` or `create_group` was called for a group vgpu still manages.",
        fix: "Call `claim_group(group, dynamic)` first, and build the bind group from the layout it returns.",
    },
    CodeInfo {
        code: "VGPU-GROUP-CLAIMED",
        variant: "PipelineError::GroupClaimed",
        meaning: "A binding was set (`set`, `set_all`, `Binding::set`, …) in a group the caller claimed: the caller's bind group provides it.",
        fix: "Write the caller's own resources for that group, or set bindings of the groups vgpu still manages.",
    },
    CodeInfo {
        code: "VGPU-GROUP-UNSET",
        variant: "PipelineError::GroupUnset",
        meaning: "A draw or compute was recorded while a group it claimed has no bind group attached.",
        fix: "Attach a bind group built from the claimed layout with `set_group` (or `create_group`) before recording.",
    },
    CodeInfo {
        code: "VGPU-GROUP-OFFSETS",
        variant: "PipelineError::GroupOffsets",
        meaning: "Dynamic offsets given for a claimed group do not fit its layout: another count than its dynamic buffers, or an offset not a multiple of the device's offset alignment.",
        fix: "Give one offset per dynamic buffer of the group (binding order), each a multiple of `min_uniform_buffer_offset_alignment` (uniform) or `min_storage_buffer_offset_alignment` (storage); a group claimed without dynamic offsets takes none.",
    },
    CodeInfo {
        code: "VGPU-GROUP-LAYOUT",
        variant: "PipelineError::GroupLayout",
        meaning: "A bind group's entries for a claimed group differ from the shader's layout (a missing, extra or repeated binding, another resource kind, a buffer without the usage or smaller than the type), or a dynamic claim needs more dynamic buffers than the device allows.",
        fix: "Give one entry per binding of the group, of the kind its WGSL declaration takes; claim without dynamic offsets where the device's dynamic-buffer limits are too low.",
    },
];
