//! An app runner (feature `app`): [`run`] opens a window (winit), makes the [`Gpu`](crate::Gpu)
//! and [`Surface`](crate::Surface) for it, keeps the surface and its depth and MSAA attachments
//! at the window's size and scale factor, skips frames while the window is minimized, quits on
//! close and Esc, and calls the app's frame callback with a [`FrameContext`]: the device and the
//! surface, a [`Clock`], this frame's [`Input`], the window's size. The callback records its
//! passes as any vgpu code does — `ctx.gpu.frame(|f| f.pass(&ctx.surface, …))` — nothing is
//! hidden: the runner is the winit `ApplicationHandler` every app would otherwise write.
//!
//! ```no_run
//! use vgpu::app::{AppSettings, run};
//! use vgpu::{DrawDesc, PassDesc, value};
//!
//! let shader = "
//!     struct Spin { angle: f32 }
//!     @group(0) @binding(0) var<uniform> spin: Spin;
//!     @vertex fn vs_main(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
//!         let a = spin.angle + f32(i) * 2.094;
//!         return vec4f(0.5 * cos(a), 0.5 * sin(a), 0.0, 1.0);
//!     }
//!     @fragment fn fs_main() -> @location(0) vec4f { return vec4f(1.0, 0.5, 0.0, 1.0); }
//! ";
//! run(
//!     AppSettings::new("triangle"),
//!     |ctx| ctx.gpu.draw(&ctx.gpu.shader("triangle", shader)?, DrawDesc::default()),
//!     |draw, ctx| {
//!         draw.set("spin", value! { angle: ctx.clock.time() })?;
//!         ctx.gpu.frame(|f| f.pass(PassDesc::new(ctx.target()).clear([0.1, 0.1, 0.1, 1.0]), |p| p.draw(draw)))?;
//!         Ok(())
//!     },
//! )?;
//! # Ok::<(), vgpu::Error>(())
//! ```
//!
//! **Two closures, not a trait.** The setup closure builds the app's state (any type: a tuple, a
//! struct, one draw) and the frame closure takes it by `&mut`: in a short app nothing is
//! declared but the state, the state's type is inferred, and the closures capture what `main`
//! prepared (parsed arguments, a path). A trait would need a struct, an `impl` block and
//! named types for the context's lifetimes before the first pixel. [`run`] returns the state
//! when the app ends, so that `main` can print what the frames measured.
//!
//! - **Resize**: before each frame the surface takes the window's last reported size (its
//!   depth and MSAA attachments, and the targets that [`follow`](crate::Surface::follow) it,
//!   with it); [`FrameContext::resized`] says when it changed. A zero-sized (minimized) window
//!   skips frames: the callback is not called until the window has a size again. A lost or
//!   outdated surface is reconfigured by the surface itself at the next frame (and a timeout or
//!   an occluded window skips the frame's passes: `FrameReport::skipped`).
//! - **Clock**: wall-clock time by default; [`AppSettings::fixed_delta`] and
//!   [`AppSettings::frames`] run a fixed number of frames at a fixed step (tests, recordings).
//! - **Errors and panics**: an `Err` from a callback ends the app and is what `run` returns; a
//!   panic in a callback is caught, the window closed, and `run` returns `VGPU-APP-PANIC` with
//!   the panic's message ([`AppError::Panic`](crate::AppError::Panic); with `panic = "abort"`
//!   there is nothing to catch). Uncaptured wgpu errors stay with the `Gpu`
//!   ([`Gpu::take_uncaptured_errors`](crate::Gpu::take_uncaptured_errors)).
//! - **Screenshots**: [`FrameContext::capture`] reads a frame back from the window where its
//!   texture allows it, and through an offscreen target copied into the window elsewhere.
//!
//! The runner's event loop runs on the main thread ([`AppSettings::any_thread`] relaxes that
//! where the platform allows), once per process (winit's rule). On wasm32 the same `run` drives
//! a `<canvas>` from the browser's animation frames: it returns at once, and the canvas follows
//! its CSS size × `devicePixelRatio` (see the wasm32 `run`).
//!
//! See the guide `docs/apps.md`, and `examples/window.rs` (a shadow-mapped scene, hot reload,
//! screenshots) for a full app.

mod app_context;
mod clock;
mod context;
mod input;
mod runner;
mod settings;
#[cfg(target_arch = "wasm32")]
mod web;
#[cfg(target_arch = "wasm32")]
mod web_canvas;

pub use app_context::AppContext;
pub use clock::{Clock, FixedSteps, MAX_FIXED_STEPS};
pub use context::FrameContext;
pub use input::{Input, PIXELS_PER_LINE};
pub use settings::AppSettings;
#[cfg(target_arch = "wasm32")]
pub use web::run;
/// The winit crate the runner uses (its `KeyCode`, `MouseButton`, `Window`, …), so that apps
/// need no dependency of their own.
pub use winit;

/// Runs an app in a window until it closes: opens the window of `settings`, makes its `Gpu`
/// and `Surface`, calls `setup` once to build the app's state, then `frame` once per frame with
/// the state and a [`FrameContext`]. Returns the state when the app ends: the window closed,
/// Esc ([`AppSettings::exit_on_escape`]), [`FrameContext::exit`], or the frame limit
/// ([`AppSettings::frames`]).
///
/// Errors: the first `Err` a callback returns (the app ends at once); `VGPU-APP-PANIC` when a
/// callback panicked; `VGPU-APP-WINDOW` when no window could be opened (no display, a second
/// event loop in this process, the noop device); the device's errors
/// ([`Gpu::new_for_window`](crate::Gpu::new_for_window)) and the surface's at a resize.
#[cfg(not(target_arch = "wasm32"))]
pub fn run<S, Setup, Frame>(settings: AppSettings, setup: Setup, frame: Frame) -> crate::Result<S>
where
    Setup: FnOnce(&mut AppContext<'_>) -> crate::Result<S>,
    Frame: FnMut(&mut S, &mut FrameContext<'_>) -> crate::Result<()>,
{
    let event_loop = runner::event_loop(&settings)?;
    let mut app = runner::Runner::new(settings, setup, frame);
    let looped = event_loop.run_app(&mut app);
    app.finish(looped)
}
