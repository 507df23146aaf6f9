//! The event loop's handler behind [`run`](super::run): opens the window, makes the `Gpu` and
//! `Surface`, keeps the surface at the window's size, feeds the input, ticks the clock and calls
//! the app's callbacks, each under `catch_unwind`.

use std::any::Any;
use std::panic::AssertUnwindSafe;
use std::sync::Arc;

use winit::application::ApplicationHandler;
use winit::event::{ElementState, KeyEvent, WindowEvent};
use winit::event_loop::{ActiveEventLoop, EventLoop};
use winit::keyboard::{KeyCode, PhysicalKey};
use winit::window::{Window, WindowId};

use super::context::Shared;
use super::{AppContext, AppSettings, Clock, FrameContext, Input};
use crate::app_error::{AppError, window_error};
use crate::{BackendChoice, Error, Gpu, GpuOptions, Result, Surface, SurfaceDesc};

/// The handler of the app's event loop.
pub(crate) struct Runner<S, Setup, Frame> {
    settings: AppSettings,
    setup: Option<Setup>,
    frame: Frame,
    running: Option<Running<S>>,
    /// The window while the browser makes its device.
    #[cfg(target_arch = "wasm32")]
    opening: Option<super::web_canvas::Opening>,
    /// The app's state once the event loop is ending (what `run` returns).
    state: Option<S>,
    /// What ends `run` with an error (the first one).
    error: Option<Error>,
    /// The event loop was asked to end: no further frames.
    ending: bool,
}

/// The window and what renders into it. Fields drop in order: the app's state before the
/// surface, the surface before the window.
struct Running<S> {
    state: Option<S>,
    surface: Surface,
    gpu: Gpu,
    window: Arc<Window>,
    clock: Clock,
    input: Input,
    shared: Shared,
}

/// `f()`, a panic in it returned as `VGPU-APP-PANIC` of `callback` at `frame`.
pub(crate) fn catch<T>(
    callback: &'static str,
    frame: u64,
    f: impl FnOnce() -> Result<T>,
) -> Result<T> {
    match std::panic::catch_unwind(AssertUnwindSafe(f)) {
        Ok(result) => result,
        Err(payload) => Err(AppError::Panic {
            callback,
            frame,
            message: panic_message(payload.as_ref()),
        }
        .into()),
    }
}

/// The message of a panic's payload.
fn panic_message(payload: &(dyn Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_owned()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic of another type".to_owned()
    }
}

/// The event loop of `settings` (on another thread than the main one where it allows and
/// `any_thread` asks).
pub(crate) fn event_loop(settings: &AppSettings) -> Result<EventLoop<()>> {
    let mut builder = EventLoop::builder();
    if settings.any_thread {
        #[cfg(any(
            target_os = "linux",
            target_os = "dragonfly",
            target_os = "freebsd",
            target_os = "netbsd",
            target_os = "openbsd"
        ))]
        winit::platform::x11::EventLoopBuilderExtX11::with_any_thread(&mut builder, true);
        #[cfg(target_os = "windows")]
        winit::platform::windows::EventLoopBuilderExtWindows::with_any_thread(&mut builder, true);
    }
    // winit panics on a thread other than the main one unless allowed: an error here.
    match std::panic::catch_unwind(AssertUnwindSafe(|| builder.build())) {
        Ok(Ok(event_loop)) => Ok(event_loop),
        Ok(Err(e)) => Err(window_error(format!("no event loop: {e}"))),
        Err(payload) => Err(window_error(format!(
            "no event loop: {} (AppSettings::any_thread allows other threads where the platform does)",
            panic_message(payload.as_ref())
        ))),
    }
}

impl<S, Setup, Frame> Runner<S, Setup, Frame>
where
    Setup: FnOnce(&mut AppContext<'_>) -> Result<S>,
    Frame: FnMut(&mut S, &mut FrameContext<'_>) -> Result<()>,
{
    pub(crate) fn new(settings: AppSettings, setup: Setup, frame: Frame) -> Self {
        Runner {
            settings,
            setup: Some(setup),
            frame,
            running: None,
            #[cfg(target_arch = "wasm32")]
            opening: None,
            state: None,
            error: None,
            ending: false,
        }
    }

    /// What `run` returns once the event loop returned `looped`.
    #[cfg(not(target_arch = "wasm32"))]
    pub(crate) fn finish(
        mut self,
        looped: std::result::Result<(), impl std::fmt::Display>,
    ) -> Result<S> {
        self.close();
        if let Some(e) = self.error.take() {
            // The state of a failed app goes; a panic in its drop is not reported twice.
            let state = self.state.take();
            let _ = std::panic::catch_unwind(AssertUnwindSafe(move || drop(state)));
            return Err(e);
        }
        looped.map_err(|e| window_error(format!("the event loop failed: {e}")))?;
        self.state
            .take()
            .ok_or_else(|| window_error("the event loop ended before the window opened"))
    }

    /// Takes the app's state out and drops the window and what renders into it.
    fn close(&mut self) {
        if let Some(mut running) = self.running.take() {
            self.state = running.state.take();
        }
    }

    /// Ends the event loop (no further frames).
    fn end(&mut self, event_loop: &ActiveEventLoop) {
        self.ending = true;
        event_loop.exit();
    }

    /// Ends the event loop with `e` (the first error is kept).
    fn fail(&mut self, event_loop: &ActiveEventLoop, e: Error) {
        // In a browser nothing returns from `run`: the console says why the app ended.
        #[cfg(target_arch = "wasm32")]
        super::web_canvas::log_error(&e);
        if self.error.is_none() {
            self.error = Some(e);
        }
        self.end(event_loop);
    }

    /// Opens the window; returns it with the device's options and the surface's description.
    fn open_window(
        &self,
        event_loop: &ActiveEventLoop,
    ) -> Result<(Arc<Window>, GpuOptions, SurfaceDesc)> {
        let s = &self.settings;
        let attributes = Window::default_attributes()
            .with_title(s.title.clone())
            .with_resizable(s.resizable);
        #[cfg(not(target_arch = "wasm32"))]
        let attributes =
            attributes.with_inner_size(winit::dpi::LogicalSize::new(s.size.0, s.size.1));
        #[cfg(target_arch = "wasm32")]
        let attributes = super::web_canvas::canvas_attributes(attributes, s)?;
        let window = event_loop
            .create_window(attributes)
            .map_err(|e| window_error(format!("the window could not be made: {e}")))?;
        let options = match &s.gpu {
            Some(options) => options.clone(),
            None => GpuOptions::from_env()?,
        }
        .with_display(event_loop.owned_display_handle());
        if options.backend == BackendChoice::Noop {
            return Err(window_error(
                "the noop device (VGPU_BACKEND=noop) presents nothing: choose auto, vulkan, gl, …",
            ));
        }
        let size = window.inner_size();
        let desc = SurfaceDesc {
            label: "window".to_owned(),
            format: s.format,
            present_mode: s.present_mode,
            depth: s.depth,
            sample_count: s.samples,
            ..SurfaceDesc::new(size.width, size.height)
        };
        Ok((Arc::new(window), options, desc))
    }

    /// Calls the setup callback with the window's device and surface.
    fn begin(&mut self, window: Arc<Window>, gpu: Gpu, surface: Surface) -> Result<Running<S>> {
        let Some(setup) = self.setup.take() else {
            return Err(window_error("the app was started twice"));
        };
        let state = catch("setup", 0, || {
            setup(&mut AppContext {
                gpu: &gpu,
                surface: &surface,
                window: &window,
            })
        })?;
        window.request_redraw();
        Ok(Running {
            // The window's size now: in a browser it may have changed while the device was made.
            shared: Shared::new(window.inner_size(), window.scale_factor()),
            clock: Clock::new(self.settings.fixed_delta),
            input: Input::default(),
            state: Some(state),
            surface,
            gpu,
            window,
        })
    }

    /// Opens the window, makes the `Gpu` and `Surface` and calls the setup callback; in a
    /// browser, which makes the device asynchronously, only starts making them:
    /// [`poll_opening`](Self::poll_opening) calls the setup callback once they are made.
    fn start(&mut self, event_loop: &ActiveEventLoop) -> Result<()> {
        let (window, options, desc) = self.open_window(event_loop)?;
        #[cfg(not(target_arch = "wasm32"))]
        {
            let (gpu, surface) = Gpu::new_for_window(&options, Arc::clone(&window), &desc)?;
            self.running = Some(self.begin(window, gpu, surface)?);
        }
        #[cfg(target_arch = "wasm32")]
        {
            self.opening = Some(super::web_canvas::Opening::new(window, options, desc));
        }
        Ok(())
    }

    /// Once the browser made the device: the setup callback, then the first frame.
    #[cfg(target_arch = "wasm32")]
    fn poll_opening(&mut self, event_loop: &ActiveEventLoop) {
        let Some(made) = self
            .opening
            .as_ref()
            .and_then(super::web_canvas::Opening::take)
        else {
            return;
        };
        let Some(opening) = self.opening.take() else {
            return;
        };
        match made.and_then(|(gpu, surface)| self.begin(opening.window, gpu, surface)) {
            Ok(running) => self.running = Some(running),
            Err(e) => self.fail(event_loop, e),
        }
    }

    /// One redraw: the surface follows the window, then the clock ticks and the frame callback
    /// runs (nothing while the window is minimized). Returns whether the app ends after it.
    fn redraw(&mut self) -> Result<bool> {
        let Some(r) = self.running.as_mut() else {
            return Ok(false);
        };
        let Some(state) = r.state.as_mut() else {
            return Ok(false);
        };
        if self.settings.frames == Some(0) {
            return Ok(true);
        }
        let size = r.shared.size;
        if r.shared.simulated_minimized > 0 || size.width == 0 || size.height == 0 {
            // Minimized: passes into the 0×0 surface would skip; the callback is not called,
            // and the next `Resized` (or the end of a simulation) asks for a frame.
            r.surface.resize(0, 0)?;
            r.shared.skipped += 1;
            if r.shared.simulated_minimized > 0 {
                r.shared.simulated_minimized -= 1;
                r.window.request_redraw();
            }
            return Ok(false);
        }
        if r.surface.size() != (size.width, size.height) {
            r.surface.resize(size.width, size.height)?;
            r.shared.resized = true;
        }
        r.clock.tick();
        let index = r.clock.frame();
        let mut ctx = FrameContext {
            gpu: &r.gpu,
            surface: &r.surface,
            window: &r.window,
            clock: &r.clock,
            input: &r.input,
            shared: &mut r.shared,
        };
        let frame = &mut self.frame;
        let result = catch("frame", index, || frame(state, &mut ctx));
        // The capture's copy into the window, also after a failed frame (it ends the app).
        let finished = r.shared.capture.finish(&r.gpu, &r.surface);
        result.and(finished)?;
        r.input.end_frame();
        r.shared.resized = false;
        let last = self.settings.frames.is_some_and(|n| index + 1 >= n);
        if last || r.shared.exit {
            return Ok(true);
        }
        r.window.request_redraw();
        Ok(false)
    }
}

/// Whether `event` is Esc going down (not a repeat, not one winit made up for a key held when
/// the window got the focus).
fn is_escape(event: &WindowEvent) -> bool {
    matches!(
        event,
        WindowEvent::KeyboardInput {
            event: KeyEvent {
                physical_key: PhysicalKey::Code(KeyCode::Escape),
                state: ElementState::Pressed,
                repeat: false,
                ..
            },
            is_synthetic: false,
            ..
        }
    )
}

impl<S, Setup, Frame> ApplicationHandler for Runner<S, Setup, Frame>
where
    Setup: FnOnce(&mut AppContext<'_>) -> Result<S>,
    Frame: FnMut(&mut S, &mut FrameContext<'_>) -> Result<()>,
{
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.running.is_some() || self.setup.is_none() || self.ending {
            return;
        }
        if let Err(e) = self.start(event_loop) {
            self.fail(event_loop, e);
        }
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _: WindowId, event: WindowEvent) {
        if self.ending {
            return;
        }
        #[cfg(target_arch = "wasm32")]
        self.poll_opening(event_loop);
        let Some(r) = self.running.as_mut() else {
            return;
        };
        r.input.window_event(&event);
        match event {
            WindowEvent::CloseRequested => self.end(event_loop),
            _ if self.settings.exit_on_escape && is_escape(&event) => self.end(event_loop),
            WindowEvent::Resized(size) => {
                r.shared.size = size;
                if size.width > 0 && size.height > 0 {
                    r.window.request_redraw();
                }
            }
            WindowEvent::ScaleFactorChanged { scale_factor, .. } => {
                // The new physical size follows in a `Resized`.
                r.shared.scale_factor = scale_factor;
            }
            WindowEvent::RedrawRequested => match self.redraw() {
                Ok(true) => self.end(event_loop),
                Ok(false) => {}
                Err(e) => self.fail(event_loop, e),
            },
            _ => {}
        }
    }

    /// The window and its device go while the event loop still runs.
    fn exiting(&mut self, _: &ActiveEventLoop) {
        self.close();
    }
}
