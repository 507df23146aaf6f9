//! # vgpu-core
//!
//! Everything vgpu knows without frames or caches: WGSL reflection with naga, host-shareable
//! layouts, compiled write plans and strict packing of [`Value`]s, bind-group-layout
//! descriptions, the device choke point ([`GpuContext`]) that feeds the [`Stats`] counters, and the
//! error types with their stable `VGPU-…` codes.

// The context is shared through `Arc` so it is `Send + Sync` natively; on wasm32 wgpu's objects
// are neither, so neither is the context, and clippy's lint there is noise.
#![cfg_attr(target_arch = "wasm32", allow(clippy::arc_with_non_send_sync))]

pub mod adapter;
pub mod bind_layout;
pub mod device;
pub mod error;
pub mod error_codes;
pub mod label;
pub mod layout;
pub mod plan;
pub mod reflect;
pub mod set_error;
pub mod shader;
pub mod shader_error;
pub mod stats;
pub mod typed_shape;
pub mod value;
pub mod wait;

pub use adapter::{
    ContextOptions, SharedDisplay, backend_from_env, request_context, request_context_for_window,
};
pub use device::{BackendChoice, FrameScope, GpuContext, UncapturedError};
pub use error::{AdapterAttempt, DeviceError, ErrorCode};
pub use error_codes::{CodeInfo, ERROR_CODES};
pub use label::Label;
pub use stats::{Counter, Stats, StatsSnapshot};

pub use bind_layout::{BindGroupLayoutDesc, LayoutEntryDesc, PipelineLayoutDesc};
pub use layout::{
    LayoutKind, MAX_GL_HAZARDS, MemberLayout, RuntimeArray, ScalarType, ShapeDifference, TypeLayout,
};
pub use plan::WritePlan;
pub use reflect::{BindingInfo, BindingKind, EntryPointInfo, FragmentOutput, Stage, VertexInput};
pub use set_error::{PackContext, SetError, TypedLayoutError, TypedMismatch};
pub use shader::{MemberRef, Shader, ShaderOptions, naga_capabilities};
pub use shader_error::ShaderError;
pub use typed_shape::{RustField, RustShape};
pub use value::{FieldName, StructBuilder, Value};
pub use wait::block_on;
