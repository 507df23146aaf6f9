//! [`BindError`]: every way registering a resource or getting a bind group can fail.

use vgpu_core::{DeviceError, ErrorCode};

use crate::registry::{LayoutKey, ResourceKey};

/// Errors of the resource registry and the bind-group cache.
///
/// Every variant names the layout, the binding and the resource label involved, and prints its
/// stable code (see [`ErrorCode::code`]) at the start of its message.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum BindError {
    /// A [`ResourceKey`] refers to a resource that was destroyed (its key is generational, so it
    /// never resolves again, even if its slot is reused).
    #[error(
        "VGPU-BIND-STALE-RESOURCE: binding {binding} of layout {layout:?} uses resource {label:?} ({key:?}), which was destroyed"
    )]
    StaleResource {
        /// Label of the layout being bound.
        layout: String,
        /// The binding number that named the stale key.
        binding: u32,
        /// Label the resource had when it was registered (`<unknown>` once forgotten).
        label: String,
        /// The stale key.
        key: ResourceKey,
    },
    /// A [`LayoutKey`] refers to a layout that was destroyed.
    #[error("VGPU-BIND-STALE-LAYOUT: bind group layout {label:?} ({key:?}) was destroyed")]
    StaleLayout {
        /// Label the layout had when it was registered (`<unknown>` once forgotten).
        label: String,
        /// The stale key.
        key: LayoutKey,
    },
    /// The resource's kind does not match what the layout entry expects.
    #[error(
        "VGPU-BIND-WRONG-KIND: binding {binding} of layout {layout:?} expects {expected}, got {actual} {label:?}"
    )]
    WrongKind {
        /// Label of the layout.
        layout: String,
        /// The binding number.
        binding: u32,
        /// Label of the resource given.
        label: String,
        /// What the layout entry expects (`a buffer`, `a texture view`, `a sampler`, …).
        expected: &'static str,
        /// What was given.
        actual: &'static str,
    },
    /// A buffer range (offset, size) does not fit the registered buffer.
    #[error(
        "VGPU-BIND-RANGE: {at}: buffer {label:?}: {what}: expected {relation} {expected}, got {actual}"
    )]
    Range {
        /// Where: `binding N of layout "…"` or `register_buffer_range`.
        at: String,
        /// Label of the buffer.
        label: String,
        /// The quantity checked (`end of the range (offset + size)`, `binding size`, …).
        what: &'static str,
        /// `at most` or `at least`.
        relation: &'static str,
        /// The bound.
        expected: u64,
        /// The value given.
        actual: u64,
    },
    /// An offset or size was given for a texture view or sampler (they only apply to buffers).
    #[error(
        "VGPU-BIND-RANGE-NOT-BUFFER: binding {binding} of layout {layout:?}: {label:?} is {actual}; expected offset 0 and no size, got offset {offset} and size {size:?}"
    )]
    RangeOnNonBuffer {
        /// Label of the layout.
        layout: String,
        /// The binding number.
        binding: u32,
        /// Label of the resource.
        label: String,
        /// The resource's kind.
        actual: &'static str,
        /// The offset given.
        offset: u64,
        /// The size given.
        size: Option<u64>,
    },
    /// A buffer offset is not a multiple of the device's offset alignment for that binding type.
    #[error(
        "VGPU-BIND-ALIGNMENT: binding {binding} of layout {layout:?}: buffer {label:?} offset {actual} is not a multiple of {expected}"
    )]
    Alignment {
        /// Label of the layout.
        layout: String,
        /// The binding number.
        binding: u32,
        /// Label of the buffer.
        label: String,
        /// The required alignment (`min_uniform_buffer_offset_alignment` or the storage one).
        expected: u64,
        /// The absolute offset in the buffer.
        actual: u64,
    },
    /// An entry names a binding number the layout does not have.
    #[error("VGPU-BIND-UNKNOWN-BINDING: layout {layout:?} has no binding {binding}")]
    UnknownBinding {
        /// Label of the layout.
        layout: String,
        /// The binding number given.
        binding: u32,
    },
    /// The layout has a binding no entry provides.
    #[error("VGPU-BIND-MISSING-BINDING: layout {layout:?} needs binding {binding}, none was given")]
    MissingBinding {
        /// Label of the layout.
        layout: String,
        /// The first binding without an entry.
        binding: u32,
    },
    /// Two entries name the same binding number.
    #[error("VGPU-BIND-DUPLICATE-BINDING: layout {layout:?}: binding {binding} given twice")]
    DuplicateBinding {
        /// Label of the layout.
        layout: String,
        /// The duplicated binding number.
        binding: u32,
    },
    /// wgpu rejected the bind group or layout (carries wgpu's description).
    #[error("VGPU-BIND-DEVICE: layout {layout:?}: {source}")]
    Device {
        /// Label of the layout.
        layout: String,
        /// The device error, with wgpu's full description.
        #[source]
        source: DeviceError,
    },
}

impl ErrorCode for BindError {
    fn code(&self) -> &'static str {
        match self {
            BindError::StaleResource { .. } => "VGPU-BIND-STALE-RESOURCE",
            BindError::StaleLayout { .. } => "VGPU-BIND-STALE-LAYOUT",
            BindError::WrongKind { .. } => "VGPU-BIND-WRONG-KIND",
            BindError::Range { .. } => "VGPU-BIND-RANGE",
            BindError::RangeOnNonBuffer { .. } => "VGPU-BIND-RANGE-NOT-BUFFER",
            BindError::Alignment { .. } => "VGPU-BIND-ALIGNMENT",
            BindError::UnknownBinding { .. } => "VGPU-BIND-UNKNOWN-BINDING",
            BindError::MissingBinding { .. } => "VGPU-BIND-MISSING-BINDING",
            BindError::DuplicateBinding { .. } => "VGPU-BIND-DUPLICATE-BINDING",
            BindError::Device { .. } => "VGPU-BIND-DEVICE",
        }
    }
}
