//! Shaders composed from WGSL modules ([`ShaderModules`]): WESL `import` and `@if`, resolved by
//! the `wesl` crate (the WESL reference compiler) over a folder on disk or modules in memory,
//! plus named packages (vgpu's standard library is one): what a shader's modules are. Composing
//! them is `compose.rs`; errors name the module (its file, line and column), not the composed
//! text (`locate.rs`).

use std::path::PathBuf;

/// Most modules one shader may load (its own and packages' together): a module tree past it is
/// refused with `VGPU-SHADER-MODULE` instead of being read without end.
pub const MAX_MODULES: usize = 256;
/// Largest module source accepted, in bytes.
pub const MAX_MODULE_BYTES: usize = 1 << 20;
/// Most operator tokens in one statement of a module (nesting depth is bounded by it), as
/// vgpu-core bounds a single-string shader before naga sees it.
pub const MAX_STATEMENT_OPERATORS: usize = 16 * 1024;

/// Where a shader's own modules come from.
#[derive(Clone, Debug)]
pub enum ModuleRoot {
    /// Files under a folder: module `lit::main` (`import package::lit::main::…`) is
    /// `<folder>/lit/main.wesl`, else `<folder>/lit/main.wgsl`. No module may name a file outside
    /// the folder.
    Folder(PathBuf),
    /// Modules in memory, by path (`"lit/main"` or `"lit::main"`): for wasm32, tests and generated
    /// code.
    Memory(Vec<(String, String)>),
}

/// The modules a shader is composed from: its own (a folder or in memory), the `@if` features
/// chosen for it, and packages imported by name (`import vgpu::noise::fbm2;`).
///
/// ```
/// use vgpu_modules::ShaderModules;
/// let modules = ShaderModules::memory([
///     ("main", "import package::colors::red; @fragment fn fs() -> @location(0) vec4f { return red(); }"),
///     ("colors", "fn red() -> vec4f { return vec4f(1.0, 0.0, 0.0, 1.0); }"),
/// ]);
/// let wgsl = modules.compose("example", "main").unwrap();
/// assert!(wgsl.contains("fn fs"));
/// ```
#[derive(Clone, Debug)]
pub struct ShaderModules {
    pub(crate) root: ModuleRoot,
    pub(crate) features: Vec<(String, bool)>,
    pub(crate) packages: Vec<Package>,
}

/// A package of modules imported by its name (`import <name>::<module>::<item>;`).
#[derive(Clone, Debug)]
pub(crate) struct Package {
    pub(crate) name: String,
    pub(crate) modules: Vec<(String, String)>,
}

impl ShaderModules {
    /// Modules read from files under `folder` (`.wesl`, else `.wgsl`).
    pub fn folder(folder: impl Into<PathBuf>) -> ShaderModules {
        ShaderModules::with_root(ModuleRoot::Folder(folder.into()))
    }

    /// Modules given in memory as `(path, source)` pairs; a path's parts are separated by `/` or
    /// `::` (`"lit/main"`).
    pub fn memory<P: Into<String>, S: Into<String>>(
        modules: impl IntoIterator<Item = (P, S)>,
    ) -> ShaderModules {
        ShaderModules::with_root(ModuleRoot::Memory(
            modules
                .into_iter()
                .map(|(p, s)| (p.into(), s.into()))
                .collect(),
        ))
    }

    fn with_root(root: ModuleRoot) -> ShaderModules {
        ShaderModules {
            root,
            features: Vec::new(),
            packages: Vec::new(),
        }
    }

    /// Sets the `@if` feature `name` (a feature no module tests is ignored; one a module tests
    /// but that is not set is an error naming it).
    #[must_use]
    pub fn feature(mut self, name: &str, enabled: bool) -> ShaderModules {
        match self.features.iter_mut().find(|(n, _)| n == name) {
            Some(f) => f.1 = enabled,
            None => self.features.push((name.to_owned(), enabled)),
        }
        self
    }

    /// Adds a package imported as `name` (`import <name>::<module>::<item>;`), its modules as
    /// `(path, source)` pairs. A package of the same name given before is replaced.
    #[must_use]
    pub fn package<P: Into<String>, S: Into<String>>(
        mut self,
        name: &str,
        modules: impl IntoIterator<Item = (P, S)>,
    ) -> ShaderModules {
        self.packages.retain(|p| p.name != name);
        self.packages.push(Package {
            name: name.to_owned(),
            modules: modules
                .into_iter()
                .map(|(p, s)| (p.into(), s.into()))
                .collect(),
        });
        self
    }

    /// Whether a package named `name` was added.
    pub fn has_package(&self, name: &str) -> bool {
        self.packages.iter().any(|p| p.name == name)
    }

    /// Where the shader's own modules come from.
    pub fn root(&self) -> &ModuleRoot {
        &self.root
    }
}
