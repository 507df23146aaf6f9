//! Composing a shader's modules ([`ShaderModules::compose`]): the WESL compiler over the
//! resolver, on a thread with a large stack, its panics and errors told in the modules' terms.

use crate::error::ModuleError;
use crate::locate::{self, Composed};
use crate::modules::ShaderModules;
use crate::resolver::{self, ModuleResolver};

/// Stack of the thread that composes.
const COMPOSE_STACK_BYTES: usize = 256 << 20;

impl ShaderModules {
    /// Composes the shader whose root module is `root` (`"main"`, `"lit/main"`) into one WGSL
    /// source: imports resolved, `@if` evaluated, declarations no entry point reaches stripped.
    /// Fails with `VGPU-SHADER-MODULE` naming the module, line and column (a missing module or
    /// item, a cycle, a parse error in a module, a path leaving the folder, a limit passed).
    pub fn compose(&self, label: &str, root: &str) -> Result<String, ModuleError> {
        self.compose_mapped(label, root).map(|c| c.wgsl)
    }

    /// [`compose`](Self::compose), keeping what maps the composed text back to the modules
    /// ([`Composed::locate`]) and the files read.
    pub fn compose_mapped(&self, label: &str, root: &str) -> Result<Composed, ModuleError> {
        // WESL's passes recurse over the syntax trees: they run on a thread with a large stack
        // (and each module passed the resolver's operator limit), as naga does in vgpu-core.
        std::thread::scope(|scope| {
            let spawned = std::thread::Builder::new()
                .name("vgpu-wesl".to_owned())
                .stack_size(COMPOSE_STACK_BYTES)
                .spawn_scoped(scope, || self.compose_here(label, root));
            match spawned {
                Ok(handle) => handle.join().unwrap_or_else(|panic| {
                    Err(ModuleError::panicked(label, root, panic_message(&panic)))
                }),
                // No thread available (wasm32): here, still under the resolver's limits.
                Err(_) => self.compose_here(label, root),
            }
        })
    }

    /// [`compose_mapped`](Self::compose_mapped) on this thread.
    fn compose_here(&self, label: &str, root: &str) -> Result<Composed, ModuleError> {
        let resolver = ModuleResolver::new(self);
        let root_path = resolver::module_path(root).ok_or_else(|| {
            ModuleError::new(
                label,
                root,
                (0, 0),
                "a root module path is names of letters, digits and `_`, separated by `/` or `::`",
            )
        })?;
        let mut options = wesl::CompileOptions {
            validate: false,
            ..Default::default()
        };
        // A feature a module tests that was not set is an error naming it, not silently off.
        options.features.default = wesl::Feature::Error;
        for (name, enabled) in &self.features {
            options
                .features
                .flags
                .insert(name.clone(), wesl::Feature::from(*enabled));
        }
        let mangler = wesl::EscapeMangler;
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            wesl::compile_sourcemap(&root_path, &resolver, &mangler, &options)
                .map(|r| Composed::new(r, &resolver))
        }))
        .map_err(|panic| ModuleError::panicked(label, root, panic_message(&panic)))?
        .map_err(|e| locate::wesl_error(label, root, &resolver, &e))?;
        Ok(result)
    }
}

/// A caught panic's message.
fn panic_message(panic: &Box<dyn std::any::Any + Send>) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "(no message)".to_owned())
}
