//! Shaders composed and validated at build time: from a `build.rs`, [`compose_to_out_dir`]
//! composes a shader from a folder of modules (with vgpu's standard library as package `vgpu`),
//! validates the result with naga, writes it to `$OUT_DIR/<name>.wgsl` and tells Cargo to run
//! the script again when a module file changes; a wrong import or a type error fails
//! `cargo build` with the module, line and column. The crate then embeds the WGSL:
//!
//! ```ignore
//! // build.rs
//! fn main() {
//!     vgpu_modules::build::compose_to_out_dir("shaders", "main", "lit", &[]).unwrap();
//! }
//! // src/main.rs
//! const LIT: &str = include_str!(concat!(env!("OUT_DIR"), "/lit.wgsl"));
//! ```

use std::path::{Path, PathBuf};

use crate::{ModuleError, ShaderModules};

/// The std library as a package of `modules`.
pub fn with_std(modules: ShaderModules) -> ShaderModules {
    if modules.has_package(crate::wgsl::PACKAGE) {
        return modules;
    }
    modules.package(
        crate::wgsl::PACKAGE,
        crate::wgsl::MODULES.iter().map(|m| (m.name, m.source)),
    )
}

/// Composes the shader of root module `root` from the modules under `folder` (relative to the
/// crate's manifest folder when relative) with `features` and vgpu's standard library,
/// validates it with naga (every capability allowed: the device checks its own when the shader
/// is created), writes it to `$OUT_DIR/<name>.wgsl`, prints `cargo:rerun-if-changed` for the
/// folder and every module file read, and returns the file written.
pub fn compose_to_out_dir(
    folder: impl AsRef<Path>,
    root: &str,
    name: &str,
    features: &[(&str, bool)],
) -> Result<PathBuf, ModuleError> {
    let manifest = std::env::var_os("CARGO_MANIFEST_DIR").map(PathBuf::from);
    let folder = match (&manifest, folder.as_ref()) {
        (Some(m), f) if f.is_relative() => m.join(f),
        (_, f) => f.to_path_buf(),
    };
    let out = std::env::var_os("OUT_DIR")
        .map(PathBuf::from)
        .ok_or_else(|| {
            ModuleError::new(
                name,
                root,
                (0, 0),
                "OUT_DIR is not set: call this from a build script",
            )
        })?;
    let (file, read) = compose_into(&folder, root, name, features, &out)?;
    println!("cargo:rerun-if-changed={}", folder.display());
    for f in read {
        println!("cargo:rerun-if-changed={}", f.display());
    }
    Ok(file)
}

/// [`compose_to_out_dir`] into `out` (any folder), printing nothing: returns the file written
/// and the module files read.
pub fn compose_into(
    folder: &Path,
    root: &str,
    name: &str,
    features: &[(&str, bool)],
    out: &Path,
) -> Result<(PathBuf, Vec<PathBuf>), ModuleError> {
    let fail = |message: String| ModuleError::new(name, root, (0, 0), message);
    let mut modules = ShaderModules::folder(folder);
    for (feature, on) in features {
        modules = modules.feature(feature, *on);
    }
    let composed = with_std(modules).compose_mapped(name, root)?;
    validate(name, &composed)?;
    let file = out.join(format!("{name}.wgsl"));
    std::fs::write(&file, &composed.wgsl)
        .map_err(|e| fail(format!("writing {}: {e}", file.display())))?;
    Ok((file, composed.files().to_vec()))
}

/// naga's parse and validation of the composed text, errors told at the module declaration
/// they fall in.
pub fn validate(label: &str, composed: &crate::Composed) -> Result<(), ModuleError> {
    let module = naga::front::wgsl::parse_str(&composed.wgsl).map_err(|e| {
        let line = e.location(&composed.wgsl).map_or(0, |l| l.line_number);
        let message = e.message().to_owned();
        composed
            .locate(label, line, &message)
            .unwrap_or_else(|| ModuleError::new(label, "(composed)", (line, 0), message))
    })?;
    let mut validator = naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        naga::valid::Capabilities::all(),
    );
    validator.validate(&module).map_err(|e| {
        let line = e
            .spans()
            .next()
            .and_then(|(span, _)| span.location(&composed.wgsl).line_number.into())
            .unwrap_or(0);
        let message = e.as_inner().to_string();
        composed
            .locate(label, line, &message)
            .unwrap_or_else(|| ModuleError::new(label, "(composed)", (line, 0), message))
    })?;
    Ok(())
}
