//! Frames and passes: one command encoder per frame, render and compute passes recorded by
//! closures, one submit.
//!
//! A frame is one submission of the capture engine: values bound by operations recorded in it
//! are captured per operation and uploaded once at submit (only bytes not already resident).

use std::time::{Duration, Instant};

use vgpu_core::StatsSnapshot;

use crate::bundle::Bundle;
use crate::compute::Compute;
use crate::descriptors::{DrawRange, GpuId, TargetSignature};
use crate::draw::Draw;
use crate::error::{FrameError, Result, foreign_gpu};
use crate::gpu::Gpu;
use crate::state::{HeldState, MAX_TIMED_PASSES, PassBindings, TimedPasses};
use crate::target::Target;

/// Describes a render pass. `From<&Target>` clears color to transparent black and depth to 1.
#[derive(Clone, Debug)]
pub struct PassDesc<'t> {
    /// The target rendered into.
    pub target: &'t Target,
    /// Label (shows in GPU timings and wgpu messages).
    pub label: &'t str,
    /// Clear color (`None` keeps the target's contents).
    pub clear: Option<[f64; 4]>,
    /// Depth clear value (`None` keeps the depth contents).
    pub clear_depth: Option<f32>,
    /// Viewport `[x, y, width, height, min_depth, max_depth]`.
    pub viewport: Option<[f32; 6]>,
    /// Scissor rectangle `[x, y, width, height]`.
    pub scissor: Option<[u32; 4]>,
}

impl<'t> PassDesc<'t> {
    /// A pass into `target` that clears color to transparent black and depth to 1.
    pub fn new(target: &'t Target) -> Self {
        PassDesc {
            target,
            label: "pass",
            clear: Some([0.0, 0.0, 0.0, 0.0]),
            clear_depth: Some(1.0),
            viewport: None,
            scissor: None,
        }
    }
    /// Sets the label.
    pub fn label(mut self, label: &'t str) -> Self {
        self.label = label;
        self
    }
    /// Clears color to `rgba`.
    pub fn clear(mut self, rgba: [f64; 4]) -> Self {
        self.clear = Some(rgba);
        self
    }
    /// Keeps the target's color and depth contents.
    pub fn load(mut self) -> Self {
        self.clear = None;
        self.clear_depth = None;
        self
    }
    /// Clears depth to `depth`.
    pub fn clear_depth(mut self, depth: f32) -> Self {
        self.clear_depth = Some(depth);
        self
    }
    /// Sets the viewport.
    pub fn viewport(mut self, x: f32, y: f32, w: f32, h: f32) -> Self {
        self.viewport = Some([x, y, w, h, 0.0, 1.0]);
        self
    }
    /// Sets the scissor rectangle.
    pub fn scissor(mut self, x: u32, y: u32, w: u32, h: u32) -> Self {
        self.scissor = Some([x, y, w, h]);
        self
    }
}

impl<'t> From<&'t Target> for PassDesc<'t> {
    fn from(target: &'t Target) -> Self {
        PassDesc::new(target)
    }
}

/// What one frame did: counter deltas, CPU times, and GPU pass times where measurable.
#[derive(Clone, Debug, Default)]
pub struct FrameReport {
    /// Frame number (1 for the first frame of this `Gpu`).
    pub index: u64,
    /// Counter deltas over the frame: operations, bind groups, buffers, writes, bytes, cache…
    pub stats: StatsSnapshot,
    /// CPU time from the start of the frame through `CommandEncoder::finish()`.
    pub encode: Duration,
    /// CPU time of uploads plus `Queue::submit`.
    pub submit: Duration,
    /// Per-pass GPU times `(label, duration)` of the most recent frame whose timestamps were read
    /// back (usually one or two frames earlier, see `gpu_frame_index`); `None` where the adapter
    /// has no timestamp queries or none have been read back yet. The first 32 render passes
    /// of a frame are timed; later ones are recorded untimed.
    pub gpu_passes: Option<Vec<(String, Duration)>>,
    /// The frame the `gpu_passes` belong to.
    pub gpu_frame_index: Option<u64>,
}

impl FrameReport {
    /// Sum of the GPU pass times, if measured.
    pub fn gpu_total(&self) -> Option<Duration> {
        self.gpu_passes
            .as_ref()
            .map(|p| p.iter().map(|(_, d)| *d).sum())
    }
}

/// An open frame. Record passes with [`pass`](Self::pass) and
/// [`compute_pass`](Self::compute_pass), then [`submit`](Self::submit) (or drop /
/// [`cancel`](Self::cancel) to discard everything: nothing is uploaded).
pub struct Frame<'g> {
    gpu: &'g Gpu,
    encoder: Option<wgpu::CommandEncoder>,
    start: Instant,
    before: StatsSnapshot,
    timer: Option<wgpu::QuerySet>,
    timed: TimedPasses,
    open: bool,
}

impl std::fmt::Debug for Frame<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Frame")
            .field("passes", &self.timed.len())
            .finish_non_exhaustive()
    }
}

impl Gpu {
    /// Opens a frame: `begin_frame`, then passes, then [`Frame::submit`].
    pub fn begin_frame(&self) -> Result<Frame<'_>> {
        let start = Instant::now();
        let before = self.ctx.stats().snapshot();
        let timer = self.with_state(|st| -> Result<_> {
            if st.engine.open_submission().is_some() {
                return Err(FrameError::AlreadyOpen.into());
            }
            st.engine.begin_submission()?;
            st.begin_frame_index();
            Ok(st.timer_begin_frame())
        })?;
        let encoder = self
            .ctx
            .device()
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("vgpu frame"),
            });
        Ok(Frame {
            gpu: self,
            encoder: Some(encoder),
            start,
            before,
            timer,
            timed: TimedPasses::new(),
            open: true,
        })
    }

    /// Runs `record` in a new frame and submits it; if `record` fails, the frame is cancelled
    /// (nothing uploaded or submitted) and the error returned.
    ///
    /// ```
    /// let gpu = vgpu::Gpu::noop();
    /// let target = gpu.target(4, 4)?;
    /// let report = gpu.frame(|f| f.pass(&target, |_p| Ok(())))?;
    /// assert_eq!(report.stats.bind_groups_created, 0);
    /// # Ok::<(), vgpu::Error>(())
    /// ```
    pub fn frame(&self, record: impl FnOnce(&mut Frame<'_>) -> Result<()>) -> Result<FrameReport> {
        let mut frame = self.begin_frame()?;
        match record(&mut frame) {
            Ok(()) => frame.submit(),
            Err(e) => {
                frame.cancel();
                Err(e)
            }
        }
    }
}

impl<'g> Frame<'g> {
    /// The frame's command encoder, for raw commands (copies, clears) between passes.
    pub fn encoder(&mut self) -> &mut wgpu::CommandEncoder {
        self.encoder.get_or_insert_with(|| {
            self.gpu
                .ctx
                .device()
                .create_command_encoder(&Default::default())
        })
    }

    /// Records a render pass into `desc`'s target.
    pub fn pass<'t>(
        &mut self,
        desc: impl Into<PassDesc<'t>>,
        record: impl FnOnce(&mut Pass<'_>) -> Result<()>,
    ) -> Result<()> {
        let desc = desc.into();
        let target = desc.target;
        self.gpu.check_target(target, "recording a pass")?;
        let timestamp_index = match &self.timer {
            Some(_) if self.timed.len() < MAX_TIMED_PASSES => {
                self.timed.push(desc.label.to_owned());
                Some((self.timed.len() - 1) as u32)
            }
            _ => None,
        };
        let timer = self.timer.clone();
        let timestamps = timer.as_ref().zip(timestamp_index);
        let gpu = self.gpu;
        let rpass = begin_render_pass(self.encoder(), &desc, timestamps);
        let held = gpu.shared.hold();
        let signature_id = {
            let mut st = held.borrow_mut();
            // Draws recorded into it may bind memoized uniform slots (`State::record_fast`).
            st.engine.memos_in_use();
            st.signature_id(target.signature())
        };
        let mut pass = Pass {
            gpu_id: gpu.id(),
            held,
            rpass,
            sig: target.signature(),
            signature_id,
            bound: PassBindings::default(),
        };
        let result = record(&mut pass);
        pass.bound.flush(gpu.ctx.stats());
        result
    }

    /// Records a compute pass.
    pub fn compute_pass(
        &mut self,
        record: impl FnOnce(&mut ComputePass<'_>) -> Result<()>,
    ) -> Result<()> {
        let gpu = self.gpu;
        let encoder = self.encoder();
        let cpass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
            label: Some("vgpu compute"),
            timestamp_writes: None,
        });
        let mut pass = ComputePass {
            gpu,
            held: gpu.shared.hold(),
            cpass,
            bound: PassBindings::default(),
            pipeline: 0,
        };
        let result = record(&mut pass);
        pass.bound.flush(gpu.ctx.stats());
        result
    }

    /// Finishes encoding, uploads what changed, submits. Returns the frame's report.
    pub fn submit(mut self) -> Result<FrameReport> {
        self.open = false;
        let gpu = self.gpu;
        let Some(mut encoder) = self.encoder.take() else {
            return Err(FrameError::AlreadyOpen.into());
        };
        let timed = std::mem::take(&mut self.timed);
        let ring = gpu.with_state(|st| st.timer_resolve(&mut encoder, timed.len() as u32));
        let finished = gpu
            .ctx
            .scoped("CommandEncoder::finish", Some("vgpu frame"), |_| {
                encoder.finish()
            });
        let encode = self.start.elapsed();
        let (submit, submitted) = gpu.with_state(|st| -> Result<_> {
            let cmd = match finished {
                Ok(cmd) => cmd,
                Err(e) => {
                    st.engine.cancel_submission();
                    st.after_submission();
                    return Err(e.into());
                }
            };
            let t = Instant::now();
            st.engine.finish_submission()?;
            // Scoped: a resource destroyed after it was recorded fails here, with wgpu's
            // description.
            let submitted = gpu.ctx.scoped("Queue::submit", Some("vgpu frame"), |_| {
                gpu.ctx.submit([cmd]);
            });
            let submit = t.elapsed();
            if submitted.is_ok() {
                let frame_index = st.frame_index();
                st.timer_after_submit(ring, timed, frame_index);
            }
            st.after_submission();
            Ok((submit, submitted))
        })?;
        submitted?;
        let (index, gpu_times) = gpu.with_state(|st| (st.frame_index(), st.gpu_times()));
        let (gpu_frame_index, gpu_passes) = match gpu_times {
            Some((i, p)) => (Some(i), Some(p)),
            None => (None, None),
        };
        Ok(FrameReport {
            index,
            stats: gpu.ctx.stats().snapshot() - self.before,
            encode,
            submit,
            gpu_passes,
            gpu_frame_index,
        })
    }

    /// Discards the frame: nothing recorded is submitted, nothing is uploaded; values keep what
    /// was last set.
    pub fn cancel(mut self) {
        self.cancel_inner();
    }

    fn cancel_inner(&mut self) {
        if !self.open {
            return;
        }
        self.open = false;
        self.encoder = None;
        self.gpu.with_state(|st| {
            st.engine.cancel_submission();
            st.after_submission();
        });
    }
}

impl Drop for Frame<'_> {
    fn drop(&mut self) {
        self.cancel_inner();
    }
}

/// Begins the wgpu render pass of `desc`: its target's attachments with their load operations,
/// timestamps at `(query set, pass index)`, viewport and scissor.
fn begin_render_pass<'e>(
    encoder: &'e mut wgpu::CommandEncoder,
    desc: &PassDesc<'_>,
    timestamps: Option<(&wgpu::QuerySet, u32)>,
) -> wgpu::RenderPass<'e> {
    let target = desc.target;
    let color = target
        .attachment_view()
        .map(|view| wgpu::RenderPassColorAttachment {
            view,
            depth_slice: None,
            resolve_target: target.resolve_view(),
            ops: wgpu::Operations {
                load: match desc.clear {
                    Some([r, g, b, a]) => wgpu::LoadOp::Clear(wgpu::Color { r, g, b, a }),
                    None => wgpu::LoadOp::Load,
                },
                store: wgpu::StoreOp::Store,
            },
        });
    let depth = target
        .depth_view()
        .map(|view| wgpu::RenderPassDepthStencilAttachment {
            view,
            depth_ops: Some(wgpu::Operations {
                load: match desc.clear_depth {
                    Some(d) => wgpu::LoadOp::Clear(d),
                    None => wgpu::LoadOp::Load,
                },
                store: wgpu::StoreOp::Store,
            }),
            stencil_ops: None,
        });
    let color_attachments = [color];
    let mut rpass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
        label: Some(desc.label),
        color_attachments: if color_attachments[0].is_some() {
            &color_attachments
        } else {
            &[]
        },
        depth_stencil_attachment: depth,
        timestamp_writes: timestamps.map(|(query_set, i)| wgpu::RenderPassTimestampWrites {
            query_set,
            beginning_of_pass_write_index: Some(2 * i),
            end_of_pass_write_index: Some(2 * i + 1),
        }),
        occlusion_query_set: None,
        multiview_mask: None,
    });
    if let Some([x, y, w, h, min, max]) = desc.viewport {
        rpass.set_viewport(x, y, w, h, min, max);
    }
    if let Some([x, y, w, h]) = desc.scissor {
        rpass.set_scissor_rect(x, y, w, h);
    }
    rpass
}

/// A render pass being recorded.
pub struct Pass<'p> {
    /// The recording `Gpu`'s id.
    gpu_id: GpuId,
    /// The state, held for the pass (borrowed once per recorded draw).
    held: HeldState<'p>,
    rpass: wgpu::RenderPass<'p>,
    sig: TargetSignature,
    /// `sig` interned (fast records compare this id).
    signature_id: u32,
    bound: PassBindings,
}

impl std::fmt::Debug for Pass<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pass")
            .field("signature", &self.sig)
            .finish_non_exhaustive()
    }
}

impl<'p> Pass<'p> {
    /// Records `draw` with its own vertex and instance counts. Each value it binds is seen as it
    /// is now, even if set again later in the frame.
    #[inline(always)]
    pub fn draw(&mut self, draw: &Draw) -> Result<()> {
        if draw.gpu_id != self.gpu_id {
            return Err(foreign_gpu("draw", &draw.inner.label, "recording the pass"));
        }
        let mut state = self.held.borrow_mut();
        if state.record_fast(
            draw.key,
            &mut self.rpass,
            &mut self.bound,
            self.signature_id,
        ) {
            return Ok(());
        }
        state.record_draw(
            draw.key,
            &mut self.rpass,
            &mut self.bound,
            self.sig,
            self.signature_id,
            None,
        )
    }

    /// Records `draw` with explicit vertex (or index) and instance ranges.
    pub fn draw_with(&mut self, draw: &Draw, range: DrawRange) -> Result<()> {
        if draw.gpu_id != self.gpu_id {
            return Err(foreign_gpu("draw", &draw.inner.label, "recording the pass"));
        }
        self.held.borrow_mut().record_draw(
            draw.key,
            &mut self.rpass,
            &mut self.bound,
            self.sig,
            self.signature_id,
            Some(&range),
        )
    }

    /// Replays a bundle. Fails with `VGPU-BUNDLE-STALE` if a resource it recorded was destroyed
    /// or a draw in it was rebound, and `VGPU-BUNDLE-SIGNATURE` for another target signature.
    pub fn execute(&mut self, bundle: &Bundle) -> Result<()> {
        if bundle.gpu_id() != self.gpu_id {
            return Err(foreign_gpu("bundle", bundle.label(), "recording the pass"));
        }
        bundle.check(self.sig)?;
        self.rpass.execute_bundles(std::iter::once(bundle.raw()));
        self.bound.reset();
        self.bound.operations += bundle.len() as u64;
        Ok(())
    }

    /// Sets the viewport.
    pub fn set_viewport(&mut self, x: f32, y: f32, w: f32, h: f32) {
        self.rpass.set_viewport(x, y, w, h, 0.0, 1.0);
    }

    /// Sets the scissor rectangle.
    pub fn set_scissor(&mut self, x: u32, y: u32, w: u32, h: u32) {
        self.rpass.set_scissor_rect(x, y, w, h);
    }

    /// The target signature of this pass.
    pub fn signature(&self) -> TargetSignature {
        self.sig
    }

    /// The raw wgpu pass, for commands vgpu does not wrap. vgpu forgets what it had bound.
    pub fn raw(&mut self) -> &mut wgpu::RenderPass<'p> {
        self.bound.reset();
        &mut self.rpass
    }
}

/// A compute pass being recorded.
pub struct ComputePass<'p> {
    gpu: &'p Gpu,
    /// The state, held for the pass (borrowed once per dispatch).
    held: HeldState<'p>,
    cpass: wgpu::ComputePass<'p>,
    bound: PassBindings,
    pipeline: u64,
}

impl std::fmt::Debug for ComputePass<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ComputePass").finish_non_exhaustive()
    }
}

impl ComputePass<'_> {
    /// Dispatches `x × y × z` workgroups of `compute`. Fails with `VGPU-DISPATCH-LIMIT` past the
    /// device's `max_compute_workgroups_per_dimension`.
    pub fn dispatch(&mut self, compute: &Compute, x: u32, y: u32, z: u32) -> Result<()> {
        let max = self.gpu.ctx.limits().max_compute_workgroups_per_dimension;
        if x > max || y > max || z > max {
            return Err(FrameError::DispatchLimit {
                label: compute.label().to_owned(),
                expected: max,
                actual: [x, y, z],
            }
            .into());
        }
        self.prepare(compute)?;
        self.cpass.dispatch_workgroups(x, y, z);
        Ok(())
    }

    /// Dispatches with the workgroup counts read from `buffer` at `offset` (three `u32`s; the
    /// buffer needs `INDIRECT` usage).
    pub fn dispatch_indirect(
        &mut self,
        compute: &Compute,
        buffer: &crate::buffer::Buffer,
        offset: u64,
    ) -> Result<()> {
        self.gpu
            .check_buffer(buffer, "dispatching indirect from it")?;
        buffer.check_live()?;
        if !buffer.usage().contains(wgpu::BufferUsages::INDIRECT)
            || !offset.is_multiple_of(4)
            || offset.checked_add(12).is_none_or(|end| end > buffer.size())
        {
            return Err(crate::error::BufferError::Range {
                label: buffer.label().to_owned(),
                what: "indirect dispatch arguments",
                expected: format!(
                    "INDIRECT usage, offset multiple of 4, offset + 12 <= {}",
                    buffer.size()
                ),
                actual: format!("usage {:?}, offset {offset}", buffer.usage()),
            }
            .into());
        }
        self.prepare(compute)?;
        self.cpass
            .dispatch_workgroups_indirect(buffer.raw(), offset);
        Ok(())
    }

    fn prepare(&mut self, compute: &Compute) -> Result<()> {
        if compute.inner.gpu.id() != self.gpu.id() {
            return Err(foreign_gpu(
                "compute",
                &compute.inner.label,
                "recording the compute pass",
            ));
        }
        let mut st = self.held.borrow_mut();
        let key = compute.inner.key;
        if let Some((id, pipeline)) = st.compute_pipeline(key)? {
            if self.pipeline != id {
                self.cpass.set_pipeline(&pipeline);
                self.pipeline = id;
                self.bound.set_pipeline_calls += 1;
            }
        }
        st.record_groups(key, &mut self.cpass, &mut self.bound)?;
        self.bound.operations += 1;
        Ok(())
    }
}
