//! [`ModuleError`]: a composed shader's failure, told in the modules' terms.

/// A shader composed from modules failed in one of them: a module or item missing, a path
/// leaving its folder, a parse or `@if` error, a limit passed, or naga's error in the composed
/// text told at the declaration it falls in. vgpu reports it as `VGPU-SHADER-MODULE`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("VGPU-SHADER-MODULE: shader {label:?}: {module}:{line}:{column}: {message}")]
#[non_exhaustive]
pub struct ModuleError {
    /// The shader's label.
    pub label: String,
    /// The module: its file for a folder's module, its path for one in memory,
    /// `package::module` for a package's.
    pub module: String,
    /// 1-based line in that module (0 when the error has no place in it).
    pub line: u32,
    /// 1-based column in that module (0 when the error has no place in it).
    pub column: u32,
    /// What is wrong.
    pub message: String,
    /// The WESL compiler panicked (a bug of that crate, contained): vgpu reports it as
    /// `VGPU-SHADER-INTERNAL`, as it does naga's panics.
    pub internal: bool,
}

impl ModuleError {
    /// The stable code of every module error.
    pub const CODE: &'static str = "VGPU-SHADER-MODULE";

    pub(crate) fn new(
        label: &str,
        module: impl Into<String>,
        (line, column): (u32, u32),
        message: impl Into<String>,
    ) -> ModuleError {
        ModuleError {
            label: label.to_owned(),
            module: module.into(),
            line,
            column,
            message: message.into(),
            internal: false,
        }
    }

    /// The error of a panic inside the WESL compiler.
    pub(crate) fn panicked(label: &str, root: &str, message: String) -> ModuleError {
        ModuleError {
            internal: true,
            ..ModuleError::new(
                label,
                root,
                (0, 0),
                format!("the WESL compiler panicked: {message}"),
            )
        }
    }
}
