//! [`Shader`]: WGSL parsed and validated by naga, with its reflection tables.
//!
//! Everything here is known from the WGSL source alone; no device is needed. When a device is
//! given ([`Shader::for_context`]) its features choose naga's capabilities (e.g. `SHADER_F16` →
//! `Capabilities::SHADER_FLOAT16`) and the plans compiled are counted in its [`Stats`].
//!
//! Hostile input: the source is bounded in size and in operators per statement before naga
//! sees it, naga runs on a thread with a large stack, and a naga panic becomes
//! [`ShaderError::Internal`] instead of unwinding into the caller.
//!
//! Its files: this one holds the shader, its constructors and what it was built from;
//! `options` the limits and features it is parsed with; `capabilities` naga's capabilities for
//! a device; `parse` the bounded, guarded run of naga; `reflector` the reflection tables built
//! from naga's IR; `bindings` and `entry_points` the lookups by name.
//!
//! [`Stats`]: crate::Stats

mod bindings;
mod capabilities;
mod constants;
mod entry_points;
mod options;
mod parse;
mod reflector;

use std::fmt;
use std::sync::Arc;

use ahash::AHashMap;
use smallvec::SmallVec;

use crate::device::GpuContext;
use crate::reflect::{BindingInfo, EntryPointInfo, OverrideInfo, reflect_overrides};
use crate::shader_error::ShaderError;
use parse::{prescan, run_naga};
use reflector::Reflector;

pub use bindings::MemberRef;
pub use capabilities::naga_capabilities;
pub use options::ShaderOptions;

/// A WGSL shader parsed and validated by naga, with per-entry-point reflection, buffer layouts
/// and compiled write plans. Immutable once built; share it with `Arc`.
pub struct Shader {
    label: Arc<str>,
    source: Arc<str>,
    features: wgpu::Features,
    module: naga::Module,
    info: naga::valid::ModuleInfo,
    bindings: Vec<BindingInfo>,
    by_name: AHashMap<Box<str>, usize>,
    members: AHashMap<Box<str>, SmallVec<[(u32, u32); 1]>>,
    entry_points: Vec<EntryPointInfo>,
    overrides: Vec<OverrideInfo>,
    plans_compiled: usize,
}

impl fmt::Debug for Shader {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Shader")
            .field("label", &self.label)
            .field("entry_points", &self.entry_points)
            .field("bindings", &self.bindings)
            .finish_non_exhaustive()
    }
}

impl Shader {
    /// Parses and validates WGSL with no device features (WebGPU core capabilities).
    pub fn new(label: &str, source: &str) -> Result<Self, ShaderError> {
        Self::with_options(label, source, ShaderOptions::default())
    }

    /// Parses and validates WGSL with the capabilities of the given device features.
    pub fn with_features(
        label: &str,
        source: &str,
        features: wgpu::Features,
    ) -> Result<Self, ShaderError> {
        Self::with_options(label, source, ShaderOptions::with_features(features))
    }

    /// Parses and validates WGSL with the capabilities of `ctx`'s device (features and downlevel
    /// flags: on GL, cube arrays or multisampled shading are refused here, with a diagnostic,
    /// rather than by the driver), and counts the write
    /// plans compiled in `ctx.stats().plans_compiled`.
    pub fn for_context(ctx: &GpuContext, label: &str, source: &str) -> Result<Self, ShaderError> {
        let options = ShaderOptions {
            downlevel: ctx.adapter().get_downlevel_capabilities().flags,
            ..ShaderOptions::with_features(ctx.features())
        };
        let shader = Self::with_options(label, source, options)?;
        ctx.stats().plans_compiled.add(shader.plans_compiled as u64);
        Ok(shader)
    }

    /// Parses, validates and reflects WGSL with explicit options.
    pub fn with_options(
        label: &str,
        source: &str,
        options: ShaderOptions,
    ) -> Result<Self, ShaderError> {
        prescan(label, source, &options)?;
        let caps = naga_capabilities(options.features, options.downlevel);
        let (module, info) = run_naga(label, source, caps)?;
        let mut layouter = naga::proc::Layouter::default();
        layouter
            .update(module.to_ctx())
            .map_err(|e| ShaderError::Validation {
                label: label.to_owned(),
                message: e.to_string(),
                diagnostic: e.to_string(),
            })?;
        let tables = Reflector::new(label, &module, &info, &layouter).run()?;
        let overrides = reflect_overrides(label, &module)?;
        Ok(Shader {
            label: label.into(),
            source: source.into(),
            features: options.features,
            module,
            info,
            bindings: tables.bindings,
            by_name: tables.by_name,
            members: tables.members,
            entry_points: tables.entry_points,
            overrides,
            plans_compiled: tables.plans_compiled,
        })
    }

    /// The label given at creation (used as the file name in diagnostics).
    pub fn label(&self) -> &str {
        &self.label
    }

    /// The WGSL source.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// The WGSL source, shared.
    pub fn source_arc(&self) -> &Arc<str> {
        &self.source
    }

    /// The device features the shader was validated against.
    pub fn features(&self) -> wgpu::Features {
        self.features
    }

    /// naga's IR of the shader.
    pub fn module(&self) -> &naga::Module {
        &self.module
    }

    /// naga's validation info of the shader.
    pub fn module_info(&self) -> &naga::valid::ModuleInfo {
        &self.info
    }

    /// Number of distinct write plans compiled for this shader's buffer types.
    pub fn plans_compiled(&self) -> usize {
        self.plans_compiled
    }

    /// Every resource binding, sorted by (group, binding, name).
    pub fn bindings(&self) -> &[BindingInfo] {
        &self.bindings
    }
}
