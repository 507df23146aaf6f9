//! Tuning knobs of the [`UniformEngine`](crate::UniformEngine), with documented defaults.

/// Configuration of a [`UniformEngine`](crate::UniformEngine). `Default` gives the documented
/// defaults; every field is a bound the engine honours (see the crate docs for the resulting
/// bounds on live slots and pages).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EngineConfig {
    /// Bytes per uniform page (default 256 KiB). Rounded down to whole slots of the page's size
    /// class, raised to one slot when a slot is larger, and clamped to the device's
    /// `max_buffer_size` and to `u32::MAX` (dynamic offsets are `u32`).
    pub page_size: u64,
    /// Extra (non-home) slots an owner keeps across submissions (default 8). A submission that
    /// binds more distinct values of one owner than `1 + max_extra_slots` still gets a slot per
    /// value (correctness first); the surplus is freed when the submission ends.
    pub max_extra_slots: usize,
    /// An extra slot not bound for this many submissions is reclaimed (default 8). Must be ≥ 1;
    /// 0 is treated as 1.
    pub retain_submissions: u64,
    /// Pages with no live slot kept for reuse (default 2). Empty pages beyond this budget are
    /// released at the end of a submission (never one bound by the submission that ends) and
    /// reported by [`drain_released`](crate::UniformEngine::drain_released).
    pub idle_page_budget: usize,
}

impl EngineConfig {
    /// Default page size: 256 KiB, 1 024 slots where uniform offsets align to 256 bytes (4 096
    /// where they align to 64): a thousand objects whose values all change upload in one write
    /// (each page takes its own `write_buffer`, and wgpu allocates for each), and share one
    /// bind group per layout. A page is not bound whole (each binding covers one value), so
    /// `max_uniform_buffer_binding_size` does not limit it.
    pub const DEFAULT_PAGE_SIZE: u64 = 256 * 1024;
    /// Default number of retained extra slots per owner.
    pub const DEFAULT_MAX_EXTRA_SLOTS: usize = 8;
    /// Default number of idle submissions after which an extra slot is reclaimed.
    pub const DEFAULT_RETAIN_SUBMISSIONS: u64 = 8;
    /// Default number of empty pages kept for reuse.
    pub const DEFAULT_IDLE_PAGE_BUDGET: usize = 2;
}

impl Default for EngineConfig {
    fn default() -> Self {
        EngineConfig {
            page_size: Self::DEFAULT_PAGE_SIZE,
            max_extra_slots: Self::DEFAULT_MAX_EXTRA_SLOTS,
            retain_submissions: Self::DEFAULT_RETAIN_SUBMISSIONS,
            idle_page_budget: Self::DEFAULT_IDLE_PAGE_BUDGET,
        }
    }
}
