//! Auto-bundles: a pass that records the same sequence as in its previous frame gets a render
//! bundle recorded for it, and is replayed from it while nothing structural moved. The design,
//! its costs and its hysteresis are `docs/design.md` §8; the guide is `docs/auto-bundles.md`.
//!
//! - `mod.rs` (here): what the state keeps: per pass (by [`PassKey`]) its [`PassHistory`] (last
//!   frame's sequence, how steady it is, its bundle), and the [`Journal`] of structural changes
//!   (a draw changed; a resource destroyed) that bundles check when they are about to replay.
//! - `sequence.rs`: what a pass records, as compared between frames ([`SeqEntry`], [`Call`]).
//! - `bundle.rs`: an [`AutoBundle`]: recorded from a steady sequence, validated before a replay,
//!   replayed, or issued directly up to where a pass left it (`materialize`).
//! - `pass.rs`: [`AutoPass`], the per-pass side a `Pass` carries: replaying (each draw compared
//!   with the sequence, nothing issued), or logging (each draw issued and appended).

mod bundle;
mod pass;
mod sequence;

pub(crate) use bundle::AutoBundle;
pub(crate) use pass::{AutoMode, AutoPass, PassIdentity};
pub(crate) use sequence::{Call, SeqEntry};

use crate::auto_bundle::{DirectPass, DirectPasses, DirectReason};
use crate::state::{OpKey, State};
use vgpu_core::Label;

/// Journal entries kept before the oldest half is dropped (a bundle that last looked before the
/// entries it would need were dropped is checked as if a resource had been destroyed).
const JOURNAL_CAP: usize = 4096;
/// Frames a pass may go unrecorded before its history (and bundle) is dropped.
const HISTORY_IDLE_FRAMES: u64 = 120;
/// Frames in a row with the same sequence a pass needs before its first bundle (the frame that
/// records it included): the sequence must repeat once.
pub(crate) const STEADY_FRAMES: u32 = 2;
/// The most frames in a row the hysteresis asks for (after bundles invalidated soon after they
/// were recorded).
pub(crate) const MAX_STEADY_FRAMES: u32 = 64;
/// Replays after which a bundle counts as having paid for itself: an invalidation before
/// doubles the frames the pass needs before the next one, after resets them.
pub(crate) const PAID_REPLAYS: u64 = 8;

/// A pass's identity across frames: its place in the frame and its target signature
/// (interned); with its label ([`PassHistory::label`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct PassKey {
    pub(crate) index: u32,
    pub(crate) signature_id: u32,
}

/// A structural change bundles must not replay across.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Change {
    /// A draw's bindings, counts or claimed groups changed.
    Op(OpKey),
    /// A resource was destroyed, or the bind-group cache invalidated.
    Global,
}

/// The structural changes, numbered: the structure clock is the number of changes ever noted.
#[derive(Debug, Default)]
pub(crate) struct Journal {
    /// The number of the first entry kept.
    base: u64,
    entries: Vec<Change>,
}

impl Journal {
    /// The number of changes ever noted.
    #[inline(always)]
    pub(crate) fn clock(&self) -> u64 {
        self.base + self.entries.len() as u64
    }

    fn push(&mut self, change: Change) {
        if self.entries.len() >= JOURNAL_CAP {
            let half = JOURNAL_CAP / 2;
            self.entries.drain(..half);
            self.base += half as u64;
        }
        self.entries.push(change);
    }

    /// The changes noted since the structure clock read `since`; `None` when some were dropped.
    pub(crate) fn since(&self, since: u64) -> Option<&[Change]> {
        let start = usize::try_from(since.checked_sub(self.base)?).ok()?;
        self.entries.get(start..)
    }
}

/// What a pass recorded in earlier frames.
#[derive(Debug)]
pub(crate) struct PassHistory {
    pub(crate) key: PassKey,
    pub(crate) label: Label,
    /// Last frame's sequence and the calls its entries name (`logged`: there was one).
    pub(crate) prev: Vec<SeqEntry>,
    pub(crate) prev_calls: Vec<Call>,
    pub(crate) logged: bool,
    /// Emptied buffers for the next frame's log (no allocation in steady frames).
    pub(crate) spare: Vec<SeqEntry>,
    pub(crate) spare_calls: Vec<Call>,
    /// Frames in a row the sequence was the same (1: it did not repeat yet).
    pub(crate) steady: u32,
    /// Frames in a row with the same sequence needed before a bundle (hysteresis).
    pub(crate) required: u32,
    pub(crate) bundle: Option<AutoBundle>,
    /// Why the last attempt to record a bundle for this sequence was refused (reported while
    /// the sequence stays the same; the next attempt waits [`MAX_STEADY_FRAMES`]).
    pub(crate) refused: Option<DirectReason>,
    /// The frame it was last recorded in.
    pub(crate) last_frame: u64,
}

impl PassHistory {
    fn new(key: PassKey, label: &str) -> Self {
        PassHistory {
            key,
            label: Label::new(label),
            prev: Vec::new(),
            prev_calls: Vec::new(),
            logged: false,
            spare: Vec::new(),
            spare_calls: Vec::new(),
            steady: 0,
            required: STEADY_FRAMES,
            bundle: None,
            refused: None,
            last_frame: 0,
        }
    }

    /// The bundle was invalidated: the hysteresis doubles the frames needed if it replayed
    /// fewer than [`PAID_REPLAYS`] times, else starts over.
    pub(crate) fn bundle_invalidated(&mut self) {
        if let Some(b) = self.bundle.take() {
            self.required = if b.replays < PAID_REPLAYS {
                (self.required * 2).min(MAX_STEADY_FRAMES)
            } else {
                STEADY_FRAMES
            };
        }
        self.steady = 0;
    }
}

/// The state's part of auto-bundles.
#[derive(Debug)]
pub(crate) struct AutoBundles {
    /// Off for the whole `Gpu` (`GpuOptions::auto_bundles`, `Gpu::set_auto_bundles`).
    pub(crate) enabled: bool,
    /// By the pass's place in its frame: the history of the pass last recorded there (a pass
    /// of another signature or label there replaces it).
    histories: Vec<Option<Box<PassHistory>>>,
    pub(crate) journal: Journal,
    /// This frame's passes recorded directly, for its report.
    pub(crate) direct: DirectPasses,
    /// The frame of the last sweep of idle histories.
    swept_at: u64,
    /// The buffer passes recorded directly from their start append their draws to (emptied).
    pub(crate) off_spare: Vec<SeqEntry>,
}

impl Default for AutoBundles {
    fn default() -> Self {
        AutoBundles {
            enabled: true,
            histories: Vec::new(),
            journal: Journal::default(),
            direct: DirectPasses::default(),
            swept_at: 0,
            off_spare: Vec::new(),
        }
    }
}

impl AutoBundles {
    /// Takes a pass's history out of the table for the pass (put back by `put_history`).
    pub(crate) fn take_history(&mut self, key: PassKey, label: &str) -> Box<PassHistory> {
        let slot = self
            .histories
            .get_mut(key.index as usize)
            .and_then(Option::take);
        match slot {
            Some(h) if h.key == key && h.label == *label => h,
            _ => Box::new(PassHistory::new(key, label)),
        }
    }

    pub(crate) fn put_history(&mut self, history: Box<PassHistory>) {
        let i = history.key.index as usize;
        if self.histories.len() <= i {
            self.histories.resize_with(i + 1, || None);
        }
        self.histories[i] = Some(history);
    }

    /// Drops the histories (and bundles) of passes not recorded for a while.
    pub(crate) fn sweep(&mut self, frame: u64) {
        if frame < self.swept_at + HISTORY_IDLE_FRAMES {
            return;
        }
        self.swept_at = frame;
        for slot in &mut self.histories {
            if slot
                .as_ref()
                .is_some_and(|h| h.last_frame + HISTORY_IDLE_FRAMES <= frame)
            {
                *slot = None;
            }
        }
    }

    /// Forgets every bundle (auto-bundles turned off).
    pub(crate) fn clear(&mut self) {
        self.histories.clear();
    }
}

impl State {
    /// Notes a structural change of draw `key` (its bindings, counts or claimed groups): a
    /// bundle that recorded it no longer replays.
    #[inline]
    pub(crate) fn note_op_changed(&mut self, key: OpKey) {
        self.auto.journal.push(Change::Op(key));
    }

    /// Notes a change every bundle must look at again (a resource destroyed, the bind-group
    /// cache invalidated).
    pub(crate) fn note_resources_changed(&mut self) {
        self.auto.journal.push(Change::Global);
    }

    /// Turns auto-bundles on or off for the `Gpu` (off drops the bundles).
    pub(crate) fn set_auto_bundles(&mut self, on: bool) {
        self.auto.enabled = on;
        if !on {
            self.auto.clear();
        }
    }

    /// A pass recorded directly, for the frame's report and the stats.
    pub(crate) fn note_direct_pass(&mut self, label: &Label, index: u32, reason: DirectReason) {
        self.ctx.stats().passes_recorded_directly.bump();
        self.auto.direct.push(DirectPass {
            label: label.clone(),
            index,
            reason,
        });
    }

    /// The frame's passes recorded directly (for its report).
    pub(crate) fn take_direct_passes(&mut self) -> DirectPasses {
        std::mem::take(&mut self.auto.direct)
    }
}
