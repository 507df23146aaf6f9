//! The frame advisor: over the last frames of a `Gpu`, whether they were CPU- or GPU-bound and
//! what would make them cheaper, each piece of [`Advice`] with the figures it rests on.
//!
//! It reads only what every frame reports anyway ([`FrameReport`]: counter deltas, CPU times,
//! GPU pass times): recording a draw costs nothing more with the advisor than without it. A frame
//! adds one sample to a ring of fixed size (no allocation once the ring is full, but the name of
//! a draw that created bind groups, or of a pass measured for the first time; the passes a frame
//! recorded directly are kept in the buffer of the sample the ring drops).
//!
//! The rules follow the usual costs of WebGPU-style APIs:
//! - vgpu replays a pass that records the same draws frame after frame from a render bundle it
//!   records for it (auto-bundles, [`crate::DirectReason`]): replaying skips per-draw validation
//!   and recording. A pass it could not bundle in most frames of a CPU-bound app is named, with
//!   the reason most frequent over the window.
//! - Many draws of one pipeline that differ only by a per-object struct are cheaper as one
//!   instanced draw reading a storage array.
//! - Setting a value to the bytes it holds is compared and skipped, but still costs the set.
//! - A bind group created in every steady frame means a binding changes every frame.
//! - When the GPU limits the frame, its longest pass is where the time is.
//! - A pipeline created inside a frame after warm-up compiles its shaders there (a hitch):
//!   preparing it at load time moves that work out of the frames.

use std::collections::VecDeque;
use std::time::Duration;

use vgpu_core::{Label, StatsSnapshot};

use crate::auto_bundle::{DirectPass, DirectReason};
use crate::report::{Bound, FrameReport, Verdict};

/// One piece of advice, with the evidence it rests on. `Display` gives the sentence for a person.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Advice {
    /// A render pass was recorded directly, not replayed from the bundle vgpu records for a
    /// steady pass ([`crate::DirectReason`]), in most frames of the window (auto-bundles turned
    /// off, [`DirectReason::Disabled`], do not count), and the frames were not GPU-bound: each
    /// such frame records every draw of the pass again. `reason` is the most frequent reason
    /// other than [`DirectReason::Warming`] (the frames a pass waits for after an invalidation
    /// are counted in `direct`, not named). Reported when the frames recorded at least
    /// [`Advisor::BUNDLE_MIN_DRAWS`] draws directly.
    PassNotBundled {
        /// The pass's label.
        pass: Label,
        /// The pass's place in its frame (0 for the first).
        index: u32,
        /// The reason's kind ([`DirectReason::kind`]), e.g. `"draw order changed"`.
        reason: &'static str,
        /// The latest occurrence of that reason, with what it names (a draw, a value).
        latest: DirectReason,
        /// Frames the pass was recorded directly for that reason.
        frames: usize,
        /// Frames it was recorded directly for any reason but `Disabled` (waiting frames
        /// included).
        direct: usize,
        /// Frames looked at.
        of: usize,
        /// Draws recorded directly per frame, all passes of the frame (median over the `direct`
        /// frames).
        draws: u64,
    },
    /// Many draws share few pipelines and each binds a value of its own (a bind-group change per
    /// draw): one storage array of per-object structs and one instanced draw would replace them
    /// (`examples/instancing_storage.rs`).
    StorageInstancing {
        /// Draws recorded directly per frame (median).
        draws: u64,
        /// Pipeline switches per frame (median).
        pipelines: u64,
        /// Frames looked at.
        frames: usize,
    },
    /// Values were set to the bytes they already held in most frames: each such set is compared
    /// and skipped (nothing is uploaded) but still costs its lookup and compare.
    UnchangedSets {
        /// Unchanged sets per frame (median).
        per_frame: u64,
        /// Frames looked at.
        frames: usize,
    },
    /// Bind groups were created in most steady frames (frames recording as many draws as the one
    /// before): a binding changes every frame (a new buffer, texture or view each time).
    BindGroupsInSteadyFrames {
        /// Bind groups created per steady frame (median over those that created any).
        per_frame: u64,
        /// Steady frames that created bind groups.
        frames: usize,
        /// The draw (label) that first created one, in the latest such frame.
        first_creator: Option<String>,
    },
    /// The frames were GPU-bound and one pass took more than half of the GPU time.
    GpuPassDominates {
        /// The pass's label.
        pass: String,
        /// Its share of the frame's GPU time (0..=1, mean over the frames it dominated).
        share: f64,
        /// Its GPU time (median over the frames it dominated).
        gpu: Duration,
        /// Frames it dominated.
        frames: usize,
    },
    /// Pipelines were created while frames after the warm-up ([`Advisor::WARMUP_FRAMES`]) were
    /// recorded: each compiled its shaders inside its frame. [`crate::Draw::prepare`] or
    /// [`crate::Gpu::prepare`] (and [`crate::Compute::prepare`]) at load time create them ahead.
    PipelinesCreatedInFrames {
        /// Pipelines created in those frames (render and compute).
        pipelines: u64,
        /// Frames after the warm-up that created pipelines.
        frames: usize,
        /// The draws whose render pipelines were created, each once, in the order first seen
        /// (compute pipelines are counted but not named).
        draws: Vec<String>,
    },
}

impl Advice {
    /// A short form for a window title or a status line, e.g. `pass main: draw order changed
    /// in 60 of 60 frames` or `pass "shadow" takes 75% of GPU time`.
    pub fn headline(&self) -> String {
        match self {
            Advice::PassNotBundled {
                pass,
                reason,
                frames,
                of,
                ..
            } => format!("pass {pass}: {reason} in {frames} of {of} frames"),
            Advice::StorageInstancing { draws, .. } => {
                format!("instance {draws} draws from a storage array")
            }
            Advice::UnchangedSets { per_frame, .. } => {
                format!("{per_frame} unchanged sets per frame")
            }
            Advice::BindGroupsInSteadyFrames {
                per_frame,
                first_creator,
                ..
            } => match first_creator {
                Some(label) => format!("{per_frame} bind groups per frame (draw {label:?})"),
                None => format!("{per_frame} bind groups per frame"),
            },
            Advice::GpuPassDominates { pass, share, .. } => {
                format!("pass {pass:?} takes {:.0}% of GPU time", share * 100.0)
            }
            Advice::PipelinesCreatedInFrames {
                pipelines, draws, ..
            } => match draws.first() {
                Some(label) => format!("prepare {pipelines} pipeline(s) (draw {label:?}…)"),
                None => format!("prepare {pipelines} pipeline(s)"),
            },
        }
    }
}

impl std::fmt::Display for Advice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let ms = |d: &Duration| d.as_secs_f64() * 1e3;
        match self {
            Advice::PassNotBundled {
                pass,
                index,
                reason,
                latest,
                frames,
                direct,
                of,
                draws,
            } => {
                write!(
                    f,
                    "pass {pass} (#{index}) is not auto-bundled: {reason} in {frames} of {of} \
                     frames"
                )?;
                if latest.to_string() != *reason {
                    write!(f, " (latest: {latest})")?;
                }
                write!(
                    f,
                    "; recorded directly in {direct} frames, {draws} draws per frame; {}",
                    remedy(latest)
                )
            }
            Advice::StorageInstancing {
                draws, pipelines, ..
            } => write!(
                f,
                "instance from a storage array: {draws} draws per frame share {pipelines} \
                 pipeline switch(es) and each binds its own value; one storage array of the \
                 per-object structs and one instanced draw would replace them \
                 (examples/instancing_storage.rs)"
            ),
            Advice::UnchangedSets { per_frame, .. } => write!(
                f,
                "skip unchanged sets: {per_frame} values per frame were set to the bytes they \
                 already held (compared and skipped, nothing uploaded, but each set still costs \
                 its lookup and compare); set values when they change"
            ),
            Advice::BindGroupsInSteadyFrames {
                per_frame,
                frames,
                first_creator,
            } => {
                write!(
                    f,
                    "keep bindings stable: {per_frame} bind groups were created per frame in \
                     {frames} steady frames"
                )?;
                if let Some(label) = first_creator {
                    write!(f, " (first by draw {label:?})")?;
                }
                write!(
                    f,
                    "; a binding gets a new buffer, texture or view every frame: keep the \
                     resource and write into it"
                )
            }
            Advice::GpuPassDominates {
                pass, share, gpu, ..
            } => write!(
                f,
                "the GPU is the limit: pass {pass:?} takes {:.0}% of the GPU time ({:.2} ms); \
                 its shaders, fill rate or resolution are what to cut, not draw calls",
                share * 100.0,
                ms(gpu)
            ),
            Advice::PipelinesCreatedInFrames {
                pipelines,
                frames,
                draws,
            } => {
                write!(
                    f,
                    "prepare pipelines ahead: {pipelines} pipeline(s) were created while \
                     {frames} frame(s) after warm-up were recorded"
                )?;
                if !draws.is_empty() {
                    write!(f, " (by draw ")?;
                    for (i, label) in draws.iter().enumerate() {
                        let sep = if i == 0 { "" } else { ", " };
                        write!(f, "{sep}{label:?}")?;
                    }
                    write!(f, ")")?;
                }
                write!(
                    f,
                    "; creating a pipeline compiles its shaders inside the frame (a hitch): call \
                     `prepare` at load time (draw.prepare(target.signature()), \
                     gpu.prepare(draws, signature), compute.prepare())"
                )
            }
        }
    }
}

/// What the advisor concluded over its window of frames.
#[derive(Clone, Debug, PartialEq)]
pub struct AdvisorReport {
    /// Frames looked at.
    pub frames: usize,
    /// The verdict over those frames: median CPU recording time against median GPU time.
    pub verdict: Verdict,
    /// Advice, most useful first (the verdict's side first).
    pub advice: Vec<Advice>,
}

impl AdvisorReport {
    /// One line for a window title or a log: the verdict and the first advice's
    /// [`headline`](Advice::headline).
    pub fn top_line(&self) -> String {
        match self.advice.first() {
            Some(a) => format!("{}; {}", self.verdict.bound, a.headline()),
            None => self.verdict.bound.to_string(),
        }
    }
}

impl std::fmt::Display for AdvisorReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "over {} frames: {}", self.frames, self.verdict)?;
        for a in &self.advice {
            write!(f, "\n- {a}")?;
        }
        Ok(())
    }
}

/// What a frame's draws bind as they were last recorded directly: the draws, pipeline switches
/// and bind-group changes (a replayed pass issues neither; its draws keep the shape they had).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Shape {
    draws: u64,
    pipelines: u64,
    group_sets: u64,
}

/// One frame as the advisor keeps it.
#[derive(Clone, Debug)]
struct Sample {
    encode: Duration,
    gpu: Option<Duration>,
    /// The longest pass: index into `Advisor::labels`, its time.
    longest_pass: Option<(usize, Duration)>,
    stats: StatsSnapshot,
    /// The frame's draws (`draws`: recorded draw by draw, replayed from auto-bundles or not;
    /// not those of the program's own bundles) with their pipeline switches and bind-group
    /// changes; see [`Advisor::shape_of`].
    shape: Shape,
    creator: Option<String>,
    /// `FrameReport::index`.
    index: u64,
    /// `FrameReport::pipelines_created_by` (empty and unallocated in most frames).
    pipelines_created_by: Vec<Label>,
    /// How many of `FrameReport::direct_passes` (not `Disabled`; at most [`PASSES_KEPT`]) it
    /// keeps in `Advisor::direct`.
    direct_passes: usize,
}

impl Sample {
    /// Draws the frame recorded draw by draw (replayed from auto-bundles or not).
    fn draws(&self) -> u64 {
        self.shape.draws
    }

    /// Draws recorded directly: neither from the program's bundles nor from auto-bundles.
    fn direct_draws(&self) -> u64 {
        self.shape
            .draws
            .saturating_sub(self.stats.auto_bundle_draws)
    }
}

/// Passes recorded directly kept per frame (the rest are not counted).
const PASSES_KEPT: usize = 64;

/// One pass over the window, for [`Advice::PassNotBundled`].
#[derive(Debug)]
struct PassTally<'a> {
    pass: &'a DirectPass,
    /// Frames recorded directly (not `Disabled`), and the frame's direct draws in each.
    direct: usize,
    draws: Vec<u64>,
    /// Per reason kind (not `Warming`): frames, and the latest occurrence.
    reasons: Vec<(&'static str, usize, &'a DirectReason)>,
}

/// A rolling window over the last frames' reports; [`report`](Self::report) gives the verdict
/// and advice. Every `Gpu` keeps one ([`crate::Gpu::advisor`]); a program can keep its own and
/// [`push`](Self::push) the reports it chooses.
#[derive(Clone, Debug)]
pub struct Advisor {
    capacity: usize,
    samples: VecDeque<Sample>,
    /// Pass labels seen, interned (a pass measured again allocates nothing).
    labels: Vec<String>,
    /// The shape of the last frame that replayed nothing from auto-bundles.
    last_direct_shape: Option<Shape>,
    /// The passes the samples' frames recorded directly, oldest first, each sample's
    /// `direct_passes` of them in turn: one ring for all (it grows to the window's size once,
    /// no allocation per frame).
    direct: VecDeque<DirectPass>,
}

impl Default for Advisor {
    fn default() -> Self {
        Advisor::new(Advisor::DEFAULT_FRAMES)
    }
}

impl Advisor {
    /// Frames a `Gpu`'s advisor looks back over.
    pub const DEFAULT_FRAMES: usize = 120;
    /// Frames the advice looks at before it says anything.
    pub const MIN_FRAMES: usize = 8;
    /// Draws recorded directly per frame (median over the frames a pass was recorded directly)
    /// before [`Advice::PassNotBundled`] names the pass: fewer cost too little to matter.
    pub const BUNDLE_MIN_DRAWS: u64 = 32;
    /// Draws per pipeline (each binding its own value) before instancing is advised.
    pub const INSTANCING_MIN_DRAWS: u64 = 256;
    /// Unchanged sets per frame before they are mentioned.
    pub const UNCHANGED_MIN_SETS: u64 = 16;
    /// The first frames of a `Gpu` (by [`FrameReport::index`]) that create pipelines without
    /// advice: pipelines not prepared are created there. A frame after them that creates one
    /// gets [`Advice::PipelinesCreatedInFrames`] (at once: it needs no [`Advisor::MIN_FRAMES`]).
    pub const WARMUP_FRAMES: u64 = 2;

    /// An advisor over the last `frames` frames (at least 1).
    pub fn new(frames: usize) -> Advisor {
        let capacity = frames.max(1);
        Advisor {
            capacity,
            samples: VecDeque::with_capacity(capacity),
            labels: Vec::new(),
            last_direct_shape: None,
            direct: VecDeque::new(),
        }
    }

    /// Adds a frame's report, dropping the oldest beyond the window.
    pub fn push(&mut self, report: &FrameReport) {
        if self.samples.len() == self.capacity
            && let Some(dropped) = self.samples.pop_front()
        {
            self.direct
                .drain(..dropped.direct_passes.min(self.direct.len()));
        }
        // Passes turned off by the program (`Disabled`) are not reported: not kept.
        let before = self.direct.len();
        let kept = report
            .direct_passes
            .iter()
            .filter(|p| p.reason != DirectReason::Disabled)
            .take(PASSES_KEPT);
        if self.direct.capacity() == 0
            && report
                .direct_passes
                .iter()
                .any(|p| p.reason != DirectReason::Disabled)
        {
            // Grown once, for two direct passes per frame over the window: a frame that starts
            // recording passes directly allocates once, not again at every doubling.
            self.direct.reserve(self.capacity * 2);
        }
        self.direct.extend(kept.cloned());
        let direct_passes = self.direct.len() - before;
        let longest_pass = report.gpu_passes.as_ref().and_then(|passes| {
            let (label, time) = passes.iter().max_by_key(|(_, d)| *d)?;
            let id = match self.labels.iter().position(|l| l == label) {
                Some(id) => id,
                None => {
                    self.labels.push(label.clone());
                    self.labels.len() - 1
                }
            };
            Some((id, *time))
        });
        let shape = self.shape_of(&report.stats);
        self.samples.push_back(Sample {
            encode: report.encode,
            gpu: report.gpu_total(),
            longest_pass,
            stats: report.stats,
            shape,
            creator: report.bind_group_creator.clone(),
            index: report.index,
            pipelines_created_by: report.pipelines_created_by.clone(),
            direct_passes,
        });
    }

    /// A frame's shape. Draws replayed from an auto-bundle issue no pipeline switch or
    /// bind-group change of their own: a frame that replayed some, with as many draws as the
    /// last frame that replayed none, has that frame's shape (a bundle replays the draws it was
    /// recorded from); other frames have the switches and changes they issued.
    fn shape_of(&mut self, stats: &StatsSnapshot) -> Shape {
        let measured = Shape {
            draws: stats
                .operations_recorded
                .saturating_sub(stats.bundle_draws_replayed),
            pipelines: stats.set_pipeline_calls,
            group_sets: stats.set_bind_group_calls,
        };
        if stats.auto_bundle_draws == 0 {
            self.last_direct_shape = Some(measured);
            return measured;
        }
        match self.last_direct_shape {
            Some(last) if last.draws == measured.draws => last,
            _ => measured,
        }
    }

    /// Frames in the window.
    pub fn frames(&self) -> usize {
        self.samples.len()
    }

    /// Forgets every frame (e.g. after the scene changed).
    pub fn clear(&mut self) {
        self.samples.clear();
        self.last_direct_shape = None;
        self.direct.clear();
    }

    /// The verdict over the window and the advice that applies (none before [`Advisor::MIN_FRAMES`]).
    pub fn report(&self) -> AdvisorReport {
        let frames = self.samples.len();
        let encode = median_duration(self.samples.iter().map(|s| s.encode));
        let gpu_times: Vec<Duration> = self.samples.iter().filter_map(|s| s.gpu).collect();
        let gpu = (!gpu_times.is_empty()).then(|| median_duration(gpu_times.iter().copied()));
        let verdict = Verdict::of(encode, gpu);
        let mut advice = Vec::new();
        if frames >= Advisor::MIN_FRAMES {
            if verdict.bound == Bound::Gpu {
                advice.extend(self.gpu_pass_dominates());
            } else {
                advice.extend(self.passes_not_bundled());
                advice.extend(self.storage_instancing());
            }
            advice.extend(self.bind_groups_in_steady_frames());
            advice.extend(self.unchanged_sets());
        }
        advice.extend(self.pipelines_created_in_frames());
        AdvisorReport {
            frames,
            verdict,
            advice,
        }
    }

    /// Per pass (label and place in the frame) recorded directly in the window: its frames and
    /// reasons.
    fn tally_passes(&self) -> Vec<PassTally<'_>> {
        let mut tallies: Vec<PassTally<'_>> = Vec::new();
        let mut at = 0;
        for s in &self.samples {
            let passes = self
                .direct
                .range(at..(at + s.direct_passes).min(self.direct.len()));
            at += s.direct_passes;
            for p in passes {
                let i = match tallies
                    .iter()
                    .position(|t| t.pass.index == p.index && t.pass.label == p.label)
                {
                    Some(i) => i,
                    None => {
                        tallies.push(PassTally {
                            pass: p,
                            direct: 0,
                            draws: Vec::new(),
                            reasons: Vec::new(),
                        });
                        tallies.len() - 1
                    }
                };
                let t = &mut tallies[i];
                t.direct += 1;
                t.draws.push(s.direct_draws());
                if matches!(p.reason, DirectReason::Warming { .. }) {
                    continue;
                }
                let kind = p.reason.kind();
                match t.reasons.iter_mut().find(|(k, ..)| *k == kind) {
                    Some(r) => *r = (kind, r.1 + 1, &p.reason),
                    None => t.reasons.push((kind, 1, &p.reason)),
                }
            }
        }
        tallies
    }

    /// The passes recorded directly in most frames, with enough draws, each with its most
    /// frequent reason (most frames first).
    fn passes_not_bundled(&self) -> Vec<Advice> {
        let of = self.samples.len();
        let mut advice: Vec<Advice> = self
            .tally_passes()
            .into_iter()
            .filter(|t| t.direct * 2 > of)
            .filter_map(|t| {
                let draws = median_u64(t.draws.iter().copied());
                let &(reason, frames, latest) = t.reasons.iter().max_by_key(|(_, n, _)| *n)?;
                (draws >= Advisor::BUNDLE_MIN_DRAWS).then(|| Advice::PassNotBundled {
                    pass: t.pass.label.clone(),
                    index: t.pass.index,
                    reason,
                    latest: latest.clone(),
                    frames,
                    direct: t.direct,
                    of,
                    draws,
                })
            })
            .collect();
        advice.sort_by_key(|a| match a {
            Advice::PassNotBundled { frames, .. } => std::cmp::Reverse(*frames),
            _ => std::cmp::Reverse(0),
        });
        advice
    }

    fn storage_instancing(&self) -> Option<Advice> {
        let draws = median_u64(self.samples.iter().map(Sample::draws));
        let pipelines = median_u64(self.samples.iter().map(|s| s.shape.pipelines));
        let group_sets = median_u64(self.samples.iter().map(|s| s.shape.group_sets));
        let shared = pipelines > 0 && draws / pipelines >= Advisor::INSTANCING_MIN_DRAWS;
        // A bind-group change per draw: each draw binds a value of its own.
        let per_draw_values = group_sets.saturating_mul(10) >= draws.saturating_mul(9);
        (draws >= Advisor::INSTANCING_MIN_DRAWS && shared && per_draw_values).then_some(
            Advice::StorageInstancing {
                draws,
                pipelines,
                frames: self.samples.len(),
            },
        )
    }

    fn unchanged_sets(&self) -> Option<Advice> {
        let with = self
            .samples
            .iter()
            .filter(|s| s.stats.values_set_unchanged >= Advisor::UNCHANGED_MIN_SETS)
            .count();
        (with * 4 >= self.samples.len() * 3).then(|| Advice::UnchangedSets {
            per_frame: median_u64(self.samples.iter().map(|s| s.stats.values_set_unchanged)),
            frames: self.samples.len(),
        })
    }

    fn bind_groups_in_steady_frames(&self) -> Option<Advice> {
        let steady: Vec<&Sample> = self
            .samples
            .iter()
            .zip(self.samples.iter().skip(1))
            .filter(|(before, s)| s.draws() == before.draws())
            .map(|(_, s)| s)
            .collect();
        let creating: Vec<&Sample> = steady
            .iter()
            .copied()
            .filter(|s| s.stats.bind_groups_created > 0)
            .collect();
        if steady.len() < Advisor::MIN_FRAMES / 2 || creating.len() * 2 < steady.len() {
            return None;
        }
        Some(Advice::BindGroupsInSteadyFrames {
            per_frame: median_u64(creating.iter().map(|s| s.stats.bind_groups_created)),
            frames: creating.len(),
            first_creator: creating.iter().rev().find_map(|s| s.creator.clone()),
        })
    }

    fn pipelines_created_in_frames(&self) -> Option<Advice> {
        let late = || {
            self.samples
                .iter()
                .filter(|s| s.index > Advisor::WARMUP_FRAMES && s.stats.pipelines_created > 0)
        };
        let frames = late().count();
        if frames == 0 {
            return None;
        }
        let mut draws: Vec<String> = Vec::new();
        for label in late().flat_map(|s| &s.pipelines_created_by) {
            if !draws.iter().any(|d| d == label.as_str()) {
                draws.push(label.as_str().to_owned());
            }
        }
        Some(Advice::PipelinesCreatedInFrames {
            pipelines: late().map(|s| s.stats.pipelines_created).sum(),
            frames,
            draws,
        })
    }

    fn gpu_pass_dominates(&self) -> Option<Advice> {
        // The pass that was longest in most timed frames, if it took at least half their time.
        let timed: Vec<(usize, Duration, Duration)> = self
            .samples
            .iter()
            .filter_map(|s| Some((s.longest_pass?.0, s.longest_pass?.1, s.gpu?)))
            .collect();
        let (label, _) = (0..self.labels.len())
            .map(|id| (id, timed.iter().filter(|(l, ..)| *l == id).count()))
            .max_by_key(|(_, n)| *n)?;
        let mine: Vec<&(usize, Duration, Duration)> =
            timed.iter().filter(|(l, ..)| *l == label).collect();
        if mine.len() * 4 < timed.len() * 3 || mine.is_empty() {
            return None;
        }
        let share = mine
            .iter()
            .map(|(_, pass, total)| pass.as_secs_f64() / total.as_secs_f64().max(f64::MIN_POSITIVE))
            .sum::<f64>()
            / mine.len() as f64;
        (share > 0.5).then(|| Advice::GpuPassDominates {
            pass: self.labels[label].clone(),
            share,
            gpu: median_duration(mine.iter().map(|(_, pass, _)| *pass)),
            frames: mine.len(),
        })
    }
}

/// What to do about a pass recorded directly for `reason` (the end of
/// [`Advice::PassNotBundled`]'s sentence).
fn remedy(reason: &DirectReason) -> &'static str {
    match reason {
        DirectReason::DrawsAdded | DirectReason::DrawsRemoved => {
            "draws that come and go (culling) change the pass's sequence: move them to a pass of \
             their own and the steady draws are replayed"
        }
        DirectReason::DrawOrderChanged => {
            "record the draws in the same order every frame (sort them by something that does \
             not change per frame), or move the ones that move to a pass of their own"
        }
        DirectReason::PassStateChanged => {
            "set explicit ranges, viewport, scissor, blend constant and stencil reference the \
             same way every frame, or move what changes to a pass of their own"
        }
        DirectReason::DrawChanged { .. } => {
            "the draw gets a binding with other content (another buffer, texture, view or block) \
             or other counts: keep the resource and write into it"
        }
        DirectReason::ValueMoved { .. } => {
            "the value is set again after an earlier pass of the frame bound it: set it before \
             the frame's first pass, or give each pass a value of its own"
        }
        DirectReason::ResourcesChanged => {
            "resources are destroyed while frames are recorded, and each destroy makes every \
             bundle check again: keep them, or destroy them between scenes"
        }
        DirectReason::RawPass => {
            "Pass::raw records commands vgpu does not see: move them to a pass of their own"
        }
        DirectReason::OcclusionQueries => {
            "a pass with occlusion queries is recorded directly: keep the queried draws in a \
             pass of their own"
        }
        DirectReason::UserBundle => {
            "the pass replays a bundle of its own and records its other draws directly: put \
             them in that bundle, or leave the bundling to vgpu"
        }
        DirectReason::PassConstants { .. } => {
            "a draw reads the stencil reference or blend constant, which wgpu applies only to \
             pipelines a pass sets: keep such draws in a pass of their own"
        }
        DirectReason::Indirect => {
            "indirect draws are recorded directly: move them to a pass of their own"
        }
        DirectReason::BundleFailed { .. } => {
            "wgpu refused to record the bundle: a vgpu bug, please report it with the message"
        }
        DirectReason::Disabled | DirectReason::Warming { .. } => "",
    }
}

fn median_u64(values: impl Iterator<Item = u64>) -> u64 {
    let mut v: Vec<u64> = values.collect();
    v.sort_unstable();
    v.get(v.len() / 2).copied().unwrap_or(0)
}

fn median_duration(values: impl Iterator<Item = Duration>) -> Duration {
    let mut v: Vec<Duration> = values.collect();
    v.sort_unstable();
    v.get(v.len() / 2).copied().unwrap_or_default()
}
