//! What each `VGPU-BIND-…` code means and how it is usually fixed.

use vgpu_core::CodeInfo;

/// The codes of [`BindError`](crate::BindError).
pub const ERROR_CODES: &[CodeInfo] = &[
    CodeInfo {
        code: "VGPU-BIND-STALE-RESOURCE",
        variant: "BindError::StaleResource",
        meaning: "A bind group names a resource key whose resource was destroyed.",
        fix: "Register the new resource and bind its key.",
    },
    CodeInfo {
        code: "VGPU-BIND-STALE-LAYOUT",
        variant: "BindError::StaleLayout",
        meaning: "A layout key refers to a layout that was destroyed.",
        fix: "Register the layout again.",
    },
    CodeInfo {
        code: "VGPU-BIND-WRONG-KIND",
        variant: "BindError::WrongKind",
        meaning: "A resource's kind does not match the layout entry (a sampler where a texture is expected).",
        fix: "Bind a resource of the kind the layout entry names.",
    },
    CodeInfo {
        code: "VGPU-BIND-RANGE",
        variant: "BindError::Range",
        meaning: "A buffer range (offset, size) does not fit the buffer or the binding's minimum size.",
        fix: "Give a range inside the buffer and at least the binding's size.",
    },
    CodeInfo {
        code: "VGPU-BIND-RANGE-NOT-BUFFER",
        variant: "BindError::RangeOnNonBuffer",
        meaning: "An offset or size was given for a texture view or sampler.",
        fix: "Give offset 0 and no size for textures and samplers.",
    },
    CodeInfo {
        code: "VGPU-BIND-ALIGNMENT",
        variant: "BindError::Alignment",
        meaning: "A buffer offset is not a multiple of the device's offset alignment for its binding type.",
        fix: "Align offsets to `min_uniform_buffer_offset_alignment` (or the storage one).",
    },
    CodeInfo {
        code: "VGPU-BIND-UNKNOWN-BINDING",
        variant: "BindError::UnknownBinding",
        meaning: "An entry names a binding number the layout does not have.",
        fix: "Use the layout's binding numbers.",
    },
    CodeInfo {
        code: "VGPU-BIND-MISSING-BINDING",
        variant: "BindError::MissingBinding",
        meaning: "The layout has a binding that no entry provides.",
        fix: "Give an entry for every binding of the layout.",
    },
    CodeInfo {
        code: "VGPU-BIND-DUPLICATE-BINDING",
        variant: "BindError::DuplicateBinding",
        meaning: "Two entries name the same binding number.",
        fix: "Give each binding number once.",
    },
    CodeInfo {
        code: "VGPU-BIND-DEVICE",
        variant: "BindError::Device",
        meaning: "wgpu rejected the bind group or layout; carries wgpu's description.",
        fix: "Read wgpu's description (usually a usage flag or a limit).",
    },
];
