//! Auto-bundles, as the frame report sees them: why a pass was recorded directly
//! ([`DirectReason`]) instead of replayed from the render bundle vgpu recorded for it
//! ([`DirectPass`]).
//!
//! A pass that records the same draws, in the same order, with the same ranges and pass state
//! (viewport, scissor, blend constant, stencil reference) in two frames in a row gets a render
//! bundle recorded for it at the end of the second; from the next frame on, while nothing
//! structural moves, its draws are checked against that sequence as they come (no wgpu call) and
//! the bundle is replayed when the pass ends. Values changed in place are uploaded as always and
//! the replay reads them. Anything else makes the pass record directly, from the draw where it
//! differed on, and the frame's report names the pass and the first reason. The guide is
//! `docs/auto-bundles.md`; the design and its trade-offs are `docs/design.md` §8.
//!
//! Turn it off for a `Gpu` with [`GpuOptions::auto_bundles`](crate::GpuOptions::auto_bundles) or
//! [`Gpu::set_auto_bundles`](crate::Gpu::set_auto_bundles), for one pass with
//! [`PassDesc::auto_bundle`](crate::PassDesc::auto_bundle).

use std::fmt;

use smallvec::SmallVec;

use vgpu_core::Label;

/// Why a pass was recorded directly instead of replayed from its auto-bundle.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum DirectReason {
    /// Auto-bundles are off for the `Gpu` or for this pass.
    Disabled,
    /// The pass has not recorded the same draws in two frames in a row yet (or, after its bundle
    /// was invalidated soon after it was recorded, in `frames` frames in a row: the hysteresis
    /// of `docs/design.md` §8).
    Warming {
        /// Frames in a row with the same draws the pass needs before a bundle is recorded.
        frames: u32,
    },
    /// The pass recorded more draws than last frame (the same ones first).
    DrawsAdded,
    /// The pass recorded fewer draws than last frame (the same ones first).
    DrawsRemoved,
    /// The pass recorded other draws, or the same ones in another order.
    DrawOrderChanged,
    /// A draw's explicit range, or the viewport, scissor, blend constant or stencil reference
    /// set between draws, differed from last frame.
    PassStateChanged,
    /// A draw of the pass was changed: a binding given other content (a resource, a block, a
    /// target resized under it), its counts, or a claimed group.
    DrawChanged {
        /// The draw's label.
        draw: Label,
    },
    /// A value a draw binds resolved to another slot than the bundle recorded (a value set
    /// again after an earlier pass of the frame bound it, a per-pass value that is new).
    ValueMoved {
        /// The value's label (`draw.binding`, or the shared block's).
        value: Label,
    },
    /// A resource was destroyed (or the bind-group cache invalidated): bundles are checked again
    /// from scratch.
    ResourcesChanged,
    /// The pass called [`Pass::raw`](crate::Pass::raw).
    RawPass,
    /// The pass has occlusion queries ([`PassDesc::occlusion`](crate::PassDesc::occlusion)).
    OcclusionQueries,
    /// The pass replayed a bundle of its own ([`Pass::execute`](crate::Pass::execute)).
    UserBundle,
    /// A draw of the pass reads the stencil reference or the blend constant (a stencil test or
    /// operation with the reference, a `Constant` blend factor): wgpu 30 applies them to a
    /// pipeline set by a pass, not to one set inside a render bundle, so such a pass is not
    /// replayed.
    PassConstants {
        /// The first such draw's label.
        draw: Label,
    },
    /// The pass drew indirectly ([`Pass::draw_indirect`](crate::Pass::draw_indirect) and the
    /// multi-draw calls).
    Indirect,
    /// wgpu refused to record the bundle (its message).
    BundleFailed {
        /// wgpu's message.
        message: String,
    },
}

impl fmt::Display for DirectReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DirectReason::Disabled => f.write_str("auto-bundles are off"),
            DirectReason::Warming { frames } => {
                write!(
                    f,
                    "warming up (needs the same draws in {frames} frames in a row)"
                )
            }
            DirectReason::DrawsAdded => f.write_str("draws added"),
            DirectReason::DrawsRemoved => f.write_str("draws removed"),
            DirectReason::DrawOrderChanged => f.write_str("draw order changed"),
            DirectReason::PassStateChanged => f.write_str(
                "a range, viewport, scissor, blend constant or stencil reference changed",
            ),
            DirectReason::DrawChanged { draw } => write!(f, "draw {draw:?} changed"),
            DirectReason::ValueMoved { value } => {
                write!(f, "value {value:?} moved to another slot")
            }
            DirectReason::ResourcesChanged => f.write_str("a resource was destroyed"),
            DirectReason::RawPass => f.write_str("the pass used Pass::raw"),
            DirectReason::OcclusionQueries => f.write_str("the pass has occlusion queries"),
            DirectReason::UserBundle => f.write_str("the pass executed a bundle"),
            DirectReason::Indirect => f.write_str("the pass drew indirectly"),
            DirectReason::PassConstants { draw } => write!(
                f,
                "draw {draw:?} reads the stencil reference or blend constant (not replayed from a bundle)"
            ),
            DirectReason::BundleFailed { message } => {
                write!(f, "recording the bundle failed: {message}")
            }
        }
    }
}

impl DirectReason {
    /// The reason's kind, without its data: what the advisor counts per pass.
    pub fn kind(&self) -> &'static str {
        match self {
            DirectReason::Disabled => "disabled",
            DirectReason::Warming { .. } => "warming up",
            DirectReason::DrawsAdded => "draws added",
            DirectReason::DrawsRemoved => "draws removed",
            DirectReason::DrawOrderChanged => "draw order changed",
            DirectReason::PassStateChanged => "pass state changed",
            DirectReason::DrawChanged { .. } => "a draw changed",
            DirectReason::ValueMoved { .. } => "a value moved",
            DirectReason::ResourcesChanged => "a resource was destroyed",
            DirectReason::RawPass => "raw pass",
            DirectReason::OcclusionQueries => "occlusion queries",
            DirectReason::UserBundle => "executed a bundle",
            DirectReason::Indirect => "indirect draws",
            DirectReason::PassConstants { .. } => "stencil reference or blend constant",
            DirectReason::BundleFailed { .. } => "bundle failed",
        }
    }
}

/// A pass of a frame recorded directly, and the first reason (see [`DirectReason`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DirectPass {
    /// The pass's label ([`PassDesc::label`](crate::PassDesc::label); `"pass"` by default).
    pub label: Label,
    /// The pass's place in its frame (0 for the first).
    pub index: u32,
    /// Why it was recorded directly.
    pub reason: DirectReason,
}

impl fmt::Display for DirectPass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "pass {} (#{}): {}", self.label, self.index, self.reason)
    }
}

/// The passes of a frame recorded directly ([`FrameReport::direct_passes`](crate::FrameReport)),
/// in recording order: a slice of [`DirectPass`]es. The first two are kept inline, so a frame
/// with few direct passes allocates nothing for its report.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DirectPasses(SmallVec<[DirectPass; 2]>);

impl DirectPasses {
    /// Adds a pass (a report built by hand, e.g. to feed an [`Advisor`](crate::Advisor)).
    pub fn push(&mut self, pass: DirectPass) {
        self.0.push(pass);
    }
}

impl FromIterator<DirectPass> for DirectPasses {
    fn from_iter<I: IntoIterator<Item = DirectPass>>(iter: I) -> Self {
        DirectPasses(iter.into_iter().collect())
    }
}

impl From<Vec<DirectPass>> for DirectPasses {
    fn from(passes: Vec<DirectPass>) -> Self {
        DirectPasses(passes.into_iter().collect())
    }
}

impl std::ops::Deref for DirectPasses {
    type Target = [DirectPass];
    fn deref(&self) -> &[DirectPass] {
        &self.0
    }
}

impl<'a> IntoIterator for &'a DirectPasses {
    type Item = &'a DirectPass;
    type IntoIter = std::slice::Iter<'a, DirectPass>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}
