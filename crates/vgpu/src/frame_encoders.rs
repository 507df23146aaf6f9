//! The command encoders of a frame vgpu finishes and submits itself, and their finishing.
//!
//! A frame records into one encoder, except that a render pass predicted to be large (it
//! recorded at least [`LARGE_PASS_DRAWS`] draws at its place in the previous frame) gets an
//! encoder of its own. At submit, when two or more passes had their own encoder, those are
//! finished at once: all but the last on worker threads (`finish_workers.rs`), the rest in order
//! on the frame's thread; the command buffers are submitted together, in recording order, so the
//! GPU sees the same commands in the same order as from one encoder.
//!
//! Why: wgpu does a frame's real encoding work in `CommandEncoder::finish`, one command at a
//! time through the driver. For a large scene that is most of the CPU's frame (replaying an
//! auto-bundle included) and it runs on one core while the GPU waits; encoders are independent
//! until the submit. The cost: an encoder and a command buffer more per large pass (a few
//! allocations inside wgpu, and the handoff to a parked worker), which is why small passes stay
//! in the shared encoder.

use smallvec::SmallVec;
use vgpu_core::{DeviceError, GpuContext};

use crate::finish_workers::{self, Dispatched, Finished, Job};

/// A render pass that recorded at least this many draws at its place in the previous frame gets
/// its own encoder. Finishing a replayed draw takes about 0.1 µs on an NVIDIA H200 host (wgpu
/// and the driver); waking a parked worker took 17–39 µs there, and an encoder and a command
/// buffer more cost a few allocations (`benches/RESULTS.md`, 2026-12-04): from about a thousand
/// draws a pass finished elsewhere saves clearly more than the handoff costs.
pub(crate) const LARGE_PASS_DRAWS: u32 = 1024;

/// The encoders of a frame, in recording order.
#[derive(Default)]
pub(crate) struct OwnEncoders {
    /// Encoders closed so far; `true` for a large pass's own.
    closed: SmallVec<[(wgpu::CommandEncoder, bool); 4]>,
    /// The one commands go into now (created by the first command after the frame opened or a
    /// large pass ended: an encoder here has commands, or a pass, in it).
    current: Option<wgpu::CommandEncoder>,
}

impl OwnEncoders {
    /// The encoder commands go into now.
    pub(crate) fn current(&mut self, ctx: &GpuContext) -> &mut wgpu::CommandEncoder {
        self.current
            .get_or_insert_with(|| ctx.device().create_command_encoder(&Default::default()))
    }

    /// A large pass begins: what was recorded so far stays in its encoder, the pass gets a new one.
    pub(crate) fn begin_large_pass(&mut self) {
        if let Some(e) = self.current.take() {
            self.closed.push((e, false));
        }
    }

    /// A large pass ended: its encoder is closed (the next commands go into a new one).
    pub(crate) fn end_large_pass(&mut self) {
        if let Some(e) = self.current.take() {
            self.closed.push((e, true));
        }
    }

    /// Finishes every encoder (large passes' at once where two or more of them are, see the
    /// module's doc). Those finished on this thread raise their errors into the frame's scope,
    /// open on it; a worker catches its own. Returns the command buffers in recording order and
    /// the first error a worker caught.
    pub(crate) fn finish(
        self,
        ctx: &std::sync::Arc<GpuContext>,
        label: &'static str,
        operations: &'static [(&'static str, &'static str)],
    ) -> (SmallVec<[wgpu::CommandBuffer; 4]>, Result<(), DeviceError>) {
        let OwnEncoders {
            mut closed,
            current,
        } = self;
        if let Some(e) = current {
            closed.push((e, false));
        }
        let large = closed.iter().filter(|(_, l)| *l).count();
        let mut finishing: SmallVec<[Finishing; 4]> = SmallVec::new();
        let mut dispatched = 0;
        for (encoder, is_large) in closed {
            // The last large encoder is the frame thread's, with the small ones.
            if !(is_large && dispatched + 1 < large) {
                finishing.push(Finishing::Here(encoder));
                continue;
            }
            dispatched += 1;
            let job = Job {
                encoder,
                ctx: ctx.clone(),
                label,
                operations,
            };
            finishing.push(match finish_workers::dispatch(job) {
                Ok(d) => {
                    ctx.stats().encoders_finished_in_parallel.bump();
                    Finishing::Elsewhere(d)
                }
                Err(job) => Finishing::Here(job.encoder),
            });
        }
        // This thread's share, while the workers do theirs.
        let finishing: SmallVec<[Finishing; 4]> = finishing
            .into_iter()
            .map(|f| match f {
                Finishing::Here(encoder) => Finishing::Done(encoder.finish()),
                other => other,
            })
            .collect();
        let mut buffers = SmallVec::new();
        let mut error = Ok(());
        for f in finishing {
            buffers.push(match f {
                Finishing::Elsewhere(d) => {
                    let Finished { buffer, error: e } = d.join();
                    if error.is_ok() {
                        error = e;
                    }
                    buffer
                }
                Finishing::Done(buffer) => buffer,
                Finishing::Here(encoder) => encoder.finish(),
            });
        }
        (buffers, error)
    }
}

/// An encoder being finished.
enum Finishing {
    /// To be finished on the frame's thread (its errors go to the frame's scope there).
    Here(wgpu::CommandEncoder),
    /// Finished on the frame's thread.
    Done(wgpu::CommandBuffer),
    /// A worker finishes it.
    Elsewhere(Dispatched),
}
