//! Records of the objects handles wrap: buffers, textures, targets, samplers, shaders and shared
//! uniforms blocks. A handle is an `Arc` of its record; the state keeps a record alive while a
//! binding uses it ([`HeldResource`]). Each record carries its `Gpu`'s id.
//!
//! Two records reach back into the state when they die: a buffer (`buffer.rs`: its registry keys
//! are destroyed, evicting exactly the bind groups that used it) and a uniforms block (its owner
//! is removed). The state never drops them while borrowed (see `lock.rs`).

mod buffer;
mod texture_kind;

use std::sync::atomic::Ordering;
use std::sync::{Arc, OnceLock, Weak};

use vgpu_core::GpuContext;
use vgpu_uniforms::OwnerKey;

use super::lock::SharedState;
use crate::descriptors::{GpuId, SamplerDesc, TargetSignature};
use crate::error::Result;

pub(crate) use buffer::BufferRecord;
pub(crate) use texture_kind::{TextureKind, ViewShape};

/// A sampled (or storage) 2D texture and its default view.
#[derive(Debug)]
pub(crate) struct TextureRecord {
    pub(crate) texture: wgpu::Texture,
    pub(crate) view: wgpu::TextureView,
    pub(crate) label: String,
    pub(crate) gpu: GpuId,
    /// What the default view is (`view`'s dimension) and the formats views may take.
    pub(crate) kind: TextureKind,
}

/// One color attachment of a target: its single-sample texture (read back and sampled; the
/// resolve target under MSAA; `None` for an app's multisampled view) and, when multisampled, the
/// view passes render into.
#[derive(Debug)]
pub(crate) struct TargetColor {
    pub(crate) resolved: Option<(wgpu::Texture, wgpu::TextureView)>,
    pub(crate) msaa_view: Option<wgpu::TextureView>,
}

/// A target's textures at its current size: replaced whole by `Target::resize` (the record
/// keeps them behind a lock, so every clone of the handle sees the new ones).
#[derive(Debug)]
pub(crate) struct TargetTextures {
    pub(crate) size: (u32, u32),
    /// The color attachments, attachment 0 first.
    pub(crate) colors: Vec<TargetColor>,
    pub(crate) depth: Option<(wgpu::Texture, wgpu::TextureView)>,
    /// A view of the depth aspect alone (what a `texture_depth_2d` binding takes: a view of a
    /// depth-stencil format with both aspects cannot be bound); the attachment view's clone for
    /// formats without stencil.
    pub(crate) depth_sampled: Option<wgpu::TextureView>,
    /// 0 at creation, one more per resize.
    pub(crate) generation: u64,
}

/// An offscreen render target: its textures (resizable), formats and identity.
#[derive(Debug)]
pub(crate) struct TargetRecord {
    /// Never reused: the followers registry (`state/followers.rs`) names targets by it.
    pub(crate) id: u64,
    pub(crate) label: String,
    pub(crate) textures: parking_lot::RwLock<TargetTextures>,
    /// What the textures are recreated from on resize; `None` for a target over the app's
    /// views (`Gpu::target_for_view`), which cannot be resized.
    pub(crate) desc: Option<crate::target_desc::TargetDesc>,
    /// Passes recording into the target now (a resize meanwhile is refused).
    pub(crate) passes: std::sync::atomic::AtomicU32,
    pub(crate) signature: TargetSignature,
    pub(crate) ctx: Arc<GpuContext>,
    pub(crate) gpu: GpuId,
    /// The state, for re-pointing the bindings that follow the target on resize.
    pub(crate) shared: Weak<SharedState>,
}

impl TargetRecord {
    /// A fresh target id (never 0, never reused).
    pub(crate) fn next_id() -> u64 {
        static NEXT_TARGET_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
        NEXT_TARGET_ID.fetch_add(1, Ordering::Relaxed)
    }
}

/// A sampler, cached per descriptor.
#[derive(Debug)]
pub(crate) struct SamplerRecord {
    pub(crate) sampler: wgpu::Sampler,
    pub(crate) desc: SamplerDesc,
    pub(crate) gpu: GpuId,
}

/// WGSL parsed, validated and reflected, with its wgpu module (created once, on first use).
pub(crate) struct ShaderRecord {
    /// Never reused: programs are cached under it.
    pub(crate) id: u64,
    pub(crate) core: vgpu_core::Shader,
    pub(crate) gpu: GpuId,
    module: OnceLock<wgpu::ShaderModule>,
}

impl std::fmt::Debug for ShaderRecord {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ShaderRecord")
            .field("label", &self.core.label())
            .finish_non_exhaustive()
    }
}

impl ShaderRecord {
    pub(crate) fn new(core: vgpu_core::Shader, gpu: GpuId) -> ShaderRecord {
        static NEXT_SHADER_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
        ShaderRecord {
            id: NEXT_SHADER_ID.fetch_add(1, Ordering::Relaxed),
            core,
            gpu,
            module: OnceLock::new(),
        }
    }

    /// The label given at creation.
    pub(crate) fn label(&self) -> &str {
        self.core.label()
    }

    /// The wgpu module, created on first use.
    pub(crate) fn module(&self, ctx: &GpuContext) -> Result<&wgpu::ShaderModule> {
        if let Some(m) = self.module.get() {
            return Ok(m);
        }
        let m = ctx.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some(self.label()),
            source: wgpu::ShaderSource::Wgsl(self.core.source().into()),
        })?;
        Ok(self.module.get_or_init(|| m))
    }
}

/// A shared uniforms block: its owner in the capture engine, removed when the last handle and
/// the last binding holding it are gone.
#[derive(Debug)]
pub(crate) struct BlockRecord {
    pub(crate) owner: OwnerKey,
    pub(crate) label: String,
    pub(crate) gpu: GpuId,
    pub(crate) shared: Weak<SharedState>,
}

impl Drop for BlockRecord {
    fn drop(&mut self) {
        if let Some(shared) = self.shared.upgrade() {
            shared.with(|st| {
                st.blocks.remove(self.owner);
                let _ = st.engine.remove_owner(self.owner);
            });
        }
    }
}

/// A vgpu-owned resource kept alive while a binding uses it (raw wgpu resources are kept by
/// the registry). Only `Buffer` is read (to name a destroyed buffer); targets are read by the followers registry; the others are held.
#[derive(Debug)]
pub(crate) enum HeldResource {
    None,
    Buffer(Arc<BufferRecord>),
    #[expect(
        dead_code,
        reason = "held, never read: keeps the texture alive while bound"
    )]
    Texture(Arc<TextureRecord>),
    /// Read by the followers registry (`followers.rs`): which target a binding follows.
    Target(Arc<TargetRecord>),
    #[expect(
        dead_code,
        reason = "held, never read: keeps the sampler alive while bound"
    )]
    Sampler(Arc<SamplerRecord>),
}
