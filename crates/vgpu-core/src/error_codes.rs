//! What each `VGPU-…` code of this crate means and how it is usually fixed ([`CodeInfo`]).
//!
//! Every crate of vgpu lists its own codes next to its error enums; `vgpu::error_codes()` chains
//! them, and `docs/errors.md` is generated from that list (a test fails when the list, the enums
//! and the document disagree).

/// One stable error code: what it means and the usual fix.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CodeInfo {
    /// The code, e.g. `"VGPU-SET-VALUE-INVALID"`.
    pub code: &'static str,
    /// The error type that carries it (`SetError::ValueInvalid`).
    pub variant: &'static str,
    /// What happened, in one sentence.
    pub meaning: &'static str,
    /// What usually fixes it, in one sentence.
    pub fix: &'static str,
}

/// The codes of [`DeviceError`](crate::DeviceError), [`ShaderError`](crate::ShaderError) and
/// [`SetError`](crate::SetError).
pub const ERROR_CODES: &[CodeInfo] = &[
    CodeInfo {
        code: "VGPU-DEVICE-BACKEND-UNKNOWN",
        variant: "DeviceError::UnknownBackend",
        meaning: "`VGPU_BACKEND` or `GpuOptions::backend` names no backend vgpu knows.",
        fix: "Use one of auto, vulkan, gl, metal, dx12, webgpu, noop.",
    },
    CodeInfo {
        code: "VGPU-DEVICE-ENV-SWITCH",
        variant: "DeviceError::BadSwitch",
        meaning: "`VGPU_AUTO_BUNDLES` or `VGPU_PARALLEL_FINISH` (read by `GpuOptions::from_env`) holds neither on nor off.",
        fix: "Set it to 0, 1, off, on, false or true, or unset it (on).",
    },
    CodeInfo {
        code: "VGPU-DEVICE-NO-ADAPTER",
        variant: "DeviceError::NoAdapter",
        meaning: "No adapter of the requested backend exists; the message lists every backend tried and why it failed.",
        fix: "Install a driver (Mesa's lavapipe or llvmpipe on a machine without a GPU) or choose another backend.",
    },
    CodeInfo {
        code: "VGPU-DEVICE-VALIDATION",
        variant: "DeviceError::Validation",
        meaning: "wgpu rejected an operation (of vgpu, or a raw command of yours inside a frame); carries wgpu's description.",
        fix: "Read wgpu's description: it names the object and the rule broken; for raw commands, fix the command.",
    },
    CodeInfo {
        code: "VGPU-DEVICE-OUT-OF-MEMORY",
        variant: "DeviceError::OutOfMemory",
        meaning: "The device could not allocate memory for a buffer, texture or submission.",
        fix: "Free resources (drop targets, buffers, draws) or ask for smaller ones.",
    },
    CodeInfo {
        code: "VGPU-DEVICE-INTERNAL",
        variant: "DeviceError::Internal",
        meaning: "wgpu reported an internal error of its backend (e.g. a driver refused a pipeline wgpu accepted).",
        fix: "Report it with the description and the backend; try another backend meanwhile.",
    },
    CodeInfo {
        code: "VGPU-DEVICE-LOST",
        variant: "DeviceError::Lost",
        meaning: "The device was lost (destroyed, reset or removed by the driver); names the operation that found out and wgpu's reason.",
        fix: "Drop this `Gpu` and every handle made from it, then create a new `Gpu` (`Gpu::is_lost` tells beforehand).",
    },
    CodeInfo {
        code: "VGPU-DEVICE-POLL",
        variant: "DeviceError::Poll",
        meaning: "Waiting for the device failed (the device was lost, or the wait timed out).",
        fix: "Create a new `Gpu` if the device was lost; otherwise retry the wait.",
    },
    CodeInfo {
        code: "VGPU-DEVICE-MAP",
        variant: "DeviceError::Map",
        meaning: "Mapping a read-back buffer failed (the device was lost or the buffer destroyed).",
        fix: "Keep the target or buffer alive until its read-back finished; create a new `Gpu` after a device loss.",
    },
    CodeInfo {
        code: "VGPU-SURFACE",
        variant: "DeviceError::Surface",
        meaning: "A window surface could not be created, configured or acquired (no instance, unsupported window, format or present mode).",
        fix: "Create the `Gpu` with `Gpu::new_for_window`, and use a format and present mode the window offers.",
    },
    CodeInfo {
        code: "VGPU-DEVICE-WOULD-BLOCK",
        variant: "DeviceError::WouldBlock",
        meaning: "A blocking call was made on the web, where the main thread cannot wait (wasm32 only).",
        fix: "Use the async form the message names (`Gpu::new_async`, `read_rgba8_async`, …).",
    },
    CodeInfo {
        code: "VGPU-SHADER-PARSE",
        variant: "ShaderError::Parse",
        meaning: "The WGSL source does not parse; carries naga's diagnostic with line and column.",
        fix: "Fix the WGSL at the line and column shown.",
    },
    CodeInfo {
        code: "VGPU-SHADER-MODULE",
        variant: "ShaderError::Module",
        meaning: "A shader composed from modules failed in one of them (a module or item missing, a path outside its folder, a parse or `@if` error, a limit, or naga's error at a declaration); names the module, line and column.",
        fix: "Fix the module at the place shown, or the import that names it.",
    },
    CodeInfo {
        code: "VGPU-SHADER-VALIDATION",
        variant: "ShaderError::Validation",
        meaning: "The WGSL parses but naga's validator rejects it (types, uniformity, address spaces).",
        fix: "Fix the WGSL as naga's diagnostic says.",
    },
    CodeInfo {
        code: "VGPU-SHADER-LIMIT",
        variant: "ShaderError::Limit",
        meaning: "The source exceeds a limit checked before parsing (size, expression depth, type nesting).",
        fix: "Split the shader or flatten the deep expression or type.",
    },
    CodeInfo {
        code: "VGPU-SHADER-INTERNAL",
        variant: "ShaderError::Internal",
        meaning: "naga (or, for a shader composed from modules, the WESL compiler) panicked on this source; vgpu caught the panic.",
        fix: "Report the source to naga (or wesl, as the message says); rewrite the construct meanwhile.",
    },
    CodeInfo {
        code: "VGPU-SHADER-ENTRY-POINT",
        variant: "ShaderError::EntryPoint",
        meaning: "No entry point of the requested stage and name exists; the message lists the shader's entry points.",
        fix: "Name an existing entry point in the descriptor, or add `@vertex`/`@fragment`/`@compute` functions.",
    },
    CodeInfo {
        code: "VGPU-SHADER-LAYOUT-GAP",
        variant: "ShaderError::LayoutGap",
        meaning: "The bind groups used by the entry points are not numbered 0..n without gaps.",
        fix: "Renumber the `@group`s from 0 without gaps.",
    },
    CodeInfo {
        code: "VGPU-SHADER-LAYOUT-CONFLICT",
        variant: "ShaderError::LayoutConflict",
        meaning: "Two declarations of one (group, binding) disagree in type.",
        fix: "Give each `@group/@binding` pair one declaration.",
    },
    CodeInfo {
        code: "VGPU-SHADER-HOST-SHAREABLE",
        variant: "ShaderError::HostShareable",
        meaning: "A type in a uniform or storage buffer cannot be shared with the host (e.g. `bool`).",
        fix: "Use `u32` for flags, as the hint says.",
    },
    CodeInfo {
        code: "VGPU-SHADER-UNSUPPORTED",
        variant: "ShaderError::Unsupported",
        meaning: "The shader uses something vgpu does not reflect (a stage or binding type it does not support).",
        fix: "Use raw wgpu for that part, or the binding types vgpu supports.",
    },
    CodeInfo {
        code: "VGPU-CONSTANT-UNKNOWN",
        variant: "ShaderError::ConstantUnknown",
        meaning: "A draw's or compute's `constants` names no WGSL `override` of its shader (by name or `@id`); the message lists the overrides and suggests a near name.",
        fix: "Use an override's name or its `@id` as decimal text, as the list shows.",
    },
    CodeInfo {
        code: "VGPU-CONSTANT-TYPE",
        variant: "ShaderError::ConstantType",
        meaning: "A constant's value cannot be represented in its override's type (a fraction or out of range for i32/u32, not 0/1 for bool, not finite or out of range for f32/f16).",
        fix: "Give a value the override's WGSL type holds, as the message says.",
    },
    CodeInfo {
        code: "VGPU-CONSTANT-MISSING",
        variant: "ShaderError::ConstantMissing",
        meaning: "An `override` without an initializer was given no value in `constants`.",
        fix: "Add the override (by the key the message names) to `constants`, or give it a default in WGSL.",
    },
    CodeInfo {
        code: "VGPU-CONSTANT-DUPLICATE",
        variant: "ShaderError::ConstantDuplicate",
        meaning: "One override is given two values in `constants` (one key twice, or its name and its `@id`).",
        fix: "Give each override one value.",
    },
    CodeInfo {
        code: "VGPU-SET-VALUE-INVALID",
        variant: "SetError::ValueInvalid",
        meaning: "A value's shape, type or range does not match the binding's WGSL type; names the path (`$.lights[1].color`).",
        fix: "Give the value the WGSL type's shape; the hint suggests near names.",
    },
    CodeInfo {
        code: "VGPU-SET-MEMBER-AMBIGUOUS",
        variant: "SetError::MemberAmbiguous",
        meaning: "A member shorthand names a field of more than one struct binding.",
        fix: "Set the binding by name (`draw.set(\"object\", value! { … })`).",
    },
    CodeInfo {
        code: "VGPU-SET-BINDING-UNKNOWN",
        variant: "SetError::BindingUnknown",
        meaning: "A name is neither a binding nor a member of a struct binding of the shader.",
        fix: "Use a WGSL binding name; the hint suggests the nearest one.",
    },
    CodeInfo {
        code: "VGPU-SET-POD-SIZE",
        variant: "SetError::PodSize",
        meaning: "Raw bytes (`set_bytes`, `uniforms_bytes`) do not have the binding's size.",
        fix: "Derive `vgpu::Uniform` on the Rust struct so the layout is checked, or give exactly the reflected size.",
    },
    CodeInfo {
        code: "VGPU-SET-POD-LAYOUT",
        variant: "SetError::PodLayout",
        meaning: "`TypeLayout::check_fields` found a `#[repr(C)]` field at another offset or size than the WGSL member.",
        fix: "Reorder or pad the Rust fields as the message says, or derive `vgpu::Uniform`.",
    },
    CodeInfo {
        code: "VGPU-SET-DEST-SIZE",
        variant: "SetError::DestinationSize",
        meaning: "The destination slice given to a packing call is smaller than the packed value.",
        fix: "Give a slice of at least the layout's size.",
    },
    CodeInfo {
        code: "VGPU-SET-TYPED-LAYOUT",
        variant: "SetError::TypedLayout",
        meaning: "A typed Rust value does not have the binding's WGSL layout (field order, type, missing or extra field, padding).",
        fix: "Make the Rust struct's fields follow the WGSL struct, as the path and hint say.",
    },
];
