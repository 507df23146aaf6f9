//! [`TargetDesc`]: what an offscreen target is made of (size, color formats, depth, samples).

/// Describes a [`Target`](crate::Target). `Default`: 1×1, one `Rgba8Unorm` color attachment, no
/// depth, one sample.
#[derive(Clone, Debug)]
pub struct TargetDesc {
    /// Label used in errors and wgpu messages.
    pub label: String,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// The color attachments' formats, attachment 0 (`@location(0)`) first; empty for a
    /// depth-only target (a shadow map). Each must be renderable; together they must fit the
    /// device's `max_color_attachments` and `max_color_attachment_bytes_per_sample`.
    pub colors: Vec<wgpu::TextureFormat>,
    /// Depth (or depth-stencil, e.g. `Depth24PlusStencil8`) format, if the target has one.
    pub depth: Option<wgpu::TextureFormat>,
    /// MSAA sample count (1 or 4); with 4, passes resolve into the single-sample color textures.
    pub sample_count: u32,
}

impl Default for TargetDesc {
    fn default() -> Self {
        TargetDesc {
            label: "target".to_owned(),
            width: 1,
            height: 1,
            colors: vec![wgpu::TextureFormat::Rgba8Unorm],
            depth: None,
            sample_count: 1,
        }
    }
}

impl TargetDesc {
    /// A `width`×`height` target with one `Rgba8Unorm` color attachment.
    pub fn new(width: u32, height: u32) -> Self {
        TargetDesc {
            width,
            height,
            ..Default::default()
        }
    }
    /// A depth-only `width`×`height` target (a shadow map): no color attachment; bind its
    /// depth with `BindingArg::TargetDepth` to a `texture_depth_2d`.
    pub fn depth_only(width: u32, height: u32, format: wgpu::TextureFormat) -> Self {
        TargetDesc {
            width,
            height,
            colors: Vec::new(),
            depth: Some(format),
            ..Default::default()
        }
    }
    /// Sets the label.
    pub fn label(mut self, label: impl Into<String>) -> Self {
        self.label = label.into();
        self
    }
    /// One color attachment of `format`.
    pub fn format(mut self, format: wgpu::TextureFormat) -> Self {
        self.colors = vec![format];
        self
    }
    /// Several color attachments (a G-buffer), attachment 0 first.
    ///
    /// ```
    /// use vgpu::wgpu::TextureFormat as F;
    /// let gpu = vgpu::Gpu::noop();
    /// let gbuffer = gpu.target_with(
    ///     &vgpu::TargetDesc::new(64, 64)
    ///         .colors(&[F::Rgba8Unorm, F::Rgba16Float, F::Rgba16Float])
    ///         .depth(F::Depth24PlusStencil8),
    /// )?;
    /// assert_eq!(gbuffer.signature().colors.len(), 3);
    /// # Ok::<(), vgpu::Error>(())
    /// ```
    pub fn colors(mut self, formats: &[wgpu::TextureFormat]) -> Self {
        self.colors = formats.to_vec();
        self
    }
    /// Adds a depth (or depth-stencil) attachment.
    pub fn depth(mut self, format: wgpu::TextureFormat) -> Self {
        self.depth = Some(format);
        self
    }
    /// Sets the MSAA sample count.
    pub fn samples(mut self, count: u32) -> Self {
        self.sample_count = count;
        self
    }
}
