//! Running naga on untrusted WGSL: a prescan bounds the source before naga sees it, naga runs
//! on a thread with a large stack, and a panic inside it becomes an error.

use std::panic::{AssertUnwindSafe, catch_unwind};

use super::ShaderOptions;
use crate::layout::{MAX_TYPE_DEPTH, find_non_host_shareable};
use crate::shader_error::ShaderError;

/// Stack of the thread naga runs on. Reserved, not committed: only pages touched are used.
const NAGA_STACK_BYTES: usize = 256 << 20;

/// Rejects sources that could make naga recurse without bound: too long, or a statement with
/// too many operators (long `a + a + …`, `- - - a`, `a.x.x.x…` chains nest naga's recursion).
pub(super) fn prescan(
    label: &str,
    source: &str,
    options: &ShaderOptions,
) -> Result<(), ShaderError> {
    let limit = |what: &'static str, expected: usize, actual: usize| ShaderError::Limit {
        label: label.to_owned(),
        what,
        expected: expected as u64,
        actual: actual as u64,
    };
    if source.len() > options.max_source_bytes {
        return Err(limit(
            "source size in bytes",
            options.max_source_bytes,
            source.len(),
        ));
    }
    let b = source.as_bytes();
    let mut i = 0;
    let mut ops = 0usize;
    while i < b.len() {
        let c = b[i];
        match c {
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                // WGSL block comments nest.
                let mut depth = 0usize;
                while i < b.len() {
                    if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
                        depth += 1;
                        i += 2;
                    } else if b[i] == b'*' && b.get(i + 1) == Some(&b'/') {
                        depth -= 1;
                        i += 2;
                        if depth == 0 {
                            break;
                        }
                    } else {
                        i += 1;
                    }
                }
                continue;
            }
            b';' | b'{' | b'}' => ops = 0,
            b'+' | b'-' | b'*' | b'/' | b'%' | b'&' | b'|' | b'^' | b'!' | b'~' | b'<' | b'>'
            | b'=' | b'[' | b'(' | b'@' => ops += 1,
            b'.' if b
                .get(i + 1)
                .is_some_and(|n| n.is_ascii_alphabetic() || *n == b'_' || *n >= 0x80) =>
            {
                ops += 1
            }
            _ => {}
        }
        if ops > options.max_statement_operators {
            return Err(limit(
                "operator tokens in one statement",
                options.max_statement_operators,
                ops,
            ));
        }
        i += 1;
    }
    Ok(())
}

/// naga's IR and validation info of a module.
pub(super) type NagaOutput = (naga::Module, naga::valid::ModuleInfo);

/// Runs naga on a thread with a large stack, converting a panic into `ShaderError::Internal`.
pub(super) fn run_naga(
    label: &str,
    source: &str,
    caps: naga::valid::Capabilities,
) -> Result<NagaOutput, ShaderError> {
    std::thread::scope(|scope| {
        let spawned = std::thread::Builder::new()
            .name("vgpu-naga".to_owned())
            .stack_size(NAGA_STACK_BYTES)
            .spawn_scoped(scope, move || guarded_naga(label, source, caps));
        match spawned {
            Ok(handle) => handle
                .join()
                .unwrap_or_else(|payload| Err(internal(label, payload.as_ref()))),
            // No thread available: run here, still guarded by the prescan limits.
            Err(_) => guarded_naga(label, source, caps),
        }
    })
}

/// [`parse_and_validate`], its panic caught.
fn guarded_naga(
    label: &str,
    source: &str,
    caps: naga::valid::Capabilities,
) -> Result<NagaOutput, ShaderError> {
    catch_unwind(AssertUnwindSafe(|| parse_and_validate(label, source, caps)))
        .unwrap_or_else(|payload| Err(internal(label, payload.as_ref())))
}

/// `VGPU-SHADER-INTERNAL` carrying a panic's message.
fn internal(label: &str, payload: &(dyn std::any::Any + Send)) -> ShaderError {
    let message = payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".to_owned());
    ShaderError::Internal {
        label: label.to_owned(),
        message: format!("naga panicked: {message}"),
    }
}

/// Parses `source`, refuses buffer types that cannot be host-shareable (saying what to use
/// instead), and validates the module with `caps`.
fn parse_and_validate(
    label: &str,
    source: &str,
    caps: naga::valid::Capabilities,
) -> Result<NagaOutput, ShaderError> {
    let mut options = naga::front::wgsl::Options::new();
    options.capabilities = caps;
    let mut frontend = naga::front::wgsl::Frontend::new_with_options(options);
    let module = frontend.parse(source).map_err(|e| {
        let loc = e.location(source);
        ShaderError::Parse {
            label: label.to_owned(),
            message: e.message().to_owned(),
            line: loc.map_or(0, |l| l.line_number),
            column: loc.map_or(0, |l| l.line_position),
            diagnostic: e.emit_to_string_with_path(source, label),
        }
    })?;
    // Before validation: a bool (or an absurdly deep type) in a buffer gets an error that says
    // what to use instead, rather than naga's generic "not host-shareable".
    for (_, gv) in module.global_variables.iter() {
        if !matches!(
            gv.space,
            naga::AddressSpace::Uniform | naga::AddressSpace::Storage { .. }
        ) {
            continue;
        }
        if let Some(p) = find_non_host_shareable(&module, gv.ty, 0) {
            if p.too_deep {
                return Err(ShaderError::Limit {
                    label: label.to_owned(),
                    what: "type nesting depth of a buffer binding",
                    expected: MAX_TYPE_DEPTH as u64,
                    actual: MAX_TYPE_DEPTH as u64 + 1,
                });
            }
            return Err(ShaderError::HostShareable {
                label: label.to_owned(),
                binding: gv.name.clone().unwrap_or_default(),
                path: p.path_string_rev(),
                actual: p.actual,
                hint: p.hint,
            });
        }
    }
    let info = naga::valid::Validator::new(naga::valid::ValidationFlags::all(), caps)
        .validate(&module)
        .map_err(|e| ShaderError::Validation {
            label: label.to_owned(),
            message: error_chain(e.as_inner()),
            diagnostic: e.emit_to_string_with_path(source, label),
        })?;
    Ok((module, info))
}

/// `error: cause: cause…`, every source of an error on one line (naga's validation errors keep
/// the actual reason in their sources).
fn error_chain(e: &dyn std::error::Error) -> String {
    let mut s = e.to_string();
    let mut cur = e.source();
    // Bounded: error chains are short, but do not trust a cycle.
    for _ in 0..16 {
        let Some(c) = cur else { break };
        s.push_str(": ");
        s.push_str(&c.to_string());
        cur = c.source();
    }
    s
}
