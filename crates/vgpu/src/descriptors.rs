//! Plain descriptions shared by the handles and the state layer: what a pipeline must match
//! ([`TargetSignature`]), depth testing ([`DepthState`]), explicit draw ranges ([`DrawRange`]) and
//! sampler descriptors ([`SamplerDesc`]). Data only: no device, no state.

/// Most color attachments a target may have (WebGPU's and wgpu's upper bound; the device's
/// `max_color_attachments` may be lower).
pub const MAX_COLOR_ATTACHMENTS: usize = 8;

/// The color formats of a target's attachments, in attachment (and `@location`) order: at most
/// [`MAX_COLOR_ATTACHMENTS`], `Copy` and hashable like the rest of a [`TargetSignature`].
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct ColorFormats {
    len: u8,
    /// The formats; entries at `len..` are always `Rgba8Unorm` (so derived equality and hashing
    /// see only the formats given).
    formats: [wgpu::TextureFormat; MAX_COLOR_ATTACHMENTS],
}

impl ColorFormats {
    /// No color attachment (a depth-only target).
    pub const NONE: ColorFormats = ColorFormats {
        len: 0,
        formats: [wgpu::TextureFormat::Rgba8Unorm; MAX_COLOR_ATTACHMENTS],
    };

    /// One color attachment of `format`.
    pub fn one(format: wgpu::TextureFormat) -> Self {
        let mut c = Self::NONE;
        c.formats[0] = format;
        c.len = 1;
        c
    }

    /// The formats of `formats`, or `None` for more than [`MAX_COLOR_ATTACHMENTS`].
    ///
    /// ```
    /// use vgpu::wgpu::TextureFormat as F;
    /// let c = vgpu::ColorFormats::new(&[F::Rgba8Unorm, F::Rgba16Float]).unwrap();
    /// assert_eq!(c.as_slice(), &[F::Rgba8Unorm, F::Rgba16Float]);
    /// assert!(vgpu::ColorFormats::new(&[F::R8Unorm; 9]).is_none());
    /// ```
    pub fn new(formats: &[wgpu::TextureFormat]) -> Option<Self> {
        if formats.len() > MAX_COLOR_ATTACHMENTS {
            return None;
        }
        let mut c = Self::NONE;
        c.formats[..formats.len()].copy_from_slice(formats);
        c.len = formats.len() as u8;
        Some(c)
    }

    /// The formats, attachment 0 first.
    pub fn as_slice(&self) -> &[wgpu::TextureFormat] {
        &self.formats[..usize::from(self.len)]
    }

    /// The first attachment's format.
    pub fn first(&self) -> Option<wgpu::TextureFormat> {
        self.as_slice().first().copied()
    }

    /// How many color attachments.
    pub fn len(&self) -> usize {
        usize::from(self.len)
    }

    /// Whether there is no color attachment.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl std::fmt::Debug for ColorFormats {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

/// What a pipeline must match to render into a pass: its attachments' formats, its sample count,
/// and whether the pass keeps depth or stencil read-only (a draw's pipeline for such a pass
/// writes neither).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TargetSignature {
    /// Color formats, attachment 0 first (empty for a depth-only target).
    pub colors: ColorFormats,
    /// Depth (or depth-stencil) format, if any.
    pub depth: Option<wgpu::TextureFormat>,
    /// Sample count.
    pub samples: u32,
    /// The pass only reads the depth aspect (its draws may sample it).
    pub depth_read_only: bool,
    /// The pass only reads the stencil aspect.
    pub stencil_read_only: bool,
}

impl TargetSignature {
    /// One color attachment (or none), `depth`, `samples`, nothing read-only.
    ///
    /// ```
    /// use vgpu::wgpu::TextureFormat as F;
    /// let sig = vgpu::TargetSignature::new(Some(F::Bgra8Unorm), Some(F::Depth32Float), 1);
    /// assert_eq!(sig.color(), Some(F::Bgra8Unorm));
    /// ```
    pub fn new(
        color: Option<wgpu::TextureFormat>,
        depth: Option<wgpu::TextureFormat>,
        samples: u32,
    ) -> Self {
        TargetSignature {
            colors: color.map_or(ColorFormats::NONE, ColorFormats::one),
            depth,
            samples,
            depth_read_only: false,
            stencil_read_only: false,
        }
    }

    /// The first color attachment's format.
    pub fn color(&self) -> Option<wgpu::TextureFormat> {
        self.colors.first()
    }

    /// Whether the depth format has a stencil aspect.
    pub fn has_stencil(&self) -> bool {
        self.depth.is_some_and(|d| d.has_stencil_aspect())
    }
}

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
