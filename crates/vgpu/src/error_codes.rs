//! Every `VGPU-…` code vgpu can return, with what it means and the usual fix: this crate's own
//! ([`TargetError`](crate::error::TargetError), [`BufferError`](crate::error::BufferError),
//! [`BindingError`](crate::error::BindingError), [`FrameError`](crate::error::FrameError),
//! [`ForeignGpuError`](crate::error::ForeignGpuError)) followed by those of the crates below it.
//! `docs/errors.md` is generated from [`error_codes`].

pub use vgpu_core::CodeInfo;

/// The codes of this crate's own error types.
const CODES: &[CodeInfo] = &[
    CodeInfo {
        code: "VGPU-TARGET-SIZE",
        variant: "TargetError::Size",
        meaning: "A target was asked for with a zero size or a side over the device's `max_texture_dimension_2d`.",
        fix: "Give 1..=max pixels per side.",
    },
    CodeInfo {
        code: "VGPU-TARGET-FORMAT",
        variant: "TargetError::Format",
        meaning: "A format cannot be used as a color or depth attachment, or read back.",
        fix: "Use a renderable format (`Rgba8Unorm`, `Bgra8Unorm`, `Depth32Float`, …).",
    },
    CodeInfo {
        code: "VGPU-TARGET-ATTACHMENTS",
        variant: "TargetError::Attachments",
        meaning: "A target has more color attachments or more color bytes per sample than the device allows, no attachment at all, or an attachment index past its last.",
        fix: "Use fewer or smaller color formats (e.g. `Rgba8Unorm` instead of `Rgba32Float`), or an index below `Target::color_count()`.",
    },
    CodeInfo {
        code: "VGPU-TARGET-RESIZE",
        variant: "TargetError::Resize",
        meaning: "`Target::resize` was refused: the target draws into the app's views (`Gpu::target_for_view`), whose textures vgpu does not own, or a pass that renders into it is being recorded. The target keeps its textures.",
        fix: "Resize the app's textures and make a new target over their views; resize a target before or after the passes that render into it.",
    },
    CodeInfo {
        code: "VGPU-TARGET-PNG",
        variant: "TargetError::Png",
        meaning: "Writing a PNG failed (the folder does not exist, no permission, disk full).",
        fix: "Write to an existing, writable folder.",
    },
    CodeInfo {
        code: "VGPU-BUFFER-SIZE",
        variant: "BufferError::Size",
        meaning: "A buffer was asked for with size zero or a size that is not a multiple of 4.",
        fix: "Give a non-zero multiple of 4 bytes.",
    },
    CodeInfo {
        code: "VGPU-BUFFER-RANGE",
        variant: "BufferError::Range",
        meaning: "A write or read range lies outside the buffer or is not 4-byte aligned.",
        fix: "Keep offset + length within the buffer, both multiples of 4.",
    },
    CodeInfo {
        code: "VGPU-BUFFER-DESTROYED",
        variant: "BufferError::Destroyed",
        meaning: "A buffer was written or read after `destroy()`.",
        fix: "Create a new buffer.",
    },
    CodeInfo {
        code: "VGPU-FOREIGN-GPU",
        variant: "ForeignGpuError",
        meaning: "A handle created by one `Gpu` was given to another.",
        fix: "Create the handle on (or record it with) the same `Gpu`.",
    },
    CodeInfo {
        code: "VGPU-SET-OWNERSHIP",
        variant: "BindingError::Ownership",
        meaning: "A binding latched to library-owned values was given a user buffer, or the reverse.",
        fix: "Keep one kind per binding, or create another draw.",
    },
    CodeInfo {
        code: "VGPU-SET-KIND",
        variant: "BindingError::Kind",
        meaning: "A resource does not fit the binding's kind (a sampler for a texture, a value for a texture).",
        fix: "Give what the WGSL binding declares.",
    },
    CodeInfo {
        code: "VGPU-SET-BUFFER-RANGE",
        variant: "BindingError::BufferRange",
        meaning: "A user buffer range is out of bounds, misaligned, smaller than the type, or lacks a usage.",
        fix: "Give an aligned range of at least the WGSL type's size in a buffer with the binding's usage.",
    },
    CodeInfo {
        code: "VGPU-SET-DESTROYED",
        variant: "BindingError::Destroyed",
        meaning: "A destroyed buffer or texture was bound.",
        fix: "Bind a live resource.",
    },
    CodeInfo {
        code: "VGPU-SET-LAYOUT-MISMATCH",
        variant: "BindingError::LayoutMismatch",
        meaning: "A shared uniforms block bound to a binding whose WGSL type differs from the block's layout.",
        fix: "Declare the same struct in every shader that shares the block, or use another block.",
    },
    CodeInfo {
        code: "VGPU-SET-EMPTY-ARRAY",
        variant: "BindingError::EmptyRuntimeArray",
        meaning: "A runtime-sized array was given no element (WebGPU cannot bind an empty array).",
        fix: "Keep one element and draw 0 instances, or do not record the draw.",
    },
    CodeInfo {
        code: "VGPU-DRAW-UNSET-BINDING",
        variant: "BindingError::Unset",
        meaning: "A draw was recorded with a binding never set.",
        fix: "Set every binding (`draw.set(name, …)`) before recording.",
    },
    CodeInfo {
        code: "VGPU-DRAW-VERTEX-LAYOUT",
        variant: "BindingError::VertexLayout",
        meaning: "A vertex or index buffer description does not match the shader's vertex inputs.",
        fix: "Describe one attribute per `@location` input with a matching format.",
    },
    CodeInfo {
        code: "VGPU-SHADER-GL-LAYOUT",
        variant: "BindingError::GlLayout",
        meaning: "On GL, wgpu would read this uniform type from other bytes than WGSL says (gaps after @size/@align, matCx2).",
        fix: "Avoid @size/@align gaps and matCx2 in uniform buffers, or use Vulkan.",
    },
    CodeInfo {
        code: "VGPU-FRAME-ALREADY-OPEN",
        variant: "FrameError::AlreadyOpen",
        meaning: "A frame was begun while another frame is open on the same `Gpu`.",
        fix: "Submit or cancel the open frame first.",
    },
    CodeInfo {
        code: "VGPU-DISPATCH-LIMIT",
        variant: "FrameError::DispatchLimit",
        meaning: "A dispatch asks for more workgroups per dimension than the device allows.",
        fix: "Use larger workgroups or split the dispatch.",
    },
    CodeInfo {
        code: "VGPU-BUNDLE-SIGNATURE",
        variant: "FrameError::BundleSignature",
        meaning: "A bundle recorded for one target signature was executed in a pass of another.",
        fix: "Record the bundle for the pass's target (formats, depth, samples).",
    },
    CodeInfo {
        code: "VGPU-FRAME-SURFACE-APP-ENCODER",
        variant: "FrameError::SurfaceInAppEncoder",
        meaning: "A pass into a window surface was recorded in a frame that records into the app's encoder.",
        fix: "Render the window with `gpu.frame`, or into a `Target` made from the surface texture's view.",
    },
    CodeInfo {
        code: "VGPU-BUNDLE-STALE",
        variant: "FrameError::BundleStale",
        meaning: "A bundle's draws were rebound, or their resources destroyed, since it was recorded.",
        fix: "Record the bundle again.",
    },
];

/// Every code vgpu can return, with what it means and the usual fix: vgpu's own, then those of
/// vgpu-core (device, shader, set), vgpu-uniforms and vgpu-bind.
///
/// ```
/// let info = vgpu::error_codes().find(|c| c.code == "VGPU-SET-VALUE-INVALID").unwrap();
/// assert!(info.fix.contains("shape"));
/// ```
pub fn error_codes() -> impl Iterator<Item = &'static CodeInfo> {
    CODES
        .iter()
        .chain(crate::pipeline_error::CODES)
        .chain(crate::indirect_error::CODES)
        .chain(crate::query_error::CODES)
        .chain(crate::reload_error::CODES)
        .chain(crate::app_error::CODES)
        .chain(crate::geometry_error::CODES)
        .chain(crate::texture_error::CODES)
        .chain(crate::image_error::CODES)
        .chain(vgpu_core::ERROR_CODES)
        .chain(vgpu_uniforms::ERROR_CODES)
        .chain(vgpu_bind::ERROR_CODES)
}

/// What `code` means and its usual fix (`None` for a code vgpu does not have).
///
/// ```
/// let err = vgpu::Gpu::noop().target(0, 8).unwrap_err();
/// let info = vgpu::explain(err.code()).unwrap();
/// assert_eq!(info.code, "VGPU-TARGET-SIZE");
/// ```
pub fn explain(code: &str) -> Option<&'static CodeInfo> {
    error_codes().find(|c| c.code == code)
}
