//! [`OcclusionQueries`]: a set of occlusion queries a render pass counts samples into, resolved
//! after the pass and read back without blocking the next frame.
//!
//! Each frame that uses a set resolves its queries right after the pass into the set's resolve
//! buffer and copies them into one of [`RING`] read-back buffers; after the frame's submit that
//! buffer is mapped asynchronously. [`OcclusionQueries::latest`] collects whatever has arrived
//! (usually a frame or two late) without waiting; [`OcclusionQueries::read_async`] waits for the
//! most recently submitted frame's results. The pass side (begin, end, the checks) is in
//! `pass_occlusion.rs`; the frame's side (which sets its passes used) is [`FrameOcclusion`].

use std::future::Future;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::task::{Context, Poll, Waker};

use smallvec::SmallVec;
use vgpu_core::{DeviceError, GpuContext};

use crate::descriptors::GpuId;
use crate::error::{Result, foreign_gpu};
use crate::gpu::Gpu;
use crate::query_error::QueryError;

/// Read-back buffers per set: a frame's results can be in flight while two more frames record.
const RING: usize = 3;
/// A ring slot's states.
const IDLE: u8 = 0;
/// Resolved into by the open frame, not submitted yet.
const RECORDED: u8 = 1;
const PENDING: u8 = 2;
const READY: u8 = 3;
const FAILED: u8 = 4;

/// A set of occlusion queries: give it to a pass with [`PassDesc::occlusion`](crate::PassDesc),
/// wrap draws in queries ([`Pass::occlusion_query`](crate::Pass::occlusion_query)), read the
/// samples that passed a frame or two later ([`latest`](Self::latest)) or wait for them
/// ([`read_async`](Self::read_async)).
///
/// One pass per frame may use a set (a second one is refused with `VGPU-QUERY-REUSED`); each
/// query index at most once in that pass (`VGPU-QUERY-TWICE`). WebGPU promises only zero (no
/// sample passed) or non-zero: some backends count samples, others (GL) report 0 or 1.
///
/// ```
/// let gpu = vgpu::Gpu::noop();
/// let target = gpu.target(8, 8)?;
/// let queries = gpu.occlusion_queries("visibility", 16)?;
/// gpu.frame(|f| {
///     f.pass(vgpu::PassDesc::new(&target).occlusion(&queries), |p| {
///         p.occlusion_query(0, |_p| Ok(())) // draws inside count into query 0
///     })
/// })?;
/// let _ = queries.latest(); // `None` until the first frame's read-back arrived
/// # Ok::<(), vgpu::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct OcclusionQueries {
    pub(crate) inner: Arc<OcclusionRecord>,
}

/// What a frame's occlusion queries counted: the samples that passed each query, by index.
///
/// A query not written in that frame (no pass began it) reads 0, as does a query whose draws
/// were all hidden: tell them apart by what you recorded.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OcclusionResults {
    /// The frame the results are of ([`FrameReport::index`](crate::FrameReport)).
    pub frame_index: u64,
    /// Samples that passed, one per query of the set (`samples.len() == count`).
    pub samples: Vec<u64>,
}

impl OcclusionResults {
    /// The samples query `index` counted (0 for an index out of range).
    pub fn samples(&self, index: u32) -> u64 {
        self.samples.get(index as usize).copied().unwrap_or(0)
    }

    /// True when some sample of query `index`'s draws passed the depth and stencil tests.
    pub fn visible(&self, index: u32) -> bool {
        self.samples(index) != 0
    }
}

/// The shared part of an [`OcclusionQueries`].
#[derive(Debug)]
pub(crate) struct OcclusionRecord {
    pub(crate) label: String,
    pub(crate) set: wgpu::QuerySet,
    pub(crate) count: u32,
    gpu_id: GpuId,
    ctx: Arc<GpuContext>,
    /// Where the pass's queries are resolved (`QUERY_RESOLVE | COPY_SRC`).
    resolve: wgpu::Buffer,
    /// The ring slots' states and the waiting futures' wakers (shared with map callbacks).
    signal: Arc<Signal>,
    read: Mutex<ReadBack>,
}

/// What map callbacks touch: no reference back to the record (the buffers own the callbacks).
#[derive(Debug)]
struct Signal {
    states: [AtomicU8; RING],
    wakers: Mutex<SmallVec<[Waker; 1]>>,
}

impl Signal {
    fn set(&self, slot: usize, state: u8) {
        self.states[slot].store(state, Ordering::Release);
    }

    fn get(&self, slot: usize) -> u8 {
        self.states[slot].load(Ordering::Acquire)
    }

    /// Sets a mapped slot's state and wakes every waiting [`OcclusionQueries::read_async`].
    fn mapped(&self, slot: usize, ok: bool) {
        self.set(slot, if ok { READY } else { FAILED });
        let wakers = std::mem::take(&mut *lock(&self.wakers));
        for w in wakers {
            w.wake();
        }
    }
}

/// The read-back side of a set, behind its lock.
#[derive(Debug)]
struct ReadBack {
    slots: Vec<Slot>,
    /// The newest results collected.
    latest: Option<OcclusionResults>,
    /// The newest frame submitted with a read-back (what `read_async` waits for).
    last_submitted: Option<u64>,
    /// The newest frame whose read-back failed.
    last_failed: Option<u64>,
    /// A used-query bitset for the next pass (recycled from the ring: no allocation per frame).
    spare: Vec<u64>,
}

/// One read-back buffer and what it holds.
#[derive(Debug)]
struct Slot {
    buffer: wgpu::Buffer,
    frame: u64,
    /// The queries the frame wrote (bit `i` of word `i / 64`); the others read 0.
    used: Vec<u64>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Gpu {
    /// Creates a set of `count` occlusion queries (1 to
    /// [`OcclusionQueries::MAX_COUNT`], WebGPU's limit) and its read-back buffers; `label`
    /// names it in errors. Fails with `VGPU-QUERY-COUNT` for a count outside that range.
    pub fn occlusion_queries(&self, label: &str, count: u32) -> Result<OcclusionQueries> {
        if count == 0 || count > OcclusionQueries::MAX_COUNT {
            return Err(QueryError::Count {
                label: label.to_owned(),
                count,
                max: OcclusionQueries::MAX_COUNT,
            }
            .into());
        }
        let ctx = &self.ctx;
        let set = ctx.scoped("create_query_set", Some(label), |d| {
            d.create_query_set(&wgpu::QuerySetDescriptor {
                label: Some(label),
                ty: wgpu::QueryType::Occlusion,
                count,
            })
        })?;
        let size = u64::from(count) * 8;
        let resolve = ctx.create_buffer(&wgpu::BufferDescriptor {
            label: Some("vgpu occlusion resolve"),
            size,
            usage: wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        })?;
        let mut slots = Vec::with_capacity(RING);
        for _ in 0..RING {
            let buffer = ctx.create_buffer(&wgpu::BufferDescriptor {
                label: Some("vgpu occlusion read-back"),
                size,
                usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            })?;
            slots.push(Slot {
                buffer,
                frame: 0,
                used: Vec::new(),
            });
        }
        Ok(OcclusionQueries {
            inner: Arc::new(OcclusionRecord {
                label: label.to_owned(),
                set,
                count,
                gpu_id: self.id(),
                ctx: ctx.clone(),
                resolve,
                signal: Arc::new(Signal {
                    states: std::array::from_fn(|_| AtomicU8::new(IDLE)),
                    wakers: Mutex::new(SmallVec::new()),
                }),
                read: Mutex::new(ReadBack {
                    slots,
                    latest: None,
                    last_submitted: None,
                    last_failed: None,
                    spare: Vec::new(),
                }),
            }),
        })
    }
}

impl OcclusionQueries {
    /// The most queries one set may have: WebGPU's limit on a query set's count (4096).
    pub const MAX_COUNT: u32 = 4096;

    /// The wgpu query set a pass counts into.
    pub(crate) fn query_set(&self) -> &wgpu::QuerySet {
        &self.inner.set
    }
    /// How many queries the set has.
    pub fn count(&self) -> u32 {
        self.inner.count
    }
    /// The label.
    pub fn label(&self) -> &str {
        &self.inner.label
    }

    /// The newest frame's results whose read-back has completed, without waiting (one
    /// non-blocking poll of the device); `None` before the first arrives. Results of frame N
    /// usually arrive while frame N+1 or N+2 records. A frame recorded while all
    /// read-back buffers were still in flight (the GPU three frames behind) is not read back.
    pub fn latest(&self) -> Option<OcclusionResults> {
        let _ = self
            .inner
            .ctx
            .poll("OcclusionQueries::latest", wgpu::PollType::Poll);
        let mut rb = lock(&self.inner.read);
        self.inner.collect(&mut rb);
        rb.latest.clone()
    }

    /// Waits for the results of the most recently submitted frame that used this set (or a
    /// newer one) without blocking: on native targets the future waits for the device (so
    /// `pollster::block_on` of it returns once the GPU is done); on the web the browser
    /// completes the read-back (with WebGL2, at a later poll of the device, e.g. the next
    /// frame's submit). Fails with `VGPU-QUERY-NOT-SUBMITTED` when no frame using the set was
    /// submitted yet, and `VGPU-DEVICE-MAP` when that frame's read-back failed.
    pub fn read_async(&self) -> impl Future<Output = Result<OcclusionResults>> + use<> {
        let inner = self.inner.clone();
        async move {
            let target = lock(&inner.read).last_submitted;
            let Some(target) = target else {
                return Err(QueryError::NotSubmitted {
                    label: inner.label.clone(),
                }
                .into());
            };
            if cfg!(target_arch = "wasm32") {
                let _ = inner
                    .ctx
                    .poll("OcclusionQueries::read_async", wgpu::PollType::Poll);
            } else {
                inner.ctx.wait_idle()?;
            }
            std::future::poll_fn(|cx| inner.poll_read(target, cx)).await
        }
    }
}

impl OcclusionRecord {
    /// Collects the ring slots whose read-back completed into `latest` and frees them.
    fn collect(&self, rb: &mut ReadBack) {
        let count = self.count as usize;
        let ReadBack {
            slots,
            latest,
            last_failed,
            ..
        } = rb;
        for (i, slot) in slots.iter_mut().enumerate() {
            match self.signal.get(i) {
                READY => {
                    let newer = latest.as_ref().is_none_or(|l| l.frame_index < slot.frame);
                    // (No `let` chain: the workspace's MSRV is 1.87.)
                    let view = newer
                        .then(|| slot.buffer.slice(..).get_mapped_range().ok())
                        .flatten();
                    if let Some(view) = view {
                        let results = latest.get_or_insert_with(Default::default);
                        results.frame_index = slot.frame;
                        results.samples.clear();
                        results.samples.resize(count, 0);
                        store_samples(&mut results.samples, &view, &slot.used);
                    }
                    slot.buffer.unmap();
                    self.signal.set(i, IDLE);
                }
                FAILED => {
                    *last_failed = Some(last_failed.map_or(slot.frame, |f| f.max(slot.frame)));
                    self.signal.set(i, IDLE);
                }
                _ => {}
            }
        }
    }

    /// [`OcclusionQueries::read_async`]'s poll: ready once frame `target` (or a newer one) was
    /// collected.
    fn poll_read(&self, target: u64, cx: &mut Context<'_>) -> Poll<Result<OcclusionResults>> {
        // The waker first: a map completing after the collect below still wakes this future.
        lock(&self.signal.wakers).push(cx.waker().clone());
        let mut rb = lock(&self.read);
        self.collect(&mut rb);
        if let Some(results) = rb.latest.as_ref().filter(|l| l.frame_index >= target) {
            return Poll::Ready(Ok(results.clone()));
        }
        if rb.last_failed.is_some_and(|f| f >= target) {
            return Poll::Ready(Err(DeviceError::Map {
                label: self.label.clone(),
                description: format!("the read-back of frame {target}'s occlusion queries failed"),
            }
            .into()));
        }
        Poll::Pending
    }

    /// An empty used-query bitset for a pass (the spare one, recycled).
    fn take_used(&self) -> Vec<u64> {
        let mut used = std::mem::take(&mut lock(&self.read).spare);
        used.clear();
        used.resize(self.count.div_ceil(64) as usize, 0);
        used
    }

    /// Resolves the queries a pass wrote (`used`) into a free ring slot for frame `frame`;
    /// returns the slot, or `None` when every slot is in flight (the frame is not read back).
    fn resolve(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        used: Vec<u64>,
        frame: u64,
    ) -> Option<usize> {
        let mut rb = lock(&self.read);
        self.collect(&mut rb);
        let free = |s: &Signal| (0..RING).find(|&i| s.get(i) == IDLE);
        let mut i = free(&self.signal);
        if i.is_none() {
            // Map callbacks of finished frames run at a poll (they touch only `signal`).
            let _ = self.ctx.poll("Frame::pass", wgpu::PollType::Poll);
            self.collect(&mut rb);
            i = free(&self.signal);
        }
        let Some(i) = i else {
            rb.spare = used;
            return None;
        };
        // Queries 0..len: through the highest one written (the rest of the buffer is unused).
        let len = used
            .iter()
            .rposition(|w| *w != 0)
            .map_or(0, |w| 64 * w as u32 + 64 - used[w].leading_zeros());
        let slot = &mut rb.slots[i];
        if len > 0 {
            encoder.resolve_query_set(&self.set, 0..len, &self.resolve, 0);
            encoder.copy_buffer_to_buffer(&self.resolve, 0, &slot.buffer, 0, u64::from(len) * 8);
        }
        let old = std::mem::replace(&mut slot.used, used);
        slot.frame = frame;
        rb.spare = old;
        self.signal.set(i, RECORDED);
        Some(i)
    }

    /// After the frame's submit (`submitted`), maps the slot it resolved into; otherwise (a
    /// cancelled frame, a failed submit) frees it.
    fn after_submit(&self, slot: usize, submitted: bool) {
        if self.signal.get(slot) != RECORDED {
            return;
        }
        if !submitted {
            self.signal.set(slot, IDLE);
            return;
        }
        let mut rb = lock(&self.read);
        let frame = rb.slots[slot].frame;
        rb.last_submitted = Some(frame);
        self.signal.set(slot, PENDING);
        let signal = self.signal.clone();
        rb.slots[slot]
            .buffer
            .slice(..)
            .map_async(wgpu::MapMode::Read, move |r| signal.mapped(slot, r.is_ok()));
    }
}

/// Writes the samples of the queries in `used` from the mapped `view` (little-endian `u64`s).
fn store_samples(samples: &mut [u64], view: &[u8], used: &[u64]) {
    for (i, out) in samples.iter_mut().enumerate() {
        if used.get(i / 64).is_none_or(|w| w & (1 << (i % 64)) == 0) {
            continue;
        }
        if let Some(bytes) = view.get(8 * i..8 * i + 8) {
            let mut b = [0; 8];
            b.copy_from_slice(bytes);
            *out = u64::from_le_bytes(b);
        }
    }
}

/// The occlusion sets a frame's passes used, and the ring slot each resolved into. Dropped
/// unfinished (a cancelled frame, a submit that failed early), it frees the slots.
#[derive(Debug, Default)]
pub(crate) struct FrameOcclusion {
    used: SmallVec<[(OcclusionQueries, Option<usize>); 1]>,
}

impl Drop for FrameOcclusion {
    fn drop(&mut self) {
        self.finish(false);
    }
}

impl FrameOcclusion {
    /// Checks `queries` for a pass of this frame (another `Gpu`'s, an app's encoder, a second
    /// pass of the frame) and returns the pass's query state.
    pub(crate) fn begin_pass(
        &self,
        gpu: &Gpu,
        queries: Option<&OcclusionQueries>,
        app_encoder: bool,
    ) -> Result<Option<PassOcclusion>> {
        let Some(q) = queries else {
            return Ok(None);
        };
        if q.inner.gpu_id != gpu.id() {
            return Err(foreign_gpu(
                "occlusion queries",
                q.label(),
                "recording the pass",
            ));
        }
        let label = || q.label().to_owned();
        if app_encoder {
            return Err(QueryError::AppEncoder { label: label() }.into());
        }
        if self
            .used
            .iter()
            .any(|(u, _)| Arc::ptr_eq(&u.inner, &q.inner))
        {
            return Err(QueryError::Reused { label: label() }.into());
        }
        Ok(Some(PassOcclusion::new(q.clone(), q.inner.take_used())))
    }

    /// After the pass ended: resolves its queries into `encoder` (read back after the submit).
    pub(crate) fn end_pass(
        &mut self,
        gpu: &Gpu,
        encoder: &mut wgpu::CommandEncoder,
        pass: PassOcclusion,
    ) {
        let frame = gpu.with_state(|st| st.frame_index());
        let (queries, used) = pass.into_parts();
        let slot = queries.inner.resolve(encoder, used, frame);
        self.used.push((queries, slot));
    }

    /// After the frame's submit (`submitted` false: cancelled or failed): starts the read-backs,
    /// or frees their slots.
    pub(crate) fn finish(&mut self, submitted: bool) {
        for (q, slot) in self.used.drain(..) {
            if let Some(slot) = slot {
                q.inner.after_submit(slot, submitted);
            }
        }
    }
}

/// A pass's occlusion queries: the set, the query open, the queries begun.
#[derive(Debug)]
pub(crate) struct PassOcclusion {
    queries: OcclusionQueries,
    pub(crate) open: Option<u32>,
    /// Bit `i` of word `i / 64`: query `i` was begun in this pass.
    used: Vec<u64>,
}

impl PassOcclusion {
    /// A pass's state for `queries`, with `used` all zero (one bit per query).
    pub(crate) fn new(queries: OcclusionQueries, used: Vec<u64>) -> Self {
        PassOcclusion {
            queries,
            open: None,
            used,
        }
    }

    /// The set and the queries the pass wrote.
    pub(crate) fn into_parts(self) -> (OcclusionQueries, Vec<u64>) {
        (self.queries, self.used)
    }

    /// The set's label, for errors.
    pub(crate) fn set_label(&self) -> String {
        self.queries.label().to_owned()
    }

    /// Checks that query `index` may begin; marks it begun and open.
    pub(crate) fn begin(&mut self, index: u32) -> Result<()> {
        let count = self.queries.count();
        if index >= count {
            return Err(QueryError::Index {
                label: self.set_label(),
                index,
                count,
            }
            .into());
        }
        if let Some(open) = self.open {
            return Err(QueryError::AlreadyOpen {
                label: self.set_label(),
                index,
                open,
            }
            .into());
        }
        let (word, bit) = ((index / 64) as usize, 1u64 << (index % 64));
        match self.used.get_mut(word) {
            Some(w) if *w & bit != 0 => Err(QueryError::UsedTwice {
                label: self.set_label(),
                index,
            }
            .into()),
            Some(w) => {
                *w |= bit;
                self.open = Some(index);
                Ok(())
            }
            // `used` has one bit per query: unreachable for an index in range.
            None => Err(QueryError::Index {
                label: self.set_label(),
                index,
                count,
            }
            .into()),
        }
    }
}
