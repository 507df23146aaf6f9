//! Frames and passes: one command encoder per frame, render and compute passes recorded by
//! closures, one submit.
//!
//! A frame is one submission of the capture engine: values bound by operations recorded in it
//! are captured per operation and uploaded once at submit (only bytes not already resident).

// `std::time::Instant` panics on wasm32-unknown-unknown; web-time is std's on native targets and
// the browser's clock (`performance.now()`) on the web.
use web_time::Instant;

use smallvec::SmallVec;
use vgpu_core::StatsSnapshot;

use crate::bundle::Bundle;
use crate::compute::Compute;
use crate::descriptors::{DrawRange, GpuId, TargetSignature};
use crate::draw::Draw;
use crate::error::{FrameError, Result, foreign_gpu};
use crate::gpu::Gpu;
use crate::report::FrameReport;
use crate::report::SurfaceSkip;
use crate::state::inspect::RecordPath;
use crate::state::{
    HeldState, InspectRecorder, MAX_TIMED_PASSES, PassBindings, PassInspect, TimedPasses,
};
use crate::surface::{AcquiredSurface, Surface};
use crate::target::Target;

/// Where a render pass draws: an offscreen (or app-provided) [`Target`], or a window
/// [`Surface`].
#[derive(Clone, Copy, Debug)]
pub enum PassTarget<'t> {
    /// A target (see [`Gpu::target`] and [`Gpu::target_for_view`]).
    Target(&'t Target),
    /// A window surface: its texture is acquired by the first pass into it and presented after
    /// the frame's submit.
    Surface(&'t Surface),
}

impl<'t> From<&'t Target> for PassTarget<'t> {
    fn from(t: &'t Target) -> Self {
        PassTarget::Target(t)
    }
}

impl<'t> From<&'t Surface> for PassTarget<'t> {
    fn from(s: &'t Surface) -> Self {
        PassTarget::Surface(s)
    }
}

/// The label of a [`PassDesc`] that was not given one.
const DEFAULT_PASS_LABEL: &str = "pass";

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

/// Describes a render pass. `From<&Target>` and `From<&Surface>` clear color to transparent
/// black and depth to 1.
#[derive(Clone, Debug)]
pub struct PassDesc<'t> {
    /// What the pass renders into.
    pub target: PassTarget<'t>,
    /// Label, shown in GPU timings; given to wgpu (and so in its messages) unless it is the
    /// default `"pass"` (wgpu copies a pass's label into two `String`s: the default one costs
    /// nothing).
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
    pub fn new(target: impl Into<PassTarget<'t>>) -> Self {
        PassDesc {
            target: target.into(),
            label: DEFAULT_PASS_LABEL,
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

impl<'t> From<&'t Surface> for PassDesc<'t> {
    fn from(surface: &'t Surface) -> Self {
        PassDesc::new(surface)
    }
}

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
}

/// Whose command encoder a frame records into.
enum FrameEncoder<'g> {
    /// vgpu's own: finished and submitted by [`Frame::submit`].
    Own(Option<wgpu::CommandEncoder>),
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
        let encoder = self
            .ctx
            .device()
            .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: None });
        self.open_frame(FrameEncoder::Own(Some(encoder)))
    }

    fn open_frame<'g>(&'g self, encoder: FrameEncoder<'g>) -> Result<Frame<'g>> {
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
        let Some((attachments, sig)) = self.attachments(desc.target)? else {
            return Ok(());
        };
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
        self.record_pass(&mut rpass, sig, record)
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
        self.record_pass(rpass, signature, record)
    }

    fn record_pass(
        &mut self,
        rpass: &mut wgpu::RenderPass<'static>,
        sig: TargetSignature,
        record: impl FnOnce(&mut Pass<'_>) -> Result<()>,
    ) -> Result<()> {
        let gpu = self.gpu;
        let held = gpu.shared.hold();
        let (signature_id, inspect) = {
            let mut st = held.borrow_mut();
            // Draws recorded into it may bind memoized uniform slots (`State::record_fast`).
            st.engine.memos_in_use();
            (st.signature_id(sig), st.inspect_pass())
        };
        let mut pass = Pass {
            gpu_id: gpu.id(),
            fast_gpu_id: match inspect {
                None => gpu.id(),
                Some(_) => GpuId::NONE,
            },
            held,
            rpass,
            sig,
            signature_id,
            bound: PassBindings::default(),
            inspect,
        };
        let result = record(&mut pass);
        pass.bound.flush(gpu.ctx.stats());
        result
    }

    /// The attachments and signature of a pass into `target`; `None` when a surface pass is
    /// skipped (recorded in `skipped`).
    fn attachments(
        &mut self,
        target: PassTarget<'_>,
    ) -> Result<Option<(PassAttachments, TargetSignature)>> {
        match target {
            PassTarget::Target(t) => {
                self.gpu.check_target(t, "recording a pass")?;
                let attachments = PassAttachments {
                    color: t.attachment_view().cloned(),
                    resolve: t.resolve_view().cloned(),
                    depth: t.depth_view().cloned(),
                };
                Ok(Some((attachments, t.signature())))
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
                let attachments = match &a.msaa {
                    Some(msaa) => PassAttachments {
                        color: Some(msaa.clone()),
                        resolve: Some(a.view.clone()),
                        depth: a.depth.clone(),
                    },
                    None => PassAttachments {
                        color: Some(a.view.clone()),
                        resolve: None,
                        depth: a.depth.clone(),
                    },
                };
                Ok(Some((attachments, s.signature())))
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
        let encoder = self.encoder();
        // Unlabelled: wgpu would copy a label into two `String`s per pass.
        let cpass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
            label: None,
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

    /// Finishes encoding, uploads what changed, submits, presents the window textures its passes
    /// acquired. Returns the frame's report. In [`Gpu::frame_in`], uploads only: the app
    /// finishes and submits its encoder.
    ///
    /// Finishing, uploading and submitting run in one validation and one out-of-memory error
    /// scope: a validation error of any of them fails the submit with `VGPU-DEVICE-VALIDATION`,
    /// naming the call wgpu attributes it to (`CommandEncoder::finish`, `Queue::write_buffer` or
    /// `Queue::submit`), running out of memory with `VGPU-DEVICE-OUT-OF-MEMORY`; internal errors
    /// there are uncaptured errors. The values the frame bound are uploaded even then (they are
    /// the owners' current bytes).
    ///
    /// A device lost or destroyed before or during the frame fails the submit with
    /// `VGPU-DEVICE-LOST`: wgpu drops a submission to a destroyed device without an error, so the
    /// submit asks wgpu whether it took the submission (one non-blocking poll of the device).
    pub fn submit(mut self) -> Result<FrameReport> {
        self.open = false;
        let gpu = self.gpu;
        let timed = std::mem::take(&mut self.timed);
        let acquired = std::mem::take(&mut self.acquired);
        // One validation and one out-of-memory scope for the whole submission (finish, uploads,
        // submit): two pushes and two pops per frame; an error names the call wgpu attributes
        // it to.
        let (commands, ring, scope) =
            match std::mem::replace(&mut self.encoder, FrameEncoder::Own(None)) {
                FrameEncoder::Own(encoder) => {
                    let mut encoder = encoder.unwrap_or_else(|| {
                        gpu.ctx.device().create_command_encoder(&Default::default())
                    });
                    let ring =
                        gpu.with_state(|st| st.timer_resolve(&mut encoder, timed.len() as u32));
                    for a in &acquired {
                        copy_for_capture(&mut encoder, a);
                    }
                    let scope = gpu.ctx.frame_scope();
                    (Some(encoder.finish()), ring, Some(scope))
                }
                FrameEncoder::App(_) => (None, None, None),
            };
        let encode = self.start.elapsed();
        let (mut submit_time, submitted, index) = gpu.with_state(|st| -> Result<_> {
            let t = Instant::now();
            st.engine.finish_submission()?;
            let index = commands.map(|cmd| gpu.ctx.submit([cmd]));
            // A resource destroyed after it was recorded fails here, with wgpu's description.
            let submitted = match scope {
                Some(scope) => scope.pop(Some(FRAME_LABEL), &FRAME_OPERATIONS),
                None => Ok(()),
            }
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
            };
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
        self.encoder = FrameEncoder::Own(None);
        self.acquired.clear();
        let labels = std::mem::take(&mut self.timed);
        self.gpu.with_state(|st| {
            st.engine.cancel_submission();
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

/// The views a render pass draws into.
struct PassAttachments {
    color: Option<wgpu::TextureView>,
    resolve: Option<wgpu::TextureView>,
    depth: Option<wgpu::TextureView>,
}

/// The frame's encoder, created on demand once the frame's own was finished.
fn encoder_of<'e>(
    encoder: &'e mut FrameEncoder<'_>,
    ctx: &vgpu_core::GpuContext,
) -> &'e mut wgpu::CommandEncoder {
    match encoder {
        FrameEncoder::Own(e) => {
            e.get_or_insert_with(|| ctx.device().create_command_encoder(&Default::default()))
        }
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

/// Begins the wgpu render pass of `desc` into `attachments`, with their load operations,
/// timestamps at `(query set, pass index)`, viewport and scissor.
fn begin_render_pass<'e>(
    encoder: &'e mut wgpu::CommandEncoder,
    desc: &PassDesc<'_>,
    attachments: &PassAttachments,
    timestamps: Option<(&wgpu::QuerySet, u32)>,
) -> wgpu::RenderPass<'e> {
    let color = attachments
        .color
        .as_ref()
        .map(|view| wgpu::RenderPassColorAttachment {
            view,
            depth_slice: None,
            resolve_target: attachments.resolve.as_ref(),
            ops: wgpu::Operations {
                load: match desc.clear {
                    Some([r, g, b, a]) => wgpu::LoadOp::Clear(wgpu::Color { r, g, b, a }),
                    None => wgpu::LoadOp::Load,
                },
                store: wgpu::StoreOp::Store,
            },
        });
    let depth = attachments
        .depth
        .as_ref()
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
        label: (desc.label != DEFAULT_PASS_LABEL).then_some(desc.label),
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
    /// `gpu_id` while the binding inspector is off, else [`GpuId::NONE`]: a draw whose id
    /// equals it takes the fast path with one compare (else `draw_checked` sorts it out).
    fast_gpu_id: GpuId,
    /// The state, held for the pass (borrowed once per recorded draw).
    held: HeldState<'p>,
    rpass: &'p mut wgpu::RenderPass<'static>,
    sig: TargetSignature,
    /// `sig` interned (fast records compare this id).
    signature_id: u32,
    bound: PassBindings,
    /// What the pass has bound, while the binding inspector is on (`crate::inspect`).
    inspect: Option<Box<PassInspect>>,
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
        // One compare for a draw of this `Gpu` while the binding inspector is off.
        if draw.gpu_id != self.fast_gpu_id {
            return self.draw_checked(draw, None);
        }
        let mut state = self.held.borrow_mut();
        if state.record_fast(
            draw.inner.key,
            &mut *self.rpass,
            &mut self.bound,
            self.signature_id,
        ) {
            return Ok(());
        }
        state.record_draw(
            draw.inner.key,
            &mut *self.rpass,
            &mut self.bound,
            self.sig,
            self.signature_id,
            None,
        )
    }

    /// Records `draw` with explicit vertex (or index) and instance ranges.
    pub fn draw_with(&mut self, draw: &Draw, range: DrawRange) -> Result<()> {
        self.draw_checked(draw, Some(&range))
    }

    /// The full path of a draw, checked: a draw of another `Gpu` (`VGPU-FOREIGN-GPU`), one
    /// recorded while the binding inspector is on, or one with explicit ranges. Cold for
    /// [`draw`](Self::draw), which reaches it only for the first two.
    #[cold]
    #[inline(never)]
    fn draw_checked(&mut self, draw: &Draw, range: Option<&DrawRange>) -> Result<()> {
        if draw.gpu_id != self.gpu_id {
            return Err(foreign_gpu("draw", &draw.label(), "recording the pass"));
        }
        if self.inspect.is_some() {
            return self.draw_inspected(draw, range);
        }
        self.held.borrow_mut().record_draw(
            draw.inner.key,
            &mut *self.rpass,
            &mut self.bound,
            self.sig,
            self.signature_id,
            range,
        )
    }

    /// [`draw`](Self::draw) (`range: None`) or [`draw_with`](Self::draw_with) while the binding
    /// inspector is on: records through a recorder that notes the bind groups set, then logs
    /// what the draw would read (`crate::inspect`).
    #[cold]
    #[inline(never)]
    fn draw_inspected(&mut self, draw: &Draw, range: Option<&DrawRange>) -> Result<()> {
        let Some(inspect) = self.inspect.as_deref_mut() else {
            return Ok(());
        };
        let mut state = self.held.borrow_mut();
        let mut rec = InspectRecorder::new(&mut *self.rpass, inspect);
        let path = if range.is_none()
            && state.record_fast(draw.inner.key, &mut rec, &mut self.bound, self.signature_id)
        {
            RecordPath::Fast
        } else {
            state.record_draw(
                draw.inner.key,
                &mut rec,
                &mut self.bound,
                self.sig,
                self.signature_id,
                range,
            )?;
            RecordPath::Full
        };
        if rec.drawn {
            state.inspect_draw(draw.inner.key, inspect, path);
        }
        Ok(())
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
        if let Some(inspect) = self.inspect.as_deref_mut() {
            inspect.reset();
        }
        self.bound.operations += bundle.len() as u64;
        self.bound.bundle_draws += bundle.len() as u64;
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
    pub fn raw(&mut self) -> &mut wgpu::RenderPass<'static> {
        self.bound.reset();
        if let Some(inspect) = self.inspect.as_deref_mut() {
            inspect.reset();
        }
        self.rpass
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
                label: compute.label().to_string(),
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
        if compute.inner.gpu_id() != self.gpu.id() {
            return Err(foreign_gpu(
                "compute",
                &compute.label(),
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
