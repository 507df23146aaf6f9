//! # vgpu-uniforms
//!
//! Revision-tracked uniform owners, pooled capture pages and per-submission upload planning: the
//! capture contract of docs/design.md §3, on bytes only (no WGSL, no values).
//!
//! An *owner* ([`OwnerKey`]) is a block of packed bytes (a shared uniforms block, or the struct a
//! draw binds) with a *revision* that bumps exactly when a set changes the bytes bitwise (so
//! `+0.0` and `-0.0` differ, and identical NaN bits are equal). Recording an operation asks the
//! [`UniformEngine`] to [`resolve`](UniformEngine::resolve) each owner it binds into a
//! [`SlotRef`]: a pooled page buffer and a dynamic offset. The caller builds its bind groups on
//! (layout, page buffer) with `has_dynamic_offset: true`, so a bind group never depends on a value.
//!
//! ```
//! use vgpu_uniforms::{AddressSpace, EngineConfig, UniformEngine};
//!
//! let ctx = vgpu_core::GpuContext::noop();
//! let mut engine = UniformEngine::new(ctx.clone(), EngineConfig::default());
//! let camera = engine.create_owner("camera", AddressSpace::Uniform);
//!
//! engine.begin_submission()?;
//! engine.set_bytes(camera, &[1; 64])?;
//! let shadow_pass = engine.resolve(camera)?; // the home slot
//! engine.set_bytes(camera, &[2; 64])?;
//! let main_pass = engine.resolve(camera)?; // a retained extra slot: its own snapshot
//! assert_eq!(shadow_pass.buffer, main_pass.buffer); // same page: same bind group
//! assert_ne!(shadow_pass.offset, main_pass.offset); // different dynamic offsets
//! engine.finish_submission()?; // uploads both slots in one write, before the submit
//! assert_eq!(ctx.stats().snapshot().write_calls, 1);
//! # Ok::<(), vgpu_uniforms::UniformsError>(())
//! ```
//!
//! ## Capture rules
//!
//! 1. **Snapshot**: an operation sees the owner's bytes as they were when it was resolved. The
//!    bytes reach the page's CPU shadow either at the set (an owner whose home slot no operation
//!    of the open submission may have bound takes the new bytes in its home slot: its slot does
//!    not move) or at resolve time (a capture into another slot), and are uploaded from the
//!    shadow at [`finish_submission`](UniformEngine::finish_submission). A slot never holds two
//!    contents in one submission, so one `write_buffer` per range per submission is always
//!    enough (wgpu#1650).
//! 2. **Home slot first**: the first revision of an owner bound in a submission uses the owner's
//!    persistent home slot. If it already holds the bytes (compared bitwise, short-cut by
//!    revision) nothing is copied or uploaded.
//! 3. **Retained slots**: a second, different revision in one submission uses an extra slot of
//!    the owner. Extra slots stay with the owner across submissions and are matched by content,
//!    so a camera set to A before pass 1 and to B before pass 2 every frame costs 0 bytes in
//!    steady state. At most [`EngineConfig::max_extra_slots`] are kept per owner; one not bound for
//!    [`EngineConfig::retain_submissions`] submissions is reclaimed (LRU).
//! 4. **Upload at finish**: dirty slots are coalesced into one `write_buffer` per contiguous run
//!    of dirty slots per page. A cancelled submission uploads nothing; its captured bytes stay
//!    marked dirty and go up with the next finish.
//! 5. **Storage owners** ([`AddressSpace::Storage`]) are live, never captured: each has its own
//!    `STORAGE | COPY_DST | COPY_SRC` buffer, written once at finish with its latest bytes. A
//!    value replaces the whole buffer: a set of another size (a runtime-sized array that grew or
//!    shrank) gives the owner a new buffer (a new [`BufferKey`] and stamp); the old one is
//!    released once no open submission may read it, and reported by
//!    [`drain_released`](UniformEngine::drain_released).
//! 6. **Pinned owners** ([`UniformEngine::pin`], for render bundles): the home slot becomes
//!    live. Every set writes through to it (uploaded once at the next finish), so a bundle that
//!    recorded the home offset reads the latest value on every replay. Operations recorded in a
//!    submission still get snapshots: a pinned owner's `resolve` uses another slot (matched by
//!    content, so values that repeat every frame stay resident), and a pin taken after an
//!    operation of the submission bound the home moves the owner to a new home.
//! 7. **Memoized slots**: every owner has a [stamp](UniformEngine::stamps) that moves whenever
//!    its slot could (a set that cannot go to the home slot, a storage owner's new size, pin,
//!    unpin, removal, a submission that bound it to a snapshot slot). A caller that declared
//!    [`memos_in_use`](UniformEngine::memos_in_use) in the open submission may bind the slot of
//!    an earlier resolve, without resolving, while the stamp holds, in that submission or later
//!    ones: vgpu records a steady draw this way, with no per-owner lookup. For the rest of such a
//!    submission every home slot counts as bound, so a value set afterwards is captured.
//!
//! ## Counters
//!
//! The numbers that say "something moved" (name — what moves it — who reads it). Each only
//! grows and is compared for equality with a value read earlier.
//!
//! - **revision** (per owner, [`revision`](UniformEngine::revision)) — a set that changes the
//!   owner's bytes bitwise — `resolve` (is the slot bound last, or the home slot, this value?)
//!   and vgpu (a block's `revision()`; revision 0: no value yet).
//! - **submission** (the id [`begin_submission`](UniformEngine::begin_submission) returns) —
//!   `begin_submission` — the engine, to tell the open submission from the one that last bound
//!   an owner or an extra slot.
//! - **stamp** (per owner, in [`stamps`](UniformEngine::stamps)) — anything after which the
//!   owner's slot could move (capture rule 7) — a caller that memoized the slot of a resolve
//!   (vgpu's fast record), which binds it without resolving while the stamp holds.
//! - **stamp slot** (per owner, [`stamp_slot`](UniformEngine::stamp_slot); an index, not a
//!   count) — given at creation, fixed for the owner's life — that caller, to find the stamp.
//! - **stamp clock** ([`stamp_clock`](UniformEngine::stamp_clock)) — every stamp move (stamps
//!   are drawn from it) and [`invalidate_memos`](UniformEngine::invalidate_memos) — vgpu's fast
//!   record, which skips reading its stamps while the clock holds.
//! - **value clock** ([`value_clock`](UniformEngine::value_clock)) — the same, but not the stamp
//!   moves of owners marked shared ([`mark_shared`](UniformEngine::mark_shared)) while they live
//!   — vgpu's fast record, for its groups without a shared block (a camera set per pass leaves
//!   it alone).
//!
//! None is derivable from another without a cost where it is read: a set that goes to the home
//! slot moves the revision and not the stamp, and pin, unpin or a submission's end move the
//! stamp and not the revision; the stamp clock is the source of the stamps, not a second count;
//! the value clock counts a subset of the stamp clock's moves (deriving it would take a count of
//! the others, as much state, and a subtraction on the record path); the stamp slot could be the
//! owner key's slot index, but slotmap does not expose that index (its FFI form is unspecified),
//! and reading the field costs nothing on a hot path (once per memo built).
//!
//! ## Bounds
//!
//! - Live slots after a submission ends ≤ Σ over uniform owners of `1 + max_extra_slots` (during
//!   a submission, an owner bound with more distinct values than that gets one slot per value;
//!   the surplus is freed when the submission ends).
//! - Pages of one size class (a slot size and a shadow stride: the value size rounded up to 16
//!   bytes) ≤ ⌈peak live slots of that class / slots per page⌉: a page is created only when every
//!   page of its class is full. A page's CPU shadow keeps `stride` bytes per slot, not the slot
//!   size (a 64-byte value in a 256-byte slot keeps 64 bytes on the CPU).
//! - A uniform owner's home slot is taken at its first set (pages are made outside the frames
//!   that bind them), its shadow keeps the bytes, and it is uploaded after its first resolve: a
//!   value never bound uploads nothing.
//! - CPU copies of a value's bytes: one (its home slot's shadow) for a value set once, two from
//!   its second set on (the owner keeps its latest bytes to compare sets against and to hold a
//!   value changed while its home slot is bound; made once, at that set).
//! - Empty pages after a submission ends ≤ `idle_page_budget`, plus pages whose last slot was
//!   bound by that very submission (released at the next end).
//!
//! ## When to use what
//!
//! Owners are the cheap path for small per-draw and per-view structs whose values change between
//! operations of one frame. Large or rarely changing data bound by many operations is cheaper in
//! a user-owned buffer bound by identity; values that must stay live inside a render bundle use a
//! pinned owner; per-instance arrays belong in storage owners or user buffers.

mod config;
mod engine;
mod error;
mod error_codes;
mod pool;

pub use config::EngineConfig;
pub use engine::{EngineGauges, SlotRef, UniformEngine};
pub use error::UniformsError;
pub use error_codes::ERROR_CODES;

slotmap::new_key_type! {
    /// An owner of an engine. Generational: stale once the owner is removed.
    pub struct OwnerKey;
    /// A uniform page. Generational: stale once the page is released, never reused for another
    /// buffer.
    pub struct PageKey;
    /// The live buffer of a storage owner. Generational, never reused for another buffer.
    pub struct StorageKey;
}

/// The address space of the binding an owner feeds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AddressSpace {
    /// `var<uniform>`: captured per operation into pooled pages, bound with dynamic offsets.
    Uniform,
    /// `var<storage>`: live, one buffer per owner, uploaded at finish with the latest bytes.
    Storage,
}

/// The buffer a [`SlotRef`] points into.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BufferKey {
    /// A pooled uniform page (`UNIFORM | COPY_DST | COPY_SRC`); bind with a dynamic offset.
    Page(PageKey),
    /// A storage owner's own buffer (`STORAGE | COPY_DST | COPY_SRC`); bind at offset 0.
    Storage(StorageKey),
}
