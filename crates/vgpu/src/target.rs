//! [`Target`]: offscreen render targets: color (any renderable format), optional depth,
//! optional MSAA (described by a [`TargetDesc`]), resizable ([`Target::resize`]: the bindings
//! that hold its views follow); read-back in `target_read.rs`.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use vgpu_core::GpuContext;

use crate::descriptors::{ColorFormats, TargetSignature};
use crate::error::{Result, TargetError};
use crate::gpu::Gpu;
use crate::state::{SharedState, TargetColor, TargetRecord, TargetTextures};
use crate::target_desc::TargetDesc;

/// An offscreen render target. Cheap to clone (an `Arc`): every clone is the same target, and
/// sees its [`resize`](Self::resize).
#[derive(Clone, Debug)]
pub struct Target {
    pub(crate) inner: Arc<TargetRecord>,
}

/// `VGPU-TARGET-SIZE` unless both sides are in `1..=max_texture_dimension_2d`.
fn check_size(ctx: &GpuContext, label: &str, width: u32, height: u32) -> Result<()> {
    let max = ctx.limits().max_texture_dimension_2d;
    if width == 0 || height == 0 || width > max || height > max {
        return Err(TargetError::Size {
            label: label.to_owned(),
            actual: (width, height),
            max,
        }
        .into());
    }
    Ok(())
}

/// A target's textures per `desc` at `size`: each color attachment's single-sample texture
/// (read back and bound by index, plus a multisampled one under MSAA), its depth or
/// depth-stencil.
fn create_textures(
    ctx: &GpuContext,
    desc: &TargetDesc,
    (width, height): (u32, u32),
    generation: u64,
) -> Result<TargetTextures> {
    let size = wgpu::Extent3d {
        width,
        height,
        depth_or_array_layers: 1,
    };
    let texture = |label: &str, format, samples, extra: wgpu::TextureUsages| {
        let t = ctx.create_texture(&wgpu::TextureDescriptor {
            label: Some(label),
            size,
            mip_level_count: 1,
            sample_count: samples,
            dimension: wgpu::TextureDimension::D2,
            format,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT | extra,
            view_formats: &[],
        })?;
        let view = t.create_view(&Default::default());
        Ok::<_, crate::error::Error>((t, view))
    };
    let sampled = wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_SRC;
    let multisampled = desc.sample_count > 1;
    let mut colors = Vec::with_capacity(desc.colors.len());
    for (i, &format) in desc.colors.iter().enumerate() {
        let label = match i {
            0 => desc.label.clone(),
            i => format!("{} color {i}", desc.label),
        };
        let resolved = Some(texture(&label, format, 1, sampled)?);
        let msaa_view = match multisampled {
            true => {
                let label = format!("{label} msaa");
                let empty = wgpu::TextureUsages::empty();
                Some(texture(&label, format, desc.sample_count, empty)?.1)
            }
            false => None,
        };
        colors.push(TargetColor {
            resolved,
            msaa_view,
        });
    }
    // A multisampled depth texture is neither sampled nor copied.
    let depth_usage = if multisampled {
        wgpu::TextureUsages::empty()
    } else {
        sampled
    };
    let depth = match desc.depth {
        Some(format) => Some(texture(
            &format!("{} depth", desc.label),
            format,
            desc.sample_count,
            depth_usage,
        )?),
        None => None,
    };
    Ok(TargetTextures {
        size: (width, height),
        colors,
        depth_sampled: depth.as_ref().map(|(t, v)| depth_aspect_view(t, v)),
        depth,
        generation,
    })
}

impl Gpu {
    /// `VGPU-TARGET-SIZE` unless both sides are in `1..=max_texture_dimension_2d`.
    pub(crate) fn check_texture_size(&self, label: &str, width: u32, height: u32) -> Result<()> {
        check_size(&self.ctx, label, width, height)
    }

    /// A `width`×`height` `Rgba8Unorm` target without depth.
    pub fn target(&self, width: u32, height: u32) -> Result<Target> {
        self.target_with(&TargetDesc::new(width, height))
    }

    /// A target per `desc`: its color attachments (each a single-sample texture, read back and
    /// bound by index, plus a multisampled one under MSAA), its depth or depth-stencil.
    pub fn target_with(&self, desc: &TargetDesc) -> Result<Target> {
        self.ctx.check_device("Gpu::target")?;
        self.check_target_desc(desc)?;
        let textures = create_textures(&self.ctx, desc, (desc.width, desc.height), 0)?;
        let color_formats = ColorFormats::from_slice(&desc.colors).unwrap_or(ColorFormats::NONE);
        let signature = TargetSignature {
            colors: color_formats,
            ..TargetSignature::new(None, desc.depth, desc.sample_count)
        };
        Ok(self.target_record(&desc.label, textures, signature, Some(desc.clone())))
    }

    /// A target of `textures`, resizable when `desc` is given.
    fn target_record(
        &self,
        label: &str,
        textures: TargetTextures,
        signature: TargetSignature,
        desc: Option<TargetDesc>,
    ) -> Target {
        Target {
            inner: Arc::new(TargetRecord {
                id: TargetRecord::next_id(),
                label: label.to_owned(),
                textures: parking_lot::RwLock::new(textures),
                desc,
                passes: std::sync::atomic::AtomicU32::new(0),
                signature,
                ctx: self.ctx.clone(),
                gpu: self.id(),
                shared: Arc::downgrade(&self.shared),
            }),
        }
    }

    /// `VGPU-TARGET-SIZE`, `VGPU-TARGET-FORMAT` or `VGPU-TARGET-ATTACHMENTS` unless `desc`
    /// describes a target this device can render into.
    fn check_target_desc(&self, desc: &TargetDesc) -> Result<()> {
        self.check_texture_size(&desc.label, desc.width, desc.height)?;
        let format_error = |usage, expected, actual| -> crate::error::Error {
            TargetError::Format {
                label: desc.label.clone(),
                usage,
                expected,
                actual,
            }
            .into()
        };
        for &format in &desc.colors {
            let renderable = self
                .ctx
                .format_features(format)
                .allowed_usages
                .contains(wgpu::TextureUsages::RENDER_ATTACHMENT);
            if format.is_depth_stencil_format() || !renderable {
                return Err(format_error(
                    "a color attachment",
                    "a renderable color format",
                    format,
                ));
            }
        }
        self.check_color_budget(&desc.label, &desc.colors)?;
        self.check_target_formats(desc)?;
        if let Some(d) = desc.depth.filter(|d| !d.is_depth_stencil_format()) {
            return Err(format_error(
                "a depth attachment",
                "a depth format such as Depth32Float",
                d,
            ));
        }
        if desc.colors.is_empty() && desc.depth.is_none() {
            return Err(TargetError::Attachments {
                label: desc.label.clone(),
                what: "attachments",
                expected: "at least one color or a depth attachment".to_owned(),
                actual: "none".to_owned(),
            }
            .into());
        }
        Ok(())
    }

    /// `VGPU-TARGET-FORMAT` unless every format of `desc` is one the device was created for
    /// (its required features) and supports `desc.sample_count` samples.
    fn check_target_formats(&self, desc: &TargetDesc) -> Result<()> {
        let features = self.ctx.features();
        for &format in desc.colors.iter().chain(&desc.depth) {
            let usage = if format.is_depth_stencil_format() {
                "a depth attachment"
            } else {
                "a color attachment"
            };
            if !features.contains(format.required_features()) {
                return Err(TargetError::Format {
                    label: desc.label.clone(),
                    usage,
                    expected: "a format whose required features the device was created with",
                    actual: format,
                }
                .into());
            }
            let flags = self.ctx.format_features(format).flags;
            if !flags.sample_count_supported(desc.sample_count) {
                return Err(TargetError::Format {
                    label: desc.label.clone(),
                    usage: "a multisampled attachment",
                    expected: "a format that supports the sample count (1, and 4 for most renderable formats)",
                    actual: format,
                }
                .into());
            }
        }
        Ok(())
    }

    /// `VGPU-TARGET-ATTACHMENTS` unless `formats` fit the device's `max_color_attachments` and
    /// `max_color_attachment_bytes_per_sample` (counted as WebGPU does: each format's byte cost
    /// after aligning the running total to its component alignment).
    fn check_color_budget(&self, label: &str, formats: &[wgpu::TextureFormat]) -> Result<()> {
        let limits = self.ctx.limits();
        let max = (limits.max_color_attachments as usize).min(crate::MAX_COLOR_ATTACHMENTS);
        if formats.len() > max {
            return Err(TargetError::Attachments {
                label: label.to_owned(),
                what: "color attachments",
                expected: format!("at most {max} (the device's max_color_attachments)"),
                actual: formats.len().to_string(),
            }
            .into());
        }
        let mut bytes = 0u32;
        for f in formats {
            let cost = f.target_pixel_byte_cost().unwrap_or(0);
            let align = f.target_component_alignment().unwrap_or(1).max(1);
            bytes = bytes.div_ceil(align) * align + cost;
        }
        let budget = limits.max_color_attachment_bytes_per_sample;
        if bytes > budget {
            return Err(TargetError::Attachments {
                label: label.to_owned(),
                what: "color bytes per sample",
                expected: format!(
                    "at most {budget} (the device's max_color_attachment_bytes_per_sample)"
                ),
                actual: format!("{bytes} for {formats:?}"),
            }
            .into());
        }
        Ok(())
    }

    /// A target that draws into the app's `color` view (and optional `depth` view) without
    /// owning their textures: format, size and sample count are those of the view's texture
    /// (a multisampled color view is drawn into without a resolve). The views must have
    /// `RENDER_ATTACHMENT` usage and the same size; read-back works when the color texture has
    /// `COPY_SRC`. vgpu's own views work too: `target_for_view("lit", &image.color_view()?,
    /// gbuffer.depth_view().as_ref())` draws into one target's color with another's
    /// depth-stencil (the `deferred` example's lighting passes). Such a target cannot be
    /// resized (`VGPU-TARGET-RESIZE`): its textures are the app's; and it keeps drawing into
    /// these views when the target they came from is resized (make it again then).
    pub fn target_for_view(
        &self,
        label: &str,
        color: &wgpu::TextureView,
        depth: Option<&wgpu::TextureView>,
    ) -> Result<Target> {
        let texture = color.texture();
        self.target_over_views(label, color, depth, (texture.width(), texture.height()))
    }

    /// [`target_for_view`](Self::target_for_view) with the views' `size` given (a view of one
    /// mip level is smaller than its texture): checks, then a target that cannot be resized.
    pub(crate) fn target_over_views(
        &self,
        label: &str,
        color: &wgpu::TextureView,
        depth: Option<&wgpu::TextureView>,
        size: (u32, u32),
    ) -> Result<Target> {
        self.ctx.check_device("Gpu::target_for_view")?;
        let texture = color.texture();
        let format_error = |usage, expected, actual| -> crate::error::Error {
            TargetError::Format {
                label: label.to_owned(),
                usage,
                expected,
                actual,
            }
            .into()
        };
        if !texture
            .usage()
            .contains(wgpu::TextureUsages::RENDER_ATTACHMENT)
        {
            return Err(format_error(
                "an app's color view",
                "a view of a texture with RENDER_ATTACHMENT usage",
                texture.format(),
            ));
        }
        if let Some(d) = depth {
            let dt = d.texture();
            if !dt.format().is_depth_stencil_format()
                || (dt.width(), dt.height()) != size
                || dt.sample_count() != texture.sample_count()
            {
                return Err(format_error(
                    "an app's depth view",
                    "a depth texture of the color view's size and sample count",
                    dt.format(),
                ));
            }
        }
        let samples = texture.sample_count();
        let color_pair = (texture.clone(), color.clone());
        let attachment = if samples > 1 {
            TargetColor {
                resolved: None,
                msaa_view: Some(color_pair.1),
            }
        } else {
            TargetColor {
                resolved: Some(color_pair),
                msaa_view: None,
            }
        };
        let textures = TargetTextures {
            size,
            colors: vec![attachment],
            depth_sampled: depth.map(|d| depth_aspect_view(d.texture(), d)),
            depth: depth.map(|d| (d.texture().clone(), d.clone())),
            generation: 0,
        };
        let signature = TargetSignature::new(
            Some(texture.format()),
            depth.map(|d| d.texture().format()),
            samples,
        );
        Ok(self.target_record(label, textures, signature, None))
    }

    /// `VGPU-FOREIGN-GPU` unless `target` was created by this `Gpu`.
    pub(crate) fn check_target(&self, target: &Target, used_by: &str) -> Result<()> {
        if target.inner.gpu != self.id() {
            return Err(crate::error::foreign_gpu(
                "target",
                target.label(),
                used_by.to_owned(),
            ));
        }
        Ok(())
    }
}

impl Target {
    /// The label.
    pub fn label(&self) -> &str {
        &self.inner.label
    }
    /// `(width, height)` in pixels (the size of the last [`resize`](Self::resize)).
    pub fn size(&self) -> (u32, u32) {
        self.inner.textures.read().size
    }
    /// The first color attachment's format (the depth format for a depth-only target).
    pub fn format(&self) -> wgpu::TextureFormat {
        let sig = self.inner.signature;
        sig.color()
            .or(sig.depth)
            .unwrap_or(wgpu::TextureFormat::Rgba8Unorm)
    }
    /// Formats and sample count, as pipelines see them (a resize keeps them).
    pub fn signature(&self) -> TargetSignature {
        self.inner.signature
    }
    /// How many color attachments the target has.
    pub fn color_count(&self) -> usize {
        self.inner.signature.colors.len()
    }
    /// `[1 / width, 1 / height]`: one texel in UV units (for effects that sample neighbours);
    /// follows [`resize`](Self::resize).
    pub fn texel_size(&self) -> [f32; 2] {
        let (w, h) = self.size();
        [1.0 / w as f32, 1.0 / h as f32]
    }
    /// The first color attachment's single-sample texture (the resolve target under MSAA);
    /// `None` for depth-only. A handle to the texture of now: a resize replaces it.
    pub fn color_texture(&self) -> Option<wgpu::Texture> {
        self.color_texture_at(0)
    }
    /// Color attachment `index`'s single-sample texture (of now: a resize replaces it).
    pub fn color_texture_at(&self, index: usize) -> Option<wgpu::Texture> {
        let textures = self.inner.textures.read();
        textures
            .colors
            .get(index)?
            .resolved
            .as_ref()
            .map(|(t, _)| t.clone())
    }
    /// A view of the first color attachment's single-sample texture, for sampling in a later
    /// pass. A view of the texture of now: bind the target itself (`draw.set("tex", &target)`)
    /// for a binding that follows a resize; a raw view does not.
    pub fn color_view(&self) -> Option<wgpu::TextureView> {
        self.color_view_at(0)
    }
    /// A view of color attachment `index`'s single-sample texture (of now; see
    /// [`color_view`](Self::color_view)).
    pub fn color_view_at(&self, index: usize) -> Option<wgpu::TextureView> {
        let textures = self.inner.textures.read();
        textures
            .colors
            .get(index)?
            .resolved
            .as_ref()
            .map(|(_, v)| v.clone())
    }
    /// The view passes render into (first attachment): the MSAA texture when multisampled,
    /// else the color texture.
    pub fn attachment_view(&self) -> Option<wgpu::TextureView> {
        let textures = self.inner.textures.read();
        let c = textures.colors.first()?;
        c.msaa_view
            .as_ref()
            .or(c.resolved.as_ref().map(|(_, v)| v))
            .cloned()
    }
    /// The resolve target of passes (first attachment): the color texture when multisampled,
    /// else `None`.
    pub fn resolve_view(&self) -> Option<wgpu::TextureView> {
        let textures = self.inner.textures.read();
        let c = textures.colors.first()?;
        c.msaa_view
            .as_ref()
            .and(c.resolved.as_ref().map(|(_, v)| v))
            .cloned()
    }
    /// The depth texture's view, if the target has depth (of now).
    pub fn depth_view(&self) -> Option<wgpu::TextureView> {
        self.inner
            .textures
            .read()
            .depth
            .as_ref()
            .map(|(_, v)| v.clone())
    }
    /// A view of the depth aspect alone, for sampling (`texture_depth_2d`): for a depth-stencil
    /// format, the attachment view has both aspects and cannot be bound.
    pub fn depth_sample_view(&self) -> Option<wgpu::TextureView> {
        self.inner.textures.read().depth_sampled.clone()
    }
    /// The depth texture, if the target has depth (of now).
    pub fn depth_texture(&self) -> Option<wgpu::Texture> {
        self.inner
            .textures
            .read()
            .depth
            .as_ref()
            .map(|(t, _)| t.clone())
    }

    /// The views a pass into the target draws into, read once (under the textures' lock) when
    /// the pass begins: each color attachment's render view and resolve target, and depth.
    pub(crate) fn pass_views(&self) -> AttachmentViews<'_> {
        AttachmentViews::Target(self.inner.textures.read())
    }

    /// Marks a pass recording into the target until the guard drops (a resize meanwhile is
    /// refused).
    pub(crate) fn rendering(&self) -> RenderingInto<'_> {
        self.inner.passes.fetch_add(1, Ordering::AcqRel);
        RenderingInto(&self.inner)
    }

    /// Resizes the target to `width`×`height`: its textures (every color attachment, the MSAA
    /// ones, depth) are recreated at the new size, with the same formats and sample count, and
    /// every clone of this handle sees them. Their contents start cleared (transparent black,
    /// depth and stencil zero) — render into the target again before sampling it.
    ///
    /// Every draw, effect and compute whose binding was given the target's color (any
    /// attachment) or depth follows without a new `set`: the binding is re-pointed at the new
    /// texture (its bind group is rebuilt at the next record, once), and a bundle that recorded
    /// it reports `VGPU-BUNDLE-STALE` naming the resize. A raw view taken before
    /// ([`color_view`](Self::color_view), bound as a `wgpu::TextureView` or wrapped by
    /// [`Gpu::target_for_view`]) keeps the old texture. Pipelines are kept (the signature does
    /// not change). The same size is a no-op.
    ///
    /// Errors (the target keeps its textures and size): `VGPU-TARGET-SIZE` for a zero side or
    /// one past the device's `max_texture_dimension_2d`; `VGPU-TARGET-RESIZE` for a target over
    /// the app's views ([`Gpu::target_for_view`]) or while a pass that renders into the target
    /// is being recorded (resize before or after it).
    ///
    /// ```
    /// let gpu = vgpu::Gpu::noop();
    /// let target = gpu.target(4, 4)?;
    /// target.resize(8, 2)?;
    /// assert_eq!(target.size(), (8, 2));
    /// assert_eq!(target.texel_size(), [0.125, 0.5]);
    /// let err = target.resize(0, 2).unwrap_err();
    /// assert_eq!(vgpu::ErrorCode::code(&err), "VGPU-TARGET-SIZE");
    /// assert_eq!(target.size(), (8, 2));
    /// # Ok::<(), vgpu::Error>(())
    /// ```
    pub fn resize(&self, width: u32, height: u32) -> Result<()> {
        let record = &self.inner;
        record.ctx.check_device("Target::resize")?;
        let Some(desc) = &record.desc else {
            return Err(self.resize_refused(
                "it draws into the app's views (Gpu::target_for_view), whose textures vgpu does not own; resize those and make a new target over them",
            ));
        };
        check_size(&record.ctx, &record.label, width, height)?;
        if self.size() == (width, height) {
            return Ok(());
        }
        // Held (re-entrantly) from the check to the re-pointing: a pass recorded on another
        // thread holds the state for its whole closure, so none starts meanwhile.
        let shared = record.shared.upgrade();
        let held = shared.as_deref().map(SharedState::hold);
        if record.passes.load(Ordering::Acquire) > 0 {
            return Err(self.resize_refused(
                "a pass that renders into it is being recorded; resize it before or after that pass",
            ));
        }
        let generation = record.textures.read().generation + 1;
        let textures = create_textures(&record.ctx, desc, (width, height), generation)?;
        // The old textures drop here (wgpu keeps them while submitted work uses them).
        drop(std::mem::replace(&mut *record.textures.write(), textures));
        let Some(held) = held else {
            return Ok(());
        };
        let reason = format!(
            "follows target {:?}, which was resized to {width}×{height} since the bundle was recorded",
            record.label
        );
        SharedState::with_held(&held, |st| st.repoint_followers(record, record, &reason))
    }

    /// `VGPU-TARGET-RESIZE` for this target.
    #[cold]
    fn resize_refused(&self, reason: &'static str) -> crate::error::Error {
        TargetError::Resize {
            label: self.inner.label.clone(),
            reason,
        }
        .into()
    }
}

/// A pass recording into a target (see [`Target::rendering`]).
#[derive(Debug)]
pub(crate) struct RenderingInto<'t>(&'t TargetRecord);

impl Drop for RenderingInto<'_> {
    fn drop(&mut self) {
        self.0.passes.fetch_sub(1, Ordering::AcqRel);
    }
}

/// A view of `texture`'s depth aspect alone when its format has both depth and stencil, else
/// `view` (a depth-only format; or `Stencil8`, which has no depth to sample).
fn depth_aspect_view(texture: &wgpu::Texture, view: &wgpu::TextureView) -> wgpu::TextureView {
    let format = texture.format();
    if !(format.has_stencil_aspect() && format.has_depth_aspect()) {
        return view.clone();
    }
    texture.create_view(&wgpu::TextureViewDescriptor {
        label: Some("depth aspect"),
        aspect: wgpu::TextureAspect::DepthOnly,
        ..Default::default()
    })
}

/// The views a render pass draws into (read from a target once per pass).
pub(crate) struct PassAttachments<'v> {
    /// Per color attachment: the view rendered into, and its resolve target under MSAA.
    pub(crate) colors:
        smallvec::SmallVec<[(&'v wgpu::TextureView, Option<&'v wgpu::TextureView>); 1]>,
    pub(crate) depth: Option<&'v wgpu::TextureView>,
}

/// What a pass's attachment views are borrowed from while it begins: a target's textures (read
/// locked: no view is cloned), or a surface's views of this frame.
#[expect(
    clippy::large_enum_variant,
    reason = "on the stack while a pass begins; boxing would allocate per surface pass"
)]
pub(crate) enum AttachmentViews<'t> {
    Target(parking_lot::RwLockReadGuard<'t, TargetTextures>),
    Surface {
        color: wgpu::TextureView,
        resolve: Option<wgpu::TextureView>,
        depth: Option<wgpu::TextureView>,
    },
}

impl AttachmentViews<'_> {
    /// The attachments, borrowing the views.
    pub(crate) fn attachments(&self) -> PassAttachments<'_> {
        match self {
            AttachmentViews::Target(textures) => PassAttachments {
                colors: textures
                    .colors
                    .iter()
                    .filter_map(|c| {
                        let resolved = c.resolved.as_ref().map(|(_, v)| v);
                        match &c.msaa_view {
                            Some(msaa) => Some((msaa, resolved)),
                            None => Some((resolved?, None)),
                        }
                    })
                    .collect(),
                depth: textures.depth.as_ref().map(|(_, v)| v),
            },
            AttachmentViews::Surface {
                color,
                resolve,
                depth,
            } => PassAttachments {
                colors: smallvec::smallvec![(color, resolve.as_ref())],
                depth: depth.as_ref(),
            },
        }
    }
}
