//! The browser's side of the runner (wasm32): `run` on a `<canvas>`, the device made asynchronously,
//! errors to the console.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

use wasm_bindgen::JsCast;
use winit::dpi::LogicalSize;
use winit::platform::web::WindowAttributesExtWebSys;
use winit::window::{Window, WindowAttributes};

use super::runner::window_error;
use super::{AppContext, AppSettings, FrameContext};
use crate::{Gpu, GpuOptions, Result, Surface, SurfaceDesc};

/// `attributes` for the canvas of `settings`: the page's `<canvas id=…>` (its CSS decides its
/// size), or a new canvas of `settings.size` appended to the body.
pub(crate) fn canvas_attributes(
    attributes: WindowAttributes,
    settings: &AppSettings,
) -> Result<WindowAttributes> {
    let Some(id) = &settings.canvas_id else {
        let (width, height) = settings.size;
        return Ok(attributes
            .with_inner_size(LogicalSize::new(width, height))
            .with_append(true));
    };
    let canvas = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id(id))
        .ok_or_else(|| window_error(format!("no element with id {id:?} in the page")))?
        .dyn_into::<web_sys::HtmlCanvasElement>()
        .map_err(|_| window_error(format!("the element {id:?} is not a <canvas>")))?;
    Ok(attributes.with_canvas(Some(canvas)))
}

/// Where the future that makes a device leaves it.
type Slot = Rc<RefCell<Option<Result<(Gpu, Surface)>>>>;

/// A window whose device the browser is making.
pub(crate) struct Opening {
    pub(crate) window: Arc<Window>,
    made: Slot,
}

impl Opening {
    /// Starts making the device and surface for `window`; the window is asked for a redraw once
    /// they are made (or failed), when the runner [`take`](Self::take)s them.
    pub(crate) fn new(window: Arc<Window>, options: GpuOptions, desc: SurfaceDesc) -> Opening {
        let made: Slot = Rc::new(RefCell::new(None));
        let (slot, target) = (Rc::clone(&made), Arc::clone(&window));
        wasm_bindgen_futures::spawn_local(async move {
            let result = Gpu::new_for_window_async(&options, Arc::clone(&target), &desc).await;
            *slot.borrow_mut() = Some(result);
            target.request_redraw();
        });
        Opening { window, made }
    }

    /// The device and surface, once made.
    pub(crate) fn take(&self) -> Option<Result<(Gpu, Surface)>> {
        self.made.borrow_mut().take()
    }
}

/// Logs why the app ended (nothing returns it from `run` in a browser).
pub(crate) fn log_error(e: &crate::Error) {
    let message = format!("vgpu::app: the app ended: {e}");
    web_sys::console::error_1(&wasm_bindgen::JsValue::from_str(&message));
}

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
