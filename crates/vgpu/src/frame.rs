//! [`Frame`]: one command encoder per frame, render and compute passes recorded by closures
//! (`pass.rs`, `compute_pass.rs`; where a pass draws: `pass_desc.rs`), one submit.
//!
//! A frame is one submission of the capture engine: values bound by operations recorded in it
//! are captured per operation and uploaded once at submit (only bytes not already resident).

// `std::time::Instant` panics on wasm32-unknown-unknown; web-time is std's on native targets and
// the browser's clock (`performance.now()`) on the web.
use web_time::Instant;

use smallvec::SmallVec;
use vgpu_core::StatsSnapshot;

use crate::compute_pass::{ComputePass, record_compute_pass};
use crate::descriptors::TargetSignature;
use crate::error::{FrameError, Result};
use crate::frame_encoders::{LARGE_PASS_DRAWS, OwnEncoders};
use crate::gpu::Gpu;
use crate::pass::{Pass, record_pass};
use crate::pass_desc::{PassDesc, PassTarget, begin_render_pass};
use crate::report::{FrameReport, SurfaceSkip};
use crate::state::auto_bundle::PassIdentity;
use crate::state::{MAX_TIMED_PASSES, TimedPasses};
use crate::surface::{AcquiredSurface, Surface};
use crate::target::AttachmentViews;

/// The label vgpu's frame errors name (`VGPU-DEVICE-VALIDATION: CommandEncoder::finish "vgpu
/// frame" …`). Not given to wgpu: wgpu copies an encoder's label into two `String`s.
const FRAME_LABEL: &str = "vgpu frame";

/// What a frame's error scopes cover, in order: the name wgpu gives each call in its errors,
/// and the operation vgpu's error names (an error naming none of them is the submit's).
const FRAME_OPERATIONS: [(&str, &str); 3] = [
    ("a CommandEncoder", "CommandEncoder::finish"),
    ("Queue::write_buffer", "Queue::write_buffer"),
    ("Queue::submit", "Queue::submit"),
];

/// An open frame. Record passes with [`pass`](Self::pass) and
/// [`compute_pass`](Self::compute_pass), then [`submit`](Self::submit) (or drop /
/// [`cancel`](Self::cancel) to discard everything: nothing is uploaded). Dropping it while a
/// panic unwinds (in a frame's or a pass's closure) cancels it too: the next frame opens.
pub struct Frame<'g> {
    gpu: &'g Gpu,
    encoder: FrameEncoder<'g>,
    start: Instant,
    before: StatsSnapshot,
    timer: Option<wgpu::QuerySet>,
    timed: TimedPasses,
    open: bool,
    /// Window textures acquired by passes, presented after the submit.
    acquired: SmallVec<[AcquiredSurface; 1]>,
    skipped: Option<SurfaceSkip>,
    /// The occlusion query sets its passes used (resolved after each pass, read back after the
    /// submit).
    occlusion: crate::occlusion::FrameOcclusion,
    /// Render passes recorded so far (a pass's place in the frame is part of its identity for
    /// auto-bundles).
    passes: u32,
    /// Large passes get encoders of their own (`frame_encoders.rs`).
    parallel: bool,
}

/// Whose command encoder a frame records into.
enum FrameEncoder<'g> {
    /// vgpu's own: finished and submitted by [`Frame::submit`].
    Own(OwnEncoders),
    /// The app's ([`Gpu::frame_in`]): the app finishes and submits it.
    App(&'g mut wgpu::CommandEncoder),
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
        self.ctx.check_lost("begin_frame")?;
        // The first encoder is created by the first command (`OwnEncoders::current`).
        self.open_frame(FrameEncoder::Own(OwnEncoders::default()))
    }

    fn open_frame<'g>(&'g self, encoder: FrameEncoder<'g>) -> Result<Frame<'g>> {
        #[cfg(all(feature = "hot-reload", not(target_arch = "wasm32")))]
        self.apply_shader_changes();
        // A flag (one atomic load): a device destroyed but not known lost yet is found by the
        // submit (`GpuContext::check_submitted`).
        self.ctx.check_lost("begin_frame")?;
        let start = Instant::now();
        let before = self.ctx.stats().snapshot();
        // GPU timings need vgpu's own submit (their read-back is mapped after it).
        let timed = matches!(encoder, FrameEncoder::Own(_));
        let (timer, labels) = self.with_state(|st| -> Result<_> {
            if st.engine.open_submission().is_some() {
                return Err(FrameError::AlreadyOpen.into());
            }
            st.engine.begin_submission()?;
            st.begin_frame_index();
            let timer = if timed { st.timer_begin_frame() } else { None };
            let labels = match timer {
                Some(_) => st.timer_take_labels(),
                None => TimedPasses::default(),
            };
            Ok((timer, labels))
        })?;
        Ok(Frame {
            gpu: self,
            encoder,
            start,
            before,
            timer,
            timed: labels,
            open: true,
            acquired: SmallVec::new(),
            skipped: None,
            occlusion: Default::default(),
            passes: 0,
            // Large passes get their own encoders when the option is on and the process can
            // finish encoders on other threads.
            parallel: timed
                && self
                    .shared
                    .parallel_finish
                    .load(std::sync::atomic::Ordering::Relaxed)
                && crate::finish_workers::available(),
        })
    }

    /// Records a frame into the app's `encoder` and leaves finishing and submitting it to the
    /// app. Passes go into targets (an app's view: [`Gpu::target_for_view`]) or, through
    /// [`Frame::record_in`], into a render pass the app began. The values the frame's draws read
    /// are written with `Queue::write_buffer` before this returns, so they reach the GPU before
    /// the app's next submit on this queue: submit `encoder` after `frame_in` returns (and
    /// before the next vgpu frame). Window surfaces need vgpu's own submit (`Gpu::frame`); no
    /// GPU pass timings are taken.
    ///
    /// ```
    /// let gpu = vgpu::Gpu::noop();
    /// let target = gpu.target(4, 4)?;
    /// let mut encoder = gpu.device().create_command_encoder(&Default::default());
    /// gpu.frame_in(&mut encoder, |f| f.pass(&target, |_p| Ok(())))?;
    /// gpu.queue().submit([encoder.finish()]);
    /// # Ok::<(), vgpu::Error>(())
    /// ```
    pub fn frame_in(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        record: impl FnOnce(&mut Frame<'_>) -> Result<()>,
    ) -> Result<FrameReport> {
        let mut frame = self.open_frame(FrameEncoder::App(encoder))?;
        match record(&mut frame) {
            Ok(()) => frame.submit(),
            Err(e) => {
                frame.cancel();
                Err(e)
            }
        }
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
    /// The frame's command encoder (the app's, in [`Gpu::frame_in`]), for raw commands (copies,
    /// clears) between passes, or to begin a render pass of your own for
    /// [`record_in`](Self::record_in).
    pub fn encoder(&mut self) -> &mut wgpu::CommandEncoder {
        encoder_of(&mut self.encoder, &self.gpu.ctx)
    }

    /// Records a render pass into `desc`'s target. A pass into a window surface that must be
    /// skipped (see [`FrameReport::skipped`]) does not call `record`.
    pub fn pass<'t>(
        &mut self,
        desc: impl Into<PassDesc<'t>>,
        record: impl FnOnce(&mut Pass<'_>) -> Result<()>,
    ) -> Result<()> {
        let desc = desc.into();
        let app_encoder = matches!(self.encoder, FrameEncoder::App(_));
        let mut occlusion = self
            .occlusion
            .begin_pass(self.gpu, desc.occlusion, app_encoder)?;
        let Some((views, sig)) = self.attachments(desc.target)? else {
            return Ok(());
        };
        let attachments = views.attachments();
        if desc.attachment_clears.len() > attachments.colors.len() {
            return Err(crate::error::TargetError::Attachments {
                label: desc.label.to_owned(),
                what: "PassDesc::attachment_clears",
                expected: format!(
                    "at most {} entries (the color attachments)",
                    attachments.colors.len()
                ),
                actual: desc.attachment_clears.len().to_string(),
            }
            .into());
        }
        let sig = desc.signature_for(sig);
        let place = self.passes as usize;
        let id = self.next_pass(desc.label, desc.auto_bundle);
        let large = self.begin_large_pass(place);
        let timestamp_index = match &self.timer {
            Some(_) if self.timed.len() < MAX_TIMED_PASSES => {
                self.timed.push(desc.label);
                Some((self.timed.len() - 1) as u32)
            }
            _ => None,
        };
        let timer = self.timer.clone();
        let timestamps = timer.as_ref().zip(timestamp_index);
        let encoder = encoder_of(&mut self.encoder, &self.gpu.ctx);
        let mut rpass =
            begin_render_pass(encoder, &desc, &attachments, timestamps).forget_lifetime();
        // The views are the pass's now (wgpu holds them): a resize may take the textures' lock.
        drop(attachments);
        drop(views);
        // A target's resize is refused while its pass records.
        let rendering = match desc.target {
            PassTarget::Target(t) => Some(t.rendering()),
            PassTarget::Surface(_) => None,
        };
        let draws_before = self.gpu.ctx.stats().operations_recorded.get();
        let result = record_pass(self.gpu, &mut rpass, sig, id, occlusion.as_mut(), record);
        drop(rendering);
        drop(rpass);
        if let Some(o) = occlusion {
            self.occlusion.end_pass(self.gpu, encoder, o);
        }
        if let Some(size) = self.gpu.shared.pass_draws.get(place) {
            let draws = self.gpu.ctx.stats().operations_recorded.get() - draws_before;
            size.store(
                u32::try_from(draws).unwrap_or(u32::MAX),
                std::sync::atomic::Ordering::Relaxed,
            );
        }
        if large && let FrameEncoder::Own(own) = &mut self.encoder {
            own.end_large_pass();
        }
        result
    }

    /// Whether the render pass at `place` in the frame gets an encoder of its own (it recorded
    /// at least [`LARGE_PASS_DRAWS`] draws at that place in the previous frame); if so, the
    /// commands recorded so far stay in their encoder.
    fn begin_large_pass(&mut self, place: usize) -> bool {
        let FrameEncoder::Own(own) = &mut self.encoder else {
            return false;
        };
        let large =
            self.parallel
                && self.gpu.shared.pass_draws.get(place).is_some_and(|d| {
                    d.load(std::sync::atomic::Ordering::Relaxed) >= LARGE_PASS_DRAWS
                });
        if large {
            own.begin_large_pass();
            self.gpu.ctx.stats().pass_encoders.bump();
        }
        large
    }

    /// Records vgpu draws into a render pass the app began (`forget_lifetime()` makes it
    /// independent of its encoder, as egui-wgpu's `render` expects), whose attachments have
    /// `signature`. vgpu sets its pipelines and bind groups; the app's own state in that pass is
    /// not restored afterwards.
    pub fn record_in(
        &mut self,
        rpass: &mut wgpu::RenderPass<'static>,
        signature: TargetSignature,
        record: impl FnOnce(&mut Pass<'_>) -> Result<()>,
    ) -> Result<()> {
        let id = self.next_pass(crate::pass_desc::DEFAULT_PASS_LABEL, true);
        record_pass(self.gpu, rpass, signature, id, None, record)
    }

    /// The identity of the frame's next render pass (for auto-bundles).
    fn next_pass<'l>(&mut self, label: &'l str, allowed: bool) -> PassIdentity<'l> {
        let index = self.passes;
        self.passes += 1;
        PassIdentity {
            label,
            index,
            allowed,
            occlusion: false,
        }
    }

    /// The attachments and signature of a pass into `target`; `None` when a surface pass is
    /// skipped (recorded in `skipped`).
    fn attachments<'t>(
        &mut self,
        target: PassTarget<'t>,
    ) -> Result<Option<(AttachmentViews<'t>, TargetSignature)>> {
        match target {
            PassTarget::Target(t) => {
                self.gpu.check_target(t, "recording a pass")?;
                Ok(Some((t.pass_views(), t.signature())))
            }
            PassTarget::Surface(s) => {
                self.gpu.check_surface(s, "recording a pass")?;
                if matches!(self.encoder, FrameEncoder::App(_)) {
                    return Err(FrameError::SurfaceInAppEncoder {
                        surface: s.label().to_owned(),
                    }
                    .into());
                }
                let Some(a) = self.acquire(s)? else {
                    return Ok(None);
                };
                let (color, resolve) = match &a.msaa {
                    Some(msaa) => (msaa.clone(), Some(a.view.clone())),
                    None => (a.view.clone(), None),
                };
                let views = AttachmentViews::Surface {
                    color,
                    resolve,
                    depth: a.depth.clone(),
                };
                Ok(Some((views, s.signature())))
            }
        }
    }

    /// The surface's texture of this frame, acquired by its first pass; `None` (and `skipped`
    /// set) when the pass must be skipped.
    fn acquire(&mut self, surface: &Surface) -> Result<Option<&AcquiredSurface>> {
        let i = match self
            .acquired
            .iter()
            .position(|a| std::sync::Arc::ptr_eq(&a.surface, &surface.inner))
        {
            Some(i) => i,
            None => match surface.inner.acquire()? {
                Ok(a) => {
                    self.acquired.push(a);
                    self.acquired.len() - 1
                }
                Err(skip) => {
                    self.skipped = Some(skip);
                    return Ok(None);
                }
            },
        };
        Ok(self.acquired.get(i))
    }

    /// Records a compute pass.
    pub fn compute_pass(
        &mut self,
        record: impl FnOnce(&mut ComputePass<'_>) -> Result<()>,
    ) -> Result<()> {
        let gpu = self.gpu;
        record_compute_pass(gpu, self.encoder(), record)
    }

    /// Finishes encoding, uploads what changed, submits, presents the window textures its passes
    /// acquired. Returns the frame's report. In [`Gpu::frame_in`], uploads only: the app
    /// finishes and submits its encoder.
    ///
    /// Finishing, uploading and submitting run in one validation and one out-of-memory error
    /// scope: a validation error of any of them fails the submit with `VGPU-DEVICE-VALIDATION`,
    /// naming the call wgpu attributes it to (`CommandEncoder::finish`, `Queue::write_buffer` or
    /// `Queue::submit`), running out of memory with `VGPU-DEVICE-OUT-OF-MEMORY`; internal errors
    /// there are uncaptured errors. The values the frame bound are uploaded even then (they are
    /// the owners' current bytes). Large passes' encoders finished on worker threads (see
    /// [`GpuOptions::parallel_finish`](crate::GpuOptions::parallel_finish)) catch their errors
    /// the same way, on the worker; such an error comes first.
    ///
    /// A device lost or destroyed before or during the frame fails the submit with
    /// `VGPU-DEVICE-LOST`: wgpu drops a submission to a destroyed device without an error, so the
    /// submit asks wgpu whether it took the submission (one non-blocking poll of the device).
    pub fn submit(mut self) -> Result<FrameReport> {
        self.open = false;
        let gpu = self.gpu;
        let timed = std::mem::take(&mut self.timed);
        let acquired = std::mem::take(&mut self.acquired);
        // One catch of validation and out-of-memory errors for the whole submission (finish,
        // uploads, submit: `GpuContext::frame_scope`, through vgpu's own error handler where it
        // installed one, else two error scopes); an error names the call wgpu attributes it to.
        // Large passes' encoders are finished at once, on workers (`frame_encoders.rs`): they
        // catch their own errors (`finished`).
        let (commands, finished, ring, scope) =
            match std::mem::replace(&mut self.encoder, FrameEncoder::Own(OwnEncoders::default())) {
                FrameEncoder::Own(mut own) => {
                    let encoder = own.current(&gpu.ctx);
                    let ring = gpu.with_state(|st| st.timer_resolve(encoder, timed.len() as u32));
                    for a in &acquired {
                        copy_for_capture(encoder, a);
                    }
                    let scope = gpu.ctx.frame_scope();
                    let (buffers, finished) = own.finish(&gpu.ctx, FRAME_LABEL, &FRAME_OPERATIONS);
                    (Some(buffers), finished, ring, Some(scope))
                }
                FrameEncoder::App(_) => (None, Ok(()), None, None),
            };
        let encode = self.start.elapsed();
        let (mut submit_time, submitted, index) = gpu.with_state(|st| -> Result<_> {
            let t = Instant::now();
            st.engine.finish_submission()?;
            let index = commands.map(|cmd| gpu.ctx.submit(cmd));
            // A resource destroyed after it was recorded fails here, with wgpu's description.
            // A worker's error comes first: it was raised by `finish`, before the submit that
            // then refused its command buffer.
            let popped = match scope {
                Some(scope) => scope.pop(Some(FRAME_LABEL), &FRAME_OPERATIONS),
                None => Ok(()),
            };
            let submitted = finished
                .and(popped)
                // The device may have been lost (or destroyed) during the frame.
                .and_then(|()| gpu.ctx.check_lost("Frame::submit"));
            let submit = t.elapsed();
            if submitted.is_ok() {
                let frame_index = st.frame_index();
                st.timer_after_submit(ring, timed, frame_index);
            } else {
                st.timer_give_back_labels(timed);
            }
            st.after_submission();
            Ok((submit, submitted, index))
        })?;
        self.occlusion.finish(submitted.is_ok());
        submitted?;
        // wgpu drops a submission to a destroyed device without an error: ask whether it took
        // this one (outside the state: the poll may run callbacks, the device-lost one included).
        if let Some(index) = index {
            let t = Instant::now();
            gpu.ctx.check_submitted(index, "Frame::submit")?;
            submit_time += t.elapsed();
        }
        for a in acquired {
            present(gpu, a)?;
        }
        Ok(gpu.with_state(|st| {
            let (gpu_frame_index, gpu_passes) = match st.gpu_times() {
                Some((i, p)) => (Some(i), Some(p)),
                None => (None, None),
            };
            // Sets since the last frame that found their bytes in place (a plain counter of
            // the engine, added to the stats once per frame).
            let stats = gpu.ctx.stats();
            stats
                .values_set_unchanged
                .add(st.engine.take_unchanged_sets());
            let report = FrameReport {
                index: st.frame_index(),
                stats: stats.snapshot() - self.before,
                encode,
                submit: submit_time,
                gpu_passes,
                gpu_frame_index,
                skipped: self.skipped,
                bind_group_creator: st.bind.take_creator(),
                pipelines_created_by: st.take_pipelines_created_by(self.before.pipelines_created),
                direct_passes: st.take_direct_passes(),
            };
            let frame = st.frame_index();
            st.auto.sweep(frame);
            st.advisor.push(&report);
            report
        }))
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
        self.encoder = FrameEncoder::Own(OwnEncoders::default());
        self.acquired.clear();
        let labels = std::mem::take(&mut self.timed);
        self.gpu.with_state(|st| {
            st.engine.cancel_submission();
            drop(st.take_direct_passes());
            st.after_submission();
            st.timer_give_back_labels(labels);
        });
    }
}

impl Drop for Frame<'_> {
    fn drop(&mut self) {
        self.cancel_inner();
    }
}

/// The frame's encoder, created on demand once the frame's own was finished.
fn encoder_of<'e>(
    encoder: &'e mut FrameEncoder<'_>,
    ctx: &vgpu_core::GpuContext,
) -> &'e mut wgpu::CommandEncoder {
    match encoder {
        FrameEncoder::Own(own) => own.current(ctx),
        FrameEncoder::App(e) => e,
    }
}

/// Copies an acquired window texture into its read-back buffer, if a capture was asked for.
fn copy_for_capture(encoder: &mut wgpu::CommandEncoder, a: &AcquiredSurface) {
    let Some((buffer, bytes_per_row)) = &a.capture else {
        return;
    };
    let texture = &a.texture.texture;
    encoder.copy_texture_to_buffer(
        texture.as_image_copy(),
        wgpu::TexelCopyBufferInfo {
            buffer,
            layout: wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(*bytes_per_row),
                rows_per_image: Some(texture.height()),
            },
        },
        texture.size(),
    );
}

/// Presents a window texture after the submit, reading it back first if asked.
fn present(gpu: &Gpu, a: AcquiredSurface) -> Result<()> {
    let capture = a.capture.as_ref().map(|(buffer, bytes_per_row)| {
        let t = &a.texture.texture;
        (buffer.clone(), *bytes_per_row, t.width(), t.height())
    });
    let AcquiredSurface {
        surface, texture, ..
    } = a;
    gpu.ctx.queue().present(texture);
    if let Some((buffer, bytes_per_row, width, height)) = capture {
        let raw = crate::readback::map_read(&gpu.ctx, &buffer, "surface read-back")?;
        surface.store_capture(&raw, width, height, bytes_per_row);
    }
    Ok(())
}
