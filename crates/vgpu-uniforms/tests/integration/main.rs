//! The integration tests of vgpu-uniforms, in one test binary (one link, not one per file):
//! tier 1 (wgpu's noop device) and tier 2 (`device`, on the device `VGPU_BACKEND` names).
//!
//! `alloc` declares this binary's global allocator: it counts only on a thread that switched
//! counting on, so the other tests (and their threads) run uncounted beside it.

mod alloc;
mod bounds;
mod common;
mod device;
mod model;
mod noop;
mod storage_resize;
