//! The frame advisor: over the last frames of a `Gpu`, whether they were CPU- or GPU-bound and
//! what would make them cheaper, each piece of [`Advice`] with the figures it rests on.
//!
//! It reads only what every frame reports anyway ([`FrameReport`]: counter deltas, CPU times,
//! GPU pass times): recording a draw costs nothing more with the advisor than without it. A frame
//! adds one sample to a ring of fixed size (no allocation once the ring is full, but the name of
//! a draw that created bind groups, or of a pass measured for the first time).
//!
//! The rules follow the usual costs of WebGPU-style APIs:
//! - A render bundle pays when the same draws are recorded the same way frame after frame in a
//!   CPU-bound app: replaying it skips per-draw validation and recording.
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

use crate::report::{Bound, FrameReport, Verdict};

/// One piece of advice, with the evidence it rests on. `Display` gives the sentence for a person.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Advice {
    /// The same draws were recorded the same way in at least [`Advisor::MIN_FRAMES`] of the newest frames
    /// (same draw count, pipeline switches and bind-group changes; no bind group or pipeline
    /// created), and the
    /// frames were not GPU-bound: record them once as a render bundle ([`crate::Gpu::bundle`])
    /// and replay it with [`crate::Pass::execute`]. Values bound by bundled draws stay live.
    RecordBundle {
        /// Draws recorded directly (not replayed from a bundle) per frame.
        draws: u64,
        /// Frames they were recorded the same way in.
        frames: usize,
        /// Measured CPU recording time per draw (median encode time over all draws of a frame).
        encode_per_draw: Duration,
        /// `draws × encode_per_draw`: the encode time a bundle replay would save at most.
        estimated_saving: Duration,
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
    /// A short form for a window title or a status line, e.g. `record a bundle of 64 draws
    /// (up to 0.120 ms per frame)` or `pass "shadow" takes 75% of GPU time`.
    pub fn headline(&self) -> String {
        match self {
            Advice::RecordBundle {
                draws,
                estimated_saving,
                ..
            } => format!(
                "record a bundle of {draws} draws (up to {:.3} ms per frame)",
                estimated_saving.as_secs_f64() * 1e3
            ),
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
            Advice::RecordBundle {
                draws,
                frames,
                encode_per_draw,
                estimated_saving,
            } => write!(
                f,
                "record a bundle: {draws} draws were recorded the same way in each of the last \
                 {frames} frames; recorded once with gpu.bundle and replayed with pass.execute \
                 they would save up to {:.3} ms of encode per frame ({:.2} µs per draw); values \
                 set on bundled draws stay live",
                ms(estimated_saving),
                encode_per_draw.as_secs_f64() * 1e6
            ),
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

/// One frame as the advisor keeps it.
#[derive(Clone, Debug)]
struct Sample {
    encode: Duration,
    gpu: Option<Duration>,
    /// The longest pass: index into `Advisor::labels`, its time.
    longest_pass: Option<(usize, Duration)>,
    stats: StatsSnapshot,
    creator: Option<String>,
    /// `FrameReport::index`.
    index: u64,
    /// `FrameReport::pipelines_created_by` (empty and unallocated in most frames).
    pipelines_created_by: Vec<Label>,
}

impl Sample {
    fn direct_draws(&self) -> u64 {
        self.stats
            .operations_recorded
            .saturating_sub(self.stats.bundle_draws_replayed)
    }
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
    /// Draws recorded the same way per frame before a bundle is advised.
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
        }
    }

    /// Adds a frame's report, dropping the oldest beyond the window.
    pub fn push(&mut self, report: &FrameReport) {
        if self.samples.len() == self.capacity {
            self.samples.pop_front();
        }
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
        self.samples.push_back(Sample {
            encode: report.encode,
            gpu: report.gpu_total(),
            longest_pass,
            stats: report.stats,
            creator: report.bind_group_creator.clone(),
            index: report.index,
            pipelines_created_by: report.pipelines_created_by.clone(),
        });
    }

    /// Frames in the window.
    pub fn frames(&self) -> usize {
        self.samples.len()
    }

    /// Forgets every frame (e.g. after the scene changed).
    pub fn clear(&mut self) {
        self.samples.clear();
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
                advice.extend(self.record_bundle(encode));
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

    fn record_bundle(&self, encode: Duration) -> Option<Advice> {
        // The newest frames, back to the first that differs (warm-up frames create pipelines
        // and groups): that run must span Advisor::MIN_FRAMES.
        let last = self.samples.back()?;
        let same = |s: &&Sample| {
            s.direct_draws() == last.direct_draws()
                && s.stats.set_pipeline_calls == last.stats.set_pipeline_calls
                && s.stats.set_bind_group_calls == last.stats.set_bind_group_calls
                && s.stats.bind_groups_created == 0
                && s.stats.pipelines_created == 0
                && s.stats.pipeline_cache_lookups == 0
        };
        let frames = self.samples.iter().rev().take_while(same).count();
        let draws = last.direct_draws();
        if draws < Advisor::BUNDLE_MIN_DRAWS || frames < Advisor::MIN_FRAMES {
            return None;
        }
        let operations = median_u64(self.samples.iter().map(|s| s.stats.operations_recorded));
        let encode_per_draw = encode / u32::try_from(operations.max(1)).unwrap_or(u32::MAX);
        Some(Advice::RecordBundle {
            draws,
            frames,
            encode_per_draw,
            estimated_saving: encode_per_draw * u32::try_from(draws).unwrap_or(u32::MAX),
        })
    }

    fn storage_instancing(&self) -> Option<Advice> {
        let draws = median_u64(self.samples.iter().map(Sample::direct_draws));
        let pipelines = median_u64(self.samples.iter().map(|s| s.stats.set_pipeline_calls));
        let group_sets = median_u64(self.samples.iter().map(|s| s.stats.set_bind_group_calls));
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
            .filter(|(before, s)| s.direct_draws() == before.direct_draws())
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
