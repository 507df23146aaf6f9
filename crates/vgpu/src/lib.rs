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
//!
//! ## Structure
//!
//! Two floors, arrows pointing down only:
//! - **handles** (`gpu`, `draw`, `binding`, `compute`, `effect`, `uniforms`, `buffer`, `texture`, `target`,
//!   `bundle`, `frame`, `shader`, `bind`): the public types; each method checks its arguments
//!   (handles of another `Gpu` are refused), lowers them, locks the state and delegates;
//! - **`state/`** (private): the state and its lock, operation records and their memo, binding
//!   assignment, recording, pipelines, timing; it holds records, never a handle;
//! - both use the plain modules `descriptors`, `error`, `readback`, `typed` (typed values) and
//!   `inspect` (a testing aid, hidden from the docs).
//!
//! ## Capture vocabulary
//!
//! - **owner**: a value's home in the capture engine (a `SharedUniforms` block, or a value set on
//!   one binding of a draw); its **revision** moves when a set changes its bytes.
//! - **home slot**: the owner's persistent (page, offset); the first revision bound in a frame
//!   goes there. **Retained slots**: further slots an owner keeps across frames for values that
//!   repeat (a camera per pass), matched by content.
//! - **stamp**: a per-owner number that moves whenever the owner's slot could move; a **memo**
//!   (a draw's fast record) binds the slot it remembered while the stamp holds.

#![cfg_attr(not(test), warn(clippy::unwrap_used))]
// Handles share their records through `Arc` so they are `Send + Sync` natively; on wasm32 wgpu's
// objects are neither, so neither are the records, and clippy's lint there is noise.
#![cfg_attr(target_arch = "wasm32", allow(clippy::arc_with_non_send_sync))]

pub mod advisor;
mod bind;
mod binding;
mod buffer;
mod bundle;
mod compute;
mod descriptors;
mod draw;
mod effect;
pub mod error;
mod error_codes;
mod frame;
mod gpu;
#[doc(hidden)]
pub mod inspect;
mod readback;
mod report;
mod shader;
mod state;
mod surface;
mod target;
mod texture;
pub mod typed;
mod uniforms;

pub use advisor::{Advice, Advisor, AdvisorReport};
pub use bind::Bind;
pub use binding::{Binding, SetBatch, TypedBinding};
pub use buffer::{Buffer, BufferDesc};
pub use bundle::{Bundle, BundleRecorder};
pub use compute::{Compute, ComputeDesc};
pub use descriptors::{DepthState, DrawRange, SamplerDesc, TargetSignature};
pub use draw::{Draw, DrawDesc, IndexBuffer, VertexBuffer};
pub use effect::{Effect, FULLSCREEN_VERTEX};
pub use error::{
    BindingError, BufferError, Error, ForeignGpuError, FrameError, Result, TargetError,
};
pub use error_codes::{CodeInfo, error_codes, explain};
pub use frame::{ComputePass, Frame, Pass, PassDesc, PassTarget};
pub use gpu::{Gpu, GpuOptions};
pub use report::{Bound, FrameReport, SurfaceSkip, Verdict};
pub use shader::Shader;
pub use surface::{Surface, SurfaceDesc};
pub use target::{RgbaImage, Target, TargetDesc};
pub use texture::{Sampler, Texture, TextureDesc};
pub use typed::{Plainness, TypedRef, Uniform};
pub use uniforms::{SharedUniforms, ValueArg};
pub use vgpu_core::{
    BackendChoice, DeviceError, ErrorCode, GpuContext, SharedDisplay, StatsSnapshot,
    UncapturedError,
};
pub use vgpu_core::{Label, PackContext, SetError, ShaderError, TypeLayout, Value, value};
/// `#[derive(vgpu::Uniform)]`: a struct with named fields laid out as the WGSL struct of the same
/// members; see [`typed`].
pub use vgpu_derive::Uniform;
pub use wgpu;

pub mod guides;
