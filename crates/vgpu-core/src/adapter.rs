//! Headless adapter selection and device creation.
//!
//! `auto` prefers a hardware adapter (Vulkan, then GL), then Vulkan software (lavapipe), then GL
//! software (llvmpipe). A forced backend only looks at that backend. When nothing is found, the
//! error lists every backend tried and why it was not used.

use std::sync::Arc;

use crate::device::{BackendChoice, GpuContext, OPTIONAL_FEATURES};
use crate::error::{AdapterAttempt, DeviceError};

/// How to create a device. `Default` is `auto`, high performance, no extra features, the
/// adapter's own limits.
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
}

impl Default for ContextOptions {
    fn default() -> Self {
        ContextOptions {
            backend: BackendChoice::Auto,
            power_preference: wgpu::PowerPreference::HighPerformance,
            required_features: wgpu::Features::empty(),
            required_limits: None,
            label: "vgpu device".to_owned(),
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

fn instance_for(backends: wgpu::Backends) -> wgpu::Instance {
    wgpu::Instance::new(wgpu::InstanceDescriptor {
        backends,
        flags: wgpu::InstanceFlags::from_build_config().with_env(),
        ..wgpu::InstanceDescriptor::new_without_display_handle()
    })
}

fn backend_name(b: wgpu::Backends) -> &'static str {
    if b == wgpu::Backends::VULKAN {
        "vulkan"
    } else {
        "gl"
    }
}

/// Finds the first adapter of `backends` of the wanted kind, or says why there is none.
async fn find(
    backends: wgpu::Backends,
    kind: Kind,
    power: wgpu::PowerPreference,
    attempts: &mut Vec<AdapterAttempt>,
) -> Option<wgpu::Adapter> {
    let wanted = match kind {
        Kind::Hardware => "hardware",
        Kind::Software => "software",
    };
    let label = format!("{} {wanted}", backend_name(backends));
    let instance = instance_for(backends);
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
    let mut attempts = Vec::new();
    let order: &[(wgpu::Backends, Kind)] = match options.backend {
        BackendChoice::Noop => return Ok(GpuContext::noop()),
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
    };
    for &(backends, kind) in order {
        let Some(adapter) = find(backends, kind, options.power_preference, &mut attempts).await
        else {
            continue;
        };
        let info = adapter.get_info();
        let missing = options.required_features - adapter.features();
        if !missing.is_empty() {
            attempts.push(AdapterAttempt {
                backend: format!("{} ({})", backend_name(backends), info.name),
                reason: format!("missing required features {missing:?}"),
            });
            continue;
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
            Ok((device, queue)) => return Ok(GpuContext::new(adapter, device, queue)),
            Err(e) => attempts.push(AdapterAttempt {
                backend: format!("{} ({})", backend_name(backends), info.name),
                reason: format!("request_device failed: {e}"),
            }),
        }
    }
    Err(DeviceError::NoAdapter {
        requested: options.backend.name().to_owned(),
        attempts,
    })
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
