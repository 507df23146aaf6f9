//! Lowering a vgpu texture (or a view of one) to the view a binding takes.

use crate::descriptors::GpuId;
use crate::error::Result;
use crate::state::{BindingInput, ViewInput, ViewOwner};
use crate::texture::Texture;
use crate::texture_view::TextureView;

/// A vgpu texture's default view, after the `Gpu` check.
pub(super) fn lower_texture_view<'a>(
    t: &'a Texture,
    check: impl Fn(GpuId, &'static str, &str) -> Result<()>,
) -> Result<BindingInput<'a>> {
    check(t.inner.gpu, "texture", &t.inner.label)?;
    Ok(BindingInput::View(ViewInput {
        view: &t.inner.view,
        format: Some(t.format()),
        samples: t.inner.texture.sample_count(),
        owner: ViewOwner::Texture(&t.inner),
        what: "a texture",
    }))
}

/// A view of a vgpu texture, after the `Gpu` check.
pub(super) fn lower_view<'a>(
    v: &'a TextureView,
    check: impl Fn(GpuId, &'static str, &str) -> Result<()>,
) -> Result<BindingInput<'a>> {
    check(v.record.gpu, "texture", &v.record.label)?;
    Ok(BindingInput::View(ViewInput {
        view: &v.view,
        format: Some(v.format),
        samples: v.record.texture.sample_count(),
        owner: ViewOwner::View(&v.record, &v.shape),
        what: "a texture view",
    }))
}
