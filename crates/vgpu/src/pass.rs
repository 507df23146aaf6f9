//! [`Pass`]: a render pass being recorded: draws (the per-draw fast path), bundles, viewport and
//! scissor, the raw wgpu pass.

use crate::bundle::Bundle;
use crate::descriptors::{DrawRange, GpuId, TargetSignature};
use crate::draw::Draw;
use crate::error::{Result, foreign_gpu};
use crate::gpu::Gpu;
use crate::state::auto_bundle::{AutoMode, AutoPass, Call, PassIdentity, SeqEntry};
use crate::state::inspect::RecordPath;
use crate::state::{
    DrawCall, HeldState, InspectRecorder, NullSink, PassBindings, PassInspect, replay_commands,
};

/// A render pass being recorded.
pub struct Pass<'p> {
    /// The recording `Gpu`'s id.
    pub(crate) gpu_id: GpuId,
    /// `gpu_id` while the binding inspector is off, else [`GpuId::NONE`]: a draw whose id
    /// equals it takes the fast path with one compare (else `draw_checked` sorts it out).
    fast_gpu_id: GpuId,
    /// `gpu_id` while the pass replays its auto-bundle (and the binding inspector is off),
    /// else [`GpuId::NONE`]: a draw whose id equals it is compared with the bundle's sequence.
    replay_gpu_id: GpuId,
    /// The state, held for the pass (borrowed once per recorded draw).
    pub(crate) held: HeldState<'p>,
    pub(crate) rpass: &'p mut wgpu::RenderPass<'static>,
    pub(crate) sig: TargetSignature,
    /// `sig` interned (fast records compare this id).
    pub(crate) signature_id: u32,
    pub(crate) bound: PassBindings,
    /// What the pass has bound, while the binding inspector is on (`crate::inspect`).
    pub(crate) inspect: Option<Box<PassInspect>>,
    /// The pass's occlusion queries (`pass_occlusion.rs`), when its `PassDesc` gave a set.
    pub(crate) occlusion: Option<&'p mut crate::occlusion::PassOcclusion>,
    /// Auto-bundles: replaying this pass's bundle, logging its draws, or off
    /// (`state/auto_bundle/pass.rs`).
    pub(crate) auto: AutoPass,
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
        // A steady pass (`replay_gpu_id` is this `Gpu`'s id while the pass replays its
        // auto-bundle): the draw is compared with the bundle's sequence, not issued.
        if draw.gpu_id == self.replay_gpu_id {
            if self.auto.expect(draw.seq, &self.held) {
                return Ok(());
            }
            return self.draw_after_miss(draw);
        }
        // One compare for a draw of this `Gpu` while the binding inspector is off.
        if draw.gpu_id != self.fast_gpu_id {
            return self.draw_checked(draw, None);
        }
        let key = draw.inner.key;
        if self.held.borrow_mut().record_fast(
            key,
            &mut *self.rpass,
            &mut self.bound,
            self.signature_id,
        ) {
            self.auto.log(SeqEntry::draw(key));
            return Ok(());
        }
        self.draw_full(draw)
    }

    /// A replayed pass's draw that is not the next of its sequence, or after a call into vgpu:
    /// taken after all once the bundle is validated again, else the pass records directly from
    /// here ([`AutoPass::miss`]).
    #[cold]
    #[inline(never)]
    fn draw_after_miss(&mut self, draw: &Draw) -> Result<()> {
        if self.replay_miss(SeqEntry::draw(draw.inner.key), None) {
            return Ok(());
        }
        self.draw(draw)
    }

    /// [`AutoPass::miss`] with this pass's parts: `true` when the entry was taken after all.
    #[cold]
    #[inline(never)]
    fn replay_miss(&mut self, entry: SeqEntry, call: Option<&Call>) -> bool {
        let taken = self
            .auto
            .miss(entry, call, &self.held, &mut *self.rpass, &mut self.bound);
        self.sync_replay_id();
        taken
    }

    /// Replay: takes the draw with explicit ranges or the pass-state command `call` as the
    /// next entry of the sequence; `false` once the pass left its replay (record it directly).
    fn take_call(&mut self, call: &Call) -> bool {
        self.auto.mode == AutoMode::Replay
            && (self.auto.expect_call(call, &self.held)
                || self.replay_miss(SeqEntry::call(), Some(call)))
    }

    /// `replay_gpu_id` follows the auto-bundle side's mode.
    fn sync_replay_id(&mut self) {
        self.replay_gpu_id = match (self.auto.mode, &self.inspect) {
            (AutoMode::Replay, None) => self.gpu_id,
            _ => GpuId::NONE,
        };
    }

    /// The pass does something an auto-bundle cannot hold (see [`AutoPass::go_off`]).
    pub(crate) fn auto_off(&mut self, reason: crate::DirectReason) {
        self.auto
            .go_off(reason, &self.held, &mut *self.rpass, &mut self.bound);
        self.sync_replay_id();
    }

    /// A pass-state command: compared with the sequence when replaying (issued with the
    /// replay), else issued now and logged.
    fn pass_state(&mut self, call: Call) {
        if self.take_call(&call) {
            return;
        }
        call.issue(&mut *self.rpass);
        self.auto.log_call(call);
    }

    /// The full path of [`draw`](Self::draw) (its first record into this signature, or after a
    /// change): out of line, so that the fast path inlined into the caller's loop stays small
    /// (the target signature it passes is several words).
    #[inline(never)]
    fn draw_full(&mut self, draw: &Draw) -> Result<()> {
        self.held.borrow_mut().record_draw(
            draw.inner.key,
            &mut *self.rpass,
            &mut self.bound,
            self.sig,
            self.signature_id,
            DrawCall::Counts,
        )?;
        self.auto.log(SeqEntry::draw(draw.inner.key));
        Ok(())
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
        let key = draw.inner.key;
        let call = range.map(|r| Call::Range(key, r.clone()));
        if let Some(c) = &call
            && self.take_call(c)
        {
            return Ok(());
        }
        self.held.borrow_mut().record_draw(
            key,
            &mut *self.rpass,
            &mut self.bound,
            self.sig,
            self.signature_id,
            range.into(),
        )?;
        match call {
            Some(c) => self.auto.log_call(c),
            None => self.auto.log(SeqEntry::draw(key)),
        }
        Ok(())
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
        let key = draw.inner.key;
        let call = range.map(|r| Call::Range(key, r.clone()));
        if self.auto.mode == AutoMode::Replay {
            let taken = match &call {
                Some(c) => self.auto.expect_call(c, &self.held),
                None => self.auto.expect(SeqEntry::draw(key), &self.held),
            };
            let entry = match call {
                Some(_) => SeqEntry::call(),
                None => SeqEntry::draw(key),
            };
            if taken
                || self.auto.miss(
                    entry,
                    call.as_ref(),
                    &self.held,
                    &mut *self.rpass,
                    &mut self.bound,
                )
            {
                // What the bundle binds for this draw, as the inspector logs a recorded one.
                let mut sink = NullSink;
                let mut rec = InspectRecorder::new(&mut sink, inspect);
                replay_commands(&mut rec, self.auto.last_taken_commands(&self.held));
                if rec.drawn {
                    self.held
                        .borrow_mut()
                        .inspect_draw(key, inspect, RecordPath::AutoBundle);
                }
                return Ok(());
            }
        }
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
                range.into(),
            )?;
            RecordPath::Full
        };
        if rec.drawn {
            state.inspect_draw(draw.inner.key, inspect, path);
        }
        drop(state);
        match call {
            Some(c) => self.auto.log_call(c),
            None => self.auto.log(SeqEntry::draw(key)),
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
        self.auto_off(crate::DirectReason::UserBundle);
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
        self.pass_state(Call::Viewport([x, y, w, h, 0.0, 1.0]));
    }

    /// Sets the scissor rectangle.
    pub fn set_scissor(&mut self, x: u32, y: u32, w: u32, h: u32) {
        self.pass_state(Call::Scissor([x, y, w, h]));
    }

    /// Sets the blend constant (`BlendFactor::Constant`) for the draws that follow.
    pub fn set_blend_constant(&mut self, rgba: [f64; 4]) {
        self.pass_state(Call::BlendConstant(rgba));
    }

    /// Sets the stencil reference (compared and written by `StencilOperation::Replace`) for the
    /// draws that follow.
    pub fn set_stencil_reference(&mut self, reference: u32) {
        self.pass_state(Call::StencilReference(reference));
    }

    /// The target signature of this pass.
    pub fn signature(&self) -> TargetSignature {
        self.sig
    }

    /// The raw wgpu pass, for commands vgpu does not wrap. vgpu forgets what it had bound.
    pub fn raw(&mut self) -> &mut wgpu::RenderPass<'static> {
        self.auto_off(crate::DirectReason::RawPass);
        self.bound.reset();
        if let Some(inspect) = self.inspect.as_deref_mut() {
            inspect.reset();
        }
        self.rpass
    }
}

/// Records a render pass of `gpu` into `rpass`, whose attachments have signature `sig`: holds
/// the state for the pass, runs `record` on the [`Pass`], then adds the pass's counts to the
/// stats.
pub(crate) fn record_pass(
    gpu: &Gpu,
    rpass: &mut wgpu::RenderPass<'static>,
    sig: TargetSignature,
    id: PassIdentity<'_>,
    occlusion: Option<&mut crate::occlusion::PassOcclusion>,
    record: impl FnOnce(&mut Pass<'_>) -> Result<()>,
) -> Result<()> {
    let held = gpu.shared.hold();
    let (signature_id, inspect, auto) = {
        let mut st = held.borrow_mut();
        // Draws recorded into it may bind memoized uniform slots (`State::record_fast`).
        st.engine.memos_in_use();
        let signature_id = st.signature_id(sig);
        let inspect = st.inspect_pass();
        let id = PassIdentity {
            occlusion: occlusion.is_some(),
            ..id
        };
        let auto = AutoPass::begin(&mut st, id, signature_id, inspect.is_some());
        (signature_id, inspect, auto)
    };
    let mut auto = auto;
    auto.start(&held);
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
        occlusion,
        auto,
        replay_gpu_id: GpuId::NONE,
    };
    pass.sync_replay_id();
    let result = record(&mut pass);
    let result = pass.end_occlusion_at_pass_end(result);
    // The auto-bundle is replayed (or the log compared) once the pass's draws are all known.
    // In place: the pass's parts are large, a move would copy them.
    let Pass {
        held,
        rpass,
        bound,
        auto,
        ..
    } = &mut pass;
    auto.finish(held, rpass, bound, (sig, signature_id));
    bound.flush(gpu.ctx.stats());
    result
}
