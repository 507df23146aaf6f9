//! Compile-time proof of the thread-safety the handles promise: on native targets every public
//! handle and description is `Send + Sync` (handles share their records through `Arc` and lock
//! the state), so an app can build draws on one thread and record frames on another. On wasm32
//! wgpu's objects are neither, and neither are vgpu's.

use crate::{
    Advisor, AdvisorReport, Binding, Buffer, BufferDesc, Bundle, Compute, ComputeDesc, Draw,
    DrawDesc, Effect, Error, FrameReport, Gpu, GpuOptions, PassDesc, RgbaImage, Sampler,
    SamplerDesc, Shader, SharedUniforms, Surface, Target, TargetDesc, Texture, TextureDesc,
    TypedBinding, Value, low_level::GpuContext,
};

/// Compiles only for a `Send + Sync` type.
const fn send_sync<T: Send + Sync + ?Sized>() {}

const _: () = {
    send_sync::<Gpu>();
    send_sync::<GpuOptions>();
    send_sync::<GpuContext>();
    send_sync::<Shader>();
    send_sync::<Draw>();
    send_sync::<DrawDesc>();
    send_sync::<Compute>();
    send_sync::<ComputeDesc>();
    send_sync::<Effect>();
    send_sync::<Binding>();
    send_sync::<TypedBinding<[f32; 4]>>();
    send_sync::<SharedUniforms>();
    send_sync::<Buffer>();
    send_sync::<BufferDesc>();
    send_sync::<Texture>();
    send_sync::<TextureDesc>();
    send_sync::<Sampler>();
    send_sync::<SamplerDesc>();
    send_sync::<Target>();
    send_sync::<TargetDesc>();
    send_sync::<Surface>();
    send_sync::<Bundle>();
    send_sync::<PassDesc<'static>>();
    send_sync::<FrameReport>();
    send_sync::<Advisor>();
    send_sync::<AdvisorReport>();
    send_sync::<RgbaImage>();
    send_sync::<Value>();
    send_sync::<Error>();
};
