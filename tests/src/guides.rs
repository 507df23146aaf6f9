//! The guides of `docs/`, in reading order, as doc tests: every code block in them is compiled
//! and run by `cargo test -p vgpu-tests --doc` (part of `cargo test --workspace`), on the
//! `VGPU_BACKEND` device; blocks that check pixels skip that part on the noop device; the winit
//! part of the windows guide is compiled, not run. They live in this unpublished crate so that
//! the published `vgpu` package holds no file from outside its folder. Nothing here is code:
//! each module is one guide.

#[doc = include_str!("../../docs/getting-started.md")]
pub mod getting_started {}

#[doc = include_str!("../../docs/per-pass-camera.md")]
pub mod per_pass_camera {}

#[doc = include_str!("../../docs/many-objects.md")]
pub mod many_objects {}

#[doc = include_str!("../../docs/render-bundles.md")]
pub mod render_bundles {}

#[doc = include_str!("../../docs/auto-bundles.md")]
pub mod auto_bundles {}

#[doc = include_str!("../../docs/pipelines.md")]
pub mod pipelines {}

#[doc = include_str!("../../docs/textures.md")]
pub mod textures {}

#[doc = include_str!("../../docs/shader-modules.md")]
pub mod shader_modules {}

#[doc = include_str!("../../docs/measuring.md")]
pub mod measuring {}

#[doc = include_str!("../../docs/windows-and-existing-apps.md")]
pub mod windows_and_existing_apps {}

#[doc = include_str!("../../docs/apps.md")]
pub mod apps {}

#[doc = include_str!("../../docs/errors.md")]
pub mod errors {}
