//! [`Gpu`]: the headless device, and the handle every other handle is created from.

use std::sync::Arc;

use vgpu_core::{GpuContext, StatsSnapshot, UncapturedError};

use crate::advisor::{Advisor, AdvisorReport};
use crate::descriptors::GpuId;
use crate::error::Result;
use crate::gpu_options::GpuOptions;
use crate::state::{SharedState, State};

/// A headless GPU device with vgpu's caches and counters. Cheap to clone (two `Arc`s).
///
/// All handles created from a `Gpu` (draws, uniforms blocks, buffers, targets) share its state
/// and carry its identity: giving one to another `Gpu` is refused with `VGPU-FOREIGN-GPU`.
/// Every method takes `&self`; internal state sits behind one lock taken for the duration of a
/// single call (a `set`, a recorded pass), never across user code except a pass's own closure
/// on the thread recording it.
///
/// Faults: a panic in a frame's or a pass's closure (or a `Frame` dropped unsubmitted) cancels
/// the frame and leaves the `Gpu` usable; a request the device refuses changes nothing; once
/// the device is lost ([`is_lost`](Self::is_lost)) every call that needs it fails with
/// `VGPU-DEVICE-LOST` and a new `Gpu` must be created.
#[derive(Clone)]
pub struct Gpu {
    pub(crate) ctx: Arc<GpuContext>,
    pub(crate) shared: Arc<SharedState>,
}

impl Gpu {
    /// Identifies this `Gpu` (and its clones) for the life of the process.
    #[inline]
    pub(crate) fn id(&self) -> GpuId {
        self.shared.id
    }

    /// Runs `f` on the locked state (see `state/lock.rs`).
    #[inline]
    pub(crate) fn with_state<R>(&self, f: impl FnOnce(&mut State) -> R) -> R {
        self.shared.with(f)
    }
}

impl std::fmt::Debug for Gpu {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Gpu")
            .field("ctx", &self.ctx)
            .finish_non_exhaustive()
    }
}

impl Gpu {
    /// Creates a device per `options`, blocking (native targets; on the web, where nothing may
    /// block, use [`new_async`](Self::new_async)).
    pub fn new(options: &GpuOptions) -> Result<Gpu> {
        vgpu_core::block_on("Gpu::new", "Gpu::new_async", Self::new_async(options))?
    }

    /// Creates a device per `options`.
    pub async fn new_async(options: &GpuOptions) -> Result<Gpu> {
        let ctx = vgpu_core::request_context(&options.context_options()).await?;
        let gpu = Gpu::from_context(ctx);
        if !options.auto_bundles {
            gpu.set_auto_bundles(false);
        }
        gpu.set_parallel_finish(options.parallel_finish);
        Ok(gpu)
    }

    /// Creates a device for the backend named by `VGPU_BACKEND` (default `auto`), blocking.
    pub fn from_env() -> Result<Gpu> {
        Self::new(&GpuOptions::from_env()?)
    }

    /// A device on wgpu's `noop` backend: everything validates and counts, nothing executes.
    pub fn noop() -> Gpu {
        Gpu::from_context(GpuContext::noop())
    }

    /// Wraps an existing context (shares its counters).
    pub fn from_context(ctx: Arc<GpuContext>) -> Gpu {
        Gpu {
            shared: State::new_shared(ctx.clone()),
            ctx,
        }
    }

    /// Adopts an application's wgpu objects: vgpu draws with the app's device and queue (give
    /// the instance too if vgpu should create window surfaces on it).
    ///
    /// The app's handlers stay the app's: wgpu keeps one uncaptured-error handler and one
    /// device-lost callback per device, and vgpu installs neither here. vgpu's own calls get
    /// their errors back as `Err` through error scopes; to have vgpu also count and log the
    /// errors the app's handler receives, forward them with
    /// [`report_uncaptured_error`](Self::report_uncaptured_error).
    pub fn from_wgpu(
        instance: Option<wgpu::Instance>,
        adapter: wgpu::Adapter,
        device: wgpu::Device,
        queue: wgpu::Queue,
    ) -> Gpu {
        Gpu::from_context(GpuContext::adopt(instance, adapter, device, queue))
    }

    /// Counts and logs a wgpu error the app's own handler received (see
    /// [`from_wgpu`](Self::from_wgpu)); it then shows in [`take_uncaptured_errors`](Self::take_uncaptured_errors)
    /// and reaches the callback of [`on_uncaptured_error`](Self::on_uncaptured_error).
    pub fn report_uncaptured_error(&self, error: &wgpu::Error) {
        self.ctx.report_uncaptured(error);
    }

    /// The wgpu instance the adapter came from, when known.
    pub fn instance(&self) -> Option<&wgpu::Instance> {
        self.ctx.instance()
    }

    /// The device choke point: raw device and queue, limits, counters.
    pub fn context(&self) -> &Arc<GpuContext> {
        &self.ctx
    }
    /// The raw wgpu device. Objects created on it directly are not counted.
    pub fn device(&self) -> &wgpu::Device {
        self.ctx.device()
    }
    /// The raw wgpu queue.
    pub fn queue(&self) -> &wgpu::Queue {
        self.ctx.queue()
    }
    /// Adapter name, backend, driver.
    pub fn adapter_info(&self) -> &wgpu::AdapterInfo {
        self.ctx.adapter_info()
    }
    /// True on wgpu's noop backend (passes do not execute, read-back returns zeros).
    pub fn is_noop(&self) -> bool {
        self.ctx.is_noop()
    }
    /// True once this `Gpu`'s device is known lost: wgpu reported it lost (a driver reset, a
    /// GPU hang, `wgpu::Device::destroy`), or a vgpu call found it invalid. Every later call
    /// that needs the device fails with `VGPU-DEVICE-LOST`: create a new `Gpu`.
    ///
    /// After `wgpu::Device::destroy` this can read false until the next vgpu call that reaches
    /// the device (wgpu reports a destroy only at a later poll): creating anything, a frame's
    /// submit, a read-back or [`wait_idle`](Self::wait_idle) finds it.
    pub fn is_lost(&self) -> bool {
        self.ctx.is_lost()
    }
    /// True when the device can time passes on the GPU.
    pub fn has_timestamps(&self) -> bool {
        self.ctx
            .features()
            .contains(wgpu::Features::TIMESTAMP_QUERY)
    }
    /// A copy of all counters. Subtract two snapshots for the work in between.
    pub fn stats(&self) -> StatsSnapshot {
        self.ctx.stats().snapshot()
    }
    /// Takes the wgpu errors raised outside any vgpu call (e.g. during submit), oldest first.
    pub fn take_uncaptured_errors(&self) -> Vec<UncapturedError> {
        self.ctx.take_uncaptured_errors()
    }
    /// Calls `callback` for each wgpu error raised outside any vgpu call. Such errors never panic.
    pub fn on_uncaptured_error(&self, callback: impl Fn(&UncapturedError) + Send + Sync + 'static) {
        self.ctx.on_uncaptured_error(callback);
    }
    /// Turns per-pass GPU timing (timestamp queries, read back a frame or two late) on or off.
    /// On by default where the adapter supports timestamp queries.
    pub fn set_gpu_timing(&self, enabled: bool) {
        self.with_state(|st| st.set_gpu_timing(enabled));
    }

    /// Turns auto-bundles on (the default) or off: a pass that records the same draws frame
    /// after frame is replayed from a render bundle vgpu records for it (see
    /// [`DirectReason`](crate::DirectReason) for when it is not). Off drops the bundles recorded.
    ///
    /// ```
    /// let gpu = vgpu::Gpu::noop();
    /// gpu.set_auto_bundles(false);
    /// ```
    pub fn set_auto_bundles(&self, on: bool) {
        self.with_state(|st| st.set_auto_bundles(on));
    }

    /// Turns parallel finishing on or off for the next frames (see
    /// [`GpuOptions::parallel_finish`]): large render passes recorded into encoders of their
    /// own, finished at once on worker threads. Off, every frame records into one encoder.
    ///
    /// ```
    /// let gpu = vgpu::Gpu::noop();
    /// gpu.set_parallel_finish(false);
    /// ```
    pub fn set_parallel_finish(&self, on: bool) {
        self.shared
            .parallel_finish
            .store(on, std::sync::atomic::Ordering::Relaxed);
    }

    /// The frame advisor over this `Gpu`'s last frames (120 by default, see
    /// [`set_advisor_frames`](Self::set_advisor_frames)): whether they were CPU- or GPU-bound,
    /// with the figures, and [`Advice`](crate::Advice) with its evidence (why a pass could not
    /// be auto-bundled, instance from a storage array, skip unchanged sets, keep bindings
    /// stable, the pass that dominates the GPU). Frames feed it as they are submitted; asking costs a sort of the
    /// window, so ask once a second, not per draw.
    pub fn advisor(&self) -> AdvisorReport {
        self.with_state(|st| st.advisor.report())
    }

    /// Sets how many of the last frames [`advisor`](Self::advisor) looks at (at least 1) and
    /// forgets the frames seen so far (e.g. after the scene changed).
    pub fn set_advisor_frames(&self, frames: usize) {
        self.with_state(|st| st.advisor = Advisor::new(frames));
    }

    /// Live entries of the bind-group cache.
    pub fn cached_bind_groups(&self) -> usize {
        self.with_state(|st| st.bind.len())
    }

    /// Gauges of the capture engine (owners, pages, slots).
    pub fn uniform_gauges(&self) -> vgpu_uniforms::EngineGauges {
        self.with_state(|st| st.engine.gauges())
    }

    /// Blocks until all submitted GPU work is done. Fails with `VGPU-DEVICE-LOST` (instead of
    /// waiting) on a lost device, and when the device turns out destroyed once the wait is over.
    pub fn wait_idle(&self) -> Result<()> {
        Ok(self.ctx.wait_idle()?)
    }
}
