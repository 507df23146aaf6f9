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

/// Describes a `Sampler`; hashable so samplers are cached by descriptor.
/// `Default`: clamp to edge, linear filtering, no comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SamplerDesc {
    /// Address mode for u, v and w.
    pub address_mode: wgpu::AddressMode,
    /// Magnification filter.
    pub mag_filter: wgpu::FilterMode,
    /// Minification filter.
    pub min_filter: wgpu::FilterMode,
    /// Mipmap filter.
    pub mipmap_filter: wgpu::MipmapFilterMode,
    /// Comparison function, for `sampler_comparison` (shadow maps).
    pub compare: Option<wgpu::CompareFunction>,
}

impl Default for SamplerDesc {
    fn default() -> Self {
        SamplerDesc {
            address_mode: wgpu::AddressMode::ClampToEdge,
            mag_filter: wgpu::FilterMode::Linear,
            min_filter: wgpu::FilterMode::Linear,
            mipmap_filter: wgpu::MipmapFilterMode::Nearest,
            compare: None,
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
