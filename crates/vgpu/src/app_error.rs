//! [`AppError`]: errors of the app runner ([`vgpu::app::run`], the `app` feature); and their
//! codes. Compiled with every feature set, so that [`Error`](crate::Error) has the same variants
//! whatever the features.
//!
//! [`vgpu::app::run`]: https://docs.rs/vgpu/latest/vgpu/app/fn.run.html

use vgpu_core::{CodeInfo, ErrorCode};

/// Errors of the app runner (`vgpu::app::run`, feature `app`). The errors the app's own
/// callbacks return come back from `run` unchanged; these are the runner's.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum AppError {
    /// The setup or frame callback panicked. The runner caught the panic, dropped the app's
    /// state, closed the window and ended the event loop.
    #[error("VGPU-APP-PANIC: the {callback} callback panicked at frame {frame}: {message}")]
    Panic {
        /// `"setup"` or `"frame"`.
        callback: &'static str,
        /// The frame's index ([`Clock::frame`](https://docs.rs/vgpu/latest/vgpu/app/struct.Clock.html#method.frame);
        /// 0 for the setup callback).
        frame: u64,
        /// The panic's message (its `&str` or `String` payload; `"a panic of another type"`
        /// otherwise).
        message: String,
    },
    /// No window: the event loop or the window could not be made (no display to connect to, a
    /// second event loop in one process, a window the platform refused), or the device chosen
    /// presents nothing (`VGPU_BACKEND=noop`).
    #[error("VGPU-APP-WINDOW: no window to run the app in: {reason}")]
    Window {
        /// Why.
        reason: String,
    },
}

/// `VGPU-APP-WINDOW` saying `reason`.
#[cfg_attr(
    not(feature = "app"),
    expect(
        dead_code,
        reason = "the runner's helper; the runner needs the `app` feature"
    )
)]
pub(crate) fn window_error(reason: impl Into<String>) -> crate::Error {
    AppError::Window {
        reason: reason.into(),
    }
    .into()
}

impl ErrorCode for AppError {
    fn code(&self) -> &'static str {
        match self {
            AppError::Panic { .. } => "VGPU-APP-PANIC",
            AppError::Window { .. } => "VGPU-APP-WINDOW",
        }
    }
}

/// The codes of [`AppError`].
pub(crate) const CODES: &[CodeInfo] = &[
    CodeInfo {
        code: "VGPU-APP-PANIC",
        variant: "AppError::Panic",
        meaning: "The setup or frame callback of `vgpu::app::run` panicked. The runner caught the panic (the message is in the error), dropped the app's state, closed the window and returned this error.",
        fix: "Fix the panic at the place its message names (`RUST_BACKTRACE=1` prints where); return an `Err` from the callback for failures the app expects.",
    },
    CodeInfo {
        code: "VGPU-APP-WINDOW",
        variant: "AppError::Window",
        meaning: "`vgpu::app::run` could not open its window: no display to connect to (no `$DISPLAY` or `$WAYLAND_DISPLAY`), a second event loop in one process (winit allows one), the platform refused the window, or `VGPU_BACKEND=noop`, which presents nothing.",
        fix: "Run under a display (or `Xvfb`), call `run` once per process, and choose a backend that presents (`auto`, `vulkan`, `gl`, …).",
    },
];
