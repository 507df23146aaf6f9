//! The module resolver handed to the WESL compiler: a shader's own modules (a folder, kept
//! inside it, or memory) and named packages, with the limits of `mod.rs` enforced as modules
//! are read. It also keeps each module's source and display name for error messages.

use std::borrow::Cow;
use std::cell::RefCell;
use std::path::PathBuf;

use wesl::syntax::{ModulePath, PathOrigin};
use wesl::{ResolveError, Resolver};

use crate::modules::{
    MAX_MODULE_BYTES, MAX_MODULES, MAX_STATEMENT_OPERATORS, ModuleRoot, ShaderModules,
};

/// Resolves module paths for one composition.
pub(crate) struct ModuleResolver<'m> {
    modules: &'m ShaderModules,
    /// Every module read so far: (path, display name, source).
    read: RefCell<Vec<(ModulePath, String, String)>>,
}

/// `path` (`"lit/main"`, `"lit::main"`) as an absolute module path, if every part is a name of
/// ASCII letters, digits and `_` not starting with a digit.
pub(crate) fn module_path(path: &str) -> Option<ModulePath> {
    let parts: Vec<String> = path
        .split("::")
        .flat_map(|p| p.split('/'))
        .map(str::to_owned)
        .collect();
    parts
        .iter()
        .all(|p| is_name(p))
        .then(|| ModulePath::new(PathOrigin::Absolute, parts))
}

/// A module name part: `[A-Za-z_][A-Za-z0-9_]*`.
fn is_name(part: &str) -> bool {
    let mut chars = part.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

fn not_found(path: &ModulePath, why: impl Into<String>) -> ResolveError {
    ResolveError::ModuleNotFound(path.clone(), why.into())
}

impl<'m> ModuleResolver<'m> {
    pub(crate) fn new(modules: &'m ShaderModules) -> ModuleResolver<'m> {
        ModuleResolver {
            modules,
            read: RefCell::new(Vec::new()),
        }
    }

    /// The display name and source of module `path`, if it was read.
    pub(crate) fn module(&self, path: &ModulePath) -> Option<(String, String)> {
        self.read
            .borrow()
            .iter()
            .find(|(p, _, _)| p == path)
            .map(|(_, name, source)| (name.clone(), source.clone()))
    }

    /// The files of a folder's modules read so far.
    pub(crate) fn files_read(&self) -> Vec<PathBuf> {
        match &self.modules.root {
            ModuleRoot::Folder(_) => self
                .read
                .borrow()
                .iter()
                .filter(|(p, _, _)| !p.origin.is_package())
                .map(|(_, name, _)| PathBuf::from(name))
                .collect(),
            ModuleRoot::Memory(_) => Vec::new(),
        }
    }

    /// Every module read, in reading order: (path, display name, source).
    pub(crate) fn modules_read(&self) -> Vec<(ModulePath, String, String)> {
        self.read.borrow().clone()
    }

    /// The display name of `path` (see [`name_of`](Self::name_of)), read or not.
    pub(crate) fn display_name_of(&self, path: &ModulePath) -> String {
        self.module(path)
            .map_or_else(|| self.name_of(path), |(name, _)| name)
    }

    /// The display name of `path`: the file for a folder's module, `name.wesl` in memory,
    /// `package::name` for a package's.
    fn name_of(&self, path: &ModulePath) -> String {
        let joined = path.components.join("/");
        match (&path.origin, &self.modules.root) {
            (PathOrigin::Package(pkg), _) => format!("{pkg}::{}", path.components.join("::")),
            (_, ModuleRoot::Folder(folder)) => folder
                .join(&joined)
                .with_extension("wesl")
                .display()
                .to_string(),
            (_, ModuleRoot::Memory(_)) => joined,
        }
    }

    /// The source of `path` before the limits are checked.
    fn find(&self, path: &ModulePath) -> Result<(String, String), ResolveError> {
        if !path.components.iter().all(|p| is_name(p)) {
            return Err(not_found(
                path,
                "a module path is names of letters, digits and `_`",
            ));
        }
        if let PathOrigin::Package(name) = &path.origin {
            let Some(pkg) = self.modules.packages.iter().find(|p| &p.name == name) else {
                let known: Vec<&str> = self
                    .modules
                    .packages
                    .iter()
                    .map(|p| p.name.as_str())
                    .collect();
                return Err(not_found(
                    path,
                    format!("no package `{name}` (packages: {})", known.join(", ")),
                ));
            };
            return lookup(&pkg.modules, path)
                .map(|s| (self.name_of(path), s.to_owned()))
                .ok_or_else(|| not_found(path, format!("package `{name}` has no such module")));
        }
        match &self.modules.root {
            ModuleRoot::Memory(modules) => lookup(modules, path)
                .map(|s| (self.name_of(path), s.to_owned()))
                .ok_or_else(|| not_found(path, "no module of that path was given")),
            ModuleRoot::Folder(folder) => read_file(folder, path),
        }
    }
}

/// The operator count of the first statement of `source` past [`MAX_STATEMENT_OPERATORS`]
/// (operators and opening brackets between `;`, `{` and `}`; comments skipped), if any.
fn statement_operators_over(source: &str) -> Option<usize> {
    let b = source.as_bytes();
    let (mut i, mut ops) = (0, 0usize);
    while i < b.len() {
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b';' | b'{' | b'}' => ops = 0,
            b'+' | b'-' | b'*' | b'/' | b'%' | b'&' | b'|' | b'^' | b'!' | b'~' | b'<' | b'>'
            | b'=' | b'[' | b'(' | b'@' | b'.' => ops += 1,
            _ => {}
        }
        if ops > MAX_STATEMENT_OPERATORS {
            return Some(ops);
        }
        i += 1;
    }
    None
}

/// The source of `path` among `(path, source)` pairs.
fn lookup<'a>(modules: &'a [(String, String)], path: &ModulePath) -> Option<&'a str> {
    modules
        .iter()
        .find(|(p, _)| module_path(p).is_some_and(|m| m.components == path.components))
        .map(|(_, s)| s.as_str())
}

/// Module `path` read from `<folder>/<parts>.wesl` or `.wgsl`, refused when the file (after
/// symbolic links) is outside the folder, larger than [`MAX_MODULE_BYTES`] or not UTF-8.
fn read_file(
    folder: &std::path::Path,
    path: &ModulePath,
) -> Result<(String, String), ResolveError> {
    let base = folder.join(path.components.join("/"));
    let file = ["wesl", "wgsl"]
        .iter()
        .map(|ext| base.with_extension(ext))
        .find(|f| f.is_file())
        .ok_or_else(|| {
            ResolveError::FileNotFound(base.with_extension("wesl"), "nor .wgsl".to_owned())
        })?;
    let outside = || {
        not_found(
            path,
            format!(
                "{} is outside the folder {}",
                file.display(),
                folder.display()
            ),
        )
    };
    let (Ok(real), Ok(root)) = (file.canonicalize(), folder.canonicalize()) else {
        return Err(outside());
    };
    if !real.starts_with(&root) {
        return Err(outside());
    }
    let name = file.display().to_string();
    let meta = std::fs::metadata(&real).map_err(|e| not_found(path, e.to_string()))?;
    if meta.len() > MAX_MODULE_BYTES as u64 {
        return Err(not_found(
            path,
            format!(
                "{name} is {} bytes: expected at most {MAX_MODULE_BYTES}",
                meta.len()
            ),
        ));
    }
    let bytes = std::fs::read(&real).map_err(|e| not_found(path, format!("{name}: {e}")))?;
    let source = String::from_utf8(bytes).map_err(|e| {
        not_found(
            path,
            format!(
                "{name} is not UTF-8 (byte {})",
                e.utf8_error().valid_up_to()
            ),
        )
    })?;
    Ok((name, source))
}

impl Resolver for ModuleResolver<'_> {
    fn resolve_source<'a>(&'a self, path: &ModulePath) -> Result<Cow<'a, str>, ResolveError> {
        if let Some((_, source)) = self.module(path) {
            return Ok(Cow::Owned(source));
        }
        if self.read.borrow().len() >= MAX_MODULES {
            return Err(not_found(
                path,
                format!("more than {MAX_MODULES} modules in one shader"),
            ));
        }
        let (name, source) = self.find(path)?;
        if source.len() > MAX_MODULE_BYTES {
            return Err(not_found(
                path,
                format!(
                    "{name} is {} bytes: expected at most {MAX_MODULE_BYTES}",
                    source.len()
                ),
            ));
        }
        if let Some(ops) = statement_operators_over(&source) {
            return Err(not_found(
                path,
                format!(
                    "{name}: a statement with more than {MAX_STATEMENT_OPERATORS} operator tokens ({ops})"
                ),
            ));
        }
        self.read
            .borrow_mut()
            .push((path.clone(), name, source.clone()));
        Ok(Cow::Owned(source))
    }

    fn display_name(&self, path: &ModulePath) -> Option<String> {
        Some(
            self.module(path)
                .map_or_else(|| self.name_of(path), |(name, _)| name),
        )
    }

    fn fs_path(&self, path: &ModulePath) -> Option<PathBuf> {
        match &self.modules.root {
            ModuleRoot::Folder(_) if !path.origin.is_package() => {
                Some(PathBuf::from(self.module(path).map(|(name, _)| name)?))
            }
            _ => None,
        }
    }
}
