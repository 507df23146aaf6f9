//! vgpu's WGSL standard library: modules a shader imports by name (`import vgpu::noise::fbm2;`
//! in a shader composed from modules), or whose source a single-string shader pastes in.

/// One module of the standard library.
#[derive(Clone, Copy, Debug)]
pub struct StdModule {
    /// Its name (`noise` is imported as `vgpu::noise`).
    pub name: &'static str,
    /// Its WGSL source (no imports: each module stands alone).
    pub source: &'static str,
}

/// Every module of the standard library.
pub const MODULES: &[StdModule] = &[];

/// The module named `name`, if the standard library has one.
pub fn module(name: &str) -> Option<&'static StdModule> {
    MODULES.iter().find(|m| m.name == name)
}
