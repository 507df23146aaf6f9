//! Where a render pass draws and how it begins: [`PassTarget`] (a target or a window surface),
//! [`PassDesc`] (clears, viewport, scissor, label), and the wgpu render pass begun from them.

use crate::surface::Surface;
use crate::target::Target;

/// Where a render pass draws: an offscreen (or app-provided) [`Target`], or a window
/// [`Surface`].
#[derive(Clone, Copy, Debug)]
pub enum PassTarget<'t> {
    /// A target (see [`Gpu::target`](crate::Gpu::target) and
    /// [`Gpu::target_for_view`](crate::Gpu::target_for_view)).
    Target(&'t Target),
    /// A window surface: its texture is acquired by the first pass into it and presented after
    /// the frame's submit.
    Surface(&'t Surface),
}

impl<'t> From<&'t Target> for PassTarget<'t> {
    fn from(t: &'t Target) -> Self {
        PassTarget::Target(t)
    }
}

impl<'t> From<&'t Surface> for PassTarget<'t> {
    fn from(s: &'t Surface) -> Self {
        PassTarget::Surface(s)
    }
}

/// The label of a [`PassDesc`] that was not given one.
pub(crate) const DEFAULT_PASS_LABEL: &str = "pass";

/// Describes a render pass. `From<&Target>` and `From<&Surface>` clear color to transparent
/// black and depth to 1.
#[derive(Clone, Debug)]
pub struct PassDesc<'t> {
    /// What the pass renders into.
    pub target: PassTarget<'t>,
    /// Label, shown in GPU timings; given to wgpu (and so in its messages) unless it is the
    /// default `"pass"` (wgpu copies a pass's label into two `String`s: the default one costs
    /// nothing).
    pub label: &'t str,
    /// Clear color (`None` keeps the target's contents).
    pub clear: Option<[f64; 4]>,
    /// Depth clear value (`None` keeps the depth contents).
    pub clear_depth: Option<f32>,
    /// Viewport `[x, y, width, height, min_depth, max_depth]`.
    pub viewport: Option<[f32; 6]>,
    /// Scissor rectangle `[x, y, width, height]`.
    pub scissor: Option<[u32; 4]>,
    /// Occlusion queries the pass's draws may count samples into
    /// ([`Pass::begin_occlusion_query`](crate::Pass)).
    pub occlusion: Option<&'t crate::OcclusionQueries>,
}

impl<'t> PassDesc<'t> {
    /// A pass into `target` that clears color to transparent black and depth to 1.
    pub fn new(target: impl Into<PassTarget<'t>>) -> Self {
        PassDesc {
            target: target.into(),
            label: DEFAULT_PASS_LABEL,
            clear: Some([0.0, 0.0, 0.0, 0.0]),
            clear_depth: Some(1.0),
            viewport: None,
            scissor: None,
            occlusion: None,
        }
    }
    /// Sets the label.
    pub fn label(mut self, label: &'t str) -> Self {
        self.label = label;
        self
    }
    /// Clears color to `rgba`.
    pub fn clear(mut self, rgba: [f64; 4]) -> Self {
        self.clear = Some(rgba);
        self
    }
    /// Keeps the target's color and depth contents.
    pub fn load(mut self) -> Self {
        self.clear = None;
        self.clear_depth = None;
        self
    }
    /// Clears depth to `depth`.
    pub fn clear_depth(mut self, depth: f32) -> Self {
        self.clear_depth = Some(depth);
        self
    }
    /// Sets the viewport.
    pub fn viewport(mut self, x: f32, y: f32, w: f32, h: f32) -> Self {
        self.viewport = Some([x, y, w, h, 0.0, 1.0]);
        self
    }
    /// Sets the scissor rectangle.
    pub fn scissor(mut self, x: u32, y: u32, w: u32, h: u32) -> Self {
        self.scissor = Some([x, y, w, h]);
        self
    }
    /// Gives the pass occlusion queries to count into.
    pub fn occlusion(mut self, queries: &'t crate::OcclusionQueries) -> Self {
        self.occlusion = Some(queries);
        self
    }
}

impl<'t> From<&'t Target> for PassDesc<'t> {
    fn from(target: &'t Target) -> Self {
        PassDesc::new(target)
    }
}

impl<'t> From<&'t Surface> for PassDesc<'t> {
    fn from(surface: &'t Surface) -> Self {
        PassDesc::new(surface)
    }
}

/// The views a render pass draws into.
pub(crate) struct PassAttachments {
    pub(crate) color: Option<wgpu::TextureView>,
    pub(crate) resolve: Option<wgpu::TextureView>,
    pub(crate) depth: Option<wgpu::TextureView>,
}

/// Begins the wgpu render pass of `desc` into `attachments`, with their load operations,
/// timestamps at `(query set, pass index)`, viewport and scissor.
pub(crate) fn begin_render_pass<'e>(
    encoder: &'e mut wgpu::CommandEncoder,
    desc: &PassDesc<'_>,
    attachments: &PassAttachments,
    timestamps: Option<(&wgpu::QuerySet, u32)>,
) -> wgpu::RenderPass<'e> {
    let color = attachments
        .color
        .as_ref()
        .map(|view| wgpu::RenderPassColorAttachment {
            view,
            depth_slice: None,
            resolve_target: attachments.resolve.as_ref(),
            ops: wgpu::Operations {
                load: match desc.clear {
                    Some([r, g, b, a]) => wgpu::LoadOp::Clear(wgpu::Color { r, g, b, a }),
                    None => wgpu::LoadOp::Load,
                },
                store: wgpu::StoreOp::Store,
            },
        });
    let depth = attachments
        .depth
        .as_ref()
        .map(|view| wgpu::RenderPassDepthStencilAttachment {
            view,
            depth_ops: Some(wgpu::Operations {
                load: match desc.clear_depth {
                    Some(d) => wgpu::LoadOp::Clear(d),
                    None => wgpu::LoadOp::Load,
                },
                store: wgpu::StoreOp::Store,
            }),
            stencil_ops: None,
        });
    let color_attachments = [color];
    let mut rpass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
        label: (desc.label != DEFAULT_PASS_LABEL).then_some(desc.label),
        color_attachments: if color_attachments[0].is_some() {
            &color_attachments
        } else {
            &[]
        },
        depth_stencil_attachment: depth,
        timestamp_writes: timestamps.map(|(query_set, i)| wgpu::RenderPassTimestampWrites {
            query_set,
            beginning_of_pass_write_index: Some(2 * i),
            end_of_pass_write_index: Some(2 * i + 1),
        }),
        occlusion_query_set: desc.occlusion.map(|q| q.query_set()),
        multiview_mask: None,
    });
    if let Some([x, y, w, h, min, max]) = desc.viewport {
        rpass.set_viewport(x, y, w, h, min, max);
    }
    if let Some([x, y, w, h]) = desc.scissor {
        rpass.set_scissor_rect(x, y, w, h);
    }
    rpass
}
