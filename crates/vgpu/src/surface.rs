//! [`Surface`]: a window to render into. Created from the `Gpu` (or together with it, so the
//! adapter can present to the window), configured with an sRGB format when the window offers one,
//! Fifo presentation by default, and depth and MSAA attachments that follow its size.
//!
//! A pass into a surface acquires the window's current texture lazily (the first pass of a frame
//! into it), and the frame presents it after its submit. `Lost` and `Outdated` reconfigure and try
//! once more; `Timeout`, `Occluded` and a zero-sized (minimized) window skip the pass: its closure
//! is not called, and [`FrameReport::skipped`](crate::FrameReport::skipped) says why.
//!
//! Offscreen targets can follow the surface's size ([`Surface::follow`]): each resize of the
//! surface resizes them (and the bindings that hold their views follow them in turn).

use crate::report::SurfaceSkip;
use std::sync::{Arc, Mutex, PoisonError, Weak};

use vgpu_core::{DeviceError, GpuContext};

use crate::descriptors::{GpuId, TargetSignature};
use crate::error::{Result, foreign_gpu};
use crate::gpu::Gpu;
use crate::gpu_options::GpuOptions;
use crate::rgba_image::RgbaImage;

/// Describes a [`Surface`]. `Default`: 1×1, the window's sRGB format, Fifo, frame latency 2,
/// no depth, one sample.
#[derive(Clone, Debug)]
pub struct SurfaceDesc {
    /// Label used in errors and wgpu messages.
    pub label: String,
    /// Width in pixels (the window's inner size).
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Color format; `None` prefers the first sRGB format the window offers.
    pub format: Option<wgpu::TextureFormat>,
    /// Presentation mode; refused if the window does not offer it.
    pub present_mode: wgpu::PresentMode,
    /// Frames the presentation engine may queue (wgpu's `desired_maximum_frame_latency`).
    pub desired_maximum_frame_latency: u32,
    /// Depth attachment format, if passes need one (created at the surface's size).
    pub depth: Option<wgpu::TextureFormat>,
    /// MSAA sample count (1 or 4); with 4, passes resolve into the window's texture.
    pub sample_count: u32,
}

impl Default for SurfaceDesc {
    fn default() -> Self {
        SurfaceDesc {
            label: "surface".to_owned(),
            width: 1,
            height: 1,
            format: None,
            present_mode: wgpu::PresentMode::Fifo,
            desired_maximum_frame_latency: 2,
            depth: None,
            sample_count: 1,
        }
    }
}

impl SurfaceDesc {
    /// A `width`×`height` surface with the defaults.
    pub fn new(width: u32, height: u32) -> Self {
        SurfaceDesc {
            width,
            height,
            ..Default::default()
        }
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
    /// Sets the presentation mode.
    pub fn present_mode(mut self, mode: wgpu::PresentMode) -> Self {
        self.present_mode = mode;
        self
    }
}

/// The attachments a surface keeps at its size.
struct Attachments {
    config: wgpu::SurfaceConfiguration,
    depth: Option<wgpu::TextureView>,
    msaa: Option<wgpu::TextureView>,
    /// A read-back of the next frame was asked for.
    capture_requested: bool,
    capture: Option<RgbaImage>,
    /// Targets resized with the surface ([`Surface::follow`]); dead ones are dropped at the
    /// next resize.
    followers: Vec<Weak<crate::state::TargetRecord>>,
}

pub(crate) struct SurfaceInner {
    pub(crate) gpu: GpuId,
    ctx: Arc<GpuContext>,
    surface: wgpu::Surface<'static>,
    label: String,
    signature: TargetSignature,
    depth_format: Option<wgpu::TextureFormat>,
    /// The window's texture can be copied from (read-back of frames).
    copy_src: bool,
    state: Mutex<Attachments>,
}

/// A window surface. Cheap to clone (an `Arc`). Render into it with `f.pass(&surface, …)`.
#[derive(Clone)]
pub struct Surface {
    pub(crate) inner: Arc<SurfaceInner>,
}

impl std::fmt::Debug for Surface {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Surface")
            .field("label", &self.inner.label)
            .field("signature", &self.inner.signature)
            .finish_non_exhaustive()
    }
}

impl Gpu {
    /// Creates a device that can present to `window` (anything wgpu accepts as a
    /// `SurfaceTarget`, such as an `Arc<winit::window::Window>`) and the window's surface,
    /// blocking. On GL, set [`GpuOptions::display`] to the window's display. On the web a
    /// `<canvas>` is the window: `wgpu::SurfaceTarget::Canvas(canvas)` with
    /// [`new_for_window_async`](Self::new_for_window_async) (WebGL2 needs it at adapter creation).
    pub fn new_for_window(
        options: &GpuOptions,
        window: impl Into<wgpu::SurfaceTarget<'static>>,
        desc: &SurfaceDesc,
    ) -> Result<(Gpu, Surface)> {
        vgpu_core::block_on(
            "Gpu::new_for_window",
            "Gpu::new_for_window_async",
            Self::new_for_window_async(options, window, desc),
        )?
    }

    /// [`new_for_window`](Self::new_for_window), async.
    pub async fn new_for_window_async(
        options: &GpuOptions,
        window: impl Into<wgpu::SurfaceTarget<'static>>,
        desc: &SurfaceDesc,
    ) -> Result<(Gpu, Surface)> {
        let (ctx, surface) =
            vgpu_core::request_context_for_window(&options.context_options(), window).await?;
        let gpu = Gpu::from_context(ctx);
        let surface = gpu.wrap_surface(surface, desc)?;
        Ok((gpu, surface))
    }

    /// A surface for `window` on this `Gpu`'s instance. Fails with `VGPU-SURFACE` if this `Gpu`
    /// has no instance (an adopted device given without one) or its adapter cannot present to
    /// the window (create the `Gpu` with [`new_for_window`](Self::new_for_window) then).
    pub fn surface(
        &self,
        window: impl Into<wgpu::SurfaceTarget<'static>>,
        desc: &SurfaceDesc,
    ) -> Result<Surface> {
        self.ctx.check_device("Gpu::surface")?;
        let Some(instance) = self.ctx.instance() else {
            return Err(surface_error(
                "this Gpu has no wgpu::Instance (adopt the app's device with its instance)",
            ));
        };
        let surface = instance
            .create_surface(window)
            .map_err(|e| surface_error(&format!("create_surface: {e}")))?;
        if !self.ctx.adapter().is_surface_supported(&surface) {
            return Err(surface_error(&format!(
                "adapter {:?} cannot present to this window; create the Gpu with Gpu::new_for_window",
                self.ctx.adapter_info().name
            )));
        }
        self.wrap_surface(surface, desc)
    }

    fn wrap_surface(&self, surface: wgpu::Surface<'static>, desc: &SurfaceDesc) -> Result<Surface> {
        let caps = surface.get_capabilities(self.ctx.adapter());
        let format = match desc.format {
            Some(f) if caps.formats.contains(&f) => f,
            Some(f) => {
                return Err(surface_error(&format!(
                    "format {f:?} is not offered by the window (it offers {:?})",
                    caps.formats
                )));
            }
            None => caps
                .formats
                .iter()
                .copied()
                .find(|f| f.is_srgb())
                .or_else(|| caps.formats.first().copied())
                .ok_or_else(|| surface_error("the window offers no format to this adapter"))?,
        };
        if !caps.present_modes.contains(&desc.present_mode) {
            return Err(surface_error(&format!(
                "present mode {:?} is not offered by the window (it offers {:?})",
                desc.present_mode, caps.present_modes
            )));
        }
        let copy_src = caps.usages.contains(wgpu::TextureUsages::COPY_SRC);
        let usage = if copy_src {
            wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC
        } else {
            wgpu::TextureUsages::RENDER_ATTACHMENT
        };
        let config = wgpu::SurfaceConfiguration {
            usage,
            format,
            width: desc.width,
            height: desc.height,
            present_mode: desc.present_mode,
            desired_maximum_frame_latency: desc.desired_maximum_frame_latency,
            alpha_mode: caps
                .alpha_modes
                .first()
                .copied()
                .unwrap_or(wgpu::CompositeAlphaMode::Auto),
            view_formats: Vec::new(),
            color_space: wgpu::SurfaceColorSpace::Auto,
        };
        let inner = SurfaceInner {
            gpu: self.id(),
            ctx: self.ctx.clone(),
            surface,
            label: desc.label.clone(),
            signature: TargetSignature::new(Some(format), desc.depth, desc.sample_count),
            depth_format: desc.depth,
            copy_src,
            state: Mutex::new(Attachments {
                config,
                depth: None,
                msaa: None,
                capture_requested: false,
                capture: None,
                followers: Vec::new(),
            }),
        };
        inner.configure(&mut inner.lock())?;
        Ok(Surface {
            inner: Arc::new(inner),
        })
    }

    /// `VGPU-FOREIGN-GPU` unless `surface` was created by this `Gpu`.
    pub(crate) fn check_surface(&self, surface: &Surface, used_by: &str) -> Result<()> {
        if surface.inner.gpu != self.id() {
            return Err(foreign_gpu(
                "surface",
                &surface.inner.label,
                used_by.to_owned(),
            ));
        }
        Ok(())
    }
}

/// Resizes the live targets among `followers` to `size` (nothing while a side is zero): what
/// [`Surface::resize`] does to the targets that follow it. The first error is returned after
/// every target was tried.
pub(crate) fn resize_followers(
    followers: &[Weak<crate::state::TargetRecord>],
    (width, height): (u32, u32),
) -> Result<()> {
    if width == 0 || height == 0 {
        return Ok(());
    }
    let mut first = Ok(());
    for record in followers.iter().filter_map(Weak::upgrade) {
        let target = crate::Target { inner: record };
        if let Err(e) = target.resize(width, height)
            && first.is_ok()
        {
            first = Err(e);
        }
    }
    first
}

fn surface_error(description: &str) -> crate::error::Error {
    DeviceError::Surface {
        description: description.to_owned(),
    }
    .into()
}

impl Surface {
    /// The label.
    pub fn label(&self) -> &str {
        &self.inner.label
    }
    /// `(width, height)` as last configured (0 while minimized).
    pub fn size(&self) -> (u32, u32) {
        let st = self.inner.lock();
        (st.config.width, st.config.height)
    }
    /// The color format chosen.
    pub fn format(&self) -> wgpu::TextureFormat {
        self.inner
            .signature
            .color()
            .unwrap_or(wgpu::TextureFormat::Bgra8UnormSrgb)
    }
    /// Formats and sample count, as pipelines and bundles see them.
    pub fn signature(&self) -> TargetSignature {
        self.inner.signature
    }
    /// True when frames can be read back from the window's texture (`COPY_SRC`); otherwise
    /// render into an offscreen [`Target`](crate::Target) and read that.
    pub fn supports_read_back(&self) -> bool {
        self.inner.copy_src
    }

    /// Follows the window's new inner size: reconfigures the surface and recreates the depth and
    /// MSAA attachments. A zero width or height (a minimized window) makes passes into the
    /// surface skip until the next non-zero resize.
    /// Targets that [`follow`](Self::follow) the surface are resized to the new size (not while
    /// a side is zero: they keep their size until the window is restored); the first error of
    /// configuring the surface or resizing a target is returned after every target was tried.
    pub fn resize(&self, width: u32, height: u32) -> Result<()> {
        let mut st = self.inner.lock();
        if (st.config.width, st.config.height) == (width, height) {
            return Ok(());
        }
        st.config.width = width;
        st.config.height = height;
        let configured = self.inner.configure(&mut st);
        st.followers.retain(|t| t.strong_count() > 0);
        let followers = st.followers.clone();
        // Resized out of the surface's lock (a resize takes the state's).
        drop(st);
        let followed = resize_followers(&followers, (width, height));
        configured.and(followed)
    }

    /// Makes `target` follow the surface's size: it is resized to the surface's size now (unless
    /// the surface is minimized) and at every [`resize`](Self::resize) of the surface, while
    /// the target lives (the surface holds it weakly). The bindings that hold the target's views
    /// follow it in turn (see [`Target::resize`](crate::Target::resize)): a post-processing
    /// chain sized to the window takes one call per target. Following twice is following once.
    ///
    /// Errors: `VGPU-FOREIGN-GPU` for a target of another `Gpu`; those of
    /// [`Target::resize`](crate::Target::resize) (`VGPU-TARGET-RESIZE` for a target over the
    /// app's views), the target then not following.
    pub fn follow(&self, target: &crate::Target) -> Result<()> {
        if target.inner.gpu != self.inner.gpu {
            return Err(foreign_gpu(
                "target",
                target.label(),
                format!("Surface::follow of surface {:?}", self.inner.label),
            ));
        }
        let size = self.size();
        if size.0 > 0 && size.1 > 0 {
            target.resize(size.0, size.1)?;
        } else if target.inner.desc.is_none() {
            // The refusal a resize would give once the window is restored.
            target.resize(0, 0)?;
        }
        let mut st = self.inner.lock();
        let weak = Arc::downgrade(&target.inner);
        if !st.followers.iter().any(|t| t.ptr_eq(&weak)) {
            st.followers.push(weak);
        }
        Ok(())
    }

    /// Stops `target` following the surface's size (nothing if it did not).
    pub fn unfollow(&self, target: &crate::Target) {
        let weak = Arc::downgrade(&target.inner);
        self.inner.lock().followers.retain(|t| !t.ptr_eq(&weak));
    }

    /// Reads back the next frame presented to this surface (see [`take_capture`](Self::take_capture)).
    /// Fails with `VGPU-SURFACE` when the window's texture cannot be copied from.
    pub fn capture_next_frame(&self) -> Result<()> {
        if !self.inner.copy_src {
            return Err(surface_error(
                "this window's textures cannot be read back (no COPY_SRC usage): render into an offscreen Target and read it",
            ));
        }
        if self.format().block_copy_size(None) != Some(4) {
            return Err(surface_error(&format!(
                "frames of format {:?} are not read back (4-byte formats only)",
                self.format()
            )));
        }
        self.inner.lock().capture_requested = true;
        Ok(())
    }

    /// The frame read back after [`capture_next_frame`](Self::capture_next_frame), as RGBA8.
    pub fn take_capture(&self) -> Option<RgbaImage> {
        self.inner.lock().capture.take()
    }
}

/// A window texture acquired for one frame, with the attachments its passes use.
pub(crate) struct AcquiredSurface {
    pub(crate) surface: Arc<SurfaceInner>,
    pub(crate) texture: wgpu::SurfaceTexture,
    pub(crate) view: wgpu::TextureView,
    pub(crate) depth: Option<wgpu::TextureView>,
    pub(crate) msaa: Option<wgpu::TextureView>,
    /// Read back after the submit, into a buffer of `bytes_per_row` rows.
    pub(crate) capture: Option<(wgpu::Buffer, u32)>,
}

impl SurfaceInner {
    fn lock(&self) -> std::sync::MutexGuard<'_, Attachments> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Configures the surface at its size and recreates the attachments (nothing while zero).
    fn configure(&self, st: &mut Attachments) -> Result<()> {
        st.depth = None;
        st.msaa = None;
        if st.config.width == 0 || st.config.height == 0 {
            return Ok(());
        }
        let config = st.config.clone();
        self.ctx
            .scoped("Surface::configure", Some(&self.label), |d| {
                self.surface.configure(d, &config)
            })?;
        let size = wgpu::Extent3d {
            width: config.width,
            height: config.height,
            depth_or_array_layers: 1,
        };
        let samples = self.signature.samples;
        let attachment = |label: &str, format| -> Result<wgpu::TextureView> {
            let t = self.ctx.create_texture(&wgpu::TextureDescriptor {
                label: Some(label),
                size,
                mip_level_count: 1,
                sample_count: samples,
                dimension: wgpu::TextureDimension::D2,
                format,
                usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
                view_formats: &[],
            })?;
            Ok(t.create_view(&Default::default()))
        };
        if let Some(format) = self.depth_format {
            st.depth = Some(attachment(&format!("{} depth", self.label), format)?);
        }
        if samples > 1 {
            st.msaa = Some(attachment(&format!("{} msaa", self.label), config.format)?);
        }
        Ok(())
    }

    /// The window's current texture, reconfiguring once on `Lost`/`Outdated`; `Ok(Err(skip))`
    /// when the pass must be skipped.
    pub(crate) fn acquire(
        self: &Arc<Self>,
    ) -> Result<std::result::Result<AcquiredSurface, SurfaceSkip>> {
        let mut st = self.lock();
        if st.config.width == 0 || st.config.height == 0 {
            return Ok(Err(SurfaceSkip::ZeroSize));
        }
        let mut retried = false;
        let texture = loop {
            match self.surface.get_current_texture() {
                wgpu::CurrentSurfaceTexture::Success(t)
                | wgpu::CurrentSurfaceTexture::Suboptimal(t) => break t,
                wgpu::CurrentSurfaceTexture::Timeout => return Ok(Err(SurfaceSkip::Timeout)),
                wgpu::CurrentSurfaceTexture::Occluded => return Ok(Err(SurfaceSkip::Occluded)),
                wgpu::CurrentSurfaceTexture::Outdated | wgpu::CurrentSurfaceTexture::Lost
                    if !retried =>
                {
                    retried = true;
                    self.configure(&mut st)?;
                }
                other => {
                    return Err(surface_error(&format!(
                        "surface {:?}: acquiring the window's texture failed: {other:?}",
                        self.label
                    )));
                }
            }
        };
        let view = texture.texture.create_view(&Default::default());
        let capture = if st.capture_requested {
            st.capture_requested = false;
            let (w, h) = (texture.texture.width(), texture.texture.height());
            let bytes_per_row = (w * 4).next_multiple_of(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT);
            let buffer = self.ctx.create_buffer(&wgpu::BufferDescriptor {
                label: Some("vgpu surface read-back"),
                size: u64::from(bytes_per_row) * u64::from(h),
                usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            })?;
            Some((buffer, bytes_per_row))
        } else {
            None
        };
        Ok(Ok(AcquiredSurface {
            surface: self.clone(),
            depth: st.depth.clone(),
            msaa: st.msaa.clone(),
            texture,
            view,
            capture,
        }))
    }

    /// Stores a frame read back from the window's texture (BGRA or RGBA, padded rows) as RGBA8.
    pub(crate) fn store_capture(&self, raw: &[u8], width: u32, height: u32, bytes_per_row: u32) {
        let bgra = matches!(
            self.signature.color(),
            Some(wgpu::TextureFormat::Bgra8Unorm | wgpu::TextureFormat::Bgra8UnormSrgb)
        );
        let mut data = Vec::with_capacity((width * height * 4) as usize);
        for row in raw.chunks(bytes_per_row as usize).take(height as usize) {
            for px in row[..(width * 4) as usize].chunks_exact(4) {
                if bgra {
                    data.extend_from_slice(&[px[2], px[1], px[0], px[3]]);
                } else {
                    data.extend_from_slice(px);
                }
            }
        }
        self.lock().capture = Some(RgbaImage {
            width,
            height,
            data,
        });
    }
}
