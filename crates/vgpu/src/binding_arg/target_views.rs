//! Lowering a target's color attachment or depth to the view a binding takes: a clone of its
//! current view (the target may be resized), which registers the binding as one that follows
//! the target (`state/followers.rs`).

use crate::descriptors::GpuId;
use crate::error::Result;
use crate::state::{BindingInput, TargetPart, target_part_input};
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
    Ok(target_part_input(&t.inner, part))
}
