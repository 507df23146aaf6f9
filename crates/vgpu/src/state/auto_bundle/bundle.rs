//! An [`AutoBundle`]: the render bundle(s) vgpu recorded for a steady pass, with what it must
//! check before a replay: the draws it holds (against the [`Journal`](super::Journal) of
//! structural changes) and the slot each value it binds resolved to (against the stamps).
//!
//! Recorded at the end of a pass whose sequence repeated (`State::build_auto_bundle`): the
//! sequence is recorded again through the usual record path into a command list, which nothing
//! moved since the pass recorded it (the clocks are the same), so the commands are the ones the
//! pass issued. Pass-state commands (viewport, scissor, blend constant, stencil reference) cut
//! it into segments, one bundle each, issued between them on replay.

use ahash::AHashSet;
use vgpu_core::Label;
use vgpu_uniforms::{OwnerKey, SlotRef};

use super::sequence::{Call, SeqEntry};
use crate::auto_bundle::DirectReason;
use crate::descriptors::TargetSignature;
use crate::state::command_sink::{BundleCmd, encode_render_bundle, replay_commands};
use crate::state::operation::BindingContent;
use crate::state::{DrawCall, OpKey, PassBindings, State};

/// One step of a replay: a pass-state command, or a segment's bundle.
#[derive(Clone, Copy, Debug)]
enum Step {
    State(u32),
    Bundle(u32),
}

/// What a steady pass is replayed from.
#[derive(Debug)]
pub(crate) struct AutoBundle {
    /// The sequence it was recorded from, and the calls its entries name.
    pub(crate) seq: Vec<SeqEntry>,
    pub(crate) calls: Vec<Call>,
    /// The commands, and per entry the end of its commands in `cmds` (to issue a prefix
    /// directly when a pass leaves the sequence).
    cmds: Vec<BundleCmd>,
    entry_ends: Vec<u32>,
    plan: Vec<Step>,
    segments: Vec<wgpu::RenderBundle>,
    /// The draws it holds.
    ops: AHashSet<OpKey>,
    /// Per value bound: its stamp slot and the stamp last checked, and (same index) the owner
    /// and the slot the bundle binds. Shared blocks first (`shared` of them): their stamps move
    /// without the value clock.
    stamps: Vec<(u32, u64)>,
    owners: Vec<(OwnerKey, SlotRef)>,
    shared: usize,
    /// The stamp clock, value clock and structure clock when last validated.
    clock_at: u64,
    value_at: u64,
    structure_at: u64,
    /// Draws in it.
    pub(crate) draws: u64,
    /// Times it was replayed.
    pub(crate) replays: u64,
}

impl AutoBundle {
    /// Issues the first `upto` entries into `rpass` directly (the pass left the sequence there),
    /// counting the draws and sets issued in `bound` as recorded ones are.
    pub(crate) fn materialize(
        &self,
        upto: usize,
        rpass: &mut wgpu::RenderPass<'static>,
        bound: &mut PassBindings,
    ) {
        let mut start = 0usize;
        let mut calls = self.calls.iter();
        for (e, &end) in self.seq.iter().zip(&self.entry_ends).take(upto) {
            let end = end as usize;
            // A pass-state command is issued; a draw (with explicit ranges or not) replays the
            // commands recorded for it.
            let call = if e.is_call() { calls.next() } else { None };
            match call {
                Some(c) if !matches!(c, Call::Range(..)) => c.issue(rpass),
                _ => {
                    bound.operations += 1;
                    if let Some(cmds) = self.cmds.get(start..end) {
                        replay_commands(rpass, cmds);
                        for cmd in cmds {
                            match cmd {
                                BundleCmd::Group(..) => bound.set_bind_group_calls += 1,
                                BundleCmd::Pipeline(_) => bound.set_pipeline_calls += 1,
                                _ => {}
                            }
                        }
                    }
                }
            }
            start = end;
        }
    }

    /// Whether only shared blocks' stamps can have moved since its values were checked (the
    /// value clock reads `value_clock` as it did then).
    pub(crate) fn only_blocks_moved(&self, value_clock: u64) -> bool {
        self.value_at == value_clock
    }

    /// Replays the whole sequence into `rpass`.
    pub(crate) fn replay(&mut self, rpass: &mut wgpu::RenderPass<'static>) {
        for step in &self.plan {
            match *step {
                Step::State(i) => {
                    if let Some(c) = self.calls.get(i as usize) {
                        c.issue(rpass);
                    }
                }
                Step::Bundle(i) => {
                    if let Some(b) = self.segments.get(i as usize) {
                        rpass.execute_bundles(std::iter::once(b));
                    }
                }
            }
        }
        self.replays += 1;
    }

    /// The commands of entry `i` (a draw's: its sets and the draw call).
    pub(crate) fn entry_commands(&self, i: usize) -> &[BundleCmd] {
        let start = i
            .checked_sub(1)
            .and_then(|p| self.entry_ends.get(p))
            .map_or(0, |&e| e as usize);
        let end = self.entry_ends.get(i).map_or(start, |&e| e as usize);
        self.cmds.get(start..end).unwrap_or_default()
    }
}

/// What recording a sequence again made (`State::record_sequence`).
struct Recorded {
    cmds: Vec<BundleCmd>,
    entry_ends: Vec<u32>,
    plan: Vec<Step>,
    segments: Vec<wgpu::RenderBundle>,
    draws: u64,
}

impl Recorded {
    /// Encodes the commands since `segment_start` (if any) into the next segment's bundle.
    fn close_segment(
        &mut self,
        ctx: &vgpu_core::GpuContext,
        (label, sig): (&str, TargetSignature),
        segment_start: &mut usize,
    ) -> Result<(), DirectReason> {
        if self.cmds.len() > *segment_start {
            let b = encode_render_bundle(ctx, label, sig, &self.cmds[*segment_start..])
                .map_err(bundle_failed)?;
            self.plan.push(Step::Bundle(self.segments.len() as u32));
            self.segments.push(b);
            *segment_start = self.cmds.len();
        }
        Ok(())
    }
}

/// A bundle wgpu refused to record (or a draw that failed to record again).
fn bundle_failed(e: crate::error::Error) -> DirectReason {
    DirectReason::BundleFailed {
        message: e.to_string(),
    }
}

impl State {
    /// Records a bundle for a pass whose sequence `seq` (with `calls`) it just recorded, with
    /// nothing moved since (see the module doc).
    pub(crate) fn build_auto_bundle(
        &mut self,
        (seq, calls): (&[SeqEntry], &[Call]),
        sig: TargetSignature,
        signature_id: u32,
        label: &str,
    ) -> Result<AutoBundle, DirectReason> {
        if let Some(draw) = self.draw_reading_pass_constants(seq, calls) {
            return Err(DirectReason::PassConstants { draw });
        }
        // wgpu's bundle encoder panics on a destroyed device that was not found lost yet.
        self.ctx
            .check_device("recording an auto-bundle")
            .map_err(|e| bundle_failed(e.into()))?;
        let recorded = self.record_sequence((seq, calls), sig, signature_id, label)?;
        let ranged = calls.iter().filter_map(|c| match c {
            Call::Range(key, _) => Some(*key),
            _ => None,
        });
        let ops: AHashSet<OpKey> = seq
            .iter()
            .filter(|e| !e.is_call())
            .map(SeqEntry::key)
            .chain(ranged)
            .collect();
        let (stamps, owners, shared) = self.bundle_owners(&ops)?;
        self.ctx.stats().auto_bundles_recorded.bump();
        Ok(AutoBundle {
            seq: seq.to_vec(),
            calls: calls.to_vec(),
            cmds: recorded.cmds,
            entry_ends: recorded.entry_ends,
            plan: recorded.plan,
            segments: recorded.segments,
            ops,
            stamps,
            owners,
            shared,
            clock_at: self.engine.stamp_clock(),
            value_at: self.engine.value_clock(),
            structure_at: self.auto.journal.clock(),
            draws: recorded.draws,
            replays: 0,
        })
    }

    /// The label of the first draw of the sequence whose pipeline reads the pass's stencil
    /// reference or blend constant (`RenderStateKey::reads_pass_constants`).
    fn draw_reading_pass_constants(&self, seq: &[SeqEntry], calls: &[Call]) -> Option<Label> {
        let ranged = calls.iter().filter_map(|c| match c {
            Call::Range(key, _) => Some(*key),
            _ => None,
        });
        let keys = seq.iter().filter(|e| !e.is_call()).map(SeqEntry::key);
        keys.chain(ranged).find_map(|k| {
            let op = self.ops.get(k)?;
            let reads = op.render()?.state_key.reads_pass_constants();
            reads.then(|| op.label.clone())
        })
    }

    /// Records the sequence again into a command list, cut into segments at pass-state
    /// commands, each segment encoded into a render bundle.
    fn record_sequence(
        &mut self,
        (seq, calls): (&[SeqEntry], &[Call]),
        sig: TargetSignature,
        signature_id: u32,
        label: &str,
    ) -> Result<Recorded, DirectReason> {
        let mut r = Recorded {
            cmds: Vec::with_capacity(seq.len() * 2),
            entry_ends: Vec::with_capacity(seq.len()),
            plan: Vec::new(),
            segments: Vec::new(),
            draws: 0,
        };
        let mut bound = PassBindings::default();
        let mut segment_start = 0usize;
        let mut next_call = calls.iter().enumerate();
        for e in seq {
            let call = if e.is_call() { next_call.next() } else { None };
            match call {
                Some((i, c)) if !matches!(c, Call::Range(..)) => {
                    r.close_segment(&self.ctx, (label, sig), &mut segment_start)?;
                    // A new segment binds everything again (a bundle starts with nothing bound).
                    bound.reset();
                    r.plan.push(Step::State(i as u32));
                }
                _ => {
                    r.draws += 1;
                    let (key, draw_call) = match call {
                        Some((_, Call::Range(key, range))) => (*key, DrawCall::Range(range)),
                        _ => (e.key(), DrawCall::Counts),
                    };
                    let fast = matches!(draw_call, DrawCall::Counts)
                        && self.record_fast(key, &mut r.cmds, &mut bound, signature_id);
                    if !fast {
                        self.record_draw(
                            key,
                            &mut r.cmds,
                            &mut bound,
                            sig,
                            signature_id,
                            draw_call,
                        )
                        .map_err(bundle_failed)?;
                    }
                }
            }
            r.entry_ends.push(r.cmds.len() as u32);
        }
        r.close_segment(&self.ctx, (label, sig), &mut segment_start)?;
        Ok(r)
    }

    /// The values the draws `ops` bind, shared blocks first: per value its stamp slot and
    /// stamp, and the slot it resolves to now (the one the bundle binds); and the number of
    /// shared blocks.
    #[expect(clippy::type_complexity, reason = "two parallel lists, returned once")]
    fn bundle_owners(
        &mut self,
        ops: &AHashSet<OpKey>,
    ) -> Result<(Vec<(u32, u64)>, Vec<(OwnerKey, SlotRef)>, usize), DirectReason> {
        let mut seen: AHashSet<OwnerKey> = AHashSet::default();
        let mut blocks = Vec::new();
        let mut values = Vec::new();
        for &k in ops {
            let Some(op) = self.ops.get(k) else { continue };
            for c in &op.contents {
                match c {
                    // A block's owner is marked shared when it is created (`blocks.rs`), a
                    // value's never is.
                    BindingContent::Block { owner, .. } if seen.insert(*owner) => {
                        blocks.push(*owner)
                    }
                    BindingContent::Value { owner, .. } if seen.insert(*owner) => {
                        values.push(*owner)
                    }
                    _ => {}
                }
            }
        }
        let shared = blocks.len();
        let mut keys = blocks;
        keys.extend(values);
        let mut stamps = Vec::with_capacity(keys.len());
        let mut owners = Vec::with_capacity(keys.len());
        for owner in keys {
            let slot = self
                .engine
                .resolve(owner)
                .map_err(|e| DirectReason::BundleFailed {
                    message: e.to_string(),
                })?;
            let Some(stamp_slot) = self.engine.stamp_slot(owner) else {
                continue;
            };
            let stamp = self
                .engine
                .stamps()
                .get(stamp_slot as usize)
                .copied()
                .unwrap_or(0);
            stamps.push((stamp_slot, stamp));
            owners.push((owner, slot));
        }
        Ok((stamps, owners, shared))
    }

    /// Whether `bundle` may replay now: no draw it holds changed, no resource was destroyed, and
    /// every value it binds whose stamp moved resolves to the slot the bundle binds (resolving
    /// it captures its bytes, as the draw's own record would).
    pub(crate) fn validate_auto_bundle(&mut self, b: &mut AutoBundle) -> Result<(), DirectReason> {
        self.check_auto_bundle_structure(b)?;
        self.check_auto_bundle_values(b)
    }

    /// The part of [`validate_auto_bundle`](Self::validate_auto_bundle) without side effects:
    /// no draw the bundle holds changed, no resource was destroyed.
    pub(crate) fn check_auto_bundle_structure(
        &mut self,
        b: &mut AutoBundle,
    ) -> Result<(), DirectReason> {
        let structure = self.auto.journal.clock();
        if structure != b.structure_at {
            let Some(changes) = self.auto.journal.since(b.structure_at) else {
                return Err(DirectReason::ResourcesChanged);
            };
            for change in changes {
                match *change {
                    super::Change::Global => return Err(DirectReason::ResourcesChanged),
                    super::Change::Op(k) if b.ops.contains(&k) => {
                        return Err(DirectReason::DrawChanged {
                            draw: self.op_label(k),
                        });
                    }
                    super::Change::Op(_) => {}
                }
            }
            b.structure_at = structure;
        }
        Ok(())
    }

    /// The values part of [`validate_auto_bundle`](Self::validate_auto_bundle).
    pub(crate) fn check_auto_bundle_values(
        &mut self,
        b: &mut AutoBundle,
    ) -> Result<(), DirectReason> {
        if self.engine.stamp_clock() == b.clock_at {
            return Ok(());
        }
        // Only shared blocks moved while the value clock did not (a camera set per pass).
        let checked = match self.engine.value_clock() == b.value_at {
            true => b.shared,
            false => b.stamps.len(),
        };
        for (i, (stamp_slot, stamp)) in b.stamps.iter_mut().enumerate().take(checked) {
            let now = self.engine.stamps().get(*stamp_slot as usize).copied();
            if now == Some(*stamp) {
                continue;
            }
            let Some(&(owner, slot)) = b.owners.get(i) else {
                return Err(DirectReason::ResourcesChanged);
            };
            if self.engine.resolve(owner).ok() != Some(slot) {
                let value = Label::new(self.engine.label(owner).unwrap_or("(removed)"));
                return Err(DirectReason::ValueMoved { value });
            }
            *stamp = self
                .engine
                .stamps()
                .get(*stamp_slot as usize)
                .copied()
                .unwrap_or(0);
        }
        b.clock_at = self.engine.stamp_clock();
        b.value_at = self.engine.value_clock();
        Ok(())
    }
}
