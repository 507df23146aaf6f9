//! Plain descriptions shared by the handles and the state layer: depth testing
//! ([`DepthState`]), a color attachment's blending ([`ColorTarget`]), explicit draw ranges
//! ([`DrawRange`]) and sampler descriptors ([`SamplerDesc`]). Data only: no device, no state.
//! What a pipeline must match is in `target_signature.rs` (re-exported here for the crate).

pub(crate) use crate::target_signature::{ColorFormats, TargetSignature};

/// Depth testing for draws rendered into targets with a depth attachment (ignored otherwise).
///
/// Defaults (`Less`, writes on) are upstream vgpu's and most renderers'; WebGPU itself has no
/// default compare function (it must be given when depth is used).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DepthState {
    /// Comparison against the stored depth. Default `Less`.
    pub compare: wgpu::CompareFunction,
    /// Whether passing fragments write their depth. Default `true` (a pass whose depth is
    /// read-only draws with writes off).
    pub write: bool,
    /// Constant depth bias (e.g. for shadow maps). Default 0.
    pub bias: i32,
    /// Slope-scaled depth bias, as `f32` bits. Default 0.
    pub bias_slope_scale_bits: u32,
    /// Largest depth bias magnitude (0: no clamp), as `f32` bits. Default 0.
    pub bias_clamp_bits: u32,
}

impl Default for DepthState {
    fn default() -> Self {
        DepthState {
            compare: wgpu::CompareFunction::Less,
            write: true,
            bias: 0,
            bias_slope_scale_bits: 0,
            bias_clamp_bits: 0,
        }
    }
}

impl DepthState {
    /// Sets the depth bias: `constant`, `slope_scale`, and `clamp` (the largest magnitude; 0:
    /// none).
    ///
    /// ```
    /// let d = vgpu::DepthState::default().bias(2, 1.5, 0.01);
    /// assert_eq!(f32::from_bits(d.bias_clamp_bits), 0.01);
    /// ```
    pub fn bias(mut self, constant: i32, slope_scale: f32, clamp: f32) -> Self {
        self.bias = constant;
        self.bias_slope_scale_bits = slope_scale.to_bits();
        self.bias_clamp_bits = clamp.to_bits();
        self
    }
}

/// One color attachment's blending and write mask for a draw (see `DrawDesc::colors`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ColorTarget {
    /// Blending; `None` replaces.
    pub blend: Option<wgpu::BlendState>,
    /// Channels written.
    pub write_mask: wgpu::ColorWrites,
}

impl Default for ColorTarget {
    fn default() -> Self {
        ColorTarget {
            blend: None,
            write_mask: wgpu::ColorWrites::ALL,
        }
    }
}

/// A draw's vertex/instance ranges.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DrawRange {
    /// Vertices (or indices, for indexed draws).
    pub vertices: std::ops::Range<u32>,
    /// Instances.
    pub instances: std::ops::Range<u32>,
}

/// Describes a `Sampler`; hashable so samplers are cached by descriptor (equal descriptors share
/// one wgpu sampler; the `f32` LOD clamps compare and hash by their bits).
/// `Default`: clamp to edge on every axis, linear filtering, no mip blending, LOD 0..=32, no
/// anisotropy, no comparison.
///
/// `Gpu::sampler` checks it: LOD clamps finite, `0 <= lod_min_clamp <= lod_max_clamp`;
/// `anisotropy_clamp` in 1..=16, above 1 only with every filter `Linear`
/// (`VGPU-SAMPLER-DESC`); `ClampToBorder` needs a `border_color` and the device feature
/// `ADDRESS_MODE_CLAMP_TO_BORDER` (`VGPU-FEATURE-MISSING`).
///
/// ```
/// use vgpu::SamplerDesc;
/// let tiled = SamplerDesc {
///     address_mode_v: wgpu::AddressMode::ClampToEdge,
///     ..SamplerDesc::repeat()
/// };
/// assert_eq!(tiled.address_mode_u, wgpu::AddressMode::Repeat);
/// assert_eq!(SamplerDesc::default().with_lod_clamp(1.0, 1.0), SamplerDesc::default().with_lod_clamp(1.0, 1.0));
/// ```
#[derive(Clone, Copy, Debug)]
pub struct SamplerDesc {
    /// Address mode across (u, x).
    pub address_mode_u: wgpu::AddressMode,
    /// Address mode down (v, y).
    pub address_mode_v: wgpu::AddressMode,
    /// Address mode in depth (w, z: 3D textures).
    pub address_mode_w: wgpu::AddressMode,
    /// Magnification filter.
    pub mag_filter: wgpu::FilterMode,
    /// Minification filter.
    pub min_filter: wgpu::FilterMode,
    /// Mipmap filter.
    pub mipmap_filter: wgpu::MipmapFilterMode,
    /// Smallest mip level (LOD) sampled. Default 0.
    pub lod_min_clamp: f32,
    /// Largest mip level (LOD) sampled. Default 32.
    pub lod_max_clamp: f32,
    /// Largest anisotropy, 1..=16 (1: none; above 1 needs every filter `Linear`). Default 1.
    pub anisotropy_clamp: u16,
    /// Comparison function, for `sampler_comparison` (shadow maps).
    pub compare: Option<wgpu::CompareFunction>,
    /// The color outside the texture on `ClampToBorder` axes.
    pub border_color: Option<wgpu::SamplerBorderColor>,
}

impl SamplerDesc {
    /// Everything but the `f32`s, and those as bits: what equality and the hash use.
    #[expect(clippy::type_complexity, reason = "a private key tuple")]
    fn key(
        &self,
    ) -> (
        [wgpu::AddressMode; 3],
        [wgpu::FilterMode; 2],
        wgpu::MipmapFilterMode,
        [u32; 2],
        u16,
        Option<wgpu::CompareFunction>,
        Option<wgpu::SamplerBorderColor>,
    ) {
        (
            [
                self.address_mode_u,
                self.address_mode_v,
                self.address_mode_w,
            ],
            [self.mag_filter, self.min_filter],
            self.mipmap_filter,
            [self.lod_min_clamp.to_bits(), self.lod_max_clamp.to_bits()],
            self.anisotropy_clamp,
            self.compare,
            self.border_color,
        )
    }
}

impl PartialEq for SamplerDesc {
    fn eq(&self, other: &Self) -> bool {
        self.key() == other.key()
    }
}

impl Eq for SamplerDesc {}

impl std::hash::Hash for SamplerDesc {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.key().hash(state);
    }
}

impl Default for SamplerDesc {
    fn default() -> Self {
        SamplerDesc {
            address_mode_u: wgpu::AddressMode::ClampToEdge,
            address_mode_v: wgpu::AddressMode::ClampToEdge,
            address_mode_w: wgpu::AddressMode::ClampToEdge,
            mag_filter: wgpu::FilterMode::Linear,
            min_filter: wgpu::FilterMode::Linear,
            mipmap_filter: wgpu::MipmapFilterMode::Nearest,
            lod_min_clamp: 0.0,
            lod_max_clamp: 32.0,
            anisotropy_clamp: 1,
            compare: None,
            border_color: None,
        }
    }
}

impl SamplerDesc {
    /// Nearest filtering.
    pub fn nearest() -> Self {
        SamplerDesc {
            mag_filter: wgpu::FilterMode::Nearest,
            min_filter: wgpu::FilterMode::Nearest,
            ..Default::default()
        }
    }
    /// A comparison sampler for shadow maps (`LessEqual`, linear).
    pub fn shadow() -> Self {
        SamplerDesc {
            compare: Some(wgpu::CompareFunction::LessEqual),
            ..Default::default()
        }
    }
    /// Linear filtering that repeats (tiles) on every axis.
    pub fn repeat() -> Self {
        SamplerDesc::default().with_address_mode(wgpu::AddressMode::Repeat)
    }
    /// Linear filtering that mirrors on every axis.
    pub fn mirror() -> Self {
        SamplerDesc::default().with_address_mode(wgpu::AddressMode::MirrorRepeat)
    }
    /// This descriptor with `mode` on all three axes.
    ///
    /// ```
    /// let s = vgpu::SamplerDesc::nearest().with_address_mode(wgpu::AddressMode::Repeat);
    /// assert_eq!(s.address_mode_w, wgpu::AddressMode::Repeat);
    /// assert_eq!(s.mag_filter, wgpu::FilterMode::Nearest);
    /// ```
    pub fn with_address_mode(mut self, mode: wgpu::AddressMode) -> Self {
        self.address_mode_u = mode;
        self.address_mode_v = mode;
        self.address_mode_w = mode;
        self
    }
    /// This descriptor sampling mip levels `min..=max` only.
    pub fn with_lod_clamp(mut self, min: f32, max: f32) -> Self {
        self.lod_min_clamp = min;
        self.lod_max_clamp = max;
        self
    }
    /// This descriptor with anisotropic filtering up to `clamp` (1..=16), and every filter
    /// (mag, min, mipmap) `Linear`, as anisotropy needs.
    pub fn with_anisotropy(mut self, clamp: u16) -> Self {
        self.anisotropy_clamp = clamp;
        self.mag_filter = wgpu::FilterMode::Linear;
        self.min_filter = wgpu::FilterMode::Linear;
        self.mipmap_filter = wgpu::MipmapFilterMode::Linear;
        self
    }
    /// This descriptor with `ClampToBorder` on all three axes and `color` outside the texture
    /// (needs the device feature `ADDRESS_MODE_CLAMP_TO_BORDER`).
    pub fn with_border(mut self, color: wgpu::SamplerBorderColor) -> Self {
        self.border_color = Some(color);
        self.with_address_mode(wgpu::AddressMode::ClampToBorder)
    }
}

/// Identifies one `Gpu` (and its clones) for the life of the process: every handle
/// carries the id of the `Gpu` that created it, and every entry point that takes a handle refuses
/// one of another `Gpu` (`VGPU-FOREIGN-GPU`). Never reused, unlike an address.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct GpuId(u64);

impl GpuId {
    /// An id no `Gpu` has (ids start at 1).
    pub(crate) const NONE: GpuId = GpuId(0);

    /// A fresh id.
    pub(crate) fn next() -> GpuId {
        static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
        GpuId(NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed))
    }
}
