//! The browser's parts the runner uses (wasm32): the `<canvas>` a window is made in, the device
//! made asynchronously for it, errors to the console.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

use wasm_bindgen::JsCast;
use winit::dpi::LogicalSize;
use winit::platform::web::WindowAttributesExtWebSys;
use winit::window::{Window, WindowAttributes};

use super::AppSettings;
use crate::app_error::window_error;
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
