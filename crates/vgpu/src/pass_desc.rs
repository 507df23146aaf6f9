//! Where a render pass draws and how it begins: [`PassTarget`] (a target or a window surface),
//! [`PassDesc`] (clears, viewport, scissor, label), and the wgpu render pass begun from them.

use smallvec::SmallVec;

use crate::descriptors::TargetSignature;
use crate::surface::Surface;
use crate::target::{PassAttachments, Target};

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

/// Describes a render pass. `From<&Target>` and `From<&Surface>` clear every color attachment
/// to transparent black (WebGPU's and upstream vgpu's default clear value; alpha 0), depth to 1
/// and stencil to 0.
#[derive(Clone, Debug)]
pub struct PassDesc<'t> {
    /// What the pass renders into.
    pub target: PassTarget<'t>,
    /// Label, shown in GPU timings; given to wgpu (and so in its messages) unless it is the
    /// default `"pass"` (wgpu copies a pass's label into two `String`s: the default one costs
    /// nothing).
    pub label: &'t str,
    /// Clear color of every color attachment (`None` keeps the target's contents).
    pub clear: Option<[f64; 4]>,
    /// Per color attachment, attachment 0 first: its clear color (`None` keeps its contents).
    /// Empty (the default): every attachment follows `clear`; attachments past a shorter list
    /// follow `clear` too.
    pub attachment_clears: &'t [Option<[f64; 4]>],
    /// Depth clear value (`None` keeps the depth contents).
    pub clear_depth: Option<f32>,
    /// Stencil clear value (`None` keeps the stencil contents); used when the depth format has a
    /// stencil aspect.
    pub clear_stencil: Option<u32>,
    /// The pass only reads depth: it is neither cleared nor written (draws' pipelines for the
    /// pass write no depth), and draws may sample the target's depth while testing against it
    /// where the device has `DownlevelFlags::READ_ONLY_DEPTH_STENCIL` (not GL, where the frame
    /// then fails wgpu's validation) and no stencil aspect is written (wgpu binds the attachment
    /// as read-only only when both aspects are).
    pub depth_read_only: bool,
    /// The pass only reads stencil (draws test against it, write nothing).
    pub stencil_read_only: bool,
    /// Blend constant at the start of the pass (`BlendFactor::Constant`); WebGPU's default is
    /// transparent black. Change it between draws with
    /// [`Pass::set_blend_constant`](crate::Pass::set_blend_constant).
    pub blend_constant: Option<[f64; 4]>,
    /// Stencil reference at the start of the pass (WebGPU's default: 0). Change it between
    /// draws with [`Pass::set_stencil_reference`](crate::Pass::set_stencil_reference).
    pub stencil_reference: u32,
    /// Viewport `[x, y, width, height, min_depth, max_depth]`.
    pub viewport: Option<[f32; 6]>,
    /// Scissor rectangle `[x, y, width, height]`.
    pub scissor: Option<[u32; 4]>,
    /// Occlusion queries the pass's draws may count samples into
    /// ([`Pass::begin_occlusion_query`](crate::Pass)).
    pub occlusion: Option<&'t crate::OcclusionQueries>,
    /// Whether the pass may be replayed from an auto-bundle (default `true`; see
    /// [`crate::DirectReason`]). `false` records it directly every frame.
    pub auto_bundle: bool,
}

impl<'t> PassDesc<'t> {
    /// A pass into `target` that clears color to transparent black and depth to 1.
    pub fn new(target: impl Into<PassTarget<'t>>) -> Self {
        PassDesc {
            target: target.into(),
            label: DEFAULT_PASS_LABEL,
            clear: Some([0.0, 0.0, 0.0, 0.0]),
            attachment_clears: &[],
            clear_depth: Some(1.0),
            clear_stencil: Some(0),
            depth_read_only: false,
            stencil_read_only: false,
            blend_constant: None,
            stencil_reference: 0,
            viewport: None,
            scissor: None,
            occlusion: None,
            auto_bundle: true,
        }
    }
    /// Whether the pass may be replayed from an auto-bundle (see [`crate::DirectReason`]):
    /// `false` records it directly every frame.
    pub fn auto_bundle(mut self, on: bool) -> Self {
        self.auto_bundle = on;
        self
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
    /// Clears (`Some`) or keeps (`None`) each color attachment, attachment 0 first.
    pub fn clear_attachments(mut self, clears: &'t [Option<[f64; 4]>]) -> Self {
        self.attachment_clears = clears;
        self
    }
    /// Keeps the target's color, depth and stencil contents.
    pub fn load(mut self) -> Self {
        self.clear = None;
        self.attachment_clears = &[];
        self.clear_depth = None;
        self.clear_stencil = None;
        self
    }
    /// Clears stencil to `value`.
    pub fn clear_stencil(mut self, value: u32) -> Self {
        self.clear_stencil = Some(value);
        self
    }
    /// Keeps depth read-only (loaded, not written): draws may sample it while testing against it.
    pub fn depth_read_only(mut self) -> Self {
        self.depth_read_only = true;
        self.clear_depth = None;
        self
    }
    /// Keeps stencil read-only (loaded, not written).
    pub fn stencil_read_only(mut self) -> Self {
        self.stencil_read_only = true;
        self.clear_stencil = None;
        self
    }
    /// Sets the blend constant at the start of the pass.
    pub fn blend_constant(mut self, rgba: [f64; 4]) -> Self {
        self.blend_constant = Some(rgba);
        self
    }
    /// Sets the stencil reference at the start of the pass.
    pub fn stencil_reference(mut self, reference: u32) -> Self {
        self.stencil_reference = reference;
        self
    }
    /// The signature of this pass into a target of signature `target`: its read-only aspects
    /// added.
    pub(crate) fn signature_for(&self, target: TargetSignature) -> TargetSignature {
        let has = |aspect: wgpu::TextureAspect| {
            target
                .depth
                .is_some_and(|d| d.aspect_specific_format(aspect).is_some())
        };
        TargetSignature {
            depth_read_only: self.depth_read_only && has(wgpu::TextureAspect::DepthOnly),
            stencil_read_only: self.stencil_read_only && has(wgpu::TextureAspect::StencilOnly),
            ..target
        }
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

/// A clear color as a load operation (`None`: load).
fn color_load(clear: Option<[f64; 4]>) -> wgpu::LoadOp<wgpu::Color> {
    match clear {
        Some([r, g, b, a]) => wgpu::LoadOp::Clear(wgpu::Color { r, g, b, a }),
        None => wgpu::LoadOp::Load,
    }
}

/// The operations on one aspect of the depth-stencil attachment: none when the format lacks
/// the aspect or the pass keeps it read-only; else clear to `clear` or load.
fn aspect_ops<V>(has: bool, read_only: bool, clear: Option<V>) -> Option<wgpu::Operations<V>> {
    (has && !read_only).then(|| wgpu::Operations {
        load: match clear {
            Some(v) => wgpu::LoadOp::Clear(v),
            None => wgpu::LoadOp::Load,
        },
        store: wgpu::StoreOp::Store,
    })
}

/// Begins the wgpu render pass of `desc` into `attachments`, with their load operations,
/// timestamps at `(query set, pass index)`, viewport, scissor, blend constant and stencil
/// reference.
pub(crate) fn begin_render_pass<'e>(
    encoder: &'e mut wgpu::CommandEncoder,
    desc: &PassDesc<'_>,
    attachments: &PassAttachments<'_>,
    timestamps: Option<(&wgpu::QuerySet, u32)>,
) -> wgpu::RenderPass<'e> {
    let colors: SmallVec<[Option<wgpu::RenderPassColorAttachment<'_>>; 1]> = attachments
        .colors
        .iter()
        .enumerate()
        .map(|(i, (view, resolve))| {
            let clear = match desc.attachment_clears.get(i) {
                Some(c) => *c,
                None => desc.clear,
            };
            Some(wgpu::RenderPassColorAttachment {
                view,
                depth_slice: None,
                resolve_target: *resolve,
                ops: wgpu::Operations {
                    load: color_load(clear),
                    store: wgpu::StoreOp::Store,
                },
            })
        })
        .collect();
    let depth = attachments.depth.as_ref().map(|view| {
        let format = view.texture().format();
        wgpu::RenderPassDepthStencilAttachment {
            view,
            depth_ops: aspect_ops(
                format.has_depth_aspect(),
                desc.depth_read_only,
                desc.clear_depth,
            ),
            stencil_ops: aspect_ops(
                format.has_stencil_aspect(),
                desc.stencil_read_only,
                desc.clear_stencil,
            ),
        }
    });
    let mut rpass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
        label: (desc.label != DEFAULT_PASS_LABEL).then_some(desc.label),
        color_attachments: &colors,
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
    if let Some([r, g, b, a]) = desc.blend_constant {
        rpass.set_blend_constant(wgpu::Color { r, g, b, a });
    }
    if desc.stencil_reference != 0 {
        rpass.set_stencil_reference(desc.stencil_reference);
    }
    rpass
}
