//! [`GpuOptions`]: how to create a [`Gpu`](crate::Gpu): backend, adapter preference, features,
//! limits, label and the display windows live on.

use vgpu_core::{BackendChoice, ContextOptions, SharedDisplay};

use crate::error::Result;

/// How to create a [`Gpu`](crate::Gpu). `Default` reads nothing from the environment: see
/// [`GpuOptions::from_env`].
///
/// ```
/// let options = vgpu::GpuOptions { backend: vgpu::BackendChoice::Noop, ..Default::default() };
/// let gpu = vgpu::Gpu::new(&options)?;
/// assert!(gpu.is_noop());
/// # Ok::<(), vgpu::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct GpuOptions {
    /// `Auto` prefers a hardware adapter, then Vulkan software (lavapipe), then GL software
    /// (llvmpipe).
    pub backend: BackendChoice,
    /// Power preference among hardware adapters.
    pub power_preference: wgpu::PowerPreference,
    /// Features the device must have. Timestamp queries and f16 are added when available.
    pub required_features: wgpu::Features,
    /// Limits the device must have; `None` takes everything the adapter offers.
    pub required_limits: Option<wgpu::Limits>,
    /// Device label (shows in wgpu's messages).
    pub label: String,
    /// The display windows live on (winit: `event_loop.owned_display_handle()`), for window
    /// surfaces: required by the GL backend, unused by Vulkan, Metal and DX12.
    pub display: Option<SharedDisplay>,
    /// Auto-bundles (on by default): a pass that records the same draws frame after frame is
    /// replayed from a render bundle vgpu records for it (see [`crate::DirectReason`]). Change
    /// it later with [`Gpu::set_auto_bundles`](crate::Gpu::set_auto_bundles).
    pub auto_bundles: bool,
    /// Parallel finishing (on by default): a render pass that recorded over a thousand draws
    /// in the previous frame gets a command encoder of its own, and when a frame has two or
    /// more such passes their encoders are finished at once on worker threads (where wgpu does
    /// the real encoding work), then submitted together in order. No effect on wasm32 or on one
    /// core. Change it later with
    /// [`Gpu::set_parallel_finish`](crate::Gpu::set_parallel_finish).
    pub parallel_finish: bool,
}

impl Default for GpuOptions {
    fn default() -> Self {
        let c = ContextOptions::default();
        GpuOptions {
            backend: c.backend,
            power_preference: c.power_preference,
            required_features: c.required_features,
            required_limits: c.required_limits,
            label: c.label,
            display: None,
            auto_bundles: true,
            parallel_finish: true,
        }
    }
}

impl GpuOptions {
    /// Defaults, with the backend from `VGPU_BACKEND=auto|vulkan|gl|metal|dx12|webgpu|noop` (unset
    /// means `auto`), and [`auto_bundles`](Self::auto_bundles) and
    /// [`parallel_finish`](Self::parallel_finish) switched off by `VGPU_AUTO_BUNDLES=0` and
    /// `VGPU_PARALLEL_FINISH=0` (`off`, `false`; unset, `1`, `on`, `true` keep them on), so an
    /// app can be measured with and without them unchanged.
    /// An unknown value is an error naming the accepted values (`VGPU-DEVICE-BACKEND-UNKNOWN`,
    /// `VGPU-DEVICE-ENV-SWITCH`).
    pub fn from_env() -> Result<Self> {
        let defaults = GpuOptions::default();
        Ok(GpuOptions {
            backend: vgpu_core::backend_from_env()?,
            auto_bundles: vgpu_core::switch_from_env("VGPU_AUTO_BUNDLES")?
                .unwrap_or(defaults.auto_bundles),
            parallel_finish: vgpu_core::switch_from_env("VGPU_PARALLEL_FINISH")?
                .unwrap_or(defaults.parallel_finish),
            ..defaults
        })
    }

    /// Sets the display windows live on (see [`display`](Self::display)).
    pub fn with_display(mut self, display: impl wgpu::wgt::WgpuHasDisplayHandle) -> Self {
        self.display = Some(SharedDisplay::new(display));
        self
    }

    pub(crate) fn context_options(&self) -> ContextOptions {
        ContextOptions {
            backend: self.backend,
            power_preference: self.power_preference,
            required_features: self.required_features,
            required_limits: self.required_limits.clone(),
            label: self.label.clone(),
            display: self.display.clone(),
        }
    }
}
