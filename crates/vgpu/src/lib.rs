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
