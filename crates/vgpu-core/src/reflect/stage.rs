//! The pipeline stages vgpu reflects ([`Stage`]).

/// A pipeline stage vgpu reflects.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stage {
    /// `@vertex`.
    Vertex,
    /// `@fragment`.
    Fragment,
    /// `@compute`.
    Compute,
}

impl Stage {
    /// The matching `wgpu::ShaderStages` flag.
    pub const fn to_wgpu(self) -> wgpu::ShaderStages {
        match self {
            Stage::Vertex => wgpu::ShaderStages::VERTEX,
            Stage::Fragment => wgpu::ShaderStages::FRAGMENT,
            Stage::Compute => wgpu::ShaderStages::COMPUTE,
        }
    }

    /// The conventional entry-point name vgpu looks for first (`vs_main`, `fs_main`, `cs_main`).
    pub const fn default_entry_point(self) -> &'static str {
        match self {
            Stage::Vertex => "vs_main",
            Stage::Fragment => "fs_main",
            Stage::Compute => "cs_main",
        }
    }

    /// Lower-case name (`vertex`, `fragment`, `compute`).
    pub const fn name(self) -> &'static str {
        match self {
            Stage::Vertex => "vertex",
            Stage::Fragment => "fragment",
            Stage::Compute => "compute",
        }
    }

    pub(crate) fn from_naga(stage: naga::ShaderStage) -> Option<Self> {
        match stage {
            naga::ShaderStage::Vertex => Some(Stage::Vertex),
            naga::ShaderStage::Fragment => Some(Stage::Fragment),
            naga::ShaderStage::Compute => Some(Stage::Compute),
            _ => None,
        }
    }
}
