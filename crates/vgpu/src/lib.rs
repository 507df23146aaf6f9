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

pub mod error;
mod gpu;
mod readback;
mod target;

pub use error::{Error, Result, TargetError};
pub use gpu::{Gpu, GpuOptions};
pub use target::{RgbaImage, Target, TargetDesc, TargetSignature};
pub use vgpu_core::{BackendChoice, DeviceError, ErrorCode, StatsSnapshot, UncapturedError};
pub use wgpu;
