//! What one frame did ([`FrameReport`], [`SurfaceSkip`]) and whether it was CPU- or GPU-bound
//! ([`Verdict`]).
//!
//! The verdict follows the usual way of telling which side limits a frame: compare the CPU time
//! spent recording the frame's commands (`encode`: frame start through
//! `CommandEncoder::finish()`) with the GPU time of its passes (timestamp queries). When the CPU
//! takes longer, fewer and cheaper draw calls pay (bundles, instancing); when the GPU does, they
//! do not, and the work is in shaders, fill rate or bandwidth.

use std::time::Duration;

use vgpu_core::{Label, StatsSnapshot};

/// What one frame did: counter deltas, CPU times, and GPU pass times where measurable.
#[derive(Clone, Debug, Default)]
pub struct FrameReport {
    /// Frame number (1 for the first frame of this `Gpu`).
    pub index: u64,
    /// Counter deltas over the frame: operations, bind groups, buffers, writes, bytes, cache…
    pub stats: StatsSnapshot,
    /// CPU time from the start of the frame through `CommandEncoder::finish()`.
    pub encode: Duration,
    /// CPU time of uploads plus `Queue::submit` (and the check that wgpu took the submission).
    pub submit: Duration,
    /// Per-pass GPU times `(label, duration)` of the most recent frame whose timestamps were read
    /// back (usually one or two frames earlier, see `gpu_frame_index`); `None` where the adapter
    /// has no timestamp queries or none have been read back yet. The first 32 render passes
    /// of a frame are timed; later ones are recorded untimed.
    pub gpu_passes: Option<Vec<(String, Duration)>>,
    /// The frame the `gpu_passes` belong to.
    pub gpu_frame_index: Option<u64>,
    /// Set when a pass into a window surface was skipped (minimized, occluded, or acquiring
    /// timed out): its closure was not called. Not an error: render the next frame as usual.
    pub skipped: Option<SurfaceSkip>,
    /// The label of the first draw (or compute) whose recording created a bind group in this
    /// frame, when any did (`stats.bind_groups_created` counts them). In a steady frame a
    /// created group is usually a binding that changes every frame (see [`crate::Advice`]).
    pub bind_group_creator: Option<String>,
    /// The labels of the draws and computes whose pipelines were created while this frame was
    /// recorded, in creation order (empty, and allocated nothing, when none were). A pipeline
    /// created inside a frame compiles its shaders there (a hitch): create it ahead with
    /// [`Draw::prepare`](crate::Draw::prepare), [`Gpu::prepare`](crate::Gpu::prepare) or
    /// [`Compute::prepare`](crate::Compute::prepare). Computes are named too.
    pub pipelines_created_by: Vec<Label>,
    /// The render passes of this frame recorded directly rather than replayed from their
    /// auto-bundle, each with the first reason (empty, and allocated nothing, when every pass
    /// was replayed; the first two kept inline). `stats.auto_bundle_draws` counts the draws
    /// replayed.
    pub direct_passes: crate::DirectPasses,
}

impl FrameReport {
    /// Sum of the GPU pass times, if measured.
    pub fn gpu_total(&self) -> Option<Duration> {
        self.gpu_passes
            .as_ref()
            .map(|p| p.iter().map(|(_, d)| *d).sum())
    }

    /// Whether this frame was CPU- or GPU-bound: its CPU recording time (`encode`) against the
    /// GPU time of the passes last measured ([`gpu_total`](Self::gpu_total));
    /// [`Bound::Unknown`] without GPU times (no timestamp queries, e.g. the noop device, or none
    /// read back yet).
    pub fn verdict(&self) -> Verdict {
        Verdict::of(self.encode, self.gpu_total())
    }
}

/// Which side limits a frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Bound {
    /// Recording the commands took longer than the GPU took to run them: cutting per-draw CPU
    /// work (draw calls, `set_bind_group`, pipeline switches) is what pays.
    Cpu,
    /// The GPU took longer: fewer draw calls will not help; the work is in shaders, fill rate or
    /// bandwidth.
    Gpu,
    /// No GPU time was measured.
    Unknown,
}

impl std::fmt::Display for Bound {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Bound::Cpu => "CPU-bound",
            Bound::Gpu => "GPU-bound",
            Bound::Unknown => "bound unknown (no GPU time measured)",
        })
    }
}

/// A CPU- or GPU-bound verdict with the figures it used.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Verdict {
    /// The side that took longer.
    pub bound: Bound,
    /// CPU time recording the frame (`FrameReport::encode`, or its median over frames).
    pub cpu: Duration,
    /// GPU time of the frame's passes, when measured.
    pub gpu: Option<Duration>,
    /// The longer time over the shorter one (1.0 when equal); `None` when `gpu` is.
    pub ratio: Option<f64>,
}

impl Verdict {
    /// The verdict for a CPU recording time and a GPU time.
    pub fn of(cpu: Duration, gpu: Option<Duration>) -> Verdict {
        let Some(gpu) = gpu else {
            return Verdict {
                bound: Bound::Unknown,
                cpu,
                gpu: None,
                ratio: None,
            };
        };
        let (c, g) = (cpu.as_secs_f64(), gpu.as_secs_f64());
        let (bound, ratio) = if c > g {
            (Bound::Cpu, if g > 0.0 { c / g } else { f64::INFINITY })
        } else {
            (Bound::Gpu, if c > 0.0 { g / c } else { 1.0 })
        };
        Verdict {
            bound,
            cpu,
            gpu: Some(gpu),
            ratio: Some(ratio),
        }
    }
}

impl std::fmt::Display for Verdict {
    /// `CPU-bound: CPU 1.45 ms vs GPU 0.63 ms (2.3x)`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        match (self.gpu, self.ratio) {
            (Some(gpu), Some(ratio)) => write!(
                f,
                "{}: CPU {:.2} ms vs GPU {:.2} ms ({ratio:.1}x)",
                self.bound,
                ms(self.cpu),
                ms(gpu)
            ),
            _ => write!(f, "{}: CPU {:.2} ms", self.bound, ms(self.cpu)),
        }
    }
}

/// Why a pass into a surface was skipped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SurfaceSkip {
    /// The window has a zero width or height (minimized).
    ZeroSize,
    /// Acquiring the texture timed out.
    Timeout,
    /// The window is occluded.
    Occluded,
}
