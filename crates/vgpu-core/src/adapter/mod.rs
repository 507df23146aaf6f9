//! Headless adapter selection and device creation.
//!
//! `auto` prefers a hardware adapter (Vulkan, Metal, DX12, WebGPU, then GL), then a software one
//! (Vulkan's lavapipe, DX12's WARP, GL's llvmpipe), among the backends built for the target (see
//! [`BackendChoice`]): Vulkan then GL on Linux, Metal on macOS, Vulkan, DX12 then GL on Windows,
//! WebGPU then WebGL2 on wasm32. A forced backend only looks at that backend, and says so when it
//! was not built. When nothing is found, the error lists every backend tried and why it was not
//! used.
//!
//! Its files: this one searches for an adapter and opens its device; `options` holds what the
//! caller asks for ([`ContextOptions`]).

mod options;

use std::sync::Arc;

use crate::backend::BackendChoice;
use crate::device::{GpuContext, OPTIONAL_FEATURES};
use crate::error::{AdapterAttempt, DeviceError};

pub use options::{ContextOptions, SharedDisplay};

/// The kind of adapter a search looks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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

/// The backends `auto` tries, in order of preference within each kind of adapter.
const AUTO_ORDER: [wgpu::Backends; 5] = [
    wgpu::Backends::VULKAN,
    wgpu::Backends::METAL,
    wgpu::Backends::DX12,
    wgpu::Backends::BROWSER_WEBGPU,
    wgpu::Backends::GL,
];

fn backend_name(b: wgpu::Backends) -> &'static str {
    match b {
        wgpu::Backends::VULKAN => "vulkan",
        wgpu::Backends::METAL => "metal",
        wgpu::Backends::DX12 => "dx12",
        wgpu::Backends::BROWSER_WEBGPU => "webgpu",
        _ => "gl",
    }
}

/// True when wgpu was built with `b` for this target.
fn built(b: wgpu::Backends) -> bool {
    wgpu::Instance::enabled_backend_features().contains(b)
}

/// Why a backend that was not built is missing: vgpu's feature is off, or wgpu has no such
/// backend on this target.
fn not_built_reason(b: wgpu::Backends) -> String {
    let (feature_on, feature) = match b {
        wgpu::Backends::VULKAN => (cfg!(feature = "vulkan"), "vulkan"),
        wgpu::Backends::METAL => (cfg!(feature = "metal"), "metal"),
        wgpu::Backends::DX12 => (cfg!(feature = "dx12"), "dx12"),
        wgpu::Backends::BROWSER_WEBGPU => (cfg!(feature = "webgpu"), "webgpu"),
        _ if cfg!(target_arch = "wasm32") => (cfg!(feature = "webgl"), "webgl"),
        _ => (cfg!(feature = "gles"), "gles"),
    };
    if feature_on {
        format!(
            "not built: wgpu has no {} backend for this target",
            backend_name(b)
        )
    } else {
        format!("not built: vgpu's `{feature}` feature is off")
    }
}

/// Why `enumerate_adapters` found nothing for `backends`.
fn no_adapter_reason(backends: wgpu::Backends) -> String {
    let web = cfg!(target_arch = "wasm32");
    match backends {
        wgpu::Backends::VULKAN if cfg!(target_os = "linux") => {
            "no adapter: Vulkan loader or ICD missing (install mesa-vulkan-drivers libvulkan1 for lavapipe)".to_owned()
        }
        wgpu::Backends::VULKAN => "no adapter: no Vulkan loader or driver found".to_owned(),
        wgpu::Backends::METAL => "no adapter: no Metal device found".to_owned(),
        wgpu::Backends::DX12 => "no adapter: no DirectX 12 adapter found".to_owned(),
        wgpu::Backends::BROWSER_WEBGPU => {
            "no adapter: the browser offers no WebGPU (navigator.gpu missing or no adapter)"
                .to_owned()
        }
        _ if web => {
            "no adapter: WebGL2 needs a canvas (create the Gpu for a window or canvas)".to_owned()
        }
        _ if cfg!(target_os = "linux") => {
            "no adapter: EGL/OpenGL ES unavailable (install Mesa's libegl1 / libgles2)".to_owned()
        }
        _ => "no adapter: OpenGL unavailable".to_owned(),
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
    let mut adapters = instance.enumerate_adapters(backends).await;
    if adapters.is_empty()
        && let Some(surface) = surface
    {
        // WebGL2 lists no adapters: its adapter comes from the canvas's context, which only
        // `request_adapter` with the surface reaches.
        let options = wgpu::RequestAdapterOptions {
            power_preference: power,
            compatible_surface: Some(surface),
            ..Default::default()
        };
        adapters.extend(instance.request_adapter(&options).await.ok());
    }
    // An instance may hold other backends (a window's instance holds all of them; the browser's
    // WebGPU instance answers for any): keep the asked-for one.
    adapters.retain(|a| backends.contains(wgpu::Backends::from(a.get_info().backend)));
    if adapters.is_empty() {
        attempts.push(AdapterAttempt {
            backend: label,
            reason: no_adapter_reason(backends),
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
        return match &options.required_limits {
            Some(limits) => GpuContext::noop_with_limits(limits.clone()),
            None => Ok(GpuContext::noop()),
        };
    }
    let (order, mut attempts) = search_order(options.backend);
    for (backends, kind) in order {
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
    let (order, mut attempts) = search_order(options.backend);
    let all = order
        .iter()
        .fold(wgpu::Backends::empty(), |all, (b, _)| all | *b);
    let instance = instance_for(all, options.display.as_ref());
    let surface = instance
        .create_surface(window)
        .map_err(|e| DeviceError::Surface {
            description: e.to_string(),
        })?;
    for (backends, kind) in order {
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

/// The (backend, kind) pairs a choice tries, in order, and the attempts already failed: a forced
/// backend that was not built, or `auto` with none built.
fn search_order(choice: BackendChoice) -> (Vec<(wgpu::Backends, Kind)>, Vec<AdapterAttempt>) {
    let forced = match choice {
        BackendChoice::Noop => return (Vec::new(), Vec::new()),
        BackendChoice::Auto => None,
        BackendChoice::Vulkan => Some(wgpu::Backends::VULKAN),
        BackendChoice::Gl => Some(wgpu::Backends::GL),
        BackendChoice::Metal => Some(wgpu::Backends::METAL),
        BackendChoice::Dx12 => Some(wgpu::Backends::DX12),
        BackendChoice::WebGpu => Some(wgpu::Backends::BROWSER_WEBGPU),
    };
    let backends: Vec<wgpu::Backends> = match forced {
        Some(b) if !built(b) => {
            let attempt = AdapterAttempt {
                backend: backend_name(b).to_owned(),
                reason: not_built_reason(b),
            };
            return (Vec::new(), vec![attempt]);
        }
        Some(b) => vec![b],
        None => AUTO_ORDER.into_iter().filter(|&b| built(b)).collect(),
    };
    if backends.is_empty() {
        let attempt = AdapterAttempt {
            backend: "auto".to_owned(),
            reason: "no backend built for this target (enable one of vgpu's features vulkan, gles, metal, dx12, webgpu, webgl)".to_owned(),
        };
        return (Vec::new(), vec![attempt]);
    }
    let order = [Kind::Hardware, Kind::Software]
        .into_iter()
        .flat_map(|kind| backends.iter().map(move |&b| (b, kind)))
        .collect();
    (order, Vec::new())
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
    /// Creates a device per `options`, blocking (native targets; on the web, where nothing may
    /// block, only the noop backend completes: use [`request_context`] there).
    pub fn request(options: &ContextOptions) -> Result<Arc<GpuContext>, DeviceError> {
        crate::wait::block_on(
            "GpuContext::request",
            "request_context",
            request_context(options),
        )?
    }

    /// Creates a device for the backend named by `VGPU_BACKEND` (default `auto`), blocking.
    pub fn from_env() -> Result<Arc<GpuContext>, DeviceError> {
        Self::request(&ContextOptions::from_env()?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[cfg(target_os = "linux")]
    fn auto_tries_the_backends_built_hardware_first() {
        let (order, attempts) = search_order(BackendChoice::Auto);
        assert!(attempts.is_empty());
        let names: Vec<(&str, bool)> = order
            .iter()
            .map(|&(b, kind)| (backend_name(b), kind == Kind::Hardware))
            .collect();
        let mut want = Vec::new();
        for hardware in [true, false] {
            if built(wgpu::Backends::VULKAN) {
                want.push(("vulkan", hardware));
            }
            if built(wgpu::Backends::GL) {
                want.push(("gl", hardware));
            }
        }
        assert_eq!(names, want);
    }

    #[test]
    #[cfg(not(target_vendor = "apple"))]
    fn forcing_a_backend_not_built_says_why() {
        let (order, attempts) = search_order(BackendChoice::Metal);
        assert!(order.is_empty());
        assert_eq!(attempts.len(), 1, "{attempts:?}");
        assert_eq!(attempts[0].backend, "metal");
        assert_eq!(
            attempts[0].reason,
            "not built: wgpu has no metal backend for this target"
        );
        let options = ContextOptions {
            backend: BackendChoice::Metal,
            ..Default::default()
        };
        let e = GpuContext::request(&options).expect_err("no Metal here");
        let text = e.to_string();
        assert!(
            text.starts_with("VGPU-DEVICE-NO-ADAPTER") && text.contains("metal (not built"),
            "{text}"
        );
    }

    #[test]
    fn noop_tries_nothing() {
        assert_eq!(search_order(BackendChoice::Noop), (Vec::new(), Vec::new()));
    }
}
