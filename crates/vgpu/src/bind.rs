//! [`Bind`]: everything a binding can be set to.

use vgpu_core::value::Value;

use crate::buffer::Buffer;
use crate::target::Target;
use crate::texture::{Sampler, Texture};
use crate::uniforms::SharedUniforms;

/// What [`Draw::set`](crate::Draw::set) accepts; built through `From` conversions, so you pass
/// the value itself: `draw.set("object", value! { … })`, `draw.set("frame", &camera)`,
/// `draw.set("data", &buffer)`, `draw.set("tex", &texture)`.
#[derive(Debug)]
#[non_exhaustive]
pub enum Bind<'a> {
    /// A library-owned struct value (owned).
    Value(Value),
    /// A library-owned struct value (borrowed; packed without cloning).
    ValueRef(&'a Value),
    /// The bytes of a typed `bytemuck::Pod` value (see `Draw::set_pod`).
    Pod(&'a [u8]),
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

impl Bind<'_> {
    pub(crate) fn describe(&self) -> &'static str {
        match self {
            Bind::Value(_) | Bind::ValueRef(_) => "a value",
            Bind::Pod(_) => "a typed (Pod) value",
            Bind::Shared(_) => "a uniforms block",
            Bind::Buffer(_) | Bind::BufferRange(..) => "a vgpu buffer",
            Bind::RawBuffer(_) | Bind::RawBufferBinding(_) => "a wgpu buffer",
            Bind::Texture(_) => "a texture",
            Bind::TargetColor(_) => "a target's color texture",
            Bind::TargetDepth(_) => "a target's depth texture",
            Bind::RawView(_) => "a wgpu texture view",
            Bind::Sampler(_) | Bind::RawSampler(_) => "a sampler",
        }
    }

    pub(crate) fn is_library_owned(&self) -> bool {
        matches!(
            self,
            Bind::Value(_) | Bind::ValueRef(_) | Bind::Pod(_) | Bind::Shared(_)
        )
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
