//! Lowering a target's color attachment or depth to what a binding takes: the target and the
//! part; its current view is read when the binding is assigned (the target may be resized), which
//! registers the binding as one that follows the target (`state/followers.rs`).

use crate::descriptors::GpuId;
use crate::error::Result;
use crate::state::{BindingInput, TargetPart};
use crate::target::Target;

/// A target's color attachment `color` (`None`: its depth), after the `Gpu` check.
pub(super) fn lower_target_view<'a>(
    t: &'a Target,
    color: Option<usize>,
    check: impl Fn(GpuId, &'static str, &str) -> Result<()>,
) -> Result<BindingInput<'a>> {
    check(t.inner.gpu, "target", &t.inner.label)?;
    let part = match color {
        Some(index) => TargetPart::Color(index),
        None => TargetPart::Depth,
    };
    Ok(BindingInput::Target(&t.inner, part))
}
