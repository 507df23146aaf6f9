//! Shaders composed from WGSL modules ([`ShaderModules`](vgpu_modules::ShaderModules), crate
//! `vgpu-modules`): composed, then parsed, validated and reflected as a single string is;
//! naga's errors on the composed text told at the module declaration they fall in.

use vgpu_modules::{Composed, ModuleError, ShaderModules};

use crate::shader_error::ShaderError;

impl From<ModuleError> for ShaderError {
    fn from(e: ModuleError) -> ShaderError {
        if e.internal {
            return ShaderError::Internal {
                label: e.label,
                message: e.message,
            };
        }
        ShaderError::Module {
            label: e.label,
            module: e.module,
            line: e.line,
            column: e.column,
            message: e.message,
        }
    }
}

/// `error` of naga on `composed`'s text, told at the declaration it falls in
/// (`VGPU-SHADER-MODULE`); errors without a line, or outside every declaration, unchanged.
fn relocate(composed: &Composed, error: ShaderError) -> ShaderError {
    let (label, message, line) = match &error {
        ShaderError::Parse {
            label,
            message,
            line,
            ..
        } => (label, message, *line),
        ShaderError::Validation {
            label,
            message,
            diagnostic,
        } => (
            label,
            message,
            vgpu_modules::diagnostic_line(diagnostic).unwrap_or(0),
        ),
        _ => return error,
    };
    match composed.locate(label, line, message) {
        Some(e) => e.into(),
        None => error,
    }
}

impl crate::Shader {
    /// The shader composed from `modules` with root module `root`, parsed, validated and
    /// reflected as [`Shader::for_context`](crate::Shader::for_context) does; naga's errors are
    /// told at the module declaration they fall in (`VGPU-SHADER-MODULE`).
    pub fn from_modules_for_context(
        ctx: &crate::GpuContext,
        label: &str,
        modules: &ShaderModules,
        root: &str,
    ) -> Result<crate::Shader, ShaderError> {
        let composed = modules.compose_mapped(label, root)?;
        crate::Shader::for_context(ctx, label, &composed.wgsl).map_err(|e| relocate(&composed, e))
    }

    /// [`from_modules_for_context`](Self::from_modules_for_context) with explicit options (no
    /// device).
    pub fn from_modules(
        label: &str,
        modules: &ShaderModules,
        root: &str,
        options: crate::ShaderOptions,
    ) -> Result<crate::Shader, ShaderError> {
        let composed = modules.compose_mapped(label, root)?;
        crate::Shader::with_options(label, &composed.wgsl, options)
            .map_err(|e| relocate(&composed, e))
    }
}
