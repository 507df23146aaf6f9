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
    /// Too many color attachments, too many color bytes per sample, none at all, or an
    /// attachment index past the last.
    #[error("VGPU-TARGET-ATTACHMENTS: target {label:?}: {what}: expected {expected}, got {actual}")]
    Attachments {
        /// Target label.
        label: String,
        /// What is wrong.
        what: &'static str,
        /// What would be accepted.
        expected: String,
        /// What was given.
        actual: String,
    },
    /// A target cannot be resized: it draws into the app's views, or a pass that renders into
    /// it is being recorded.
    #[error("VGPU-TARGET-RESIZE: target {label:?} cannot be resized: {reason}")]
    Resize {
        /// Target label.
        label: String,
        /// Why, and what to do instead.
        reason: &'static str,
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
            TargetError::Attachments { .. } => "VGPU-TARGET-ATTACHMENTS",
            TargetError::Resize { .. } => "VGPU-TARGET-RESIZE",
        }
    }
}

/// Errors of user buffers.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum BufferError {
    /// Size zero or not a multiple of 4.
    #[error(
        "VGPU-BUFFER-SIZE: buffer {label:?}: size {actual} is invalid; expected a non-zero multiple of 4"
    )]
    Size {
        /// Buffer label.
        label: String,
        /// Size asked for.
        actual: u64,
    },
    /// A write or read range outside the buffer, or misaligned.
    #[error("VGPU-BUFFER-RANGE: buffer {label:?}: {what}: expected {expected}, got {actual}")]
    Range {
        /// Buffer label.
        label: String,
        /// What is wrong.
        what: &'static str,
        /// What would be accepted.
        expected: String,
        /// What was given.
        actual: String,
    },
    /// The buffer was destroyed.
    #[error("VGPU-BUFFER-DESTROYED: buffer {label:?} was destroyed")]
    Destroyed {
        /// Buffer label.
        label: String,
    },
}

impl ErrorCode for BufferError {
    fn code(&self) -> &'static str {
        match self {
            BufferError::Size { .. } => "VGPU-BUFFER-SIZE",
            BufferError::Range { .. } => "VGPU-BUFFER-RANGE",
            BufferError::Destroyed { .. } => "VGPU-BUFFER-DESTROYED",
        }
    }
}

/// A handle of one [`Gpu`](crate::Gpu) given to another: every handle carries the identity of
/// the `Gpu` that created it (its objects live on that device and in its state).
#[derive(Debug, thiserror::Error)]
#[error(
    "VGPU-FOREIGN-GPU: {kind} {label:?} belongs to another Gpu than the one {used_by}; create it on (or record it with) the same Gpu"
)]
#[non_exhaustive]
pub struct ForeignGpuError {
    /// What the handle is: `draw`, `compute`, `shader`, `uniforms block`, `buffer`, `texture`,
    /// `sampler`, `target` or `bundle`.
    pub kind: &'static str,
    /// The handle's label.
    pub label: String,
    /// Where it was given (`recording`, `of draw "x" (binding `frame`)`, …).
    pub used_by: String,
}

impl ErrorCode for ForeignGpuError {
    fn code(&self) -> &'static str {
        "VGPU-FOREIGN-GPU"
    }
}

/// The error for a handle of another `Gpu` (see [`ForeignGpuError`]).
#[cold]
pub(crate) fn foreign_gpu(kind: &'static str, label: &str, used_by: impl Into<String>) -> Error {
    ForeignGpuError {
        kind,
        label: label.to_owned(),
        used_by: used_by.into(),
    }
    .into()
}

/// Every error vgpu returns. Match on the area, or call [`ErrorCode::code`].
///
/// Each area's error is boxed so `Result<T, Error>` stays two words wide on hot paths:
/// `match &err { Error::Set(e) => match &**e { SetError::ValueInvalid { .. } => … } }`.
///
/// `Debug` shows the code and the full message (what `fn main() -> vgpu::Result<()>` prints):
/// `Error(VGPU-SET-BINDING-UNKNOWN: draw "x": …)`; `{:#?}` adds the area's structured fields.
#[derive(thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// Device selection, creation, or wgpu validation.
    #[error(transparent)]
    Device(Box<DeviceError>),
    /// Targets, read-back and images.
    #[error(transparent)]
    Target(Box<TargetError>),
    /// User buffers.
    #[error(transparent)]
    Buffer(Box<BufferError>),
    /// WGSL parsing, validation, entry points and layouts.
    #[error(transparent)]
    Shader(Box<vgpu_core::ShaderError>),
    /// Values that do not fit their WGSL type, unknown names.
    #[error(transparent)]
    Set(Box<vgpu_core::SetError>),
    /// Binding resources to draws and recording them.
    #[error(transparent)]
    Binding(Box<BindingError>),
    /// Frames, passes, dispatches, bundles.
    #[error(transparent)]
    Frame(Box<FrameError>),
    /// A handle of another `Gpu`.
    #[error(transparent)]
    ForeignGpu(Box<ForeignGpuError>),
    /// Render and compute pipeline state: attachments, stencil, constants, features.
    #[error(transparent)]
    Pipeline(Box<crate::pipeline_error::PipelineError>),
    /// Indirect and multi-draw calls.
    #[error(transparent)]
    Indirect(Box<crate::indirect_error::IndirectError>),
    /// Occlusion queries.
    #[error(transparent)]
    Query(Box<crate::query_error::QueryError>),
    /// Replacing a shader under live draws (hot reload).
    #[error(transparent)]
    Reload(Box<crate::reload_error::ReloadError>),
    /// The app runner (`vgpu::app::run`): a panicking callback, no window.
    #[error(transparent)]
    App(Box<crate::app_error::AppError>),
    /// Geometry primitives, meshes, and draws from meshes.
    #[error(transparent)]
    Geometry(Box<crate::geometry_error::GeometryError>),
    /// Textures: kinds, views, writes, read-back, mipmaps.
    #[error(transparent)]
    Texture(Box<crate::texture_error::TextureError>),
    /// Image files decoded into textures (the `image` feature).
    #[error(transparent)]
    Image(Box<crate::image_error::ImageError>),
}

macro_rules! boxed_from {
    ($($variant:ident($ty:ty)),* $(,)?) => {
        $(impl From<$ty> for Error {
            #[cold]
            fn from(e: $ty) -> Self {
                Error::$variant(Box::new(e))
            }
        })*
    };
}

boxed_from! {
    Device(DeviceError),
    Target(TargetError),
    Buffer(BufferError),
    Shader(vgpu_core::ShaderError),
    Set(vgpu_core::SetError),
    Binding(BindingError),
    Frame(FrameError),
    ForeignGpu(ForeignGpuError),
    Pipeline(crate::pipeline_error::PipelineError),
    Indirect(crate::indirect_error::IndirectError),
    Query(crate::query_error::QueryError),
    Reload(crate::reload_error::ReloadError),
    App(crate::app_error::AppError),
    Geometry(crate::geometry_error::GeometryError),
    Texture(crate::texture_error::TextureError),
    Image(crate::image_error::ImageError),
}

impl From<vgpu_uniforms::UniformsError> for Error {
    /// A device failure is one error whatever found it (`VGPU-DEVICE-LOST`,
    /// `VGPU-DEVICE-OUT-OF-MEMORY`, …: [`Error::Device`]).
    #[cold]
    fn from(e: vgpu_uniforms::UniformsError) -> Self {
        match e {
            vgpu_uniforms::UniformsError::Device(device) => device.into(),
            e => Error::Binding(Box::new(BindingError::Uniforms(e))),
        }
    }
}

impl From<vgpu_bind::BindError> for Error {
    /// A lost device is one error whatever found it (`VGPU-DEVICE-LOST`, not the cache's
    /// `VGPU-BIND-DEVICE`).
    #[cold]
    fn from(e: vgpu_bind::BindError) -> Self {
        match e {
            vgpu_bind::BindError::Device {
                source: lost @ DeviceError::Lost { .. },
                ..
            } => lost.into(),
            e => Error::Binding(Box::new(BindingError::Bind(e))),
        }
    }
}

impl ErrorCode for Error {
    fn code(&self) -> &'static str {
        match self {
            Error::Device(e) => e.code(),
            Error::Target(e) => e.code(),
            Error::Buffer(e) => e.code(),
            Error::Shader(e) => e.code(),
            Error::Set(e) => e.code(),
            Error::Binding(e) => e.code(),
            Error::Frame(e) => e.code(),
            Error::ForeignGpu(e) => e.code(),
            Error::Pipeline(e) => e.code(),
            Error::Indirect(e) => e.code(),
            Error::Query(e) => e.code(),
            Error::Reload(e) => e.code(),
            Error::App(e) => e.code(),
            Error::Geometry(e) => e.code(),
            Error::Texture(e) => e.code(),
            Error::Image(e) => e.code(),
        }
    }
}

impl std::fmt::Debug for Error {
    /// `Error(CODE: message)`; with `{:#?}`, `Error { message: …, detail: <the area's fields> }`.
    /// The code is written in front of the message only if the message does not start with it.
    #[cold]
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let message = self.to_string();
        let code = self.code();
        let message = if message.starts_with(code) {
            message
        } else {
            format!("{code}: {message}")
        };
        if !f.alternate() {
            return f
                .debug_tuple("Error")
                .field(&format_args!("{message}"))
                .finish();
        }
        let detail: &dyn std::fmt::Debug = match self {
            Error::Device(e) => e,
            Error::Target(e) => e,
            Error::Buffer(e) => e,
            Error::Shader(e) => e,
            Error::Set(e) => e,
            Error::Binding(e) => e,
            Error::Frame(e) => e,
            Error::ForeignGpu(e) => e,
            Error::Pipeline(e) => e,
            Error::Indirect(e) => e,
            Error::Query(e) => e,
            Error::Reload(e) => e,
            Error::App(e) => e,
            Error::Geometry(e) => e,
            Error::Texture(e) => e,
            Error::Image(e) => e,
        };
        f.debug_struct("Error")
            .field("message", &format_args!("{message}"))
            .field("detail", detail)
            .finish()
    }
}

impl Error {
    /// The stable `VGPU-…` code of this error.
    pub fn code(&self) -> &'static str {
        ErrorCode::code(self)
    }
    /// The device error, if this is one.
    pub fn as_device(&self) -> Option<&DeviceError> {
        if let Error::Device(e) = self {
            Some(e)
        } else {
            None
        }
    }
    /// The target error, if this is one.
    pub fn as_target(&self) -> Option<&TargetError> {
        if let Error::Target(e) = self {
            Some(e)
        } else {
            None
        }
    }
    /// The buffer error, if this is one.
    pub fn as_buffer(&self) -> Option<&BufferError> {
        if let Error::Buffer(e) = self {
            Some(e)
        } else {
            None
        }
    }
    /// The shader error, if this is one.
    pub fn as_shader(&self) -> Option<&vgpu_core::ShaderError> {
        if let Error::Shader(e) = self {
            Some(e)
        } else {
            None
        }
    }
    /// The value error, if this is one.
    pub fn as_set(&self) -> Option<&vgpu_core::SetError> {
        if let Error::Set(e) = self {
            Some(e)
        } else {
            None
        }
    }
    /// The binding error, if this is one.
    pub fn as_binding(&self) -> Option<&BindingError> {
        if let Error::Binding(e) = self {
            Some(e)
        } else {
            None
        }
    }
    /// The foreign-handle error, if this is one.
    pub fn as_foreign_gpu(&self) -> Option<&ForeignGpuError> {
        if let Error::ForeignGpu(e) = self {
            Some(e)
        } else {
            None
        }
    }
    /// The frame error, if this is one.
    pub fn as_frame(&self) -> Option<&FrameError> {
        if let Error::Frame(e) = self {
            Some(e)
        } else {
            None
        }
    }
    /// The pipeline-state error, if this is one.
    pub fn as_pipeline(&self) -> Option<&crate::pipeline_error::PipelineError> {
        if let Error::Pipeline(e) = self {
            Some(e)
        } else {
            None
        }
    }
    /// The indirect-draw error, if this is one.
    pub fn as_indirect(&self) -> Option<&crate::indirect_error::IndirectError> {
        if let Error::Indirect(e) = self {
            Some(e)
        } else {
            None
        }
    }
    /// The occlusion-query error, if this is one.
    pub fn as_query(&self) -> Option<&crate::query_error::QueryError> {
        if let Error::Query(e) = self {
            Some(e)
        } else {
            None
        }
    }
    /// The shader-replacement error, if this is one.
    pub fn as_reload(&self) -> Option<&crate::reload_error::ReloadError> {
        if let Error::Reload(e) = self {
            Some(e)
        } else {
            None
        }
    }
    /// The app runner's error, if this is one.
    pub fn as_app(&self) -> Option<&crate::app_error::AppError> {
        if let Error::App(e) = self {
            Some(e)
        } else {
            None
        }
    }
    /// The geometry or mesh error, if this is one.
    pub fn as_geometry(&self) -> Option<&crate::geometry_error::GeometryError> {
        if let Error::Geometry(e) = self {
            Some(e)
        } else {
            None
        }
    }
    /// The texture error, if this is one.
    pub fn as_texture(&self) -> Option<&crate::texture_error::TextureError> {
        if let Error::Texture(e) = self {
            Some(e)
        } else {
            None
        }
    }
    /// The image-file error, if this is one.
    pub fn as_image(&self) -> Option<&crate::image_error::ImageError> {
        if let Error::Image(e) = self {
            Some(e)
        } else {
            None
        }
    }
}

/// `Result` with vgpu's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Errors of binding resources and values to draws, effects and computes, and of recording them.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum BindingError {
    /// The binding was latched library-owned (a value or uniforms block) and is now given a
    /// user-owned resource, or the reverse.
    #[error(
        "VGPU-SET-OWNERSHIP: {label:?}: binding `{binding}` is {current}; it cannot switch to {requested} (create another draw, or keep binding {current})"
    )]
    Ownership {
        /// Draw label.
        label: String,
        /// WGSL binding name.
        binding: String,
        /// What the binding is latched to.
        current: &'static str,
        /// What was given.
        requested: &'static str,
    },
    /// The resource does not fit the binding's kind (e.g. a sampler for a texture).
    #[error("VGPU-SET-KIND: {label:?}: binding `{binding}` expects {expected}, got {actual}")]
    Kind {
        /// Draw label.
        label: String,
        /// WGSL binding name.
        binding: String,
        /// The reflected kind.
        expected: String,
        /// What was given.
        actual: String,
    },
    /// A buffer range is out of bounds, misaligned, smaller than the type, or lacks a usage.
    #[error(
        "VGPU-SET-BUFFER-RANGE: {label:?}: binding `{binding}`: {what}: expected {expected}, got {actual}"
    )]
    BufferRange {
        /// Draw label.
        label: String,
        /// WGSL binding name.
        binding: String,
        /// What is wrong.
        what: &'static str,
        /// What would be accepted.
        expected: String,
        /// What was given.
        actual: String,
    },
    /// The resource was destroyed.
    #[error("VGPU-SET-DESTROYED: {label:?}: binding `{binding}`: {resource} was destroyed")]
    Destroyed {
        /// Draw label.
        label: String,
        /// WGSL binding name.
        binding: String,
        /// The destroyed resource.
        resource: String,
    },
    /// A uniforms block already adopted a layout that differs from this binding's type.
    /// Blocks are compared by shape (member names, types, offsets, sizes), not by struct name.
    #[error(
        "VGPU-SET-LAYOUT-MISMATCH: {label:?}: binding `{binding}` has type {expected}; uniforms block {block:?} has layout {actual}, fixed by {fixed_by}; first difference: {difference}"
    )]
    LayoutMismatch {
        /// Draw label.
        label: String,
        /// WGSL binding name.
        binding: String,
        /// The block label.
        block: String,
        /// The binding's type.
        expected: String,
        /// The block's adopted type.
        actual: String,
        /// The draw and binding that gave the block its layout.
        fixed_by: String,
        /// The first member that differs, with both sides.
        difference: String,
    },
    /// A value for a runtime-sized array with no element: WebGPU cannot bind an array of length
    /// zero, so the binding keeps its previous value.
    #[error(
        "VGPU-SET-EMPTY-ARRAY: {label:?}: binding `{binding}`: the runtime-sized array {path} needs at least one element (got 0); keep one element and draw 0 instances, or do not record the draw"
    )]
    EmptyRuntimeArray {
        /// Draw label.
        label: String,
        /// WGSL binding name.
        binding: String,
        /// The array's field path (`$` for a top-level array, `$.items` for a struct's tail).
        path: String,
    },
    /// A draw was recorded with a binding never set.
    #[error(
        "VGPU-DRAW-UNSET-BINDING: {label:?}: binding `{binding}` (group {group}, binding {index}) was never set; call set(\"{binding}\", …) before recording"
    )]
    Unset {
        /// Draw label.
        label: String,
        /// WGSL binding name.
        binding: String,
        /// Group number.
        group: u32,
        /// Binding number.
        index: u32,
    },
    /// A vertex or index buffer description does not match the shader's vertex inputs.
    #[error("VGPU-DRAW-VERTEX-LAYOUT: {label:?}: {what}: expected {expected}, got {actual}")]
    VertexLayout {
        /// Draw label.
        label: String,
        /// What is wrong.
        what: String,
        /// What the shader needs.
        expected: String,
        /// What was given.
        actual: String,
    },
    /// On the GL backend, wgpu lays out this binding's type differently from WGSL (members after
    /// `@size`/`@align` gaps, `matCx2` in uniform buffers: gfx-rs/wgpu#4374, #4371); values would
    /// be read from the wrong bytes, so the shader is refused on GL.
    #[error("VGPU-SHADER-GL-LAYOUT: shader {label:?}: binding `{binding}` would be read differently on the GL backend at {}; avoid @size/@align gaps and matCx2 in uniform buffers, or use Vulkan", .members.join(", "))]
    GlLayout {
        /// Shader label.
        label: String,
        /// WGSL binding name.
        binding: String,
        /// The affected members (paths like `$.m` or `$.b`).
        members: Vec<String>,
    },
    /// The uniforms block or value could not be captured (engine error).
    #[error(transparent)]
    Uniforms(#[from] vgpu_uniforms::UniformsError),
    /// Bind-group creation or lookup failed.
    #[error(transparent)]
    Bind(#[from] vgpu_bind::BindError),
}

impl ErrorCode for BindingError {
    fn code(&self) -> &'static str {
        match self {
            BindingError::Ownership { .. } => "VGPU-SET-OWNERSHIP",
            BindingError::Kind { .. } => "VGPU-SET-KIND",
            BindingError::BufferRange { .. } => "VGPU-SET-BUFFER-RANGE",
            BindingError::Destroyed { .. } => "VGPU-SET-DESTROYED",
            BindingError::LayoutMismatch { .. } => "VGPU-SET-LAYOUT-MISMATCH",
            BindingError::EmptyRuntimeArray { .. } => "VGPU-SET-EMPTY-ARRAY",
            BindingError::Unset { .. } => "VGPU-DRAW-UNSET-BINDING",
            BindingError::VertexLayout { .. } => "VGPU-DRAW-VERTEX-LAYOUT",
            BindingError::GlLayout { .. } => "VGPU-SHADER-GL-LAYOUT",
            BindingError::Uniforms(e) => e.code(),
            BindingError::Bind(e) => e.code(),
        }
    }
}

/// Errors of frames, passes, dispatches and bundles.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum FrameError {
    /// A frame was begun while another is open on the same `Gpu`.
    #[error(
        "VGPU-FRAME-ALREADY-OPEN: a frame is already open on this Gpu; submit or cancel it first"
    )]
    AlreadyOpen,
    /// A dispatch exceeds `max_compute_workgroups_per_dimension`.
    #[error(
        "VGPU-DISPATCH-LIMIT: {label:?}: dispatch {actual:?} workgroups; expected at most {expected} per dimension"
    )]
    DispatchLimit {
        /// Compute label.
        label: String,
        /// The device limit.
        expected: u32,
        /// The dispatch size.
        actual: [u32; 3],
    },
    /// A bundle was recorded for another target signature than the pass's.
    #[error(
        "VGPU-BUNDLE-SIGNATURE: bundle {label:?} was recorded for {expected:?}, the pass renders to {actual:?}"
    )]
    BundleSignature {
        /// Bundle label.
        label: String,
        /// The bundle's signature.
        expected: crate::descriptors::TargetSignature,
        /// The pass's.
        actual: crate::descriptors::TargetSignature,
    },
    /// A pass into a window surface in a frame recorded into the app's encoder
    /// ([`Gpu::frame_in`](crate::Gpu::frame_in)): presenting needs vgpu's own submit.
    #[error(
        "VGPU-FRAME-SURFACE-APP-ENCODER: surface {surface:?}: a frame recorded into the app's encoder cannot present (the app submits); render the window with gpu.frame, or into a Target made from the surface texture's view"
    )]
    SurfaceInAppEncoder {
        /// The surface's label.
        surface: String,
    },
    /// A bundle's recorded resources were destroyed or rebound since it was recorded.
    #[error("VGPU-BUNDLE-STALE: bundle {label:?}: draw {draw:?} {reason}; record the bundle again")]
    BundleStale {
        /// Bundle label.
        label: String,
        /// The draw whose bindings changed.
        draw: String,
        /// What changed.
        reason: String,
    },
}

impl ErrorCode for FrameError {
    fn code(&self) -> &'static str {
        match self {
            FrameError::SurfaceInAppEncoder { .. } => "VGPU-FRAME-SURFACE-APP-ENCODER",
            FrameError::AlreadyOpen => "VGPU-FRAME-ALREADY-OPEN",
            FrameError::DispatchLimit { .. } => "VGPU-DISPATCH-LIMIT",
            FrameError::BundleSignature { .. } => "VGPU-BUNDLE-SIGNATURE",
            FrameError::BundleStale { .. } => "VGPU-BUNDLE-STALE",
        }
    }
}
