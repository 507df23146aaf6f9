//! The device choke point.
//!
//! [`GpuContext`] wraps a `wgpu::Device` and `wgpu::Queue`. Every buffer, bind group, layout,
//! pipeline, texture and sampler the framework creates, and every `write_buffer` it issues, goes
//! through a method here, which bumps the matching [`Stats`] counter. Creation methods run inside a
//! wgpu error scope and return [`DeviceError`] with wgpu's full description instead of panicking.
//! Errors raised outside a scope (e.g. at submit) are routed to the context's uncaptured-error log
//! and optional callback, never to wgpu's default panic handler.
//!
//! Device loss: the context knows once its device is lost ([`GpuContext::is_lost`]), from
//! wgpu's device-lost callback (every reason) or from its own checks, and then fails every call
//! that needs the device with [`DeviceError::Lost`] (`VGPU-DEVICE-LOST`). wgpu reports a
//! `Device::destroy` only at a later poll, and drops the errors of a destroyed device: the checks
//! ([`GpuContext::check_device`] at creation and read-back, [`GpuContext::check_submitted`]
//! after a frame's submit) find it at once.
//!
//! The context's files, one job each: this one holds the context, its constructors and what it
//! tells about its device; `create` the counted, validated creations and the queue's uploads;
//! `scope` the error scopes; `loss` how a lost device is found, `lost_state` the flag shared with
//! wgpu's callback; `polling` waits on the device; `read_back` maps buffers for reading;
//! `uncaptured` the errors raised outside any scope.

mod create;
mod loss;
mod lost_state;
mod polling;
mod read_back;
mod scope;
mod uncaptured;

use std::fmt;
use std::sync::Arc;

use crate::backend::BackendChoice;
use crate::error::DeviceError;
use crate::stats::Stats;
use lost_state::{DESTROYED_MESSAGE, LostState};
use uncaptured::ErrorLog;

pub use scope::FrameScope;
pub use uncaptured::UncapturedError;

/// Features requested whenever the adapter has them: timestamp queries (for GPU pass timings)
/// and f16 in shaders.
pub(crate) const OPTIONAL_FEATURES: wgpu::Features = wgpu::Features::TIMESTAMP_QUERY
    .union(wgpu::Features::TIMESTAMP_QUERY_INSIDE_ENCODERS)
    .union(wgpu::Features::TIMESTAMP_QUERY_INSIDE_PASSES)
    .union(wgpu::Features::SHADER_F16);

/// The wgpu device and queue plus the counters every creation and upload feeds.
///
/// Cheap to share as `Arc<GpuContext>`; all methods take `&self`.
pub struct GpuContext {
    /// The instance the adapter came from, when vgpu created it or the app handed it over (window
    /// surfaces are made on it).
    instance: Option<wgpu::Instance>,
    device: wgpu::Device,
    queue: wgpu::Queue,
    adapter: wgpu::Adapter,
    adapter_info: wgpu::AdapterInfo,
    /// Shared with the device's handlers (they count uncaptured errors).
    stats: Arc<Stats>,
    errors: Arc<ErrorLog>,
    /// Set once the device is known lost (shared with the device-lost callback).
    lost: Arc<LostState>,
    /// vgpu installed the device's handlers (false for an adopted device: its device-lost
    /// callback is the app's).
    handlers: bool,
}

impl fmt::Debug for GpuContext {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GpuContext")
            .field("adapter", &self.adapter_info.name)
            .field("backend", &self.adapter_info.backend)
            .finish_non_exhaustive()
    }
}

impl GpuContext {
    /// Wraps a device and queue. Installs the uncaptured-error and device-lost handlers so wgpu
    /// never panics the process for errors of this device.
    pub fn new(adapter: wgpu::Adapter, device: wgpu::Device, queue: wgpu::Queue) -> Arc<Self> {
        Self::build(None, adapter, device, queue, true)
    }

    /// Like [`new`](Self::new), keeping the instance the adapter came from (for surfaces).
    pub fn with_instance(
        instance: wgpu::Instance,
        adapter: wgpu::Adapter,
        device: wgpu::Device,
        queue: wgpu::Queue,
    ) -> Arc<Self> {
        Self::build(Some(instance), adapter, device, queue, true)
    }

    /// Adopts an application's device without touching its handlers: wgpu keeps one
    /// uncaptured-error handler per device and one device-lost callback, and they stay the
    /// app's. vgpu's own calls still get their errors through error scopes; the app forwards
    /// what its handler receives with [`report_uncaptured`](Self::report_uncaptured) if vgpu
    /// should count and log it.
    pub fn adopt(
        instance: Option<wgpu::Instance>,
        adapter: wgpu::Adapter,
        device: wgpu::Device,
        queue: wgpu::Queue,
    ) -> Arc<Self> {
        Self::build(instance, adapter, device, queue, false)
    }

    fn build(
        instance: Option<wgpu::Instance>,
        adapter: wgpu::Adapter,
        device: wgpu::Device,
        queue: wgpu::Queue,
        install_handlers: bool,
    ) -> Arc<Self> {
        let ctx = Arc::new(GpuContext {
            instance,
            device,
            queue,
            adapter_info: adapter.get_info(),
            adapter,
            stats: Arc::default(),
            errors: Arc::default(),
            lost: Arc::default(),
            handlers: install_handlers,
        });
        if !install_handlers {
            return ctx;
        }
        let (log, stats) = (Arc::downgrade(&ctx.errors), Arc::downgrade(&ctx.stats));
        let log_id = ctx.log_id();
        ctx.device
            .on_uncaptured_error(Arc::new(move |error: wgpu::Error| {
                // A frame open on this thread keeps it (`GpuContext::frame_scope`).
                let Some(error) = scope::capture::take(log_id, error) else {
                    return;
                };
                if let (Some(log), Some(stats)) = (log.upgrade(), stats.upgrade()) {
                    log.record_wgpu(&stats, &error);
                }
            }));
        let (log, stats) = (Arc::downgrade(&ctx.errors), Arc::downgrade(&ctx.stats));
        let lost = Arc::downgrade(&ctx.lost);
        ctx.device.set_device_lost_callback(move |reason, message| {
            // Every reason marks the device lost; `Destroyed` (the app called
            // `Device::destroy`) is not an error of its own.
            if let Some(lost) = lost.upgrade() {
                let why = if message.is_empty() && reason == wgpu::DeviceLostReason::Destroyed {
                    DESTROYED_MESSAGE.to_owned()
                } else {
                    message.clone()
                };
                lost.mark(reason, why);
            }
            if let (Some(log), Some(stats)) = (log.upgrade(), stats.upgrade())
                && reason != wgpu::DeviceLostReason::Destroyed
            {
                log.record(
                    &stats,
                    UncapturedError {
                        kind: "device-lost",
                        description: format!("{reason:?}: {message}"),
                    },
                );
            }
        });
        ctx
    }

    /// A context on wgpu's `noop` backend (counts and validates, executes nothing), with
    /// wgpu's default limits.
    pub fn noop() -> Arc<Self> {
        Self::noop_with_limits(wgpu::Limits::default())
            .expect("wgpu's noop backend always provides a device with its default limits")
    }

    /// A context on wgpu's `noop` backend with `limits` (e.g. a small `max_buffer_size`, to
    /// see how vgpu handles requests the device refuses). Fails with `VGPU-DEVICE-NO-ADAPTER`
    /// when the noop adapter does not support them.
    pub fn noop_with_limits(limits: wgpu::Limits) -> Result<Arc<Self>, DeviceError> {
        let instance = wgpu::Instance::new(wgpu::InstanceDescriptor {
            backends: wgpu::Backends::NOOP,
            backend_options: wgpu::BackendOptions {
                noop: wgpu::NoopBackendOptions::enabled(),
                ..Default::default()
            },
            // wgpu-core 30's indirect-draw validation asserts an adapter storage offset
            // alignment of 32..=256; the noop adapter reports another, so any indirect draw
            // panicked at `CommandEncoder::finish`. Nothing executes on noop to validate.
            flags: wgpu::InstanceFlags::default()
                .difference(wgpu::InstanceFlags::VALIDATION_INDIRECT_CALL),
            ..wgpu::InstanceDescriptor::new_without_display_handle()
        });
        // The noop backend resolves both futures on the first poll and cannot fail.
        let adapter =
            pollster::block_on(instance.request_adapter(&wgpu::RequestAdapterOptions::default()))
                .expect("wgpu's noop backend always provides an adapter");
        let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
            label: Some("vgpu noop device"),
            required_features: adapter.features() & OPTIONAL_FEATURES,
            required_limits: limits,
            ..Default::default()
        }))
        .map_err(|e| DeviceError::NoAdapter {
            requested: BackendChoice::Noop.name().to_owned(),
            attempts: vec![crate::error::AdapterAttempt {
                backend: "noop".to_owned(),
                reason: format!("request_device failed: {e}"),
            }],
        })?;
        Ok(Self::with_instance(instance, adapter, device, queue))
    }

    /// The instance the adapter came from, when known (vgpu created it, or the app handed it
    /// over): window surfaces are created on it.
    pub fn instance(&self) -> Option<&wgpu::Instance> {
        self.instance.as_ref()
    }

    /// The raw device. Objects created directly on it bypass the counters.
    pub fn device(&self) -> &wgpu::Device {
        &self.device
    }
    /// The raw queue.
    pub fn queue(&self) -> &wgpu::Queue {
        &self.queue
    }
    /// The adapter this device came from.
    pub fn adapter_info(&self) -> &wgpu::AdapterInfo {
        &self.adapter_info
    }
    /// The adapter this device came from.
    pub fn adapter(&self) -> &wgpu::Adapter {
        &self.adapter
    }
    /// What this adapter supports for `format` (stricter than WebGPU's guarantees on downlevel
    /// backends such as GL). On the noop backend, WebGPU's guaranteed features.
    pub fn format_features(&self, format: wgpu::TextureFormat) -> wgpu::TextureFormatFeatures {
        if self.is_noop() {
            return format.guaranteed_format_features(self.features());
        }
        self.adapter.get_texture_format_features(format)
    }
    /// The device's limits.
    pub fn limits(&self) -> wgpu::Limits {
        self.device.limits()
    }
    /// The device's enabled features.
    pub fn features(&self) -> wgpu::Features {
        self.device.features()
    }
    /// The counters.
    pub fn stats(&self) -> &Stats {
        &self.stats
    }
    /// True on wgpu's noop backend (passes do not execute).
    pub fn is_noop(&self) -> bool {
        self.adapter_info.backend == wgpu::Backend::Noop
    }
}
