//! What a caller asks of a new device: [`ContextOptions`], and the display windows live on.

use std::sync::Arc;

use crate::backend::{BackendChoice, backend_from_env};
use crate::error::DeviceError;

/// A display connection (winit: `event_loop.owned_display_handle()`) shared by the instances
/// vgpu creates, so window surfaces can be made on them (the GL backend needs it).
#[derive(Clone, Debug)]
pub struct SharedDisplay(Arc<dyn wgpu::wgt::WgpuHasDisplayHandle>);

impl SharedDisplay {
    /// Wraps a display handle.
    pub fn new(display: impl wgpu::wgt::WgpuHasDisplayHandle) -> Self {
        SharedDisplay(Arc::new(display))
    }
}

impl wgpu::rwh::HasDisplayHandle for SharedDisplay {
    fn display_handle(&self) -> Result<wgpu::rwh::DisplayHandle<'_>, wgpu::rwh::HandleError> {
        self.0.display_handle()
    }
}

/// How to create a device. `Default` is `auto`, high performance, no extra features, the
/// adapter's own limits, no display.
#[derive(Clone, Debug)]
pub struct ContextOptions {
    /// Which backend to use.
    pub backend: BackendChoice,
    /// Power preference among hardware adapters.
    pub power_preference: wgpu::PowerPreference,
    /// Features the device must have; selection fails with the missing ones named otherwise.
    pub required_features: wgpu::Features,
    /// Limits the device must have; `None` takes everything the adapter offers.
    pub required_limits: Option<wgpu::Limits>,
    /// Device label.
    pub label: String,
    /// The display windows live on, for window surfaces (required by GL, unused by Vulkan).
    pub display: Option<SharedDisplay>,
}

impl Default for ContextOptions {
    fn default() -> Self {
        ContextOptions {
            backend: BackendChoice::Auto,
            power_preference: wgpu::PowerPreference::HighPerformance,
            required_features: wgpu::Features::empty(),
            required_limits: None,
            label: "vgpu device".to_owned(),
            display: None,
        }
    }
}

impl ContextOptions {
    /// Defaults with the backend taken from `VGPU_BACKEND` (unset or empty means `auto`).
    pub fn from_env() -> Result<Self, DeviceError> {
        Ok(ContextOptions {
            backend: backend_from_env()?,
            ..Default::default()
        })
    }
}
