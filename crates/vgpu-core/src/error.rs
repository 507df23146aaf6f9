//! Error plumbing shared by every vgpu crate.
//!
//! Each area has its own `thiserror` enum (device, shader, set, bind, frame, …). Every variant
//! carries a stable code of the form `VGPU-AREA-WHAT`, returned by [`ErrorCode::code`] and printed
//! at the start of its message, so a user can search for it and tests can assert it.

use std::fmt;

/// A stable, searchable code for an error variant (`VGPU-…`).
pub trait ErrorCode {
    /// The variant's stable code, e.g. `"VGPU-SET-VALUE-INVALID"`.
    fn code(&self) -> &'static str;
}

/// Errors from the device layer: adapter selection, device creation, and wgpu validation of the
/// objects the framework creates.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DeviceError {
    /// `VGPU_BACKEND` (or [`BackendChoice::parse`](crate::BackendChoice::parse)) got an unknown name.
    #[error(
        "VGPU-DEVICE-BACKEND-UNKNOWN: unknown backend {actual:?} in {source_name}; expected one of: auto, vulkan, gl, metal, dx12, webgpu, noop"
    )]
    UnknownBackend {
        /// Where the value came from (`VGPU_BACKEND` or `GpuOptions::backend`).
        source_name: &'static str,
        /// The value given.
        actual: String,
    },
    /// An environment variable that switches a feature on or off holds something else.
    #[error(
        "VGPU-DEVICE-ENV-SWITCH: {name}={actual:?} is not a switch; expected one of: 0, 1, off, on, false, true"
    )]
    BadSwitch {
        /// The variable (`VGPU_AUTO_BUNDLES`, `VGPU_PARALLEL_FINISH`).
        name: &'static str,
        /// The value it holds.
        actual: String,
    },
    /// No adapter could be found; lists every backend tried and why it failed.
    #[error("VGPU-DEVICE-NO-ADAPTER: no GPU adapter found for backend choice {requested}; tried: {}", format_attempts(.attempts))]
    NoAdapter {
        /// The backend choice that was requested.
        requested: String,
        /// Every attempt, in order.
        attempts: Vec<AdapterAttempt>,
    },
    /// wgpu rejected an operation of the framework or of the user. Carries wgpu's full description.
    #[error("VGPU-DEVICE-VALIDATION: {operation} {label:?} failed wgpu validation: {description}")]
    Validation {
        /// What was being done (`create_buffer`, `create_bind_group`, …).
        operation: &'static str,
        /// The label of the object involved (empty if none).
        label: String,
        /// wgpu's description of the error (not its terse `Display`).
        description: String,
    },
    /// The device ran out of memory for an operation.
    #[error("VGPU-DEVICE-OUT-OF-MEMORY: {operation} {label:?}: {description}")]
    OutOfMemory {
        /// What was being done.
        operation: &'static str,
        /// The label of the object involved.
        label: String,
        /// wgpu's description.
        description: String,
    },
    /// A device-internal error.
    #[error("VGPU-DEVICE-INTERNAL: {operation} {label:?}: {description}")]
    Internal {
        /// What was being done.
        operation: &'static str,
        /// The label of the object involved.
        label: String,
        /// wgpu's description.
        description: String,
    },
    /// The device was lost: destroyed with `wgpu::Device::destroy`, or lost by the driver (a GPU
    /// reset or hang, the device out of memory, an unplugged GPU). Every later call of this
    /// `Gpu` (or of a handle made from it) that needs the device fails with this code; values
    /// and handles cannot be moved to another device.
    ///
    /// Fix: drop this `Gpu` and its handles, create a new one (`Gpu::new`, `Gpu::from_env`,
    /// `Gpu::noop`), and create the shaders, draws, uniforms and targets again on it.
    ///
    /// vgpu learns of the loss from wgpu's device-lost callback, from a failed submission at
    /// the end of a frame, or from a check of the device at object creation, read-back and
    /// `wait_idle`; calls that do not reach the device (setting a value held on the CPU) keep
    /// working.
    #[error(
        "VGPU-DEVICE-LOST: {operation}: the device was lost ({reason:?}: {message}); this Gpu and every handle made from it can no longer be used: create a new Gpu"
    )]
    Lost {
        /// The call that found the device lost.
        operation: &'static str,
        /// wgpu's reason: `Destroyed` (`Device::destroy` was called) or `Unknown` (lost by the
        /// driver or the backend).
        reason: wgpu::DeviceLostReason,
        /// wgpu's message, or what vgpu observed when wgpu gave none.
        message: String,
    },
    /// Waiting for the device failed (lost device, timeout).
    #[error("VGPU-DEVICE-POLL: waiting for the device failed: {description}")]
    Poll {
        /// wgpu's description.
        description: String,
    },
    /// A buffer map for read-back failed.
    #[error("VGPU-DEVICE-MAP: mapping {label:?} for read-back failed: {description}")]
    Map {
        /// Buffer label.
        label: String,
        /// wgpu's description.
        description: String,
    },
    /// A window surface could not be created, configured or acquired.
    #[error("VGPU-SURFACE: {description}")]
    Surface {
        /// What failed, with wgpu's description.
        description: String,
    },
    /// A blocking call would have to wait, which the web does not allow (wasm32: the browser's
    /// main thread cannot block); its async form works there.
    #[error(
        "VGPU-DEVICE-WOULD-BLOCK: {operation} would have to wait, which a browser's main thread cannot do; use {alternative} instead"
    )]
    WouldBlock {
        /// The blocking call.
        operation: &'static str,
        /// What to use instead (its async form).
        alternative: &'static str,
    },
}

impl ErrorCode for DeviceError {
    fn code(&self) -> &'static str {
        match self {
            DeviceError::UnknownBackend { .. } => "VGPU-DEVICE-BACKEND-UNKNOWN",
            DeviceError::BadSwitch { .. } => "VGPU-DEVICE-ENV-SWITCH",
            DeviceError::NoAdapter { .. } => "VGPU-DEVICE-NO-ADAPTER",
            DeviceError::Validation { .. } => "VGPU-DEVICE-VALIDATION",
            DeviceError::OutOfMemory { .. } => "VGPU-DEVICE-OUT-OF-MEMORY",
            DeviceError::Internal { .. } => "VGPU-DEVICE-INTERNAL",
            DeviceError::Lost { .. } => "VGPU-DEVICE-LOST",
            DeviceError::Poll { .. } => "VGPU-DEVICE-POLL",
            DeviceError::Map { .. } => "VGPU-DEVICE-MAP",
            DeviceError::Surface { .. } => "VGPU-SURFACE",
            DeviceError::WouldBlock { .. } => "VGPU-DEVICE-WOULD-BLOCK",
        }
    }
}

impl DeviceError {
    /// Converts a wgpu error caught by an error scope, keeping wgpu's `description`.
    pub fn from_wgpu(operation: &'static str, label: Option<&str>, error: wgpu::Error) -> Self {
        let label = label.unwrap_or_default().to_owned();
        match error {
            wgpu::Error::Validation { description, .. } => DeviceError::Validation {
                operation,
                label,
                description,
            },
            wgpu::Error::OutOfMemory { source } => DeviceError::OutOfMemory {
                operation,
                label,
                description: error_chain(&*source),
            },
            wgpu::Error::Internal { description, .. } => DeviceError::Internal {
                operation,
                label,
                description,
            },
        }
    }
}

/// `error` and its sources, `: `-separated (wgpu's out-of-memory errors carry no description of
/// their own: their `Display` names only the call).
pub(crate) fn error_chain(error: &(dyn std::error::Error + 'static)) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(e) = source {
        text.push_str(": ");
        text.push_str(&e.to_string());
        source = e.source();
    }
    text
}

/// One backend tried during adapter selection, and why it was not used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AdapterAttempt {
    /// The backend tried (`vulkan`, `gl`, …) and the kind of adapter looked for.
    pub backend: String,
    /// Why it was not used.
    pub reason: String,
}

impl fmt::Display for AdapterAttempt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.backend, self.reason)
    }
}

fn format_attempts(attempts: &[AdapterAttempt]) -> String {
    if attempts.is_empty() {
        return "nothing".to_owned();
    }
    attempts
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("; ")
}
