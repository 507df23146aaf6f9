//! vgpu's WGSL standard library (from the `vgpu-modules` crate): modules a shader composed by
//! [`Gpu::shader_from`](crate::Gpu::shader_from) imports by name (`import vgpu::noise::fbm2;`),
//! or whose source a single-string shader pastes in.
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
//! let noise = vgpu::wgsl::module("noise").expect("a standard module");
//! let gpu = vgpu::Gpu::noop();
//! let source = format!(
//!     "{}\n@fragment fn fs_main(@builtin(position) p: vec4f) -> @location(0) vec4f {{
//!          return vec4f(vec3f(fbm2(p.xy / 64.0, 5u, 2.0, 0.5) * 0.5 + 0.5), 1.0);
//!      }}",
//!     noise.source
//! );
//! gpu.shader("clouds", &source)?;
//! # Ok::<(), vgpu::Error>(())
//! ```

pub use vgpu_modules::wgsl::{MODULES, PACKAGE, StdModule, module};
