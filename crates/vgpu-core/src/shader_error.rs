//! Errors of WGSL parsing, validation and reflection ([`ShaderError`]).

use crate::error::ErrorCode;
use crate::reflect::OverrideType;

/// An error found in a shader from its WGSL source alone (no device involved).
///
/// Every variant names the shader's label; parse and validation errors carry naga's rendered
/// diagnostic (label, line, column and the offending span).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ShaderError {
    /// The WGSL source does not parse.
    #[error("VGPU-SHADER-PARSE: shader {label:?} does not parse: {message}\n{diagnostic}")]
    Parse {
        /// The shader's label.
        label: String,
        /// naga's one-line message.
        message: String,
        /// 1-based line of the first labelled span (0 if naga gave none).
        line: u32,
        /// 1-based column of the first labelled span (0 if naga gave none).
        column: u32,
        /// naga's rendered diagnostic (`emit_to_string_with_path`, the label as file name).
        diagnostic: String,
    },
    /// A shader composed from modules (`ShaderModules`) failed in one of them: a module or item
    /// missing, a path leaving its folder, a parse or `@if` error, a limit passed, or naga's
    /// error in the composed text told at the declaration it falls in.
    #[error("VGPU-SHADER-MODULE: shader {label:?}: {module}:{line}:{column}: {message}")]
    Module {
        /// The shader's label.
        label: String,
        /// The module: its file for a folder's module, its path for one in memory,
        /// `package::module` for a package's.
        module: String,
        /// 1-based line in that module (0 when the error has no place in it).
        line: u32,
        /// 1-based column in that module (0 when the error has no place in it).
        column: u32,
        /// What is wrong.
        message: String,
    },
    /// The WGSL source parses but naga's validator rejects it.
    #[error("VGPU-SHADER-VALIDATION: shader {label:?} is invalid: {message}\n{diagnostic}")]
    Validation {
        /// The shader's label.
        label: String,
        /// naga's one-line message.
        message: String,
        /// naga's rendered diagnostic (`emit_to_string_with_path`, the label as file name).
        diagnostic: String,
    },
    /// The source exceeds a limit checked before naga sees it (size, expression length, type
    /// nesting), so hostile input cannot exhaust the stack.
    #[error(
        "VGPU-SHADER-LIMIT: shader {label:?}: {what}: expected at most {expected}, got {actual}"
    )]
    Limit {
        /// The shader's label.
        label: String,
        /// What exceeded its limit.
        what: &'static str,
        /// The limit.
        expected: u64,
        /// The value found (for streaming scans: the first value past the limit).
        actual: u64,
    },
    /// naga (or, for a shader composed from modules, the WESL compiler) panicked on this
    /// source; the panic was caught and converted.
    #[error("VGPU-SHADER-INTERNAL: shader {label:?}: {message}")]
    Internal {
        /// The shader's label.
        label: String,
        /// Which compiler panicked, and the panic message (`naga panicked: …`).
        message: String,
    },
    /// No entry point matches the request.
    #[error(
        "VGPU-SHADER-ENTRY-POINT: shader {label:?}: expected {expected}, got {actual}; entry points: {}",
        list_or_none(.available)
    )]
    EntryPoint {
        /// The shader's label.
        label: String,
        /// What was looked for (e.g. a vertex entry point named `vs_main`).
        expected: String,
        /// What was found instead.
        actual: String,
        /// Every entry point of the shader as `name (stage)`.
        available: Vec<String>,
    },
    /// The bind groups used by a set of entry points are not numbered `0..n` without gaps.
    #[error(
        "VGPU-SHADER-LAYOUT-GAP: shader {label:?}: bind group {missing} is not used, but group {max} is; groups used: {used:?} (number bind groups 0, 1, 2… without gaps)"
    )]
    LayoutGap {
        /// The shader's (or pipeline's) label.
        label: String,
        /// The first missing group number.
        missing: u32,
        /// The highest group number used.
        max: u32,
        /// Every group number used, ascending.
        used: Vec<u32>,
    },
    /// Two declarations of one `(group, binding)` disagree.
    #[error(
        "VGPU-SHADER-LAYOUT-CONFLICT: shader {label:?}: @group({group}) @binding({binding}) is declared as {first} and as {second}"
    )]
    LayoutConflict {
        /// The shader's (or pipeline's) label.
        label: String,
        /// The group number.
        group: u32,
        /// The binding number.
        binding: u32,
        /// The first declaration (`name: type`).
        first: String,
        /// The conflicting declaration.
        second: String,
    },
    /// A type used in a uniform or storage buffer is not host-shareable.
    #[error(
        "VGPU-SHADER-HOST-SHAREABLE: shader {label:?}: binding `{binding}` at {path}: expected a host-shareable type, got {actual}; {hint}"
    )]
    HostShareable {
        /// The shader's label.
        label: String,
        /// The WGSL name of the buffer binding.
        binding: String,
        /// Where in the binding's type (`$.flags[2]`).
        path: String,
        /// The offending type.
        actual: String,
        /// How to fix it.
        hint: String,
    },
    /// The shader uses something vgpu does not reflect (e.g. an acceleration structure).
    #[error("VGPU-SHADER-UNSUPPORTED: shader {label:?}: `{item}`: {what} is not supported")]
    Unsupported {
        /// The shader's label.
        label: String,
        /// The binding or entry point concerned.
        item: String,
        /// What is unsupported.
        what: String,
    },
    /// A pipeline constant names no `override` of the shader (by name or by `@id`).
    #[error(
        "VGPU-CONSTANT-UNKNOWN: {label:?}: constant `{key}` names no override of shader {shader:?}{}; overrides: {}",
        hint_suffix(.hint),
        list_or_none(.available)
    )]
    ConstantUnknown {
        /// The draw's or compute's label.
        label: String,
        /// The shader's label.
        shader: String,
        /// The key given.
        key: String,
        /// `did you mean …?` when a name is near.
        hint: Option<Box<str>>,
        /// Every override of the shader (`@id(n) name: type = default`).
        available: Vec<String>,
    },
    /// A pipeline constant's value cannot be represented in its override's type.
    #[error(
        "VGPU-CONSTANT-TYPE: {label:?}: override `{name}` of shader {shader:?} is {ty}: expected {}, got {value}",
        .ty.expected()
    )]
    ConstantType {
        /// The draw's or compute's label.
        label: String,
        /// The shader's label.
        shader: String,
        /// The override's name.
        name: String,
        /// The override's type.
        ty: OverrideType,
        /// The value given, printed.
        value: String,
    },
    /// An override without an initializer was given no value.
    #[error(
        "VGPU-CONSTANT-MISSING: {label:?}: override `{name}` of shader {shader:?} has no default; give it a value in `constants` (key {key:?})"
    )]
    ConstantMissing {
        /// The draw's or compute's label.
        label: String,
        /// The shader's label.
        shader: String,
        /// The override's name.
        name: String,
        /// The key to give it (its `@id` as text when it has one, else its name).
        key: String,
    },
    /// One override was given two values (the same key twice, or its name and its `@id`).
    #[error(
        "VGPU-CONSTANT-DUPLICATE: {label:?}: override `{name}` of shader {shader:?} is given twice: as `{first}` and as `{second}`"
    )]
    ConstantDuplicate {
        /// The draw's or compute's label.
        label: String,
        /// The shader's label.
        shader: String,
        /// The override's name.
        name: String,
        /// The first key that set it.
        first: Box<str>,
        /// The second key that set it.
        second: Box<str>,
    },
}

impl ErrorCode for ShaderError {
    fn code(&self) -> &'static str {
        match self {
            ShaderError::Parse { .. } => "VGPU-SHADER-PARSE",
            ShaderError::Module { .. } => "VGPU-SHADER-MODULE",
            ShaderError::Validation { .. } => "VGPU-SHADER-VALIDATION",
            ShaderError::Limit { .. } => "VGPU-SHADER-LIMIT",
            ShaderError::Internal { .. } => "VGPU-SHADER-INTERNAL",
            ShaderError::EntryPoint { .. } => "VGPU-SHADER-ENTRY-POINT",
            ShaderError::LayoutGap { .. } => "VGPU-SHADER-LAYOUT-GAP",
            ShaderError::LayoutConflict { .. } => "VGPU-SHADER-LAYOUT-CONFLICT",
            ShaderError::HostShareable { .. } => "VGPU-SHADER-HOST-SHAREABLE",
            ShaderError::Unsupported { .. } => "VGPU-SHADER-UNSUPPORTED",
            ShaderError::ConstantUnknown { .. } => "VGPU-CONSTANT-UNKNOWN",
            ShaderError::ConstantType { .. } => "VGPU-CONSTANT-TYPE",
            ShaderError::ConstantMissing { .. } => "VGPU-CONSTANT-MISSING",
            ShaderError::ConstantDuplicate { .. } => "VGPU-CONSTANT-DUPLICATE",
        }
    }
}

fn list_or_none(items: &[String]) -> String {
    if items.is_empty() {
        "none".to_owned()
    } else {
        items.join(", ")
    }
}

fn hint_suffix(hint: &Option<Box<str>>) -> String {
    match hint {
        Some(hint) => format!(" ({hint})"),
        None => String::new(),
    }
}
