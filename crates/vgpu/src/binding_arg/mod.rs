//! [`BindingArg`]: what a binding is given (a value, a shared uniforms block, a buffer, a
//! texture, a sampler), and its lowering to the state's `BindingInput`.

mod target_views;
mod texture_views;

use vgpu_core::Label;
use vgpu_core::Value;

use crate::buffer::Buffer;
use crate::descriptors::GpuId;
use crate::error::{Result, foreign_gpu};
use crate::sampler::Sampler;
use crate::state::{BindingInput, BufferInput, SamplerInput, ViewInput, ViewOwner};
use crate::target::Target;
use crate::texture::Texture;
use crate::typed::Uniform;
use crate::typed_ref::TypedRef;
use crate::uniforms::SharedUniforms;
use target_views::lower_target_view;
use texture_views::lower_texture_view;

/// What a binding is given: a value, a shared uniforms block, a buffer, a texture or a sampler
/// (what [`Draw::set`](crate::Draw::set) accepts). Built through `From` conversions, so you pass
/// the value itself: `draw.set("object", value! { … })`, `draw.set("frame", &camera)`,
/// `draw.set("data", &buffer)`, `draw.set("tex", &texture)`, `draw.set("object", &typed)`.
#[derive(Debug)]
#[non_exhaustive]
pub enum BindingArg<'a> {
    /// A library-owned struct value (owned).
    Value(Value),
    /// A library-owned struct value (borrowed; packed without cloning).
    ValueRef(&'a Value),
    /// A typed value: any [`Uniform`](crate::Uniform) (a `#[derive(vgpu::Uniform)]` struct, a
    /// scalar, an array, a glam or mint type), checked against the WGSL type once per binding
    /// and then written straight into place.
    Typed(TypedRef<'a>),
    /// Raw bytes already in the binding's WGSL layout; only their size is checked (see
    /// `Draw::set_bytes`).
    Bytes(&'a [u8]),
    /// A shared uniforms block.
    Shared(&'a SharedUniforms),
    /// A whole vgpu buffer, bound by identity (live).
    Buffer(&'a Buffer),
    /// A range of a vgpu buffer: (buffer, offset, size; `None` = to the end).
    BufferRange(&'a Buffer, u64, Option<wgpu::BufferSize>),
    /// A whole raw wgpu buffer, bound by identity (live).
    RawBuffer(&'a wgpu::Buffer),
    /// A range of a raw wgpu buffer.
    RawBufferBinding(wgpu::BufferBinding<'a>),
    /// A vgpu texture's default view.
    Texture(&'a Texture),
    /// A target's first color texture (single-sample).
    TargetColor(&'a Target),
    /// A target's color attachment `n` (single-sample), e.g. one plane of a G-buffer.
    TargetColorAt(&'a Target, u32),
    /// A target's depth texture.
    TargetDepth(&'a Target),
    /// A view of a vgpu texture (a layer, a mip, a cube): checked against the binding's WGSL
    /// type (dimension, sample type, multisampling).
    View(&'a crate::texture_view::TextureView),
    /// A raw texture view.
    RawView(&'a wgpu::TextureView),
    /// A vgpu sampler.
    Sampler(&'a Sampler),
    /// A raw sampler.
    RawSampler(&'a wgpu::Sampler),
}

impl BindingArg<'_> {
    /// Lowers to what the state layer takes: a value as it is (it holds no handle), a handle
    /// after checking that it belongs to `gpu` (`VGPU-FOREIGN-GPU` otherwise, naming the
    /// operation, whose label `op` gives only then, and its `binding`).
    #[inline]
    pub(crate) fn lower(
        &self,
        gpu: GpuId,
        op: &dyn Fn() -> Label,
        binding: &str,
    ) -> Result<BindingInput<'_>> {
        // Values (the common case) inline here: they hold no handle to check.
        Ok(match self {
            BindingArg::ValueRef(v) => BindingInput::Value(v),
            BindingArg::Typed(value) => BindingInput::Typed(*value),
            BindingArg::Bytes(bytes) => BindingInput::Bytes(bytes),
            BindingArg::Value(v) => BindingInput::Value(v),
            _ => return self.lower_checked(gpu, op, binding),
        })
    }

    /// [`lower`](Self::lower), not inlined: handles checked against `gpu`.
    #[inline(never)]
    fn lower_checked(
        &self,
        gpu: GpuId,
        op: &dyn Fn() -> Label,
        binding: &str,
    ) -> Result<BindingInput<'_>> {
        let check = |owner: GpuId, kind: &'static str, label: &str| -> Result<()> {
            if owner == gpu {
                return Ok(());
            }
            Err(foreign_gpu(
                kind,
                label,
                format!("of {:?}, whose binding `{binding}` it was given to", op()),
            ))
        };
        Ok(match self {
            BindingArg::Value(v) => BindingInput::Value(v),
            BindingArg::ValueRef(v) => BindingInput::Value(v),
            BindingArg::Bytes(bytes) => BindingInput::Bytes(bytes),
            BindingArg::Typed(value) => BindingInput::Typed(*value),
            BindingArg::Shared(block) => {
                check(block.inner.gpu, "uniforms block", &block.inner.label)?;
                BindingInput::Block(&block.inner)
            }
            BindingArg::Buffer(b) | BindingArg::BufferRange(b, ..) => {
                check(b.inner.gpu, "buffer", &b.inner.label)?;
                let (offset, size) = match self {
                    BindingArg::BufferRange(_, offset, size) => (*offset, *size),
                    _ => (0, None),
                };
                BindingInput::Buffer(BufferInput {
                    raw: &b.inner.buffer,
                    offset,
                    size,
                    record: Some(&b.inner),
                    label: &b.inner.label,
                })
            }
            BindingArg::RawBuffer(raw) => BindingInput::Buffer(BufferInput {
                raw,
                offset: 0,
                size: None,
                record: None,
                label: "wgpu buffer",
            }),
            BindingArg::RawBufferBinding(bb) => BindingInput::Buffer(BufferInput {
                raw: bb.buffer,
                offset: bb.offset,
                size: bb.size,
                record: None,
                label: "wgpu buffer binding",
            }),
            BindingArg::Texture(t) => lower_texture_view(t, check)?,
            BindingArg::View(v) => texture_views::lower_view(v, check)?,
            BindingArg::TargetColor(t) => lower_target_view(t, Some(0), check)?,
            BindingArg::TargetColorAt(t, i) => lower_target_view(t, Some(*i as usize), check)?,
            BindingArg::TargetDepth(t) => lower_target_view(t, None, check)?,
            BindingArg::RawView(view) => BindingInput::View(ViewInput {
                view,
                format: Some(view.texture().format()),
                samples: view.texture().sample_count(),
                owner: ViewOwner::Raw,
                what: "a wgpu texture view",
            }),
            BindingArg::Sampler(s) => {
                check(s.inner.gpu, "sampler", "sampler")?;
                BindingInput::Sampler(SamplerInput {
                    raw: &s.inner.sampler,
                    record: Some(&s.inner),
                })
            }
            BindingArg::RawSampler(raw) => {
                BindingInput::Sampler(SamplerInput { raw, record: None })
            }
        })
    }
}

impl<'a, T: Uniform> From<&'a T> for BindingArg<'a> {
    fn from(v: &'a T) -> Self {
        BindingArg::Typed(TypedRef::new(v))
    }
}

impl From<Value> for BindingArg<'_> {
    fn from(v: Value) -> Self {
        BindingArg::Value(v)
    }
}
impl<'a> From<&'a Value> for BindingArg<'a> {
    fn from(v: &'a Value) -> Self {
        BindingArg::ValueRef(v)
    }
}
impl<'a> From<&'a SharedUniforms> for BindingArg<'a> {
    fn from(v: &'a SharedUniforms) -> Self {
        BindingArg::Shared(v)
    }
}
impl<'a> From<&'a Buffer> for BindingArg<'a> {
    fn from(v: &'a Buffer) -> Self {
        BindingArg::Buffer(v)
    }
}
impl<'a> From<&'a wgpu::Buffer> for BindingArg<'a> {
    fn from(v: &'a wgpu::Buffer) -> Self {
        BindingArg::RawBuffer(v)
    }
}
impl<'a> From<wgpu::BufferBinding<'a>> for BindingArg<'a> {
    fn from(v: wgpu::BufferBinding<'a>) -> Self {
        BindingArg::RawBufferBinding(v)
    }
}
impl<'a> From<&'a Texture> for BindingArg<'a> {
    fn from(v: &'a Texture) -> Self {
        BindingArg::Texture(v)
    }
}
impl<'a> From<&'a crate::texture_view::TextureView> for BindingArg<'a> {
    fn from(v: &'a crate::texture_view::TextureView) -> Self {
        BindingArg::View(v)
    }
}
impl<'a> From<&'a wgpu::TextureView> for BindingArg<'a> {
    fn from(v: &'a wgpu::TextureView) -> Self {
        BindingArg::RawView(v)
    }
}
impl<'a> From<&'a Sampler> for BindingArg<'a> {
    fn from(v: &'a Sampler) -> Self {
        BindingArg::Sampler(v)
    }
}
impl<'a> From<&'a wgpu::Sampler> for BindingArg<'a> {
    fn from(v: &'a wgpu::Sampler) -> Self {
        BindingArg::RawSampler(v)
    }
}
/// A target binds its (single-sample) color texture; use [`BindingArg::TargetDepth`] for depth.
impl<'a> From<&'a Target> for BindingArg<'a> {
    fn from(v: &'a Target) -> Self {
        BindingArg::TargetColor(v)
    }
}
