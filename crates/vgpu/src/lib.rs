//! # vgpu
//!
//! Declarative draws and uniforms on wgpu 30 that cost what hand-written wgpu costs. Name WGSL
//! bindings, set plain values; vgpu reflects the WGSL with naga, packs strictly, tracks a revision
//! per value owner, captures a value into a per-frame slot only when it changes within one
//! submission, and caches bind groups under generational keys. A static frame creates no bind
//! groups and uploads no bytes.
//!
//! ```
//! let gpu = vgpu::Gpu::noop();
//! let target = gpu.target(8, 8)?;
//! assert_eq!(target.size(), (8, 8));
//! # Ok::<(), vgpu::Error>(())
//! ```

#![cfg_attr(not(test), warn(clippy::unwrap_used))]

mod bind;
mod buffer;
mod bundle;
mod compute;
mod draw;
mod effect;
pub mod error;
mod frame;
mod gpu;
mod pipeline;
mod program;
mod readback;
mod record;
mod set;
mod shader;
mod target;
mod texture;
mod timing;
mod uniforms;

pub use bind::Bind;
pub use buffer::{Buffer, BufferDesc, BufferError};
pub use bundle::{Bundle, BundleRecorder};
pub use compute::{Compute, ComputeDesc};
pub use draw::{DepthState, Draw, DrawDesc, IndexBuffer, VertexBuffer};
pub use effect::{Effect, FULLSCREEN_VERTEX};
pub use error::{BindingError, Error, FrameError, Result, TargetError};
pub use frame::{ComputePass, Frame, FrameReport, Pass, PassDesc};
pub use gpu::{Gpu, GpuOptions};
pub use record::DrawRange;
pub use shader::Shader;
pub use target::{RgbaImage, Target, TargetDesc, TargetSignature};
pub use texture::{Sampler, SamplerDesc, Texture, TextureDesc};
pub use uniforms::{SharedUniforms, ValueArg};
pub use vgpu_core::{BackendChoice, DeviceError, ErrorCode, StatsSnapshot, UncapturedError};
pub use vgpu_core::{PackContext, SetError, ShaderError, TypeLayout, Value, value};
pub use wgpu;

/// The guides in `docs/`, included here so `cargo test -p vgpu --doc` compiles and runs every
/// code block in them (doc tests only; nothing here is compiled into the library).
#[cfg(doctest)]
#[doc = include_str!("../../../docs/getting-started.md")]
pub struct GettingStartedGuide;

/// The per-pass camera recipe (`docs/per-pass-camera.md`), run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../../../docs/per-pass-camera.md")]
pub struct PerPassCameraGuide;

/// The many-objects guide (`docs/many-objects.md`), run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../../../docs/many-objects.md")]
pub struct ManyObjectsGuide;

/// The render-bundles guide (`docs/render-bundles.md`), run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../../../docs/render-bundles.md")]
pub struct RenderBundlesGuide;

/// The measuring guide (`docs/measuring.md`), run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../../../docs/measuring.md")]
pub struct MeasuringGuide;
