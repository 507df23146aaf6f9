//! Headless adapter selection and device creation.
//!
//! `auto` prefers a hardware adapter (Vulkan, then GL), then Vulkan software (lavapipe), then GL
//! software (llvmpipe). A forced backend only looks at that backend. When nothing is found, the
//! error lists every backend tried and why it was not used.

use std::sync::Arc;

use crate::device::{BackendChoice, GpuContext, OPTIONAL_FEATURES};
use crate::error::{AdapterAttempt, DeviceError};

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

/// Reads `VGPU_BACKEND`: `auto|vulkan|gl|noop`, unset means `auto`.
pub fn backend_from_env() -> Result<BackendChoice, DeviceError> {
    match std::env::var("VGPU_BACKEND") {
        Ok(v) => BackendChoice::parse(&v, "VGPU_BACKEND"),
        Err(std::env::VarError::NotPresent) => Ok(BackendChoice::Auto),
        Err(std::env::VarError::NotUnicode(v)) => Err(DeviceError::UnknownBackend {
            source_name: "VGPU_BACKEND",
            actual: v.to_string_lossy().into_owned(),
        }),
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Hardware,
    Software,
}

fn instance_for(backends: wgpu::Backends, display: Option<&SharedDisplay>) -> wgpu::Instance {
    let base = match display {
        Some(d) => wgpu::InstanceDescriptor::new_with_display_handle(Box::new(d.clone())),
        None => wgpu::InstanceDescriptor::new_without_display_handle(),
    };
    wgpu::Instance::new(wgpu::InstanceDescriptor {
        backends,
        flags: wgpu::InstanceFlags::from_build_config().with_env(),
        ..base
    })
}

fn backend_name(b: wgpu::Backends) -> &'static str {
    if b == wgpu::Backends::VULKAN {
        "vulkan"
    } else {
        "gl"
    }
}

/// Finds the first adapter of `backends` of the wanted kind on `instance` (able to present to
/// `surface` when one is given), or says why there is none.
async fn find(
    instance: &wgpu::Instance,
    backends: wgpu::Backends,
    kind: Kind,
    power: wgpu::PowerPreference,
    surface: Option<&wgpu::Surface<'_>>,
    attempts: &mut Vec<AdapterAttempt>,
) -> Option<wgpu::Adapter> {
    let wanted = match kind {
        Kind::Hardware => "hardware",
        Kind::Software => "software",
    };
    let label = format!("{} {wanted}", backend_name(backends));
    let adapters = instance.enumerate_adapters(backends).await;
    if adapters.is_empty() {
        attempts.push(AdapterAttempt {
            backend: label,
            reason: match backends {
                wgpu::Backends::VULKAN => {
                    "no adapter: Vulkan loader or ICD missing (install mesa-vulkan-drivers libvulkan1 for lavapipe)".to_owned()
                }
                _ => "no adapter: EGL/OpenGL ES unavailable (install Mesa's libegl1 / libgles2)".to_owned(),
            },
        });
        return None;
    }
    let mut candidates: Vec<wgpu::Adapter> = adapters
        .into_iter()
        .filter(|a| {
            let is_cpu = a.get_info().device_type == wgpu::DeviceType::Cpu;
            match kind {
                Kind::Hardware => !is_cpu,
                Kind::Software => is_cpu,
            }
        })
        .collect();
    if candidates.is_empty() {
        attempts.push(AdapterAttempt {
            backend: label,
            reason: format!("no {wanted} adapter among those found"),
        });
        return None;
    }
    if let Some(surface) = surface {
        candidates.retain(|a| a.is_surface_supported(surface));
        if candidates.is_empty() {
            attempts.push(AdapterAttempt {
                backend: label,
                reason: format!("no {wanted} adapter can present to the window's surface"),
            });
            return None;
        }
    }
    // Prefer the power preference among hardware adapters.
    let rank = |a: &wgpu::Adapter| match (power, a.get_info().device_type) {
        (wgpu::PowerPreference::LowPower, wgpu::DeviceType::IntegratedGpu) => 0,
        (wgpu::PowerPreference::LowPower, wgpu::DeviceType::DiscreteGpu) => 1,
        (_, wgpu::DeviceType::DiscreteGpu) => 0,
        (_, wgpu::DeviceType::IntegratedGpu) => 1,
        _ => 2,
    };
    candidates.sort_by_key(rank);
    candidates.into_iter().next()
}

/// Creates a device per `options` (async).
pub async fn request_context(options: &ContextOptions) -> Result<Arc<GpuContext>, DeviceError> {
    if options.backend == BackendChoice::Noop {
        return Ok(GpuContext::noop());
    }
    let mut attempts = Vec::new();
    for &(backends, kind) in search_order(options.backend) {
        // One instance per backend: a machine without GL drivers never initializes EGL.
        let instance = instance_for(backends, options.display.as_ref());
        let found = find(
            &instance,
            backends,
            kind,
            options.power_preference,
            None,
            &mut attempts,
        )
        .await;
        let Some(adapter) = found else { continue };
        if let Some(ctx) = open_device(instance, adapter, backends, options, &mut attempts).await {
            return Ok(ctx);
        }
    }
    Err(DeviceError::NoAdapter {
        requested: options.backend.name().to_owned(),
        attempts,
    })
}

/// Creates a device able to present to `window` and the window's surface (async), in the order
/// of [`request_context`]. `Noop` cannot present: it is refused with the attempts said.
pub async fn request_context_for_window(
    options: &ContextOptions,
    window: impl Into<wgpu::SurfaceTarget<'static>>,
) -> Result<(Arc<GpuContext>, wgpu::Surface<'static>), DeviceError> {
    let order = search_order(options.backend);
    let all = order
        .iter()
        .fold(wgpu::Backends::empty(), |all, (b, _)| all | *b);
    let instance = instance_for(all, options.display.as_ref());
    let surface = instance
        .create_surface(window)
        .map_err(|e| DeviceError::Surface {
            description: e.to_string(),
        })?;
    let mut attempts = Vec::new();
    for &(backends, kind) in order {
        let found = find(
            &instance,
            backends,
            kind,
            options.power_preference,
            Some(&surface),
            &mut attempts,
        )
        .await;
        let Some(adapter) = found else { continue };
        let opened = open_device(instance.clone(), adapter, backends, options, &mut attempts).await;
        if let Some(ctx) = opened {
            return Ok((ctx, surface));
        }
    }
    Err(DeviceError::NoAdapter {
        requested: options.backend.name().to_owned(),
        attempts,
    })
}

/// The (backend, kind) pairs a choice tries, in order.
fn search_order(choice: BackendChoice) -> &'static [(wgpu::Backends, Kind)] {
    match choice {
        BackendChoice::Noop => &[],
        BackendChoice::Auto => &[
            (wgpu::Backends::VULKAN, Kind::Hardware),
            (wgpu::Backends::GL, Kind::Hardware),
            (wgpu::Backends::VULKAN, Kind::Software),
            (wgpu::Backends::GL, Kind::Software),
        ],
        BackendChoice::Vulkan => &[
            (wgpu::Backends::VULKAN, Kind::Hardware),
            (wgpu::Backends::VULKAN, Kind::Software),
        ],
        BackendChoice::Gl => &[
            (wgpu::Backends::GL, Kind::Hardware),
            (wgpu::Backends::GL, Kind::Software),
        ],
    }
}

/// Opens a device on `adapter` with the options' features and limits; records why not.
async fn open_device(
    instance: wgpu::Instance,
    adapter: wgpu::Adapter,
    backends: wgpu::Backends,
    options: &ContextOptions,
    attempts: &mut Vec<AdapterAttempt>,
) -> Option<Arc<GpuContext>> {
    let info = adapter.get_info();
    let missing = options.required_features - adapter.features();
    if !missing.is_empty() {
        attempts.push(AdapterAttempt {
            backend: format!("{} ({})", backend_name(backends), info.name),
            reason: format!("missing required features {missing:?}"),
        });
        return None;
    }
    let features = options.required_features | (adapter.features() & OPTIONAL_FEATURES);
    let limits = options
        .required_limits
        .clone()
        .unwrap_or_else(|| adapter.limits());
    let desc = wgpu::DeviceDescriptor {
        label: Some(&options.label),
        required_features: features,
        required_limits: limits,
        ..Default::default()
    };
    match adapter.request_device(&desc).await {
        Ok((device, queue)) => Some(GpuContext::with_instance(instance, adapter, device, queue)),
        Err(e) => {
            attempts.push(AdapterAttempt {
                backend: format!("{} ({})", backend_name(backends), info.name),
                reason: format!("request_device failed: {e}"),
            });
            None
        }
    }
}

impl GpuContext {
    /// Creates a device per `options`, blocking.
    pub fn request(options: &ContextOptions) -> Result<Arc<GpuContext>, DeviceError> {
        pollster::block_on(request_context(options))
    }

    /// Creates a device for the backend named by `VGPU_BACKEND` (default `auto`), blocking.
    pub fn from_env() -> Result<Arc<GpuContext>, DeviceError> {
        Self::request(&ContextOptions::from_env()?)
    }
}
