//! # vgpu-core
//!
//! Everything vgpu knows without frames or caches: WGSL reflection with naga, host-shareable
//! layouts, compiled write plans and strict packing of [`Value`]s, bind-group-layout
//! descriptions, the device choke point ([`GpuContext`]) that feeds the [`Stats`] counters, and the
//! error types with their stable `VGPU-…` codes.
//!
//! The modules are private: every public item is re-exported here, at the crate root, and has
//! that one path (`vgpu_core::Shader`, `vgpu_core::WritePlan`, …).

// The context is shared through `Arc` so it is `Send + Sync` natively; on wasm32 wgpu's objects
// are neither, so neither is the context, and clippy's lint there is noise.
#![cfg_attr(target_arch = "wasm32", allow(clippy::arc_with_non_send_sync))]

mod adapter;
mod backend;
mod bind_layout;
mod device;
mod error;
mod error_codes;
mod label;
mod layout;
mod modules;
mod pipeline_layout;
mod plan;
mod reflect;
mod set_error;
mod shader;
mod shader_error;
mod stats;
mod typed_shape;
mod value;
mod visits;
mod wait;

pub use adapter::{ContextOptions, SharedDisplay, request_context, request_context_for_window};
pub use backend::{BackendChoice, backend_from_env, switch_from_env};
pub use device::{FrameScope, GpuContext, UncapturedError};
pub use error::{AdapterAttempt, DeviceError, ErrorCode};
pub use error_codes::{CodeInfo, ERROR_CODES};
pub use label::Label;
pub use stats::{Counter, Stats, StatsSnapshot};

pub use bind_layout::{BindGroupLayoutDesc, LayoutEntryDesc};
pub use layout::{
    LayoutKind, MAX_GL_HAZARDS, MemberLayout, RuntimeArray, ScalarType, ShapeDifference, TypeLayout,
};
pub use pipeline_layout::PipelineLayoutDesc;
pub use plan::WritePlan;
pub use plan::{f16_bits_to_f32, f32_to_f16_bits};
pub use reflect::{
    BindingInfo, BindingKind, EntryPointInfo, FragmentOutput, OverrideInfo, OverrideType, Stage,
    VertexInput,
};
pub use set_error::{PackContext, SetError, TypedLayoutError, TypedMismatch};
pub use shader::{MemberRef, Shader, ShaderOptions, naga_capabilities};
pub use shader_error::ShaderError;
pub use typed_shape::{RustField, RustShape};
pub use value::{FieldName, StructBuilder, Value};
pub use vgpu_modules::{MAX_MODULE_BYTES, MAX_MODULES, ModuleError, ModuleRoot, ShaderModules};
pub use wait::block_on;

// Plumbing for the other crates of the workspace, not for users.
// `vgpu`'s texture checks name the WGSL type a texture binds as.
#[doc(hidden)]
pub use reflect::{wgsl_texel_format, wgsl_texture_type};
// `vgpu`'s binding lookup suggests a near name.
#[doc(hidden)]
pub use set_error::did_you_mean;
// The layout constants `#[derive(vgpu::Uniform)]` expands to (through `vgpu::typed`).
#[doc(hidden)]
pub use typed_shape::{const_max, round_up};
// The complexity tests count the nodes the layout walks visit (no wall clock).
#[doc(hidden)]
pub use visits::visited_type_nodes;
