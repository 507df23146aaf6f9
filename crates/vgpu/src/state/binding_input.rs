//! What a binding is given, as the state sees it: [`BindingInput`], lowered from the public
//! `BindingArg` by the handle floor (records and raw wgpu objects, never a handle). One type from
//! the entry points of `assign/` to the kind that assigns it.

use std::sync::Arc;

use vgpu_core::Value;

use crate::state::resources::{
    BlockRecord, BufferRecord, SamplerRecord, TargetRecord, TextureRecord,
};
use crate::typed_ref::TypedRef;

/// What a binding is given, as the state sees it (lowered from the public `BindingArg`).
#[derive(Clone, Debug)]
pub(crate) enum BindingInput<'a> {
    /// A library-owned struct value.
    Value(&'a Value),
    /// Raw bytes in the binding's layout (size checked only).
    Bytes(&'a [u8]),
    /// A typed value (`vgpu::Uniform`), checked by shape once per binding and Rust type.
    Typed(TypedRef<'a>),
    /// A shared uniforms block.
    Block(&'a Arc<BlockRecord>),
    /// A user buffer (a vgpu buffer, or a raw one), bound by identity.
    Buffer(BufferInput<'a>),
    /// A texture view (of a vgpu texture, a view of one, or raw).
    View(ViewInput<'a>),
    /// A part of a target (a color attachment or its depth), whose view is read when it is
    /// assigned: the target may be resized, and the binding then follows it.
    Target(&'a Arc<TargetRecord>, super::TargetPart),
    /// A sampler (vgpu or raw).
    Sampler(SamplerInput<'a>),
}

/// A buffer range to bind.
#[derive(Clone, Debug)]
pub(crate) struct BufferInput<'a> {
    pub(crate) raw: &'a wgpu::Buffer,
    pub(crate) offset: u64,
    pub(crate) size: Option<wgpu::BufferSize>,
    /// The vgpu buffer, kept alive while bound (`None` for a raw buffer).
    pub(crate) record: Option<&'a Arc<BufferRecord>>,
    /// The buffer's label for the registry.
    pub(crate) label: &'a str,
}

/// The record a view comes from, kept alive while bound.
#[derive(Clone, Debug)]
pub(crate) enum ViewOwner<'a> {
    Raw,
    Texture(&'a Arc<TextureRecord>),
    /// A view made by `Texture::view_with` (its shape: dimension, mips, layers).
    View(&'a Arc<TextureRecord>, &'a crate::state::ViewShape),
    Target(&'a Arc<TargetRecord>, super::TargetPart),
}

/// A texture view to bind.
#[derive(Clone, Debug)]
pub(crate) struct ViewInput<'a> {
    pub(crate) view: &'a wgpu::TextureView,
    pub(crate) format: Option<wgpu::TextureFormat>,
    pub(crate) samples: u32,
    pub(crate) owner: ViewOwner<'a>,
    /// What it is, for errors ("a texture", "a target's depth texture").
    pub(crate) what: &'static str,
}

/// A sampler to bind.
#[derive(Clone, Debug)]
pub(crate) struct SamplerInput<'a> {
    pub(crate) raw: &'a wgpu::Sampler,
    pub(crate) record: Option<&'a Arc<SamplerRecord>>,
}

impl BindingInput<'_> {
    /// What the input is, for errors.
    pub(crate) fn describe(&self) -> &'static str {
        match self {
            BindingInput::Value(_) => "a value",
            BindingInput::Bytes(_) => "raw bytes",
            BindingInput::Typed(_) => "a typed value",
            BindingInput::Block(_) => "a uniforms block",
            BindingInput::Buffer(b) if b.record.is_some() => "a vgpu buffer",
            BindingInput::Buffer(_) => "a wgpu buffer",
            BindingInput::View(v) => v.what,
            BindingInput::Target(_, super::TargetPart::Depth) => "a target's depth texture",
            BindingInput::Target(..) => "a target's color texture",
            BindingInput::Sampler(_) => "a sampler",
        }
    }

    /// Values and blocks: the library owns the bytes.
    pub(crate) fn is_library_owned(&self) -> bool {
        matches!(
            self,
            BindingInput::Value(_)
                | BindingInput::Bytes(_)
                | BindingInput::Typed(_)
                | BindingInput::Block(_)
        )
    }
}
