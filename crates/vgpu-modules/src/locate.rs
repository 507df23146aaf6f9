//! Errors of composed shaders told in the modules' terms: a WESL error (resolution, import,
//! `@if`, parse) at its module's line and column; a naga error in the composed text at the
//! declaration it falls in, in the module that declaration came from.

use std::ops::Range;

use wesl::SourceMap;
use wesl::syntax::GlobalDeclaration;

use crate::error::ModuleError;
use crate::resolver::ModuleResolver;

/// A composed shader: its WGSL and, per top-level declaration, where it is in that text and
/// where it came from; and the files of a folder's modules it read.
#[derive(Debug)]
pub struct Composed {
    /// The composed WGSL.
    pub wgsl: String,
    decls: Vec<DeclOrigin>,
    files: Vec<std::path::PathBuf>,
}

/// Where one declaration of the composed text came from.
#[derive(Debug)]
struct DeclOrigin {
    /// Its bytes in the composed text.
    range: Range<usize>,
    /// Its name as the module wrote it.
    name: String,
    /// Its name in the composed text (mangled when it came from an imported module).
    mangled: String,
    /// The module's display name (its file for a folder's module).
    module: String,
    /// Line and column (1-based) of its start in that module.
    line: u32,
    column: u32,
}

/// The identifier of a top-level declaration (none for `const_assert`).
fn decl_ident(decl: &GlobalDeclaration) -> Option<&wesl::syntax::Ident> {
    match decl {
        GlobalDeclaration::Declaration(d) => Some(&d.ident),
        GlobalDeclaration::TypeAlias(a) => Some(&a.ident),
        GlobalDeclaration::Struct(s) => Some(&s.ident),
        GlobalDeclaration::Function(f) => Some(&f.ident),
        _ => None,
    }
}

/// Gives imported declarations back the names their modules wrote (WESL mangles them to
/// `package_module_name`), so that bindings, overrides, structs and functions reflect and fail
/// under the names users know: each declaration whose written name no other declaration has
/// (written or mangled) and no other identifier of the composed text uses (a local, a field
/// access aside) is renamed; the others keep their mangled names.
/// Returns the mangled name of each renamed declaration, by its new name.
fn restore_names(
    syntax: &mut wesl::syntax::TranslationUnit,
    map: &wesl::BasicSourceMap,
) -> std::collections::HashMap<String, String> {
    let text = syntax.to_string();
    let mut used = std::collections::HashSet::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c.is_ascii_alphabetic() || c == b'_' {
            let start = i;
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            if start == 0 || bytes[start - 1] != b'.' {
                used.insert(&text[start..i]);
            }
        } else {
            i += 1;
        }
    }
    let mut written: std::collections::HashMap<String, usize> = Default::default();
    let mut renames = Vec::new();
    for decl in &syntax.global_declarations {
        let Some(ident) = decl_ident(decl.node()) else {
            continue;
        };
        let mangled = ident.to_string();
        if let Some((_, item)) = map.get_decl(&mangled) {
            *written.entry(item.to_owned()).or_default() += 1;
            if item != mangled {
                renames.push((ident.clone(), item.to_owned()));
            }
        }
    }
    let mut renamed = std::collections::HashMap::new();
    for (mut ident, name) in renames {
        if written.get(&name) == Some(&1) && !used.contains(name.as_str()) {
            renamed.insert(name.clone(), ident.to_string());
            ident.rename(name);
        }
    }
    renamed
}

/// 1-based line and column of byte `offset` of `source`.
fn line_column(source: &str, offset: usize) -> (u32, u32) {
    let offset = offset.min(source.len());
    let before = source.get(..offset).unwrap_or(source);
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line as u32, column as u32)
}

impl Composed {
    /// Writes `result` as WGSL (directives, then declarations, as `wesl` does) noting each
    /// declaration's range and origin.
    pub(crate) fn new(mut result: wesl::CompileResult, resolver: &ModuleResolver<'_>) -> Composed {
        let renamed = match &result.sourcemap {
            Some(map) => restore_names(&mut result.syntax, map),
            None => Default::default(),
        };
        let syntax = &result.syntax;
        let mut wgsl = String::new();
        for d in &syntax.global_directives {
            wgsl.push_str(&format!("{d}\n"));
        }
        if !syntax.global_directives.is_empty() {
            wgsl.push('\n');
        }
        // Every module read, once: each declaration's origin borrows from it.
        let read = resolver.modules_read();
        let mut decls = Vec::new();
        for decl in &syntax.global_declarations {
            if matches!(decl.node(), GlobalDeclaration::Void) {
                continue;
            }
            let start = wgsl.len();
            wgsl.push_str(&format!("{decl}\n\n"));
            let range = start..wgsl.len();
            let span = decl.span();
            let (origin, name, mangled) = match decl_ident(decl.node()) {
                Some(ident) => {
                    let current = ident.to_string();
                    let mangled = renamed.get(&current).cloned().unwrap_or(current);
                    match result.sourcemap.as_ref().and_then(|m| m.get_decl(&mangled)) {
                        Some((path, item)) => (
                            read.iter().find(|(p, _, _)| p == path),
                            item.to_owned(),
                            ident.to_string(),
                        ),
                        // The root module's declarations are not mangled.
                        None => (read.first(), mangled, ident.to_string()),
                    }
                }
                // A `const_assert` has no name to look up: its module is the first read whose
                // text at the declaration's span is a `const_assert`.
                None => (
                    read.iter().find(|(_, _, source)| {
                        source
                            .get(span.range())
                            .is_some_and(|t| t.starts_with("const_assert"))
                    }),
                    "const_assert".to_owned(),
                    String::new(),
                ),
            };
            let Some((_, module, source)) = origin else {
                continue;
            };
            let (line, column) = line_column(source, span.start);
            decls.push(DeclOrigin {
                range,
                mangled,
                name,
                module: module.clone(),
                line,
                column,
            });
        }
        let files = resolver.files_read();
        Composed { wgsl, decls, files }
    }

    /// The error of naga at 1-based `line` of the composed text, told at the declaration it
    /// falls in: the module that declared it, the declaration's line and column there, and
    /// `message` with the names the modules wrote. `None` when the line is in no declaration.
    pub fn locate(&self, label: &str, line: u32, message: &str) -> Option<ModuleError> {
        if line == 0 {
            return None;
        }
        let offset = self
            .wgsl
            .split_inclusive('\n')
            .take(line as usize - 1)
            .map(str::len)
            .sum::<usize>();
        let d = self.decls.iter().find(|d| d.range.contains(&offset))?;
        Some(ModuleError::new(
            label,
            d.module.clone(),
            (d.line, d.column),
            format!("in `{}`: {}", d.name, self.unmangle(message)),
        ))
    }

    /// The files of a folder's modules the composition read (for `cargo:rerun-if-changed`).
    pub fn files(&self) -> &[std::path::PathBuf] {
        &self.files
    }
}

impl Composed {
    /// `text` with the composed text's mangled names replaced by the names the modules wrote.
    fn unmangle(&self, text: &str) -> String {
        let mut out = text.to_owned();
        for d in self
            .decls
            .iter()
            .filter(|d| !d.mangled.is_empty() && d.mangled != d.name)
        {
            out = out.replace(&d.mangled, &d.name);
        }
        out
    }
}

/// The line of the first `name:line:column` location of a naga diagnostic (`┌─ wgsl:12:5`).
pub fn diagnostic_line(diagnostic: &str) -> Option<u32> {
    let at = diagnostic.find("┌─ ")? + "┌─ ".len();
    let location = diagnostic[at..].lines().next()?;
    let mut parts = location.rsplit(':');
    let _column = parts.next()?;
    parts.next()?.trim().parse().ok()
}

/// A WESL error as `VGPU-SHADER-MODULE`: the module it names (else the root), the line and
/// column of its span in that module (0 when it has none), and its message.
pub(crate) fn wesl_error(
    label: &str,
    root: &str,
    resolver: &ModuleResolver<'_>,
    error: &wesl::Error,
) -> ModuleError {
    let mut message = error.to_string();
    let (mut module, mut line, mut column) = (root.to_owned(), 0, 0);
    if let wesl::Error::Error(d) = error {
        message = d.error.to_string();
        if let Some(name) = &d.detail.display_name {
            module = name.clone();
        } else if let Some(path) = &d.detail.module_path {
            module = resolver.display_name_of(path);
        }
        let source = d.detail.source.clone().or_else(|| {
            d.detail
                .module_path
                .as_ref()
                .and_then(|p| resolver.module(p))
                .map(|(_, s)| s)
        });
        match (d.detail.span, source) {
            (Some(span), Some(source)) => (line, column) = line_column(&source, span.start),
            (None, source) => {
                // An import that names a missing module or item has no span: its place is the
                // import statement that names it, in this module or (a missing item is told in
                // the module that lacks it) in the first module read that imports it.
                if let Some(needle) = missing_import(&d.error) {
                    let here = source.map(|s| (module.clone(), s));
                    let found = here
                        .into_iter()
                        .chain(resolver.modules_read().into_iter().map(|(_, n, s)| (n, s)))
                        .find_map(|(n, s)| import_at(&s, &needle).map(|at| (n, s, at)));
                    if let Some((n, s, at)) = found {
                        module = n;
                        (line, column) = line_column(&s, at);
                    }
                }
            }
            (Some(_), None) => {}
        }
        if let Some(decl) = &d.detail.declaration {
            message = format!("in `{decl}`: {message}");
        }
    }
    ModuleError::new(label, module, (line, column), message)
}

/// What a failed import names: the missing item, else the missing module's last part.
fn missing_import(error: &wesl::Error) -> Option<String> {
    let resolve = match error {
        wesl::Error::ImportError(wesl::ImportError::MissingDecl(_, item)) => {
            return Some(item.clone());
        }
        wesl::Error::ImportError(wesl::ImportError::ResolveError(r)) => r,
        wesl::Error::ResolveError(r) => r,
        _ => return None,
    };
    match resolve {
        wesl::ResolveError::ModuleNotFound(path, _) => path.components.last().cloned(),
        wesl::ResolveError::FileNotFound(file, _) => {
            file.file_stem().map(|s| s.to_string_lossy().into_owned())
        }
        wesl::ResolveError::Error(_) => None,
    }
}

/// Byte offset of `name` in the first `import` statement of `source` that names it.
fn import_at(source: &str, name: &str) -> Option<usize> {
    let mut offset = 0;
    for line in source.split_inclusive('\n') {
        if let Some(i) = line.find("import") {
            let rest = &line[i..];
            if let Some(j) = rest.find(name) {
                return Some(offset + i + j);
            }
        }
        offset += line.len();
    }
    None
}

#[cfg(test)]
mod tests {
    use super::{diagnostic_line, import_at, line_column};

    #[test]
    fn lines_and_columns() {
        assert_eq!(line_column("ab\ncd", 0), (1, 1));
        assert_eq!(line_column("ab\ncd", 4), (2, 2));
        assert_eq!(line_column("ab", 99), (1, 3));
        assert_eq!(diagnostic_line("error: x\n  ┌─ wgsl:12:5\n  │"), Some(12));
        assert_eq!(diagnostic_line("no location"), None);
        assert_eq!(import_at("fn a() {}\nimport package::x::y;", "x"), Some(26));
        assert_eq!(import_at("fn x() {}", "x"), None);
    }
}
