//! # vgpu-core
//!
//! Everything vgpu knows without frames or caches: WGSL reflection with naga, host-shareable
//! layouts, compiled write plans and strict packing of [`Value`](value::Value)s, bind-group-layout
//! descriptions, the device choke point ([`GpuContext`]) that feeds the [`Stats`] counters, and the
//! error types with their stable `VGPU-…` codes.

pub mod adapter;
pub mod device;
pub mod error;
pub mod stats;

pub use adapter::{ContextOptions, backend_from_env, request_context};
pub use device::{BackendChoice, GpuContext, UncapturedError};
pub use error::{AdapterAttempt, DeviceError, ErrorCode};
pub use stats::{Counter, Stats, StatsSnapshot};
