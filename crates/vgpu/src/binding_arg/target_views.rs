//! Lowering a target's color attachment or depth to the view a binding takes.

use std::borrow::Cow;

use crate::descriptors::GpuId;
use crate::error::Result;
use crate::state::{BindingInput, ViewInput, ViewOwner};
use crate::target::Target;

/// A target's color attachment `color` (`None`: its depth), after the `Gpu` check.
pub(super) fn lower_target_view<'a>(
    t: &'a Target,
    color: Option<usize>,
    check: impl Fn(GpuId, &'static str, &str) -> Result<()>,
) -> Result<BindingInput<'a>> {
    check(t.inner.gpu, "target", &t.inner.label)?;
    let Some(index) = color else {
        return Ok(match (t.depth_sample_view(), t.depth_texture()) {
            (Some(view), Some(tex)) => BindingInput::View(ViewInput {
                view: Cow::Borrowed(view),
                format: tex
                    .format()
                    .aspect_specific_format(wgpu::TextureAspect::DepthOnly),
                samples: tex.sample_count(),
                owner: ViewOwner::Target(&t.inner),
                what: "a target's depth texture",
            }),
            _ => BindingInput::Unusable("a target without depth"),
        });
    };
    Ok(match t.color_view_at(index) {
        Some(view) => BindingInput::View(ViewInput {
            view: Cow::Borrowed(view),
            format: t.color_texture_at(index).map(|c| c.format()),
            samples: 1,
            owner: ViewOwner::Target(&t.inner),
            what: "a target's color texture",
        }),
        None if t.color_count() == 0 => {
            BindingInput::Unusable("a depth-only target's color (it has none)")
        }
        None => BindingInput::Unusable("a color attachment index past the target's last"),
    })
}
