//! What the setup callback is handed: [`AppContext`].

use winit::window::Window;

use crate::{Gpu, Surface};

/// What the setup callback of [`run`](super::run) is handed: the device, the window's surface
/// and the window, to build the app's state with (shaders, draws, targets that
/// [`follow`](Surface::follow) the surface, …).
#[derive(Debug)]
#[non_exhaustive]
pub struct AppContext<'a> {
    /// The device, chosen to present to the window. Cheap to clone (keep one in the app's state
    /// to use it after `run` returns).
    pub gpu: &'a Gpu,
    /// The window's surface: `f.pass(&surface, …)` renders into the window.
    pub surface: &'a Surface,
    /// The window (winit's).
    pub window: &'a Window,
}

impl AppContext<'_> {
    /// The surface's size in physical pixels.
    pub fn size(&self) -> (u32, u32) {
        self.surface.size()
    }
    /// The window's scale factor (physical pixels per logical pixel).
    pub fn scale_factor(&self) -> f64 {
        self.window.scale_factor()
    }
}
