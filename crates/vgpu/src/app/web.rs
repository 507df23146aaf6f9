//! The browser's `run` (wasm32): the runner on a `<canvas>`, driven by the browser's event loop.

use super::{AppContext, AppSettings, FrameContext};
use crate::Result;

/// In a browser (wasm32): starts the app in the page's `<canvas>` and returns at once; the
/// browser's event loop then drives it (winit's `spawn_app`, a frame per
/// `requestAnimationFrame`). The canvas is the one [`AppSettings::canvas_id`] names (its size
/// following its CSS size × `devicePixelRatio`) or a new one appended to the body. The device is
/// made asynchronously (`Gpu::new_for_window_async`: WebGPU, or WebGL2 on the canvas), then
/// `setup` runs, then `frame` every animation frame.
///
/// Nothing returns the state or an error from the event loop in a browser: an error of a
/// callback ends the app and is logged to the console (`console.error`); a panic aborts the
/// module (wasm32's panics do not unwind). Errors here: `VGPU-APP-WINDOW` when no event loop can
/// be made (a second one in the page).
pub fn run<S, Setup, Frame>(settings: AppSettings, setup: Setup, frame: Frame) -> Result<()>
where
    S: 'static,
    Setup: FnOnce(&mut AppContext<'_>) -> Result<S> + 'static,
    Frame: FnMut(&mut S, &mut FrameContext<'_>) -> Result<()> + 'static,
{
    use winit::platform::web::EventLoopExtWebSys;
    let event_loop = super::runner::event_loop(&settings)?;
    event_loop.spawn_app(super::runner::Runner::new(settings, setup, frame));
    Ok(())
}
