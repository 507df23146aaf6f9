//! vgpu in a browser: the per-pass camera (one shared camera block set to a different value
//! before each of three passes) rendered into a `<canvas>` on WebGL2 or WebGPU, animated by
//! `requestAnimationFrame`, then checked: the page writes `DONE {json}` into `document.title`
//! with the backend, the counters of the last (steady) frames and the colours of known pixels.
//!
//! `app.html` runs vgpu's app runner (`vgpu::app::run`, feature `app`) in the page's canvas,
//! whose CSS size the browser test changes: the surface follows it.
//!
//! Build with `examples/web/build.sh`, test in headless Chromium with `examples/web/test.sh`
//! (see `examples/web/README.md`). Natively the crate is only the [`scene`] (what is drawn and
//! what the pixels must be), so it builds with the rest of the workspace.

pub mod scene;

#[cfg(target_arch = "wasm32")]
mod app;
#[cfg(target_arch = "wasm32")]
mod web;
