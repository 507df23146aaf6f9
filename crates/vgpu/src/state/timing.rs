//! GPU pass timings through timestamp queries, read back without stalling: each frame's
//! timestamps are resolved into a ring of read-back buffers and mapped asynchronously; a later
//! frame collects whatever has arrived (usually one or two frames late).

use std::sync::Arc;
use std::sync::atomic::{AtomicU8, Ordering};
use std::time::Duration;

use smallvec::SmallVec;

use super::State;

/// The labels of a frame's timed passes, in order.
pub(crate) type TimedPasses = SmallVec<[String; 8]>;

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
                labels: TimedPasses::new(),
                frame: 0,
            });
        }
        Some(GpuTimer {
            query_set,
            resolve,
            ring,
            period_ns: f64::from(ctx.queue().get_timestamp_period()),
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
        let _ = self.ctx.device().poll(wgpu::PollType::Poll);
        let timer = self.timer.as_mut()?;
        let mut latest: Option<(u64, Vec<(String, Duration)>)> = None;
        for slot in &mut timer.ring {
            match slot.state.load(Ordering::Acquire) {
                READY => {
                    let n = slot.labels.len();
                    let times: Vec<u64> = match slot.buffer.slice(..).get_mapped_range() {
                        Ok(view) => bytemuck::pod_collect_to_vec::<u8, u64>(&view[..n * 16]),
                        Err(_) => Vec::new(),
                    };
                    slot.buffer.unmap();
                    slot.state.store(IDLE, Ordering::Release);
                    if times.len() == 2 * n && latest.as_ref().is_none_or(|(f, _)| *f < slot.frame)
                    {
                        let passes = slot
                            .labels
                            .drain(..)
                            .enumerate()
                            .map(|(i, label)| {
                                let ticks = times[2 * i + 1].saturating_sub(times[2 * i]);
                                (
                                    label,
                                    Duration::from_nanos((ticks as f64 * timer.period_ns) as u64),
                                )
                            })
                            .collect();
                        latest = Some((slot.frame, passes));
                    }
                }
                FAILED => {
                    slot.state.store(IDLE, Ordering::Release);
                }
                _ => {}
            }
        }
        if let Some(l) = latest {
            self.gpu_times = Some(l);
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

    /// Maps the ring slot written by the frame just submitted.
    pub(crate) fn timer_after_submit(
        &mut self,
        ring: Option<usize>,
        labels: TimedPasses,
        frame: u64,
    ) {
        let (Some(i), Some(timer)) = (ring, self.timer.as_mut()) else {
            return;
        };
        let slot = &mut timer.ring[i];
        slot.labels = labels;
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
