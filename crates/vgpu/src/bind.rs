//! [`Bind`]: everything a binding can be set to.

use vgpu_core::Label;
use vgpu_core::value::Value;

use crate::buffer::Buffer;
use crate::descriptors::GpuId;
use crate::error::{Result, foreign_gpu};
use crate::state::{BindingInput, BufferInput, SamplerInput, ValueInput, ViewInput, ViewOwner};
use crate::target::Target;
use crate::texture::{Sampler, Texture};
use crate::typed::{TypedRef, Uniform};
use crate::uniforms::SharedUniforms;

/// What [`Draw::set`](crate::Draw::set) accepts; built through `From` conversions, so you pass
/// the value itself: `draw.set("object", value! { … })`, `draw.set("frame", &camera)`,
/// `draw.set("data", &buffer)`, `draw.set("tex", &texture)`, `draw.set("object", &typed)`.
#[derive(Debug)]
#[non_exhaustive]
pub enum Bind<'a> {
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
    /// A target's color texture (single-sample).
    TargetColor(&'a Target),
    /// A target's depth texture.
    TargetDepth(&'a Target),
    /// A raw texture view.
    RawView(&'a wgpu::TextureView),
    /// A vgpu sampler.
    Sampler(&'a Sampler),
    /// A raw sampler.
    RawSampler(&'a wgpu::Sampler),
}

impl<'a> Bind<'a> {
    /// Lowers to what the state layer takes, after checking that every handle belongs to `gpu`
    /// (`VGPU-FOREIGN-GPU` otherwise, naming the operation, whose label `op` gives only then,
    /// and its `binding`).
    pub(crate) fn lower(
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
            Bind::Value(v) => BindingInput::Value(v),
            Bind::ValueRef(v) => BindingInput::Value(v),
            Bind::Bytes(bytes) => BindingInput::Bytes(bytes),
            Bind::Typed(value) => BindingInput::Typed(*value),
            Bind::Shared(block) => {
                check(block.inner.gpu, "uniforms block", &block.inner.label)?;
                BindingInput::Block(&block.inner)
            }
            Bind::Buffer(b) | Bind::BufferRange(b, ..) => {
                check(b.inner.gpu, "buffer", &b.inner.label)?;
                let (offset, size) = match self {
                    Bind::BufferRange(_, offset, size) => (*offset, *size),
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
            Bind::RawBuffer(raw) => BindingInput::Buffer(BufferInput {
                raw,
                offset: 0,
                size: None,
                record: None,
                label: "wgpu buffer",
            }),
            Bind::RawBufferBinding(bb) => BindingInput::Buffer(BufferInput {
                raw: bb.buffer,
                offset: bb.offset,
                size: bb.size,
                record: None,
                label: "wgpu buffer binding",
            }),
            Bind::Texture(t) => lower_view(ViewSource::Texture(t), check)?,
            Bind::TargetColor(t) => lower_view(ViewSource::TargetColor(t), check)?,
            Bind::TargetDepth(t) => lower_view(ViewSource::TargetDepth(t), check)?,
            Bind::RawView(view) => BindingInput::View(ViewInput {
                view,
                format: Some(view.texture().format()),
                samples: view.texture().sample_count(),
                owner: ViewOwner::Raw,
                what: "a wgpu texture view",
            }),
            Bind::Sampler(s) => {
                check(s.inner.gpu, "sampler", "sampler")?;
                BindingInput::Sampler(SamplerInput {
                    raw: &s.inner.sampler,
                    record: Some(&s.inner),
                })
            }
            Bind::RawSampler(raw) => BindingInput::Sampler(SamplerInput { raw, record: None }),
        })
    }
}

/// A value taken out of its [`Bind`] by value (the borrowed kinds need no drop); values need no
/// lowering: they hold no handle.
pub(crate) enum GivenValue<'a> {
    Owned(Value),
    Input(ValueInput<'a>),
}

impl GivenValue<'_> {
    /// The value as the state layer takes it.
    #[inline]
    pub(crate) fn as_input(&self) -> ValueInput<'_> {
        match self {
            GivenValue::Owned(v) => ValueInput::Value(v),
            GivenValue::Input(input) => *input,
        }
    }
}

impl<'a> Bind<'a> {
    /// The value this is, or `self` when it is a handle (to [`lower`](Self::lower)).
    #[inline]
    pub(crate) fn into_value(self) -> std::result::Result<GivenValue<'a>, Bind<'a>> {
        match self {
            Bind::Typed(value) => Ok(GivenValue::Input(ValueInput::Typed(value))),
            Bind::ValueRef(v) => Ok(GivenValue::Input(ValueInput::Value(v))),
            Bind::Bytes(bytes) => Ok(GivenValue::Input(ValueInput::Bytes(bytes))),
            Bind::Value(v) => Ok(GivenValue::Owned(v)),
            other => Err(other),
        }
    }
}

/// The vgpu handles a view is taken from.
enum ViewSource<'a> {
    Texture(&'a Texture),
    TargetColor(&'a Target),
    TargetDepth(&'a Target),
}

/// A vgpu texture's or a target's view, after the `Gpu` check.
fn lower_view<'a>(
    source: ViewSource<'a>,
    check: impl Fn(GpuId, &'static str, &str) -> Result<()>,
) -> Result<BindingInput<'a>> {
    Ok(match source {
        ViewSource::Texture(t) => {
            check(t.inner.gpu, "texture", &t.inner.label)?;
            BindingInput::View(ViewInput {
                view: &t.inner.view,
                format: Some(t.format()),
                samples: 1,
                owner: ViewOwner::Texture(&t.inner),
                what: "a texture",
            })
        }
        ViewSource::TargetColor(t) => {
            check(t.inner.gpu, "target", &t.inner.label)?;
            match t.color_view() {
                Some(view) => BindingInput::View(ViewInput {
                    view,
                    format: Some(t.format()),
                    samples: 1,
                    owner: ViewOwner::Target(&t.inner),
                    what: "a target's color texture",
                }),
                None => BindingInput::Unusable("a depth-only target's color (it has none)"),
            }
        }
        ViewSource::TargetDepth(t) => {
            check(t.inner.gpu, "target", &t.inner.label)?;
            match (t.depth_view(), t.depth_texture()) {
                (Some(view), Some(tex)) => BindingInput::View(ViewInput {
                    view,
                    format: Some(tex.format()),
                    samples: tex.sample_count(),
                    owner: ViewOwner::Target(&t.inner),
                    what: "a target's depth texture",
                }),
                _ => BindingInput::Unusable("a target without depth"),
            }
        }
    })
}

impl<'a, T: Uniform> From<&'a T> for Bind<'a> {
    fn from(v: &'a T) -> Self {
        Bind::Typed(TypedRef::new(v))
    }
}

impl From<Value> for Bind<'_> {
    fn from(v: Value) -> Self {
        Bind::Value(v)
    }
}
impl<'a> From<&'a Value> for Bind<'a> {
    fn from(v: &'a Value) -> Self {
        Bind::ValueRef(v)
    }
}
impl<'a> From<&'a SharedUniforms> for Bind<'a> {
    fn from(v: &'a SharedUniforms) -> Self {
        Bind::Shared(v)
    }
}
impl<'a> From<&'a Buffer> for Bind<'a> {
    fn from(v: &'a Buffer) -> Self {
        Bind::Buffer(v)
    }
}
impl<'a> From<&'a wgpu::Buffer> for Bind<'a> {
    fn from(v: &'a wgpu::Buffer) -> Self {
        Bind::RawBuffer(v)
    }
}
impl<'a> From<wgpu::BufferBinding<'a>> for Bind<'a> {
    fn from(v: wgpu::BufferBinding<'a>) -> Self {
        Bind::RawBufferBinding(v)
    }
}
impl<'a> From<&'a Texture> for Bind<'a> {
    fn from(v: &'a Texture) -> Self {
        Bind::Texture(v)
    }
}
impl<'a> From<&'a wgpu::TextureView> for Bind<'a> {
    fn from(v: &'a wgpu::TextureView) -> Self {
        Bind::RawView(v)
    }
}
impl<'a> From<&'a Sampler> for Bind<'a> {
    fn from(v: &'a Sampler) -> Self {
        Bind::Sampler(v)
    }
}
impl<'a> From<&'a wgpu::Sampler> for Bind<'a> {
    fn from(v: &'a wgpu::Sampler) -> Self {
        Bind::RawSampler(v)
    }
}
/// A target binds its (single-sample) color texture; use [`Bind::TargetDepth`] for depth.
impl<'a> From<&'a Target> for Bind<'a> {
    fn from(v: &'a Target) -> Self {
        Bind::TargetColor(v)
    }
}
