//! [`AutoPass`]: the auto-bundle side of one pass being recorded. Three modes:
//!
//! - **Replay**: the pass has a bundle that was valid when the pass began. Each draw (or
//!   pass-state command) is compared with the bundle's sequence at the cursor, and the clocks
//!   with the ones it was validated at; nothing is issued. At the end the bundle is replayed.
//!   A difference issues the matched prefix directly ([`AutoBundle::materialize`]) and the pass
//!   goes on logging; moved clocks validate the bundle again first.
//! - **Log**: each draw is issued as usual and appended to this frame's sequence. At the end
//!   the sequence is compared with last frame's: repeated often enough (the hysteresis), a
//!   bundle is recorded for the next frames.
//! - **Off**: recorded directly, nothing logged (opted out, or the pass did something a bundle
//!   cannot hold).

use super::sequence::{self, Call, SeqEntry};
use super::{MAX_STEADY_FRAMES, PassHistory, PassKey};
use crate::auto_bundle::DirectReason;
use crate::descriptors::TargetSignature;
use crate::state::{BundleCmd, HeldState, NOT_REPLAYING, PassBindings, State};
use vgpu_core::Label;

/// What an [`AutoPass`] does with the pass's draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum AutoMode {
    Off,
    Log,
    Replay,
}

/// How a pass was begun, for its auto-bundle side.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PassIdentity<'a> {
    pub(crate) label: &'a str,
    pub(crate) index: u32,
    /// `PassDesc::auto_bundle`.
    pub(crate) allowed: bool,
    /// The pass has occlusion queries.
    pub(crate) occlusion: bool,
}

/// The auto-bundle side of a pass (see the module doc).
#[derive(Debug)]
pub(crate) struct AutoPass {
    pub(crate) mode: AutoMode,
    /// An `Off` pass's label (others find it in their history).
    label: Option<Label>,
    index: u32,
    history: Option<Box<PassHistory>>,
    /// This frame's sequence (Log).
    seq: Vec<SeqEntry>,
    calls: Vec<Call>,
    /// Replay: the bundle's sequence (moved out of it for the pass), and the entries matched
    /// as of the last look at the lock's replay cursor (`lock.rs`'s `Guarded`, which counts them
    /// on the hot path).
    expected: Vec<SeqEntry>,
    cursor: usize,
    /// Replay: the bundle's calls taken so far (call entries take them in order).
    calls_taken: usize,
    /// Replay: the bundle's values must be checked at the first draw (a stamp moved since).
    check_values: bool,
    /// The clocks when the pass began (a bundle is recorded only if they did not move).
    began_at: (u64, u64),
    /// Why the pass is recorded directly (the first reason).
    reason: Option<DirectReason>,
}

impl AutoPass {
    /// The auto-bundle side of a pass beginning now with interned signature `signature_id`.
    pub(crate) fn begin(
        st: &mut State,
        id: PassIdentity<'_>,
        signature_id: u32,
        inspecting: bool,
    ) -> AutoPass {
        let off = |st: &mut State, reason| {
            let buffer = std::mem::take(&mut st.auto.off_spare);
            AutoPass::off(id.label, id.index, reason, buffer)
        };
        if !st.auto.enabled || !id.allowed {
            return off(st, DirectReason::Disabled);
        }
        if id.occlusion {
            return off(st, DirectReason::OcclusionQueries);
        }
        // The binding inspector logs a replayed draw from the bundle's commands (`Pass`).
        let _ = inspecting;
        let key = PassKey {
            index: id.index,
            signature_id,
        };
        let mut history = st.auto.take_history(key, id.label);
        history.last_frame = st.frame_index();
        let began_at = (st.engine.stamp_clock(), st.auto.journal.clock());
        let mut reason = None;
        if let Some(mut bundle) = history.bundle.take() {
            // The values' stamps are checked now when only shared blocks can have moved (a
            // camera set before the pass: its draws resolve it anyway), else at the pass's first
            // draw (resolving a value captures its bytes: a pass that draws nothing this frame
            // uploads nothing for its values).
            let checked = st.check_auto_bundle_structure(&mut bundle).and_then(|()| {
                match bundle.only_blocks_moved(st.engine.value_clock()) {
                    true => st.check_auto_bundle_values(&mut bundle).map(|()| true),
                    false => Ok(false),
                }
            });
            match checked {
                Ok(values_checked) => {
                    let expected = std::mem::take(&mut bundle.seq);
                    history.bundle = Some(bundle);
                    return AutoPass {
                        mode: AutoMode::Replay,
                        label: None,
                        index: id.index,
                        history: Some(history),
                        seq: Vec::new(),
                        calls: Vec::new(),
                        expected,
                        cursor: 0,
                        calls_taken: 0,
                        check_values: !values_checked,
                        began_at,
                        reason: None,
                    };
                }
                Err(r) => {
                    history.bundle = Some(bundle);
                    history.bundle_invalidated();
                    reason = Some(r);
                }
            }
        }
        let mut seq = std::mem::take(&mut history.spare);
        let mut calls = std::mem::take(&mut history.spare_calls);
        seq.clear();
        calls.clear();
        AutoPass {
            mode: AutoMode::Log,
            label: None,
            index: id.index,
            history: Some(history),
            seq,
            calls,
            expected: Vec::new(),
            cursor: 0,
            calls_taken: 0,
            check_values: false,
            began_at,
            reason,
        }
    }

    /// A pass recorded directly from its start; `seq`: an emptied buffer its draws are
    /// appended to and forgotten (so that appending needs no check of the mode).
    fn off(label: &str, index: u32, reason: DirectReason, seq: Vec<SeqEntry>) -> AutoPass {
        AutoPass {
            label: Some(Label::new(label)),
            mode: AutoMode::Off,
            index,
            history: None,
            seq,
            calls: Vec::new(),
            expected: Vec::new(),
            cursor: 0,
            calls_taken: 0,
            check_values: false,
            began_at: (0, 0),
            reason: Some(reason),
        }
    }

    /// Replay: whether `entry` is the next one of the sequence (then it counts as recorded).
    /// Per draw: the replay cursor (in the lock's guarded data, `lock.rs`'s `Guarded`: a call
    /// into vgpu since the last draw moved it where no entry is), one compare of the entry, and
    /// the cursor moved on. Nothing is issued and the state is not borrowed.
    #[inline(always)]
    pub(crate) fn expect(&mut self, entry: SeqEntry, held: &HeldState<'_>) -> bool {
        let i = held.replay_cursor();
        match self.expected.get(i) {
            Some(e) if *e == entry => {
                held.advance_replay(i + 1);
                true
            }
            _ => false,
        }
    }

    /// Replay: brings `cursor` up to date from the lock's replay cursor (or where a call into
    /// vgpu interrupted it: then `true`).
    fn sync_cursor(&mut self, held: &HeldState<'_>) -> bool {
        let c = held.replay_cursor();
        if c != NOT_REPLAYING {
            self.cursor = c;
            return false;
        }
        let at = held.interrupted_at();
        if at != NOT_REPLAYING {
            self.cursor = at;
            return true;
        }
        false
    }

    /// Replay: the commands the bundle recorded for the entry last taken (for the binding
    /// inspector).
    pub(crate) fn last_taken_commands(&mut self, held: &HeldState<'_>) -> &[BundleCmd] {
        self.sync_cursor(held);
        match (
            self.cursor.checked_sub(1),
            self.history.as_ref().and_then(|h| h.bundle.as_ref()),
        ) {
            (Some(i), Some(b)) => b.entry_commands(i),
            _ => &[],
        }
    }

    /// The pass begins: a replaying one starts its cursor; as if interrupted at its first
    /// entry when a stamp moved since its values were checked, so that the first draw checks
    /// them (`miss`: a pass that draws nothing resolves nothing).
    pub(crate) fn start(&mut self, held: &HeldState<'_>) {
        // A pass begun inside another's closure interrupts the outer one's replay.
        held.count_call();
        if self.mode == AutoMode::Replay {
            held.set_replay_cursor(0);
            if self.check_values {
                held.count_call();
            }
        }
    }

    /// Log: appends a draw (or command) just issued.
    #[inline(always)]
    pub(crate) fn log(&mut self, entry: SeqEntry) {
        // Off passes append too, to a buffer that is emptied (one check fewer per draw).
        self.seq.push(entry);
    }

    /// Log: appends a draw with explicit ranges, or a pass-state command, just issued.
    pub(crate) fn log_call(&mut self, call: Call) {
        if self.mode == AutoMode::Log {
            self.calls.push(call);
            self.seq.push(SeqEntry::call());
        }
    }

    /// The bundle's call the next call entry stands for.
    fn next_bundle_call(&self) -> Option<&Call> {
        let b = self.history.as_ref()?.bundle.as_ref()?;
        b.calls.get(self.calls_taken)
    }

    /// Replay: whether a draw with explicit ranges or a pass-state command is the next entry
    /// (see [`expect`](Self::expect)), with an equal call.
    pub(crate) fn expect_call(&mut self, call: &Call, held: &HeldState<'_>) -> bool {
        let i = held.replay_cursor();
        let is_call = self.expected.get(i).is_some_and(SeqEntry::is_call);
        if is_call && self.next_bundle_call() == Some(call) {
            held.advance_replay(i + 1);
            self.calls_taken += 1;
            return true;
        }
        false
    }

    /// Replay, after [`expect`](Self::expect) failed for `entry` (`call`: the call it names):
    /// when a call into vgpu interrupted the replay and the entry is the expected one, validates
    /// the bundle again and takes the entry (`true`); else issues the matched prefix directly
    /// into `rpass` and goes on logging (`false`; the caller records the entry directly).
    #[cold]
    #[inline(never)]
    pub(crate) fn miss(
        &mut self,
        entry: SeqEntry,
        call: Option<&Call>,
        held: &HeldState<'_>,
        rpass: &mut wgpu::RenderPass<'static>,
        bound: &mut PassBindings,
    ) -> bool {
        let interrupted = self.sync_cursor(held);
        let expected = self.expected.get(self.cursor).copied();
        let same_entry = expected == Some(entry)
            && (!entry.is_call() || call.is_some_and(|c| self.next_bundle_call() == Some(c)));
        if same_entry && interrupted {
            let validated = {
                let mut st = held.borrow_mut();
                match self.history.as_mut().and_then(|h| h.bundle.as_mut()) {
                    Some(b) => st.validate_auto_bundle(b),
                    None => Err(DirectReason::ResourcesChanged),
                }
            };
            match validated {
                Ok(()) => {
                    self.cursor += 1;
                    self.calls_taken += usize::from(entry.is_call());
                    held.set_replay_cursor(self.cursor);
                    return true;
                }
                Err(reason) => {
                    self.leave_replay(reason, held, rpass, bound);
                    return false;
                }
            }
        }
        let reason = match expected {
            None => DirectReason::DrawsAdded,
            Some(e) if e != entry => DirectReason::DrawOrderChanged,
            Some(_) => DirectReason::PassStateChanged,
        };
        self.leave_replay(reason, held, rpass, bound);
        false
    }

    /// Replay → Log: issues the matched prefix directly, and the pass's log starts as that
    /// prefix.
    pub(crate) fn leave_replay(
        &mut self,
        reason: DirectReason,
        held: &HeldState<'_>,
        rpass: &mut wgpu::RenderPass<'static>,
        bound: &mut PassBindings,
    ) {
        if self.mode != AutoMode::Replay {
            return;
        }
        self.sync_cursor(held);
        held.set_replay_cursor(NOT_REPLAYING);
        let Some(history) = self.history.as_mut() else {
            self.mode = AutoMode::Off;
            self.reason.get_or_insert(reason);
            return;
        };
        let upto = self.cursor;
        let mut seq = std::mem::take(&mut history.spare);
        let mut calls = std::mem::take(&mut history.spare_calls);
        seq.clear();
        calls.clear();
        if let Some(b) = history.bundle.as_mut() {
            b.seq = std::mem::take(&mut self.expected);
            b.materialize(upto, rpass, bound);
            seq.extend_from_slice(&b.seq[..upto.min(b.seq.len())]);
            calls.extend_from_slice(&b.calls[..self.calls_taken.min(b.calls.len())]);
        }
        history.bundle_invalidated();
        // What the prefix bound is not tracked: the next draw binds everything again.
        bound.reset();
        self.seq = seq;
        self.calls = calls;
        self.mode = AutoMode::Log;
        self.reason.get_or_insert(reason);
    }

    /// The pass does something a bundle cannot hold: it is recorded directly from here (the
    /// matched prefix issued first when replaying), and logs nothing.
    pub(crate) fn go_off(
        &mut self,
        reason: DirectReason,
        held: &HeldState<'_>,
        rpass: &mut wgpu::RenderPass<'static>,
        bound: &mut PassBindings,
    ) {
        if self.mode == AutoMode::Off {
            return;
        }
        self.leave_replay(reason.clone(), held, rpass, bound);
        if let Some(h) = self.history.as_mut() {
            h.logged = false;
            h.steady = 0;
        }
        self.mode = AutoMode::Off;
        self.reason = Some(reason);
    }

    /// The pass ends: replays the bundle (the whole sequence matched), or compares the log with
    /// last frame's and records a bundle when it repeated often enough; notes a pass recorded
    /// directly. Puts the history back.
    pub(crate) fn finish(
        &mut self,
        held: &HeldState<'_>,
        rpass: &mut wgpu::RenderPass<'static>,
        bound: &mut PassBindings,
        (sig, signature_id): (TargetSignature, u32),
    ) {
        if self.mode == AutoMode::Replay {
            // Calls into vgpu after the last draw change nothing the draws matched saw.
            self.sync_cursor(held);
            held.set_replay_cursor(NOT_REPLAYING);
            if self.cursor == self.expected.len() {
                if let Some(b) = self.history.as_mut().and_then(|h| h.bundle.as_mut()) {
                    b.seq = std::mem::take(&mut self.expected);
                    b.replay(rpass);
                    bound.operations += b.draws;
                    bound.auto_bundle_draws += b.draws;
                }
                if let Some(h) = self.history.take() {
                    held.borrow_mut().auto.put_history(h);
                }
                return;
            }
            // The cursor is restored for `leave_replay` (it reads it from the lock).
            held.set_replay_cursor(self.cursor);
            self.leave_replay(DirectReason::DrawsRemoved, held, rpass, bound);
        }
        let mut st = held.borrow_mut();
        let Some(mut history) = self.history.take() else {
            let reason = self.reason.take().unwrap_or(DirectReason::Disabled);
            let label = self.label.take().unwrap_or_default();
            st.note_direct_pass(&label, self.index, reason);
            self.seq.clear();
            st.auto.off_spare = std::mem::take(&mut self.seq);
            return;
        };
        match self.mode {
            AutoMode::Log => self.end_log(&mut st, &mut history, (sig, signature_id)),
            // Gone off during the pass: its appended draws are forgotten.
            _ => {
                self.seq.clear();
                history.spare = std::mem::take(&mut self.seq);
            }
        }
        let reason = self.reason.take().unwrap_or(DirectReason::Warming {
            frames: history.required,
        });
        st.note_direct_pass(&history.label.clone(), self.index, reason);
        st.auto.put_history(history);
    }

    /// Log's end: compares with last frame's sequence, counts steady frames, records a bundle
    /// when they reach the hysteresis (and nothing moved during the pass).
    fn end_log(
        &mut self,
        st: &mut State,
        history: &mut PassHistory,
        (sig, signature_id): (TargetSignature, u32),
    ) {
        let now = (self.seq.as_slice(), self.calls.as_slice());
        let prev = (history.prev.as_slice(), history.prev_calls.as_slice());
        if history.logged && sequence::same(prev, now) {
            history.steady = history.steady.saturating_add(1);
            if let Some(r) = &history.refused {
                self.reason.get_or_insert_with(|| r.clone());
            }
        } else {
            if history.logged && self.reason.is_none() {
                self.reason = Some(sequence::difference(prev, now));
            }
            history.steady = 1;
            history.refused = None;
        }
        let unmoved = (st.engine.stamp_clock(), st.auto.journal.clock()) == self.began_at;
        if history.steady >= history.required && unmoved && !self.seq.is_empty() {
            match st.build_auto_bundle(now, sig, signature_id, &history.label) {
                Ok(b) => {
                    history.bundle = Some(b);
                    history.refused = None;
                }
                Err(r) => {
                    // Not tried again before the sequence has held for the longest wait.
                    history.steady = 0;
                    history.required = MAX_STEADY_FRAMES;
                    self.reason = Some(r.clone());
                    history.refused = Some(r);
                }
            }
        }
        // This frame's log becomes last frame's; last frame's buffers are reused next frame.
        history.spare = std::mem::replace(&mut history.prev, std::mem::take(&mut self.seq));
        history.spare_calls =
            std::mem::replace(&mut history.prev_calls, std::mem::take(&mut self.calls));
        history.logged = true;
    }
}
