//! What the frame callback is handed: [`FrameContext`], and the screenshot of a frame
//! ([`FrameContext::capture`]).

use winit::dpi::PhysicalSize;
use winit::window::Window;

use super::{Clock, Input};
use crate::{Effect, Gpu, PassDesc, PassTarget, Result, RgbaImage, Surface, Target, TargetDesc};

/// Copies the offscreen frame to the window: same size and format, one texel per pixel.
const COPY_TO_WINDOW: &str = "
@group(0) @binding(0) var frame: texture_2d<f32>;

@fragment
fn fs_main(@builtin(position) position: vec4f) -> @location(0) vec4f {
    return textureLoad(frame, vec2i(position.xy), 0);
}
";

/// What the frame callback of [`run`](super::run) is handed for one frame: the device and the
/// surface to record passes with, as any vgpu code does (`ctx.gpu.frame(|f| f.pass(&ctx.surface,
/// …))`), the clock, the input, the window and its size, and the ways to end the app and to
/// capture the frame.
#[derive(Debug)]
#[non_exhaustive]
pub struct FrameContext<'a> {
    /// The device.
    pub gpu: &'a Gpu,
    /// The window's surface, already at the window's size.
    pub surface: &'a Surface,
    /// The window (winit's): title, cursor, `request_inner_size`, ….
    pub window: &'a Window,
    /// Time since the start, this frame's delta and index, fixed steps.
    pub clock: &'a Clock,
    /// The mouse and keyboard for this frame.
    pub input: &'a Input,
    pub(crate) shared: &'a mut Shared,
}

/// The runner's state a frame reads and changes.
#[derive(Debug)]
pub(crate) struct Shared {
    /// The window's inner size, as its last `Resized` said.
    pub(crate) size: PhysicalSize<u32>,
    pub(crate) scale_factor: f64,
    /// The surface changed size before this frame (or this is the first frame).
    pub(crate) resized: bool,
    /// Frames skipped so far (the window minimized).
    pub(crate) skipped: u64,
    /// Redraws left that act as if the window were minimized
    /// ([`FrameContext::simulate_minimized`]).
    pub(crate) simulated_minimized: u64,
    /// The frame asked to end the app.
    pub(crate) exit: bool,
    pub(crate) capture: Capture,
}

impl Shared {
    pub(crate) fn new(size: PhysicalSize<u32>, scale_factor: f64) -> Shared {
        Shared {
            size,
            scale_factor,
            resized: true,
            skipped: 0,
            simulated_minimized: 0,
            exit: false,
            capture: Capture::default(),
        }
    }
}

impl FrameContext<'_> {
    /// The surface's size in physical pixels (the window's inner size).
    pub fn size(&self) -> (u32, u32) {
        self.surface.size()
    }

    /// `width / height` of the surface, for projections
    /// ([`camera::aspect`](crate::camera::aspect)).
    pub fn aspect(&self) -> f32 {
        let (width, height) = self.size();
        crate::camera::aspect(width, height)
    }

    /// The window's scale factor (physical pixels per logical pixel; it changes when the window
    /// moves to a screen of another density, and the size with it).
    pub fn scale_factor(&self) -> f64 {
        self.shared.scale_factor
    }

    /// Whether the surface changed size since the last frame (true at the first frame): the
    /// moment to resize what depends on it and does not [`follow`](Surface::follow) it.
    pub fn resized(&self) -> bool {
        self.shared.resized
    }

    /// Frames the runner skipped so far because the window was minimized (zero-sized): their
    /// callback was not called.
    pub fn skipped_frames(&self) -> u64 {
        self.shared.skipped
    }

    /// Ends the app after this frame: [`run`](super::run) returns `Ok` with the app's state.
    pub fn exit(&mut self) {
        self.shared.exit = true;
    }

    /// Captures this frame: call it before the frame's passes, render the main pass into
    /// [`target`](Self::target), then take the picture with [`captured`](Self::captured) after
    /// the frame's submit. Where the window's texture can be read back
    /// ([`Surface::supports_read_back`]: Vulkan, Metal, DX12) the target is the surface and its
    /// texture is copied out after the submit; elsewhere (GL) the target is an offscreen
    /// [`Target`] of the surface's format, size, depth and samples, which the runner copies
    /// into the window after the frame callback returns (one more pass in a frame of its own).
    pub fn capture(&mut self) -> Result<()> {
        self.shared
            .capture
            .begin(self.gpu, self.surface, self.shared.size)
    }

    /// Where this frame's main pass renders: the surface, or the offscreen target while
    /// [`capture`](Self::capture) needs one. `f.pass(PassDesc::new(ctx.target()), …)`.
    pub fn target(&self) -> PassTarget<'_> {
        match (&self.shared.capture.mode, &self.shared.capture.offscreen) {
            (Mode::Offscreen, Some(o)) => PassTarget::Target(&o.target),
            _ => PassTarget::Surface(self.surface),
        }
    }

    /// A pass into [`target`](Self::target) with [`PassDesc`]'s defaults (clear to
    /// transparent black, depth to 1): `f.pass(ctx.pass().clear([0.1, 0.1, 0.1, 1.0]), …)`.
    pub fn pass(&self) -> PassDesc<'_> {
        PassDesc::new(self.target())
    }

    /// The picture of this frame (RGBA8, top row first) after [`capture`](Self::capture) and
    /// the frame's submit; `None` without a capture, or when the frame's pass into the window
    /// was skipped.
    pub fn captured(&mut self) -> Result<Option<RgbaImage>> {
        match (&self.shared.capture.mode, &self.shared.capture.offscreen) {
            (Mode::Surface, _) => Ok(self.surface.take_capture()),
            (Mode::Offscreen, Some(o)) => o.target.read_rgba8().map(Some),
            _ => Ok(None),
        }
    }

    /// Acts as if the window were minimized (zero-sized) for the next `redraws` redraws: the
    /// runner skips them as it skips a minimized window's (the surface at 0×0, no callback,
    /// [`skipped_frames`](Self::skipped_frames) counting them), then restores the surface to
    /// the window's size. A testing aid: X11 cannot make a window zero-sized (other platforms
    /// report a minimized window as 0×0).
    pub fn simulate_minimized(&mut self, redraws: u64) {
        self.shared.simulated_minimized = redraws;
    }
}

/// How this frame is captured.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) enum Mode {
    /// Not captured.
    #[default]
    Off,
    /// Read back from the window's texture.
    Surface,
    /// Rendered into the offscreen target, copied to the window after the callback.
    Offscreen,
}

/// The capture of frames ([`FrameContext::capture`]).
#[derive(Debug, Default)]
pub(crate) struct Capture {
    pub(crate) mode: Mode,
    /// Made at the first capture of a surface that cannot be read back; follows its size.
    offscreen: Option<Offscreen>,
}

/// The offscreen target frames are captured from where the window's texture cannot be read.
#[derive(Debug)]
struct Offscreen {
    target: Target,
    copy: Effect,
}

impl Capture {
    fn begin(&mut self, gpu: &Gpu, surface: &Surface, size: PhysicalSize<u32>) -> Result<()> {
        if surface.supports_read_back() {
            surface.capture_next_frame()?;
            self.mode = Mode::Surface;
            return Ok(());
        }
        if self.offscreen.is_none() {
            let signature = surface.signature();
            let mut desc = TargetDesc::new(size.width.max(1), size.height.max(1))
                .format(surface.format())
                .samples(signature.samples)
                .label("vgpu app capture");
            desc.depth = signature.depth;
            let target = gpu.target_with(&desc)?;
            surface.follow(&target)?;
            let copy = gpu.effect("vgpu app capture to window", COPY_TO_WINDOW)?;
            copy.set("frame", &target)?;
            self.offscreen = Some(Offscreen { target, copy });
        }
        self.mode = Mode::Offscreen;
        Ok(())
    }

    /// Ends the frame's capture: an offscreen frame is copied into the window.
    pub(crate) fn finish(&mut self, gpu: &Gpu, surface: &Surface) -> Result<()> {
        let mode = std::mem::take(&mut self.mode);
        match (mode, &self.offscreen) {
            (Mode::Offscreen, Some(o)) => {
                gpu.frame(|f| {
                    let pass = PassDesc::new(surface).label("vgpu app capture to window");
                    f.pass(pass, |p| p.draw(&o.copy))
                })?;
                Ok(())
            }
            (Mode::Surface, _) => {
                // A capture not taken is not kept for a later frame.
                let _ = surface.take_capture();
                Ok(())
            }
            _ => Ok(()),
        }
    }
}
