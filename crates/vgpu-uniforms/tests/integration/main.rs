//! The integration tests of vgpu-uniforms, in one test binary (one link, not one per file):
//! tier 1 (wgpu's noop device: every file but `device`, one per subject) and tier 2 (`device`,
//! on the device `VGPU_BACKEND` names).
//!
//! `alloc` declares this binary's global allocator: it counts only on a thread that switched
//! counting on, so the other tests (and their threads) run uncounted beside it.

mod alloc;
mod bounds;
mod common;
mod contract;
mod costs;
mod device;
mod lifecycle;
mod live_owners;
mod model;
mod sets;
mod snapshots;
mod stamps;
mod storage_resize;
