//! [`Gpu`]: the headless device and everything the framework keeps per device.

use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use std::collections::VecDeque;

use ahash::AHashMap;
use slotmap::{SecondaryMap, SlotMap};
use smallvec::SmallVec;
use vgpu_bind::{BindingStore, ResourceKey};
use vgpu_uniforms::{BufferKey, EngineConfig, OwnerKey, UniformEngine};

use crate::draw::{OpKey, OpState};
use crate::pipeline::PipelineKey;
use crate::program::{Program, ProgramKey};
use crate::timing::GpuTimer;
use crate::uniforms::BlockState;
use vgpu_core::{BackendChoice, ContextOptions, GpuContext, StatsSnapshot, UncapturedError};

use crate::error::Result;
use crate::texture::{Sampler, SamplerDesc};

/// How to create a [`Gpu`]. `Default` reads nothing from the environment: see
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
        }
    }
}

impl GpuOptions {
    /// Defaults, with the backend from `VGPU_BACKEND=auto|vulkan|gl|noop` (unset means `auto`).
    /// An unknown value is an error naming the accepted values.
    pub fn from_env() -> Result<Self> {
        Ok(GpuOptions {
            backend: vgpu_core::backend_from_env()?,
            ..Default::default()
        })
    }

    fn context_options(&self) -> ContextOptions {
        ContextOptions {
            backend: self.backend,
            power_preference: self.power_preference,
            required_features: self.required_features,
            required_limits: self.required_limits.clone(),
            label: self.label.clone(),
        }
    }
}

/// A headless GPU device with vgpu's caches and counters. Cheap to clone (two `Arc`s).
///
/// All handles created from a `Gpu` (draws, uniforms blocks, buffers, targets) share its state.
/// Every method takes `&self`; internal state sits behind one mutex taken for the duration of a
/// single call (a `set`, a recorded draw), never across user code.
#[derive(Clone)]
pub struct Gpu {
    pub(crate) ctx: Arc<GpuContext>,
    pub(crate) shared: Arc<Shared>,
}

impl Gpu {
    /// Identifies this `Gpu` (and its clones) while it lives: operation keys are only
    /// meaningful in the state of the `Gpu` that created them.
    #[inline]
    pub(crate) fn identity(&self) -> usize {
        Arc::as_ptr(&self.shared) as usize
    }
}

impl std::fmt::Debug for Gpu {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Gpu")
            .field("ctx", &self.ctx)
            .finish_non_exhaustive()
    }
}

/// State shared by a `Gpu` and every handle it created.
pub(crate) struct Shared {
    pub(crate) state: Mutex<State>,
}

/// A `Shared` whose state this thread holds through a [`PassLock`], and that state.
type Held = (*const Shared, *mut State);

thread_local! {
    /// Every `Shared` whose state this thread holds through a [`PassLock`], innermost last
    /// (passes of several `Gpu`s can nest).
    static HELD: std::cell::RefCell<SmallVec<[Held; 4]>> =
        std::cell::RefCell::new(SmallVec::new());
}

/// The state of `shared` if this thread holds it through a [`PassLock`].
#[inline]
fn held_state(shared: &Shared) -> Option<*mut State> {
    HELD.with(|h| {
        h.borrow()
            .iter()
            .rev()
            .find(|(s, _)| std::ptr::eq(*s, shared))
            .map(|&(_, state)| state)
    })
}

impl Shared {
    /// Locks the state. A poisoned lock (a panic while it was held) is recovered: every mutation
    /// of the state is completed or rolled back before user code can run.
    ///
    /// Re-entrant on the thread that holds a [`PassLock`] of this `Shared` (calls such as
    /// `draw.set` inside a pass closure): the state is then reached through the pass's lock.
    #[inline]
    pub(crate) fn lock(&self) -> StateGuard<'_> {
        if let Some(state) = held_state(self) {
            return StateGuard::Reentrant(state, std::marker::PhantomData);
        }
        StateGuard::Locked(std::mem::ManuallyDrop::new(
            self.state.lock().unwrap_or_else(PoisonError::into_inner),
        ))
    }

    /// Locks the state for the duration of a pass (see [`PassLock`]).
    pub(crate) fn lock_for_pass(&self) -> PassLock<'_> {
        if let Some(state) = held_state(self) {
            // Already held by an enclosing pass on this thread: share it.
            return PassLock { guard: None, state };
        }
        let mut guard = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        let state: *mut State = &mut *guard;
        HELD.with(|h| h.borrow_mut().push((self as *const Shared, state)));
        PassLock {
            guard: Some(guard),
            state,
        }
    }
}

/// The state held by a pass (or bundle recording) from its start to its end, so recording a draw
/// takes no lock. Other vgpu calls made by the same thread meanwhile (`draw.set`, `camera.set`)
/// reach the state through this lock; other threads wait for the pass to end.
///
/// Invariant: all access to the state while this lock lives goes through `state` (the guard is
/// never dereferenced again), and no `&mut State` obtained through it outlives the vgpu call that
/// made it; vgpu never calls user code while holding one.
pub(crate) struct PassLock<'a> {
    guard: Option<MutexGuard<'a, State>>,
    state: *mut State,
}

impl PassLock<'_> {
    /// The state, for the duration of one vgpu call.
    #[inline]
    pub(crate) fn state(&mut self) -> &mut State {
        // SAFETY: `state` points into the locked mutex (held by `guard` or an enclosing pass's
        // lock on this thread); see the type's invariant for exclusivity.
        unsafe { &mut *self.state }
    }
}

impl Drop for PassLock<'_> {
    fn drop(&mut self) {
        if self.guard.is_none() {
            return;
        }
        // Pass locks end in the reverse order they began: this one is innermost.
        HELD.with(|h| h.borrow_mut().pop());
        let deferred = std::mem::take(&mut self.state().deferred);
        drop(self.guard.take());
        drop(deferred);
    }
}

/// The locked state. Handles released while it is held (a uniforms block or buffer whose last
/// binding went away) are dropped after the lock is released, since their own `Drop` locks it.
pub(crate) enum StateGuard<'a> {
    Locked(std::mem::ManuallyDrop<MutexGuard<'a, State>>),
    Reentrant(*mut State, std::marker::PhantomData<&'a mut State>),
}

impl std::ops::Deref for StateGuard<'_> {
    type Target = State;
    #[inline]
    fn deref(&self) -> &State {
        match self {
            StateGuard::Locked(g) => g,
            // SAFETY: see `PassLock`'s invariant.
            StateGuard::Reentrant(p, _) => unsafe { &**p },
        }
    }
}

impl std::ops::DerefMut for StateGuard<'_> {
    #[inline]
    fn deref_mut(&mut self) -> &mut State {
        match self {
            StateGuard::Locked(g) => g,
            // SAFETY: see `PassLock`'s invariant.
            StateGuard::Reentrant(p, _) => unsafe { &mut **p },
        }
    }
}

impl Drop for StateGuard<'_> {
    #[inline]
    fn drop(&mut self) {
        let StateGuard::Locked(guard) = self else {
            return;
        };
        let deferred = if guard.deferred.is_empty() {
            Vec::new()
        } else {
            std::mem::take(&mut guard.deferred)
        };
        // SAFETY: the guard is dropped exactly once, here, and never used afterwards.
        unsafe { std::mem::ManuallyDrop::drop(guard) };
        drop(deferred);
    }
}

/// Everything vgpu caches per device.
pub(crate) struct State {
    pub(crate) ctx: Arc<GpuContext>,
    pub(crate) engine: UniformEngine,
    pub(crate) bind: BindingStore,
    pub(crate) samplers: AHashMap<SamplerDesc, Sampler>,
    /// Operations created one after another sit next to each other; a lookup is one bounds
    /// check and one version compare.
    pub(crate) ops: SlotMap<OpKey, OpState>,
    pub(crate) programs: AHashMap<ProgramKey, Arc<Program>>,
    pub(crate) pipelines: AHashMap<PipelineKey, (u64, wgpu::RenderPipeline)>,
    pub(crate) compute_pipelines: AHashMap<u64, (u64, wgpu::ComputePipeline)>,
    pub(crate) blocks: SecondaryMap<OwnerKey, BlockState>,
    /// Registry keys of the capture engine's page and storage buffers.
    pub(crate) page_res: AHashMap<BufferKey, ResourceKey>,
    /// How many bindings use each user resource.
    pub(crate) res_refs: AHashMap<ResourceKey, u32>,
    /// User resources no binding uses any more, oldest first.
    pub(crate) idle_resources: VecDeque<ResourceKey>,
    pub(crate) frame_index: u64,
    pub(crate) gpu_timing: bool,
    pub(crate) timer: Option<GpuTimer>,
    pub(crate) gpu_times: Option<(u64, Vec<(String, std::time::Duration)>)>,
    /// Interned target signatures (id = index + 1).
    pub(crate) signatures: Vec<crate::TargetSignature>,
    /// Released slots whose handles must be dropped after the lock (see [`StateGuard`]).
    pub(crate) deferred: Vec<crate::draw::Slot>,
    /// While a `set_all` runs: the slots it replaced, by binding index, in order.
    pub(crate) replaced: Option<Vec<(usize, crate::draw::Slot)>>,
    next_id: u64,
}

impl State {
    /// A fresh id for programs and pipelines (never 0, never reused).
    pub(crate) fn next_id(&mut self) -> u64 {
        self.next_id += 1;
        self.next_id
    }

    /// End-of-submission housekeeping: drop bind groups evicted during the frame, and unregister
    /// engine buffers released by it (evicting exactly the bind groups that used them).
    pub(crate) fn after_submission(&mut self) {
        let State {
            engine,
            bind,
            page_res,
            ..
        } = self;
        for released in engine.drain_released() {
            if let Some(res) = page_res.remove(&released) {
                bind.destroy(res);
            }
        }
        bind.release_retired();
    }
}

impl Gpu {
    /// Creates a device per `options`, blocking.
    pub fn new(options: &GpuOptions) -> Result<Gpu> {
        pollster::block_on(Self::new_async(options))
    }

    /// Creates a device per `options`.
    pub async fn new_async(options: &GpuOptions) -> Result<Gpu> {
        let ctx = vgpu_core::request_context(&options.context_options()).await?;
        Ok(Gpu::from_context(ctx))
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
        let state = State {
            ctx: ctx.clone(),
            engine: UniformEngine::new(ctx.clone(), EngineConfig::default()),
            bind: BindingStore::new(ctx.clone()),
            samplers: AHashMap::default(),
            ops: SlotMap::with_key(),
            programs: AHashMap::default(),
            pipelines: AHashMap::default(),
            compute_pipelines: AHashMap::default(),
            blocks: SecondaryMap::new(),
            page_res: AHashMap::default(),
            res_refs: AHashMap::default(),
            idle_resources: VecDeque::new(),
            frame_index: 0,
            gpu_timing: true,
            timer: None,
            gpu_times: None,
            signatures: Vec::new(),
            deferred: Vec::new(),
            replaced: None,
            next_id: 0,
        };
        Gpu {
            shared: Arc::new(Shared {
                state: Mutex::new(state),
            }),
            ctx,
        }
    }

    #[inline]
    pub(crate) fn lock_state(&self) -> Result<StateGuard<'_>> {
        Ok(self.shared.lock())
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
        self.shared.lock().gpu_timing = enabled;
    }

    /// Live entries of the bind-group cache.
    pub fn cached_bind_groups(&self) -> usize {
        self.shared.lock().bind.len()
    }

    /// Gauges of the capture engine (owners, pages, slots).
    pub fn uniform_gauges(&self) -> vgpu_uniforms::EngineGauges {
        self.shared.lock().engine.gauges()
    }

    /// Blocks until all submitted GPU work is done.
    pub fn wait_idle(&self) -> Result<()> {
        Ok(self.ctx.wait_idle()?)
    }
}
