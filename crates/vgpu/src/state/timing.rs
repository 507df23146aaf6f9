//! GPU pass timings through timestamp queries, read back without stalling: each frame's
//! timestamps are resolved into a ring of read-back buffers and mapped asynchronously; a later
//! frame collects whatever has arrived (usually one or two frames late).

use std::sync::Arc;
use std::sync::atomic::{AtomicU8, Ordering};
use std::time::Duration;

use smallvec::SmallVec;

use super::State;

/// The labels of a frame's timed passes, in order. Recycled from frame to frame (a frame takes
/// the set a ring slot gave back, see [`State::timer_take_labels`]): a label is copied into a
/// `String` kept from an earlier frame, so steady frames allocate nothing for their labels.
#[derive(Default)]
pub(crate) struct TimedPasses {
    /// The first `len` are this frame's labels; the rest are kept for their capacity.
    labels: SmallVec<[String; 8]>,
    len: usize,
}

impl TimedPasses {
    /// Labels pushed since the last [`clear`](Self::clear).
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Appends `label`, reusing a kept `String` when there is one.
    pub(crate) fn push(&mut self, label: &str) {
        match self.labels.get_mut(self.len) {
            Some(kept) => {
                kept.clear();
                kept.push_str(label);
            }
            None => self.labels.push(label.to_owned()),
        }
        self.len += 1;
    }

    /// Forgets the labels, keeping their `String`s for reuse.
    pub(crate) fn clear(&mut self) {
        self.len = 0;
    }

    /// Keeps whichever of `self` and `other` holds more `String`s for reuse.
    fn keep_larger(&mut self, other: TimedPasses) {
        if other.labels.len() > self.labels.len() {
            *self = other;
        }
    }

    /// The labels, in order.
    fn as_slice(&self) -> &[String] {
        &self.labels[..self.len]
    }
}

/// Render passes timed per frame; later passes in the frame are not timed.
pub(crate) const MAX_TIMED_PASSES: usize = 32;
const RING: usize = 3;
const IDLE: u8 = 0;
const PENDING: u8 = 1;
const READY: u8 = 2;
const FAILED: u8 = 3;

struct RingSlot {
    buffer: wgpu::Buffer,
    state: Arc<AtomicU8>,
    labels: TimedPasses,
    frame: u64,
}

pub(crate) struct GpuTimer {
    query_set: wgpu::QuerySet,
    resolve: wgpu::Buffer,
    ring: Vec<RingSlot>,
    period_ns: f64,
    /// Labels given back by a ring slot (or a frame that was not timed), for the next frame.
    spare: TimedPasses,
}

impl GpuTimer {
    pub(crate) fn new(ctx: &vgpu_core::GpuContext) -> Option<GpuTimer> {
        if ctx.is_noop() || !ctx.features().contains(wgpu::Features::TIMESTAMP_QUERY) {
            return None;
        }
        let count = 2 * MAX_TIMED_PASSES as u32;
        let size = u64::from(count) * 8;
        let query_set = ctx.device().create_query_set(&wgpu::QuerySetDescriptor {
            label: Some("vgpu pass timestamps"),
            ty: wgpu::QueryType::Timestamp,
            count,
        });
        let resolve = ctx
            .create_buffer(&wgpu::BufferDescriptor {
                label: Some("vgpu timestamp resolve"),
                size,
                usage: wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC,
                mapped_at_creation: false,
            })
            .ok()?;
        let mut ring = Vec::with_capacity(RING);
        for _ in 0..RING {
            let buffer = ctx
                .create_buffer(&wgpu::BufferDescriptor {
                    label: Some("vgpu timestamp read-back"),
                    size,
                    usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
                    mapped_at_creation: false,
                })
                .ok()?;
            ring.push(RingSlot {
                buffer,
                state: Arc::new(AtomicU8::new(IDLE)),
                labels: TimedPasses::default(),
                frame: 0,
            });
        }
        Some(GpuTimer {
            query_set,
            resolve,
            ring,
            period_ns: f64::from(ctx.queue().get_timestamp_period()),
            spare: TimedPasses::default(),
        })
    }
}

impl State {
    /// Collects timings that arrived and returns the query set if this frame can be timed (a
    /// ring slot is free).
    pub(crate) fn timer_begin_frame(&mut self) -> Option<wgpu::QuerySet> {
        if !self.gpu_timing {
            return None;
        }
        if self.timer.is_none() {
            self.timer = GpuTimer::new(&self.ctx);
            if self.timer.is_none() {
                self.gpu_timing = false;
                return None;
            }
        }
        let _ = self.ctx.poll("begin_frame", wgpu::PollType::Poll);
        if self.ctx.is_lost() {
            // The poll ran the device-lost callback: the read-back buffers are gone (unmapping
            // them would only raise validation errors), and the frame fails at its submit.
            return None;
        }
        let timer = self.timer.as_mut()?;
        for slot in &mut timer.ring {
            match slot.state.load(Ordering::Acquire) {
                READY => {
                    let newer = self
                        .gpu_times
                        .as_ref()
                        .is_none_or(|(frame, _)| *frame < slot.frame);
                    if newer
                        && let Ok(view) = slot.buffer.slice(..).get_mapped_range()
                        && view.len() >= 16 * slot.labels.len()
                    {
                        let times = self.gpu_times.get_or_insert_with(Default::default);
                        store_pass_times(times, slot, &view, timer.period_ns);
                    }
                    slot.buffer.unmap();
                    slot.state.store(IDLE, Ordering::Release);
                }
                FAILED => {
                    slot.state.store(IDLE, Ordering::Release);
                }
                _ => {}
            }
        }
        let free = timer
            .ring
            .iter()
            .any(|s| s.state.load(Ordering::Acquire) == IDLE);
        free.then(|| timer.query_set.clone())
    }

    /// Resolves this frame's timestamps into a free ring slot; returns its index.
    pub(crate) fn timer_resolve(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        passes: u32,
    ) -> Option<usize> {
        if passes == 0 {
            return None;
        }
        let timer = self.timer.as_mut()?;
        let i = timer
            .ring
            .iter()
            .position(|s| s.state.load(Ordering::Acquire) == IDLE)?;
        let bytes = u64::from(passes) * 16;
        encoder.resolve_query_set(&timer.query_set, 0..2 * passes, &timer.resolve, 0);
        encoder.copy_buffer_to_buffer(&timer.resolve, 0, &timer.ring[i].buffer, 0, bytes);
        Some(i)
    }

    /// The (empty) label set for a frame about to be timed: the one last given back, so its
    /// `String`s are reused.
    pub(crate) fn timer_take_labels(&mut self) -> TimedPasses {
        let mut labels = self
            .timer
            .as_mut()
            .map(|t| std::mem::take(&mut t.spare))
            .unwrap_or_default();
        labels.clear();
        labels
    }

    /// Takes back the labels of a frame that was cancelled, untimed, or whose submit failed.
    pub(crate) fn timer_give_back_labels(&mut self, labels: TimedPasses) {
        if let Some(timer) = self.timer.as_mut() {
            timer.spare.keep_larger(labels);
        }
    }

    /// Maps the ring slot written by the frame just submitted; the slot's previous labels become
    /// the spare set of the next frame.
    pub(crate) fn timer_after_submit(
        &mut self,
        ring: Option<usize>,
        mut labels: TimedPasses,
        frame: u64,
    ) {
        let Some(timer) = self.timer.as_mut() else {
            return;
        };
        let Some(i) = ring else {
            timer.spare.keep_larger(labels);
            return;
        };
        let slot = &mut timer.ring[i];
        std::mem::swap(&mut slot.labels, &mut labels);
        timer.spare = labels;
        slot.frame = frame;
        slot.state.store(PENDING, Ordering::Release);
        let state = slot.state.clone();
        slot.buffer
            .slice(..)
            .map_async(wgpu::MapMode::Read, move |r| {
                state.store(if r.is_ok() { READY } else { FAILED }, Ordering::Release);
            });
    }
}

/// Writes the pass times of `slot` (its labels, the timestamps in its mapped `view`) into
/// `times`, reusing its `Vec` and `String`s. Leaves `times` as it was if the view is too short
/// (callers check first).
fn store_pass_times(
    times: &mut (u64, Vec<(String, Duration)>),
    slot: &RingSlot,
    view: &[u8],
    period_ns: f64,
) {
    let labels = slot.labels.as_slice();
    if view.len() < labels.len() * 16 {
        return;
    }
    let tick = |i: usize| {
        let mut bytes = [0u8; 8];
        bytes.copy_from_slice(&view[8 * i..8 * i + 8]);
        u64::from_ne_bytes(bytes)
    };
    let (frame, passes) = times;
    *frame = slot.frame;
    passes.truncate(labels.len());
    for (i, label) in labels.iter().enumerate() {
        let ticks = tick(2 * i + 1).saturating_sub(tick(2 * i));
        let duration = Duration::from_nanos((ticks as f64 * period_ns) as u64);
        match passes.get_mut(i) {
            Some((kept, d)) => {
                kept.clear();
                kept.push_str(label);
                *d = duration;
            }
            None => passes.push((label.clone(), duration)),
        }
    }
}
