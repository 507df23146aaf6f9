//! vgpu's WGSL standard library: modules a shader imports by name (`import vgpu::noise::fbm2;`
//! in a shader composed from modules), or whose source a single-string shader pastes in.
//!
//! Every module stands alone (no imports between modules), declares no bindings and no entry
//! points, and names its private helpers with the module's name as prefix: all modules
//! concatenated form one valid WGSL module. Each function has a comment with what it computes,
//! its range and its units.
//!
//! | module | contents |
//! |---|---|
//! | `hash` | PCG integer hashes (`pcg`, `pcg2d`, `pcg3d`, `pcg4d`) and float hashes in [0, 1) (`hash11`, `hash21`, `hash22`, `hash31`, `hash33`, `hash44`) |
//! | `noise` | value noise in [0, 1] (`value_noise2`, `value_noise3`), gradient noise in about [-1, 1] (`gradient_noise2`, `gradient_noise3`), fBm (`fbm2`, `fbm3`) |
//! | `color` | sRGB transfer functions, RGB/HSV, Rec. 709 luminance, Reinhard and ACES (Narkowicz) tone mapping |
//! | `math` | `PI`, `TAU`, `HALF_PI`, `INV_PI`, `E`; 2D/3D rotation matrices, quaternions, `remap` |
//! | `sampling` | bicubic (Catmull-Rom, B-spline) texture filtering, a 16-point Poisson disk, cosine-weighted hemisphere samples |
//! | `lighting` | Lambert, Blinn-Phong, GGX distribution, Smith-GGX (height-correlated), Schlick Fresnel, Cook-Torrance |
//! | `fullscreen` | the fullscreen triangle's clip position and uv from `vertex_index` |
//!
//! ```
//! let noise = vgpu_modules::wgsl::module("noise").expect("a standard module");
//! assert!(noise.source.contains("fn fbm2("));
//! ```

/// The package name of the standard library in composed shaders (`import vgpu::noise::…`).
pub const PACKAGE: &str = "vgpu";

/// One module of the standard library.
#[derive(Clone, Copy, Debug)]
pub struct StdModule {
    /// Its name (`noise` is imported as `vgpu::noise`).
    pub name: &'static str,
    /// Its WGSL source (no imports: each module stands alone).
    pub source: &'static str,
    /// A one-line description of what it holds.
    pub doc: &'static str,
}

/// Every module of the standard library.
pub const MODULES: &[StdModule] = &[
    StdModule {
        name: "hash",
        source: include_str!("hash.wgsl"),
        doc: "PCG integer hashes (1D to 4D) and float hashes in [0, 1)",
    },
    StdModule {
        name: "noise",
        source: include_str!("noise.wgsl"),
        doc: "value noise, gradient (Perlin-style) noise and fBm, in 2D and 3D",
    },
    StdModule {
        name: "color",
        source: include_str!("color.wgsl"),
        doc: "sRGB <-> linear, RGB <-> HSV, luminance, Reinhard and ACES tone mapping",
    },
    StdModule {
        name: "math",
        source: include_str!("math.wgsl"),
        doc: "constants, rotation matrices, quaternions, remapping",
    },
    StdModule {
        name: "sampling",
        source: include_str!("sampling.wgsl"),
        doc: "bicubic texture filtering, a Poisson disk, cosine-weighted hemisphere samples",
    },
    StdModule {
        name: "lighting",
        source: include_str!("lighting.wgsl"),
        doc: "Lambert, Blinn-Phong, GGX, Smith-GGX, Schlick Fresnel, Cook-Torrance",
    },
    StdModule {
        name: "fullscreen",
        source: include_str!("fullscreen.wgsl"),
        doc: "a fullscreen triangle: clip position and uv from the vertex index",
    },
];

/// The module named `name`, if the standard library has one.
pub fn module(name: &str) -> Option<&'static StdModule> {
    MODULES.iter().find(|m| m.name == name)
}
