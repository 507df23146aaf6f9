//! Which backend to use: [`BackendChoice`], and reading it from `VGPU_BACKEND`.

use std::fmt;

use crate::error::DeviceError;

/// Which backend to use. Parsed from `VGPU_BACKEND` by the `vgpu` crate.
///
/// A backend is only there when it was built: vgpu's feature of the same name is on (all are by
/// default) and wgpu supports it on the target (Metal on Apple platforms, DX12 on Windows, Vulkan
/// on Linux, Windows and Android, GL natively or as WebGL2 on wasm32, WebGPU on wasm32). Forcing
/// one that was not built fails with an error that says so; `auto` tries the built ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum BackendChoice {
    /// A hardware adapter if any (Vulkan, Metal, DX12, WebGPU, then GL), then a software one
    /// (Vulkan's lavapipe, DX12's WARP, GL's llvmpipe; a browser's fallback WebGPU adapter).
    #[default]
    Auto,
    /// Vulkan only (hardware first, then software).
    Vulkan,
    /// OpenGL / GLES only (through EGL or WGL), or WebGL2 on wasm32 (which needs a canvas: a
    /// window's surface).
    Gl,
    /// Metal only (macOS, iOS).
    Metal,
    /// DirectX 12 only (Windows; hardware first, then WARP).
    Dx12,
    /// The browser's WebGPU only (wasm32).
    WebGpu,
    /// wgpu's `noop` backend: validation and counting, no execution.
    Noop,
}

impl BackendChoice {
    /// The accepted names, in the order documented.
    pub const NAMES: [&'static str; 7] =
        ["auto", "vulkan", "gl", "metal", "dx12", "webgpu", "noop"];

    /// Parses `auto|vulkan|gl|metal|dx12|webgpu|noop` (case-insensitive, surrounding spaces
    /// ignored; also `vk`, `gles`, `opengl`, `webgl`, `webgl2`, `d3d12`).
    pub fn parse(value: &str, source_name: &'static str) -> Result<Self, DeviceError> {
        match value.trim().to_ascii_lowercase().as_str() {
            "auto" | "" => Ok(BackendChoice::Auto),
            "vulkan" | "vk" => Ok(BackendChoice::Vulkan),
            "gl" | "gles" | "opengl" | "webgl" | "webgl2" => Ok(BackendChoice::Gl),
            "metal" => Ok(BackendChoice::Metal),
            "dx12" | "d3d12" => Ok(BackendChoice::Dx12),
            "webgpu" => Ok(BackendChoice::WebGpu),
            "noop" => Ok(BackendChoice::Noop),
            _ => Err(DeviceError::UnknownBackend {
                source_name,
                actual: value.to_owned(),
            }),
        }
    }

    /// The canonical name.
    pub fn name(self) -> &'static str {
        match self {
            BackendChoice::Auto => "auto",
            BackendChoice::Vulkan => "vulkan",
            BackendChoice::Gl => "gl",
            BackendChoice::Metal => "metal",
            BackendChoice::Dx12 => "dx12",
            BackendChoice::WebGpu => "webgpu",
            BackendChoice::Noop => "noop",
        }
    }
}

impl fmt::Display for BackendChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Reads `VGPU_BACKEND`: `auto|vulkan|gl|metal|dx12|webgpu|noop`, unset means `auto` (always
/// unset on wasm32, which has no environment).
pub fn backend_from_env() -> Result<BackendChoice, DeviceError> {
    match std::env::var("VGPU_BACKEND") {
        Ok(v) => BackendChoice::parse(&v, "VGPU_BACKEND"),
        Err(std::env::VarError::NotPresent) => Ok(BackendChoice::Auto),
        Err(std::env::VarError::NotUnicode(v)) => Err(DeviceError::UnknownBackend {
            source_name: "VGPU_BACKEND",
            actual: v.to_string_lossy().into_owned(),
        }),
    }
}

/// The switch in the environment variable `name`: `None` when unset; `0`, `off`, `false` are
/// off and `1`, `on`, `true` on (ASCII case ignored); anything else is
/// [`DeviceError::BadSwitch`].
pub fn switch_from_env(name: &'static str) -> Result<Option<bool>, DeviceError> {
    let value = match std::env::var(name) {
        Ok(v) => v,
        Err(std::env::VarError::NotPresent) => return Ok(None),
        Err(std::env::VarError::NotUnicode(v)) => {
            return Err(DeviceError::BadSwitch {
                name,
                actual: v.to_string_lossy().into_owned(),
            });
        }
    };
    match value.trim().to_ascii_lowercase().as_str() {
        "0" | "off" | "false" => Ok(Some(false)),
        "1" | "on" | "true" => Ok(Some(true)),
        _ => Err(DeviceError::BadSwitch {
            name,
            actual: value,
        }),
    }
}
