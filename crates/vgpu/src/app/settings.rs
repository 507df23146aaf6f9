//! [`AppSettings`]: the window, its surface and how long the app runs.

use std::time::Duration;

use crate::GpuOptions;

/// What [`run`](super::run) opens and how it runs. `Default`: a window titled "vgpu" of
/// 800×600 logical pixels, the device chosen by `VGPU_BACKEND` ([`GpuOptions::from_env`]), the
/// window's sRGB format, Fifo, a `Depth32Float` depth attachment, one sample, the wall clock,
/// no frame limit, Esc quits, (wasm32) a new canvas appended to the page.
#[derive(Clone, Debug)]
pub struct AppSettings {
    /// The window's title.
    pub title: String,
    /// The window's inner size in logical pixels (physical pixels = logical × the scale
    /// factor; the surface is as large as the window's physical size).
    pub size: (u32, u32),
    /// Whether the user may resize the window.
    pub resizable: bool,
    /// The device's options; `None` reads them from the environment
    /// ([`GpuOptions::from_env`]: `VGPU_BACKEND`, …). The runner adds the window's display
    /// (GL needs it).
    pub gpu: Option<GpuOptions>,
    /// The surface's color format; `None` takes the window's first sRGB format.
    pub format: Option<wgpu::TextureFormat>,
    /// The surface's presentation mode (Fifo, offered everywhere, by default).
    pub present_mode: wgpu::PresentMode,
    /// The depth attachment's format, kept at the surface's size; `None` for no depth.
    pub depth: Option<wgpu::TextureFormat>,
    /// MSAA samples of the surface's passes (1 or 4): with 4, passes render into a multisampled
    /// texture kept at the surface's size and resolve into the window's.
    pub samples: u32,
    /// Stop after this many rendered frames (`run` then returns `Ok`); `None` runs until the
    /// window closes.
    pub frames: Option<u64>,
    /// Advance the clock by exactly this per frame instead of the wall clock's time (`0` keeps
    /// the time at 0: a still picture); with `frames`, what tests and recordings use.
    pub fixed_delta: Option<Duration>,
    /// Esc ends the app (as closing the window does).
    pub exit_on_escape: bool,
    /// On wasm32: the `id` of the `<canvas>` to render into; its size follows its CSS size ×
    /// `devicePixelRatio` (the `size` above is not applied: the page's CSS decides). `None`
    /// appends a new canvas of `size` to the page's body. Ignored natively.
    pub canvas_id: Option<String>,
    /// Lets `run` start its event loop on a thread other than the process's main thread: X11,
    /// Wayland and Windows allow it (test harnesses run tests on other threads); macOS and iOS
    /// do not, whatever this says.
    pub any_thread: bool,
}

impl Default for AppSettings {
    fn default() -> Self {
        AppSettings {
            title: "vgpu".to_owned(),
            size: (800, 600),
            resizable: true,
            gpu: None,
            format: None,
            present_mode: wgpu::PresentMode::Fifo,
            depth: Some(wgpu::TextureFormat::Depth32Float),
            samples: 1,
            frames: None,
            fixed_delta: None,
            exit_on_escape: true,
            canvas_id: None,
            any_thread: false,
        }
    }
}

impl AppSettings {
    /// The defaults with the title `title`.
    pub fn new(title: impl Into<String>) -> Self {
        AppSettings {
            title: title.into(),
            ..Default::default()
        }
    }
    /// Sets the window's inner size (logical pixels).
    pub fn size(mut self, width: u32, height: u32) -> Self {
        self.size = (width, height);
        self
    }
    /// Sets the depth attachment's format (`None`: no depth).
    pub fn depth(mut self, format: Option<wgpu::TextureFormat>) -> Self {
        self.depth = format;
        self
    }
    /// Sets the MSAA sample count (1 or 4).
    pub fn samples(mut self, count: u32) -> Self {
        self.samples = count;
        self
    }
    /// Sets the device's options (the window's display is added by the runner).
    pub fn gpu(mut self, options: GpuOptions) -> Self {
        self.gpu = Some(options);
        self
    }
    /// Runs `count` frames, then returns.
    pub fn frames(mut self, count: u64) -> Self {
        self.frames = Some(count);
        self
    }
    /// Advances the clock by `delta` a frame (see [`fixed_delta`](Self::fixed_delta)).
    pub fn fixed_delta(mut self, delta: Duration) -> Self {
        self.fixed_delta = Some(delta);
        self
    }
}
