//! [`TargetDesc`]: what an offscreen target is made of (size, color format, depth, samples).

/// Describes a [`Target`](crate::Target). `Default`: 1×1 `Rgba8Unorm`, no depth, one sample.
#[derive(Clone, Debug)]
pub struct TargetDesc {
    /// Label used in errors and wgpu messages.
    pub label: String,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Color format (must be renderable).
    pub format: wgpu::TextureFormat,
    /// Whether the target has a color attachment (`false`: depth only, e.g. a shadow map).
    pub color: bool,
    /// Depth format, if the target has a depth attachment.
    pub depth: Option<wgpu::TextureFormat>,
    /// MSAA sample count (1 or 4); with 4, passes resolve into the single-sample color texture.
    pub sample_count: u32,
}

impl Default for TargetDesc {
    fn default() -> Self {
        TargetDesc {
            label: "target".to_owned(),
            width: 1,
            height: 1,
            format: wgpu::TextureFormat::Rgba8Unorm,
            color: true,
            depth: None,
            sample_count: 1,
        }
    }
}

impl TargetDesc {
    /// A `width`×`height` `Rgba8Unorm` target.
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
            color: false,
            depth: Some(format),
            ..Default::default()
        }
    }
    /// Sets the label.
    pub fn label(mut self, label: impl Into<String>) -> Self {
        self.label = label.into();
        self
    }
    /// Sets the color format.
    pub fn format(mut self, format: wgpu::TextureFormat) -> Self {
        self.format = format;
        self
    }
    /// Adds a depth attachment.
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
