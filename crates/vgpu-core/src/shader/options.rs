//! How a shader is parsed: [`ShaderOptions`] (device features, downlevel flags, and the bounds
//! on hostile sources).

/// Options for [`Shader::with_options`](crate::Shader::with_options).
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct ShaderOptions {
    /// Device features; they choose naga's capabilities (`SHADER_F16` enables `f16`, …).
    pub features: wgpu::Features,
    /// Downlevel flags; they choose the remaining capabilities (cube arrays, …).
    pub downlevel: wgpu::DownlevelFlags,
    /// Sources longer than this are rejected before parsing.
    pub max_source_bytes: usize,
    /// Most operator tokens (`+ - * / . [ (` …) allowed in one statement; bounds the depth of
    /// naga's recursive descent so hostile input cannot overflow its stack.
    pub max_statement_operators: usize,
}

impl Default for ShaderOptions {
    fn default() -> Self {
        ShaderOptions {
            features: wgpu::Features::empty(),
            downlevel: wgpu::DownlevelFlags::compliant(),
            max_source_bytes: 512 * 1024,
            max_statement_operators: 16 * 1024,
        }
    }
}

impl ShaderOptions {
    /// Default limits with the given device features.
    pub fn with_features(features: wgpu::Features) -> Self {
        ShaderOptions {
            features,
            ..Default::default()
        }
    }
}
