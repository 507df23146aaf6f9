//! What a pipeline must match to draw into a pass: [`TargetSignature`] (color formats, depth
//! format, samples, read-only aspects) and its list of color formats ([`ColorFormats`]). Data
//! only.

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
    /// let c = vgpu::ColorFormats::from_slice(&[F::Rgba8Unorm, F::Rgba16Float]).unwrap();
    /// assert_eq!(c.as_slice(), &[F::Rgba8Unorm, F::Rgba16Float]);
    /// assert!(vgpu::ColorFormats::from_slice(&[F::R8Unorm; 9]).is_none());
    /// ```
    pub fn from_slice(formats: &[wgpu::TextureFormat]) -> Option<Self> {
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
