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

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use crate::error::DeviceError;
use crate::stats::Stats;

/// Features requested whenever the adapter has them: timestamp queries (for GPU pass timings)
/// and f16 in shaders.
pub const OPTIONAL_FEATURES: wgpu::Features = wgpu::Features::TIMESTAMP_QUERY
    .union(wgpu::Features::TIMESTAMP_QUERY_INSIDE_ENCODERS)
    .union(wgpu::Features::TIMESTAMP_QUERY_INSIDE_PASSES)
    .union(wgpu::Features::SHADER_F16);

/// Which backend to use. Parsed from `VGPU_BACKEND` by the `vgpu` crate.
///
/// A backend is only there when it was built: vgpu's feature of the same name is on (all are by
/// default) and wgpu supports it on the target (Metal on Apple platforms, DX12 on Windows, Vulkan
/// on Linux, Windows and Android, GL natively or as WebGL2 on wasm32, WebGPU on wasm32). Forcing
/// one that was not built fails with an error that says so; `auto` tries the built ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum BackendChoice {
    /// A hardware adapter if any (Vulkan, Metal, DX12, WebGPU, then GL), then a software one
    /// (Vulkan's lavapipe, DX12's WARP, GL's llvmpipe; a browser's fallback WebGPU adapter).
    #[default]
    Auto,
    /// Vulkan only (hardware first, then software).
    Vulkan,
    /// OpenGL / GLES only (through EGL or WGL), or WebGL2 on wasm32 (which needs a canvas: a
    /// window's surface).
    Gl,
    /// Metal only (macOS, iOS).
    Metal,
    /// DirectX 12 only (Windows; hardware first, then WARP).
    Dx12,
    /// The browser's WebGPU only (wasm32).
    WebGpu,
    /// wgpu's `noop` backend: validation and counting, no execution.
    Noop,
}

impl BackendChoice {
    /// The accepted names, in the order documented.
    pub const NAMES: [&'static str; 7] =
        ["auto", "vulkan", "gl", "metal", "dx12", "webgpu", "noop"];

    /// Parses `auto|vulkan|gl|metal|dx12|webgpu|noop` (case-insensitive, surrounding spaces
    /// ignored; also `vk`, `gles`, `opengl`, `webgl`, `webgl2`, `d3d12`).
    pub fn parse(value: &str, source_name: &'static str) -> Result<Self, DeviceError> {
        match value.trim().to_ascii_lowercase().as_str() {
            "auto" | "" => Ok(BackendChoice::Auto),
            "vulkan" | "vk" => Ok(BackendChoice::Vulkan),
            "gl" | "gles" | "opengl" | "webgl" | "webgl2" => Ok(BackendChoice::Gl),
            "metal" => Ok(BackendChoice::Metal),
            "dx12" | "d3d12" => Ok(BackendChoice::Dx12),
            "webgpu" => Ok(BackendChoice::WebGpu),
            "noop" => Ok(BackendChoice::Noop),
            _ => Err(DeviceError::UnknownBackend {
                source_name,
                actual: value.to_owned(),
            }),
        }
    }

    /// The canonical name.
    pub fn name(self) -> &'static str {
        match self {
            BackendChoice::Auto => "auto",
            BackendChoice::Vulkan => "vulkan",
            BackendChoice::Gl => "gl",
            BackendChoice::Metal => "metal",
            BackendChoice::Dx12 => "dx12",
            BackendChoice::WebGpu => "webgpu",
            BackendChoice::Noop => "noop",
        }
    }
}

impl fmt::Display for BackendChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A wgpu error that happened outside an error scope and was routed to the context.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UncapturedError {
    /// `validation`, `out-of-memory`, `internal` or `device-lost`.
    pub kind: &'static str,
    /// wgpu's full description.
    pub description: String,
}

type ErrorCallback = Arc<dyn Fn(&UncapturedError) + Send + Sync>;

/// Uncaptured errors and their callback: shared with the handlers vgpu installs on the device,
/// which must be `Send + Sync` on every platform (wgpu's objects are not on the web, so the
/// handlers hold this, not the context).
#[derive(Default)]
struct ErrorLog {
    errors: Mutex<Vec<UncapturedError>>,
    callback: Mutex<Option<ErrorCallback>>,
}

impl ErrorLog {
    fn record(&self, stats: &Stats, error: UncapturedError) {
        stats.uncaptured_errors.bump();
        // Called with the lock released: the callback may install another one, or make wgpu
        // calls that report errors of their own.
        let callback = self
            .callback
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone();
        if let Some(cb) = callback {
            cb(&error);
        }
        let mut log = self.errors.lock().unwrap_or_else(PoisonError::into_inner);
        if log.len() >= MAX_KEPT_ERRORS {
            log.remove(0);
        }
        log.push(error);
    }

    fn record_wgpu(&self, stats: &Stats, error: &wgpu::Error) {
        let (kind, description) = match error {
            wgpu::Error::Validation { description, .. } => ("validation", description.clone()),
            wgpu::Error::OutOfMemory { source } => {
                ("out-of-memory", crate::error::error_chain(&**source))
            }
            wgpu::Error::Internal { description, .. } => ("internal", description.clone()),
        };
        self.record(stats, UncapturedError { kind, description });
    }
}

/// Upper bound on uncaptured errors kept; older ones are dropped (the counter keeps counting).
const MAX_KEPT_ERRORS: usize = 256;

/// What a lost device's error says when wgpu gave no message: `Device::destroy` was called
/// (wgpu's callback for it carries an empty message).
const DESTROYED_MESSAGE: &str = "wgpu::Device::destroy was called";

/// What a lost device's error says when wgpu reports the device invalid before its device-lost
/// callback ran (after `Device::destroy`, wgpu calls it only once the queue has drained).
const INVALID_MESSAGE: &str = "wgpu reports the device invalid: wgpu::Device::destroy was called";

/// What a lost device's error says when wgpu reports the device invalid on a device whose
/// device-lost callback is the app's (an adopted device: vgpu does not learn the reason).
const INVALID_ADOPTED_MESSAGE: &str = "wgpu reports the device invalid (destroyed or lost; this Gpu adopted the app's device, whose device-lost callback is the app's)";

/// Label of the buffer [`GpuContext::check_device`] asks wgpu to create (and wgpu refuses).
const PROBE_LABEL: &str = "vgpu device check";

/// Whether the device was lost, and why: set by wgpu's device-lost callback (for every reason,
/// `Destroyed` included), or by vgpu when wgpu reports the device invalid before that callback
/// ran. Shared with the callback (which must be `Send + Sync`).
#[derive(Default)]
struct LostState {
    /// Read on every check (one atomic load); set once, never cleared.
    lost: AtomicBool,
    /// wgpu's reason and message (the first ones recorded).
    why: Mutex<Option<(wgpu::DeviceLostReason, String)>>,
}

impl LostState {
    #[inline]
    fn is_lost(&self) -> bool {
        self.lost.load(Ordering::Acquire)
    }

    /// Records the loss; the first reason recorded is kept.
    fn mark(&self, reason: wgpu::DeviceLostReason, message: String) {
        let mut why = self.why.lock().unwrap_or_else(PoisonError::into_inner);
        if why.is_none() {
            *why = Some((reason, message));
        }
        drop(why);
        self.lost.store(true, Ordering::Release);
    }

    #[cold]
    #[inline(never)]
    fn error(&self, operation: &'static str) -> DeviceError {
        let why = self.why.lock().unwrap_or_else(PoisonError::into_inner);
        let (reason, message) = why
            .clone()
            .unwrap_or((wgpu::DeviceLostReason::Unknown, String::new()));
        DeviceError::Lost {
            operation,
            reason,
            message,
        }
    }
}

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
        ctx.device
            .on_uncaptured_error(Arc::new(move |error: wgpu::Error| {
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
            if let (Some(log), Some(stats)) = (log.upgrade(), stats.upgrade()) {
                if reason != wgpu::DeviceLostReason::Destroyed {
                    log.record(
                        &stats,
                        UncapturedError {
                            kind: "device-lost",
                            description: format!("{reason:?}: {message}"),
                        },
                    );
                }
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

    /// Counts and logs a wgpu error raised outside any vgpu call (what the device's
    /// uncaptured-error handler receives), and calls the callback of
    /// [`on_uncaptured_error`](Self::on_uncaptured_error).
    pub fn report_uncaptured(&self, error: &wgpu::Error) {
        self.errors.record_wgpu(&self.stats, error);
    }

    /// Takes the uncaptured errors recorded so far (oldest first), leaving the log empty.
    pub fn take_uncaptured_errors(&self) -> Vec<UncapturedError> {
        std::mem::take(
            &mut *self
                .errors
                .errors
                .lock()
                .unwrap_or_else(PoisonError::into_inner),
        )
    }

    /// Installs a callback called for each uncaptured error (replacing any previous one). Errors
    /// are still logged for [`take_uncaptured_errors`](Self::take_uncaptured_errors).
    pub fn on_uncaptured_error(&self, callback: impl Fn(&UncapturedError) + Send + Sync + 'static) {
        *self
            .errors
            .callback
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = Some(Arc::new(callback));
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

    /// True once vgpu knows the device is lost: wgpu's device-lost callback ran (for any reason,
    /// `Destroyed` included), or a check found the device invalid ([`check_device`](Self::check_device),
    /// [`check_submitted`](Self::check_submitted)). One atomic load; never false again once true.
    ///
    /// After `wgpu::Device::destroy`, wgpu calls the device-lost callback only at a later poll of
    /// the device that finds its queue drained (on every backend, `noop` included), so this can
    /// stay false for a while after `destroy`: the checks named above find out at once.
    #[inline]
    pub fn is_lost(&self) -> bool {
        self.lost.is_lost()
    }

    /// `Err(VGPU-DEVICE-LOST)` naming `operation` when the device is known lost
    /// ([`is_lost`](Self::is_lost)); no wgpu call. For paths that run often (a frame's begin and
    /// end, uploads).
    #[inline]
    pub fn check_lost(&self, operation: &'static str) -> Result<(), DeviceError> {
        if self.lost.is_lost() {
            return Err(self.lost.error(operation));
        }
        Ok(())
    }

    /// [`check_lost`](Self::check_lost), then asks wgpu whether the device is still valid, so a
    /// `wgpu::Device::destroy` whose device-lost callback has not run yet is found at once: it
    /// creates a buffer wgpu must refuse (larger than any `max_buffer_size`) inside a validation
    /// error scope. A valid device reports the validation error; an invalid one reports nothing
    /// (wgpu drops errors of a lost device), and the device is then marked lost. One error scope
    /// and one refused buffer (a few allocations; about 12k instructions with wgpu's error
    /// formatting): for object creation and read-back, not for per-frame or per-draw paths. On
    /// the browser's WebGPU (no synchronous error scopes) only the flag is checked.
    pub fn check_device(&self, operation: &'static str) -> Result<(), DeviceError> {
        self.check_lost(operation)?;
        if self.device_is_valid() {
            return Ok(());
        }
        self.mark_invalid();
        Err(self.lost.error(operation))
    }

    /// After `Queue::submit` returned `index` and the submission's error scopes reported
    /// nothing: confirms that wgpu accepted the submission. wgpu drops a submission to an invalid
    /// (destroyed or lost) device without reporting an error; asking for that submission then
    /// fails (`Device::poll` with a zero timeout answers `WrongSubmissionIndex`, without
    /// waiting), and the device is checked ([`check_device`](Self::check_device)). A submission
    /// that was accepted costs one non-blocking poll of the device (which also runs the callbacks
    /// of work already done, as any poll does). On the browser's WebGPU only the flag is checked.
    pub fn check_submitted(
        &self,
        index: wgpu::SubmissionIndex,
        operation: &'static str,
    ) -> Result<(), DeviceError> {
        self.check_lost(operation)?;
        if self.adapter_info.backend == wgpu::Backend::BrowserWebGpu {
            return Ok(());
        }
        let poll = wgpu::PollType::Wait {
            submission_index: Some(index),
            timeout: Some(Duration::ZERO),
        };
        match self.poll_raw(operation, poll)? {
            // wgpu never took the submission (a validation error would have been reported in
            // its scope): is the device still valid?
            Err(wgpu::PollError::WrongSubmissionIndex(..)) => self.check_device(operation),
            // Taken (done, or still running: `Timeout`). The poll may have run the device-lost
            // callback.
            Ok(_) | Err(_) => self.check_lost(operation),
        }
    }

    /// `Device::poll`, with wgpu's failures as errors: a timeout or a wrong submission index is
    /// `VGPU-DEVICE-POLL`. A poll that finds the device lost by the driver panics inside wgpu 30
    /// (`Device::poll` treats a device error as fatal) after running the device-lost callback:
    /// with vgpu's callback installed, that panic is caught and returned as `VGPU-DEVICE-LOST`
    /// (the panic hook still prints it; with `panic = "abort"` it aborts).
    pub fn poll(
        &self,
        operation: &'static str,
        poll_type: wgpu::PollType,
    ) -> Result<wgpu::PollStatus, DeviceError> {
        self.poll_raw(operation, poll_type)?
            .map_err(|e| DeviceError::Poll {
                description: e.to_string(),
            })
    }

    /// `Device::poll`, its panic on a lost device caught (see [`poll`](Self::poll)).
    fn poll_raw(
        &self,
        operation: &'static str,
        poll_type: wgpu::PollType,
    ) -> Result<Result<wgpu::PollStatus, wgpu::PollError>, DeviceError> {
        let polled =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.device.poll(poll_type)));
        match polled {
            Ok(result) => Ok(result),
            // wgpu runs the device-lost callback before it panics on a device error; any
            // other panic is not vgpu's to turn into an error.
            Err(_) if self.lost.is_lost() => Err(self.lost.error(operation)),
            Err(panic) => std::panic::resume_unwind(panic),
        }
    }

    /// Asks wgpu whether the device is valid (see [`check_device`](Self::check_device)).
    fn device_is_valid(&self) -> bool {
        if self.adapter_info.backend == wgpu::Backend::BrowserWebGpu {
            return true;
        }
        let scope = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
        drop(self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some(PROBE_LABEL),
            // Larger than any device's `max_buffer_size`: refused before any allocation.
            size: u64::MAX,
            usage: wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        }));
        // wgpu-core resolves error scopes synchronously: this never waits.
        match crate::wait::block_on("check_device", "the async form", scope.pop()) {
            Ok(refused) => refused.is_some(),
            Err(_) => true,
        }
    }

    /// Marks the device lost after wgpu reported it invalid (see [`check_device`](Self::check_device)).
    #[cold]
    fn mark_invalid(&self) {
        if self.handlers {
            // A loss by the driver runs the device-lost callback at once (setting the flag before
            // wgpu reports the device invalid to anyone); only `destroy` defers it.
            self.lost.mark(
                wgpu::DeviceLostReason::Destroyed,
                INVALID_MESSAGE.to_owned(),
            );
        } else {
            self.lost.mark(
                wgpu::DeviceLostReason::Unknown,
                INVALID_ADOPTED_MESSAGE.to_owned(),
            );
        }
    }

    /// Runs `f` inside a validation + out-of-memory + internal error scope and returns its value,
    /// or the first error wgpu reported, with wgpu's description. Fails with `VGPU-DEVICE-LOST`
    /// without calling `f` when the device is known lost ([`check_lost`](Self::check_lost): a
    /// flag; public entry points run the full [`check_device`](Self::check_device) first).
    ///
    /// On the browser's WebGPU, error scopes resolve asynchronously (a JavaScript promise) and a
    /// blocking call cannot wait for them: there `f` runs without scopes, and what wgpu rejects
    /// arrives later as an uncaptured error (counted, logged, passed to the callback of
    /// [`on_uncaptured_error`](Self::on_uncaptured_error); for an adopted device, to the app's
    /// own handler).
    pub fn scoped<T>(
        &self,
        operation: &'static str,
        label: Option<&str>,
        f: impl FnOnce(&wgpu::Device) -> T,
    ) -> Result<T, DeviceError> {
        self.check_lost(operation)?;
        if self.adapter_info.backend == wgpu::Backend::BrowserWebGpu {
            return Ok(f(&self.device));
        }
        let oom = self.device.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
        let internal = self.device.push_error_scope(wgpu::ErrorFilter::Internal);
        let validation = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let value = f(&self.device);
        let errors = [validation.pop(), internal.pop(), oom.pop()];
        // Pop order is innermost first; resolve all three so every scope is released.
        let mut first = None;
        for fut in errors {
            // wgpu-core resolves error scopes synchronously: this never waits.
            if let Some(e) = crate::wait::block_on(operation, "the async form", fut)? {
                first.get_or_insert(e);
            }
        }
        match first {
            None => Ok(value),
            Some(e) => Err(DeviceError::from_wgpu(operation, label, e)),
        }
    }

    /// Opens the error scopes of a frame around several wgpu calls (its
    /// `CommandEncoder::finish`, uploads and `Queue::submit`), closed by [`FrameScope::pop`]:
    /// validation and out-of-memory, one push and one pop each. [`scoped`](Self::scoped) pushes
    /// three scopes (validation, out-of-memory, internal) and wgpu boxes one future per pop: a
    /// frame affords two (two allocations). Internal errors raised inside it are not caught: they
    /// reach the uncaptured-error log (and the device's handler), as any error outside a scope
    /// does.
    ///
    /// Error scopes are per thread: pop the scope on the thread that pushed it (the guard is
    /// neither `Send` nor `Sync`). On the browser's WebGPU nothing is pushed (see
    /// [`scoped`](Self::scoped)).
    pub fn frame_scope(&self) -> FrameScope {
        if self.adapter_info.backend == wgpu::Backend::BrowserWebGpu {
            return FrameScope { guards: None };
        }
        let oom = self.device.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
        let validation = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
        FrameScope {
            guards: Some((oom, validation)),
        }
    }

    /// Creates a buffer (counted, validated).
    pub fn create_buffer(
        &self,
        desc: &wgpu::BufferDescriptor<'_>,
    ) -> Result<wgpu::Buffer, DeviceError> {
        let buffer = self.scoped("create_buffer", desc.label, |d| d.create_buffer(desc))?;
        self.stats.buffers_created.bump();
        self.stats.buffer_bytes_created.add(desc.size);
        Ok(buffer)
    }

    /// Creates a buffer holding `contents` (counted as one buffer; the initial contents are
    /// written through mapping, not `write_buffer`, and counted in `bytes_uploaded`).
    pub fn create_buffer_init(
        &self,
        label: Option<&str>,
        contents: &[u8],
        usage: wgpu::BufferUsages,
    ) -> Result<wgpu::Buffer, DeviceError> {
        use wgpu::util::DeviceExt as _;
        let buffer = self.scoped("create_buffer", label, |d| {
            d.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label,
                contents,
                usage,
            })
        })?;
        self.stats.buffers_created.bump();
        self.stats.buffer_bytes_created.add(buffer.size());
        self.stats.bytes_uploaded.add(contents.len() as u64);
        Ok(buffer)
    }

    /// Creates a texture (counted, validated).
    pub fn create_texture(
        &self,
        desc: &wgpu::TextureDescriptor<'_>,
    ) -> Result<wgpu::Texture, DeviceError> {
        let t = self.scoped("create_texture", desc.label, |d| d.create_texture(desc))?;
        self.stats.textures_created.bump();
        Ok(t)
    }

    /// Creates a sampler (counted, validated).
    pub fn create_sampler(
        &self,
        desc: &wgpu::SamplerDescriptor<'_>,
    ) -> Result<wgpu::Sampler, DeviceError> {
        let s = self.scoped("create_sampler", desc.label, |d| d.create_sampler(desc))?;
        self.stats.samplers_created.bump();
        Ok(s)
    }

    /// Creates a bind group (counted, validated).
    pub fn create_bind_group(
        &self,
        desc: &wgpu::BindGroupDescriptor<'_>,
    ) -> Result<wgpu::BindGroup, DeviceError> {
        let g = self.scoped("create_bind_group", desc.label, |d| {
            d.create_bind_group(desc)
        })?;
        self.stats.bind_groups_created.bump();
        Ok(g)
    }

    /// Creates a bind group layout (counted, validated).
    pub fn create_bind_group_layout(
        &self,
        desc: &wgpu::BindGroupLayoutDescriptor<'_>,
    ) -> Result<wgpu::BindGroupLayout, DeviceError> {
        let l = self.scoped("create_bind_group_layout", desc.label, |d| {
            d.create_bind_group_layout(desc)
        })?;
        self.stats.bind_group_layouts_created.bump();
        Ok(l)
    }

    /// Creates a pipeline layout (validated).
    pub fn create_pipeline_layout(
        &self,
        desc: &wgpu::PipelineLayoutDescriptor<'_>,
    ) -> Result<wgpu::PipelineLayout, DeviceError> {
        self.scoped("create_pipeline_layout", desc.label, |d| {
            d.create_pipeline_layout(desc)
        })
    }

    /// Creates a shader module from already-validated naga IR or WGSL (counted, validated).
    pub fn create_shader_module(
        &self,
        desc: wgpu::ShaderModuleDescriptor<'_>,
    ) -> Result<wgpu::ShaderModule, DeviceError> {
        let label = desc.label.map(str::to_owned);
        let m = self.scoped("create_shader_module", label.as_deref(), |d| {
            d.create_shader_module(desc)
        })?;
        self.stats.shader_modules_created.bump();
        Ok(m)
    }

    /// Creates a render pipeline (counted, validated).
    pub fn create_render_pipeline(
        &self,
        desc: &wgpu::RenderPipelineDescriptor<'_>,
    ) -> Result<wgpu::RenderPipeline, DeviceError> {
        let p = self.scoped("create_render_pipeline", desc.label, |d| {
            d.create_render_pipeline(desc)
        })?;
        self.stats.pipelines_created.bump();
        Ok(p)
    }

    /// Creates a compute pipeline (counted, validated).
    pub fn create_compute_pipeline(
        &self,
        desc: &wgpu::ComputePipelineDescriptor<'_>,
    ) -> Result<wgpu::ComputePipeline, DeviceError> {
        let p = self.scoped("create_compute_pipeline", desc.label, |d| {
            d.create_compute_pipeline(desc)
        })?;
        self.stats.pipelines_created.bump();
        Ok(p)
    }

    /// `Queue::write_buffer`, counted (one call, `data.len()` bytes). Not error-scoped: this is a
    /// hot path; callers validate ranges beforehand, and anything wgpu still rejects is routed to
    /// the uncaptured-error log.
    #[inline]
    pub fn write_buffer(&self, buffer: &wgpu::Buffer, offset: wgpu::BufferAddress, data: &[u8]) {
        self.stats.write_calls.bump();
        self.stats.bytes_uploaded.add(data.len() as u64);
        self.queue.write_buffer(buffer, offset, data);
    }

    /// `Queue::write_buffer_with` (counted as [`write_buffer`](Self::write_buffer) counts
    /// `size` bytes): `fill` writes the bytes into the staging view, and the upload lands before
    /// the next submit. Bytes `fill` leaves unwritten reach the buffer unspecified. An empty
    /// `size` or a write wgpu refuses (reported to the device's error handler, as
    /// `write_buffer`'s) uploads nothing.
    pub fn write_buffer_with(
        &self,
        buffer: &wgpu::Buffer,
        offset: wgpu::BufferAddress,
        size: usize,
        fill: impl FnOnce(&mut wgpu::QueueWriteBufferView),
    ) {
        let Some(size_nz) = wgpu::BufferSize::new(size as u64) else {
            return;
        };
        self.stats.write_calls.bump();
        self.stats.bytes_uploaded.add(size as u64);
        if let Some(mut view) = self.queue.write_buffer_with(buffer, offset, size_nz) {
            fill(&mut view);
        }
    }

    /// `Queue::write_texture` (counted in `write_calls` and `bytes_uploaded` with
    /// `write_buffer`: both are uploads through the queue), validated: a write wgpu refuses (a
    /// format that cannot be a copy destination, such as `Depth32Float`; a layout that does not
    /// fit the texture) is an `Err` carrying wgpu's description, never an uncaptured error.
    pub fn write_texture(
        &self,
        label: Option<&str>,
        texture: wgpu::TexelCopyTextureInfo<'_>,
        data: &[u8],
        layout: wgpu::TexelCopyBufferLayout,
        size: wgpu::Extent3d,
    ) -> Result<(), DeviceError> {
        self.scoped("Queue::write_texture", label, |_| {
            self.queue.write_texture(texture, data, layout, size)
        })?;
        self.stats.write_calls.bump();
        self.stats.bytes_uploaded.add(data.len() as u64);
        Ok(())
    }

    /// Submits command buffers (counted).
    pub fn submit(
        &self,
        buffers: impl IntoIterator<Item = wgpu::CommandBuffer>,
    ) -> wgpu::SubmissionIndex {
        self.stats.submissions.bump();
        self.queue.submit(buffers)
    }

    /// Blocks until all submitted work is done (native targets). On the web nothing may block:
    /// with WebGPU this returns at once (the browser drives the device), with WebGL2 it fails
    /// with `VGPU-DEVICE-POLL` unless the work is already done; use the async read-backs there.
    ///
    /// Fails with `VGPU-DEVICE-LOST` on a lost device: known lost before, or found lost by this
    /// wait (after `wgpu::Device::destroy`, the wait returns once the work submitted before it is
    /// done, and wgpu then runs the device-lost callback: the queue has drained). On a device
    /// vgpu adopted (whose callback is the app's), the device is checked after the wait
    /// ([`check_device`](Self::check_device)).
    pub fn wait_idle(&self) -> Result<(), DeviceError> {
        self.check_lost("wait_idle")?;
        self.poll("wait_idle", wgpu::PollType::wait_indefinitely())?;
        if self.handlers {
            self.check_lost("wait_idle")
        } else {
            self.check_device("wait_idle")
        }
    }

    /// Maps `buffer` (which must have `MAP_READ`) for reading once the GPU is done with the work
    /// submitted so far, copies its bytes out and unmaps it.
    ///
    /// On native targets the future waits for the device itself (so `pollster::block_on` of it
    /// returns at once after that). On the web it waits without blocking: with WebGPU the
    /// browser completes the map; with WebGL2 the map completes at a later poll of the device
    /// (each submission polls it, or call `device().poll(wgpu::PollType::Poll)`, e.g. once per
    /// animation frame).
    pub async fn map_read(
        &self,
        buffer: &wgpu::Buffer,
        label: &str,
    ) -> Result<Vec<u8>, DeviceError> {
        let map_error = |description: String| DeviceError::Map {
            label: label.to_owned(),
            description,
        };
        // On a destroyed device the map would fail with a validation error of the (invalid)
        // buffer: name the loss instead.
        self.check_device("read-back")?;
        let slot = Arc::new(MapSlot::default());
        let done = MapDone(Arc::clone(&slot));
        buffer.slice(..).map_async(wgpu::MapMode::Read, move |r| {
            done.0.complete(r.map_err(|e| e.to_string()));
        });
        if cfg!(target_arch = "wasm32") {
            // WebGL2: fire callbacks of work already done; WebGPU: no effect. Never blocks.
            let _ = self.poll("read-back", wgpu::PollType::Poll);
        } else {
            self.wait_idle()?;
        }
        std::future::poll_fn(|cx| slot.poll(cx))
            .await
            .map_err(map_error)?;
        let data = buffer
            .slice(..)
            .get_mapped_range()
            .map_err(|e| map_error(e.to_string()))?
            .to_vec();
        buffer.unmap();
        Ok(data)
    }
}

/// The validation and out-of-memory error scopes of a frame, spanning several wgpu calls; see
/// [`GpuContext::frame_scope`]. Dropping it unpopped releases the scopes and discards what they
/// caught.
#[must_use = "pop the scope to learn whether the calls inside it failed"]
#[derive(Debug)]
pub struct FrameScope {
    /// (out-of-memory, validation): pushed in that order, popped innermost first.
    guards: Option<(wgpu::ErrorScopeGuard, wgpu::ErrorScopeGuard)>,
}

impl FrameScope {
    /// Closes the scopes: `Ok` when wgpu reported nothing inside them, else the first error
    /// (validation first) as [`DeviceError::Validation`] or the out-of-memory error, with wgpu's
    /// description and `label`.
    ///
    /// The error names the operation that failed. `operations` pairs the name wgpu gives each
    /// call in its descriptions (they begin with `In <name>`: `a CommandEncoder` for
    /// `CommandEncoder::finish`, `Queue::submit`, …) with the operation vgpu's error names; an
    /// error naming none of them is the last operation's.
    pub fn pop(
        self,
        label: Option<&str>,
        operations: &[(&str, &'static str)],
    ) -> Result<(), DeviceError> {
        let Some((oom, validation)) = self.guards else {
            return Ok(());
        };
        // wgpu-core resolves error scopes synchronously: this never waits. Both are popped
        // (innermost first) so both are released.
        let validation =
            crate::wait::block_on("pop_error_scope", "the async form", validation.pop())?;
        let oom = crate::wait::block_on("pop_error_scope", "the async form", oom.pop())?;
        let Some(error) = validation.or(oom) else {
            return Ok(());
        };
        let text = match &error {
            wgpu::Error::Validation { description, .. }
            | wgpu::Error::Internal { description, .. } => description.clone(),
            wgpu::Error::OutOfMemory { source } => source.to_string(),
        };
        let operation = named_operation(&text, operations)
            .or(operations.last().map(|&(_, op)| op))
            .unwrap_or("wgpu call");
        Err(DeviceError::from_wgpu(operation, label, error))
    }
}

/// The operation of the first of `operations` whose wgpu name `text` gives as wgpu does
/// (`In <name>`, then the end of the line or `,`).
fn named_operation(text: &str, operations: &[(&str, &'static str)]) -> Option<&'static str> {
    operations.iter().find_map(|&(name, operation)| {
        text.match_indices(name)
            .any(|(at, _)| {
                let after = &text[at + name.len()..];
                text[..at].ends_with("In ") && (after.is_empty() || after.starts_with(['\n', ',']))
            })
            .then_some(operation)
    })
}

/// The result of one `map_async`, and the waker of the future waiting for it.
#[derive(Default)]
struct MapSlot {
    state: Mutex<MapState>,
}

#[derive(Default)]
struct MapState {
    /// Set once, by the callback or, if wgpu drops it uncalled, by [`MapDone`]'s drop.
    completed: bool,
    result: Option<Result<(), String>>,
    waker: Option<std::task::Waker>,
}

impl MapSlot {
    fn complete(&self, result: Result<(), String>) {
        let waker = {
            let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
            if state.completed {
                return;
            }
            state.completed = true;
            state.result = Some(result);
            state.waker.take()
        };
        if let Some(w) = waker {
            w.wake();
        }
    }

    fn poll(&self, cx: &mut std::task::Context<'_>) -> std::task::Poll<Result<(), String>> {
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        match state.result.take() {
            Some(r) => std::task::Poll::Ready(r),
            None => {
                state.waker = Some(cx.waker().clone());
                std::task::Poll::Pending
            }
        }
    }
}

/// Held by the map callback: if wgpu drops the callback without calling it, the waiting future
/// gets an error instead of waiting forever.
struct MapDone(Arc<MapSlot>);

impl Drop for MapDone {
    fn drop(&mut self) {
        self.0
            .complete(Err("the map callback never ran".to_owned()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_error_is_attributed_to_the_operation_wgpu_names() {
        let text =
            "Validation Error\n\nCaused by:\n  In Queue::submit\n    Buffer 'b' is destroyed\n";
        let ops = [
            ("a CommandEncoder", "CommandEncoder::finish"),
            ("Queue::write_buffer", "Queue::write_buffer"),
            ("Queue::submit", "Queue::submit"),
        ];
        assert_eq!(named_operation(text, &ops), Some("Queue::submit"));
        let text = "Validation Error\n\nCaused by:\n  In a CommandEncoder, label = 'f'\n";
        assert_eq!(named_operation(text, &ops), Some("CommandEncoder::finish"));
        // A name not preceded by "In ", or followed by more of a longer name, is not the call.
        assert_eq!(named_operation("after Queue::submit\n", &ops), None);
        assert_eq!(named_operation("In Queue::submit_later\n", &ops), None);
    }

    #[test]
    fn one_frame_scope_catches_the_first_error_inside_it() {
        let ctx = GpuContext::noop();
        let ok = ctx.frame_scope();
        assert!(
            ok.pop(Some("nothing"), &[("Queue::submit", "Queue::submit")])
                .is_ok()
        );
        let scope = ctx.frame_scope();
        // MAP_READ with anything but COPY_DST is invalid: wgpu reports it in the scope.
        let _ = ctx.device().create_buffer(&wgpu::BufferDescriptor {
            label: Some("bad"),
            size: 16,
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::UNIFORM,
            mapped_at_creation: false,
        });
        let e = scope
            .pop(
                Some("scoped"),
                &[
                    ("Device::create_buffer", "create_buffer"),
                    ("Queue::submit", "Queue::submit"),
                ],
            )
            .expect_err("the invalid buffer is caught");
        let DeviceError::Validation {
            operation, label, ..
        } = &e
        else {
            panic!("{e}");
        };
        assert_eq!((*operation, label.as_str()), ("create_buffer", "scoped"));
        assert!(ctx.take_uncaptured_errors().is_empty());
    }
}
