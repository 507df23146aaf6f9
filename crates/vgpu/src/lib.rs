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
//! Two floors, arrows pointing down only (inside a floor too: a file imports only files below
//! it, no circles):
//! - **handles**, the public types, each file with what makes it and what it does: `gpu` (and
//!   `gpu_options`), `shader`, `draw` and `compute` (the handle they share: `op_handle`),
//!   `binding`, `typed_binding` and `set_batch` (sets through a binding resolved once),
//!   `binding_arg` (what a binding is given), `uniforms`, `buffer`, `texture`, `sampler`,
//!   `target` (`target_desc`, `rgba_image`), `surface`, `bundle`, `frame` (`pass`,
//!   `compute_pass`, `pass_desc`), `effect`, `mesh` (a `geometry` uploaded; its draws match
//!   attributes to vertex inputs by name), `shader_watch` (hot reload; `shader_reload` is its
//!   report); `low_level` (power-user items) and `inspect` (a testing aid, hidden from the
//!   docs). Each method checks its arguments (handles of another
//!   `Gpu` are refused), lowers them, locks the state and delegates;
//! - **`state/`** (private): the state and its lock, operation records and their memo, binding
//!   assignment, recording, pipelines, timing; it holds records, never a handle. Its files are
//!   `impl State` blocks by job, which import `State` from `state/mod.rs`;
//! - both use the plain modules `descriptors`, `error` (and each area's error file), `readback`,
//!   `typed` (typed values), `typed_ref` (a typed value with its Rust type erased), `geometry`
//!   (primitives on the CPU), `shader_reload`, `advisor` and `report`.
//!
//! ## Capture vocabulary
//!
//! - **owner**: a value's home in the capture engine (a `SharedUniforms` block, or a value set on
//!   one binding of a draw), with a revision (below).
//! - **home slot**: the owner's persistent (page, offset); the first revision bound in a frame
//!   goes there. **Retained slots**: further slots an owner keeps across frames for values that
//!   repeat (a camera per pass), matched by content.
//! - **memo**: what recording remembers so that a steady draw looks nothing up (a draw's fast
//!   record, its group memos); every layer, and what moves it, is tabled in `state/memo.rs`.
//!
//! The counters (name — what moves it — who reads it); the capture engine's are defined in
//! `vgpu_uniforms`' docs and the bind-group cache's in `vgpu_bind`'s, with the same names:
//! - **revision** (per owner) — a set that changes the owner's bytes — the capture engine, to
//!   find a slot that holds those bytes already.
//! - **stamp** (per owner, at its **stamp slot**, an index fixed for the owner's life) — anything
//!   after which the slot of an earlier resolve could move (a set that cannot go to the home
//!   slot, pin, unpin, removal, a submission that bound the owner elsewhere) — fast records,
//!   which bind the remembered offset while it holds.
//! - **stamp clock** — every stamp move, and every destroy of a bound resource
//!   (`UniformEngine::invalidate_memos`) — `checked_at`, `resolved_at`, `block_bound_at`.
//! - **value clock** — the same, but not the stamp moves of shared owners (`SharedUniforms`
//!   blocks) — `value_checked_at`.
//! - **invalidation epoch** (the bind-group cache's) — a resource or layout destroyed, the cache
//!   cleared (never a capacity eviction) — group memos, valid while it holds.
//! - **`bindings_rev`** (per operation) — a binding given new content — bundles, which refuse to
//!   replay a draw rebound since it was recorded (`VGPU-BUNDLE-STALE`).
//! - **`checked_at`** (per fast record) — a read of the stamp clock, when every stamp of the
//!   record was found current — the fast path's first compare (nothing moved: bind the
//!   memos).
//! - **`value_checked_at`** (per fast record) — a read of the value clock, when the groups
//!   without a shared block were found current — the fast path's second compare (only blocks
//!   moved).
//! - **`resolved_at`**, **`block_bound_at`** (per pass) — a read of the stamp clock, when a fast
//!   group's owner was resolved or a shared block's group bound at its current slot — the pass's
//!   later draws of the same value, which take that slot without resolving.

#![cfg_attr(not(test), warn(clippy::unwrap_used))]
// Handles share their records through `Arc` so they are `Send + Sync` natively; on wasm32 wgpu's
// objects are neither, so neither are the records, and clippy's lint there is noise.
#![cfg_attr(
    target_arch = "wasm32",
    allow(
        clippy::arc_with_non_send_sync,
        reason = "wgpu's objects are not Send on wasm32"
    )
)]

mod advisor;
#[cfg(feature = "app")]
pub mod app;
mod app_error;
mod auto_bundle;
mod binding;
mod binding_arg;
mod buffer;
mod bundle;
#[cfg(feature = "glam")]
pub mod camera;
mod claim;
mod compute;
mod compute_pass;
mod descriptors;
mod draw;
mod effect;
mod error;
mod error_codes;
mod finish_workers;
mod frame;
mod frame_encoders;
pub mod geometry;
mod geometry_error;
mod gpu;
mod gpu_options;
mod image_error;
#[cfg(feature = "image")]
mod image_file;
mod indirect_args;
mod indirect_error;
#[doc(hidden)]
pub mod inspect;
pub mod low_level;
mod mesh;
mod mips;
mod occlusion;
mod one_shot;
mod op_handle;
mod pass;
mod pass_desc;
mod pass_indirect;
mod pass_occlusion;
mod ping_pong;
mod pipeline_error;
mod prepare;
mod query_error;
mod readback;
mod reload_error;
mod report;
mod rgba_image;
mod sampler;
mod set_batch;
mod shader;
mod shader_reload;
#[cfg(all(feature = "hot-reload", not(target_arch = "wasm32")))]
mod shader_watch;
mod state;
mod surface;
mod target;
mod target_desc;
mod target_read;
mod target_signature;
mod texture;
mod texture_data;
mod texture_error;
mod texture_read;
mod texture_view;
mod texture_write;
#[cfg(not(target_arch = "wasm32"))]
mod thread_safety;
mod typed;
mod typed_binding;
mod typed_ref;
mod uniforms;
pub mod wgsl;

pub use advisor::{Advice, Advisor, AdvisorReport};
pub use app_error::AppError;
pub use auto_bundle::{DirectPass, DirectPasses, DirectReason};
pub use binding::Binding;
pub use binding_arg::BindingArg;
pub use buffer::{Buffer, BufferDesc};
pub use bundle::{Bundle, BundleRecorder};
pub use compute::{Compute, ComputeDesc};
pub use compute_pass::ComputePass;
pub use descriptors::{ColorTarget, DepthState, DrawRange, SamplerDesc};
pub use draw::{Draw, DrawDesc, IndexBuffer, VertexBuffer};
pub use effect::{Effect, EffectOptions, FULLSCREEN_VERTEX};
pub use error::{
    BindingError, BufferError, DeviceError, Error, ErrorCode, ForeignGpuError, FrameError, Result,
    TargetError,
};
pub use error_codes::{CodeInfo, error_codes, explain};
pub use frame::Frame;
pub use geometry::{AttributeData, Geometry};
pub use geometry_error::GeometryError;
pub use gpu::Gpu;
pub use gpu_options::GpuOptions;
pub use image_error::ImageError;
#[cfg(feature = "image")]
pub use image_file::{HdrFormat, ImageOptions, ImageSource};
pub use indirect_error::IndirectError;
pub use mesh::Mesh;
pub use occlusion::{OcclusionQueries, OcclusionResults};
pub use pass::Pass;
pub use pass_desc::{PassDesc, PassTarget};
pub use ping_pong::{PingPong, PingPongSide};
pub use pipeline_error::PipelineError;
pub use query_error::QueryError;
pub use reload_error::ReloadError;
pub use report::{Bound, FrameReport, SurfaceSkip, Verdict};
pub use rgba_image::RgbaImage;
pub use sampler::Sampler;
pub use set_batch::SetBatch;
pub use shader::Shader;
pub use shader_reload::{BindingFate, ReloadedBinding, ShaderReload};
#[cfg(all(feature = "hot-reload", not(target_arch = "wasm32")))]
pub use shader_watch::{ReloadEvent, WatchedShader};
pub use surface::{Surface, SurfaceDesc};
pub use target::Target;
pub use target_desc::TargetDesc;
pub use target_signature::{ColorFormats, MAX_COLOR_ATTACHMENTS, TargetSignature};
pub use texture::{Texture, TextureDesc};
pub use texture_data::{Texel, TextureData, TextureRegion};
pub use texture_error::TextureError;
pub use texture_view::{TextureView, ViewDesc};
pub use typed::{MemoryIsWgsl, Uniform};
pub use typed_binding::TypedBinding;
pub use typed_ref::TypedRef;
pub use uniforms::{SharedUniforms, ValueArg};
pub use vgpu_core::TypedMismatch;
pub use vgpu_core::{BackendChoice, Label, SetError, ShaderError, StatsSnapshot, Value, value};
pub use vgpu_core::{MAX_MODULE_BYTES, MAX_MODULES, ModuleError, ModuleRoot, ShaderModules};
pub use vgpu_core::{OverrideInfo, OverrideType};
/// `#[derive(vgpu::Uniform)]`: a struct with named fields laid out as the WGSL struct of the same
/// members; see the trait [`Uniform`](trait@Uniform).
pub use vgpu_derive::Uniform;

/// What `#[derive(vgpu::Uniform)]` expands to names these (`::vgpu::__derive::RustShape`, …):
/// not an API.
#[doc(hidden)]
pub mod __derive {
    pub use crate::__plain_struct as plain_struct;
    pub use vgpu_core::{RustField, RustShape, const_max, round_up};
}
pub use wgpu;
