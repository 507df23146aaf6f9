//! Power-user items: for integrating vgpu with raw wgpu and with the crates under it, and for
//! looking inside. Designed less carefully than the rest of the API (they follow the internals
//! they expose, and change with them); a normal application needs none of them.
//!
//! - [`GpuContext`]: the device choke point under a [`Gpu`](crate::Gpu) (raw device and queue,
//!   limits, counters): [`Gpu::context`](crate::Gpu::context),
//!   [`Gpu::from_context`](crate::Gpu::from_context).
//! - [`SharedDisplay`]: the display windows live on, as [`GpuOptions`](crate::GpuOptions) holds
//!   it ([`GpuOptions::with_display`](crate::GpuOptions::with_display) makes one).
//! - [`UncapturedError`]: a wgpu error raised outside any vgpu call
//!   ([`Gpu::take_uncaptured_errors`](crate::Gpu::take_uncaptured_errors)).
//! - [`EngineGauges`]: the capture engine's owners, pages and slots
//!   ([`Gpu::uniform_gauges`](crate::Gpu::uniform_gauges)).
//! - [`PackContext`] and [`TypeLayout`]: the packer's error context and a reflected WGSL type's
//!   layout, for packing values by hand with the reflection of a
//!   [`Shader`](crate::Shader::reflection).

pub use vgpu_core::{GpuContext, PackContext, SharedDisplay, TypeLayout, UncapturedError};
pub use vgpu_uniforms::EngineGauges;
