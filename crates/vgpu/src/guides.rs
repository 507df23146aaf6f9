//! The guides of `docs/` as pages of this documentation, in reading order. Every code block in
//! them is compiled and run as a doc test (`cargo test -p vgpu --doc`, on the `VGPU_BACKEND`
//! device; blocks that check pixels skip that part on the noop device; the winit part of the
//! windows guide is compiled, not run). Nothing here is code:
//! each module is one guide. Links between guides point at the Markdown files of `docs/`.

#[doc = include_str!("../../../docs/getting-started.md")]
pub mod getting_started {}

#[doc = include_str!("../../../docs/per-pass-camera.md")]
pub mod per_pass_camera {}

#[doc = include_str!("../../../docs/many-objects.md")]
pub mod many_objects {}

#[doc = include_str!("../../../docs/render-bundles.md")]
pub mod render_bundles {}

#[doc = include_str!("../../../docs/measuring.md")]
pub mod measuring {}

#[doc = include_str!("../../../docs/windows-and-existing-apps.md")]
pub mod windows_and_existing_apps {}

#[doc = include_str!("../../../docs/errors.md")]
pub mod errors {}
