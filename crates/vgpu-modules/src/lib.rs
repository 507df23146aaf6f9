//! # vgpu-modules
//!
//! WGSL shaders composed from modules: [`ShaderModules`] resolves WESL `import` and `@if` with
//! the `wesl` crate (the WESL reference compiler) over a folder or modules in memory, plus named
//! packages; [`ShaderModules::compose`] gives one WGSL source, and a failure is a
//! [`ModuleError`] naming the module, line and column, never the composed text. [`wgsl`] is
//! vgpu's WGSL standard library, and [`build`] composes and validates shaders from a build
//! script, so that a wrong import fails `cargo build`.
//!
//! vgpu's `Gpu::shader_from` is the usual way in; this crate alone serves build scripts.

mod compose;
mod error;
mod locate;
mod modules;
mod resolver;

pub mod build;
pub mod wgsl;

pub use error::ModuleError;
pub use locate::{Composed, diagnostic_line};
pub use modules::{
    MAX_MODULE_BYTES, MAX_MODULES, MAX_STATEMENT_OPERATORS, ModuleRoot, ShaderModules,
};
