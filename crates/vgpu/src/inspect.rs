//! A testing aid: what each recorded draw would read, for tests that check the capture engine
//! from outside (`tests/tests/integration/tier1_capture_model.rs` compares it with a model).
//! Not part of the supported API: it may change or go away with any release.
//!
//! [`Gpu::inspect_bindings`] switches it on. From then on every render pass of that `Gpu` logs,
//! per draw it records (`Pass::draw`, `Pass::draw_with`), one [`RecordedBinding`] per buffer
//! binding of the draw: the buffer and byte offset the GPU would read it at. They come from the
//! calls really made to wgpu, not from a second resolve: the bind group and the dynamic offsets
//! of the last `set_bind_group` at the binding's group index in that pass, and the buffer and
//! offset the group was built on (the bind-group registry's range for the entry's resource; the
//! layout says which entries take the dynamic offsets, in binding order, as wgpu applies them).
//! [`Gpu::take_inspected`] drains the log; [`Gpu::inspect_shadow`] reads the capture engine's
//! CPU shadow of a page, which holds what the page's buffer holds once the frame is submitted;
//! [`Gpu::inspect_page_buffer`] gives the page's buffer, to read back what the GPU holds.
//!
//! Switched off (the default) it costs one predictable branch per recorded draw and nothing
//! else: no allocation, lookup or string. It is a runtime switch and not a cargo feature, so
//! that enabling it in tests never turns it on in benchmarks through feature unification.
//! Switched on, each pass allocates its log entries: only tests should do that.
//!
//! Groups built before the switch was turned on are unknown to it (their bindings log
//! `buffer: None`): switch it on before recording anything.

pub use vgpu_uniforms::{BufferKey, EngineConfig, PageKey};

use crate::gpu::Gpu;
pub use crate::state::inspect::{RecordPath, RecordedBinding};

impl Gpu {
    /// Switches the binding inspector on (with an empty log) or off (dropping its log). A
    /// testing aid: see [`crate::inspect`].
    #[doc(hidden)]
    pub fn inspect_bindings(&self, on: bool) {
        self.with_state(|st| st.set_inspect(on));
    }

    /// Takes the bindings logged since the last call (empty when the inspector is off). A
    /// testing aid: see [`crate::inspect`].
    #[doc(hidden)]
    pub fn take_inspected(&self) -> Vec<RecordedBinding> {
        self.with_state(|st| st.take_inspected())
    }

    /// The capture engine's CPU shadow of `len` bytes at `offset` of `page`; `None` when the
    /// page was released or the range does not fit it. After a frame's submit, every slot of a
    /// page holds in its shadow exactly what its buffer holds. A testing aid: see
    /// [`crate::inspect`].
    #[doc(hidden)]
    pub fn inspect_shadow(&self, page: PageKey, offset: u32, len: usize) -> Option<Vec<u8>> {
        self.with_state(|st| st.inspect_shadow(page, offset, len))
    }

    /// Gives the capture engine `config` (small pages, few retained slots: more pages, page
    /// releases and slot reuse for tests to exercise), while it holds nothing yet: no value,
    /// block, page or storage buffer, no open frame. Returns whether it did (`false`: nothing
    /// changed). A testing aid: see [`crate::inspect`].
    #[doc(hidden)]
    pub fn inspect_engine_config(&self, config: EngineConfig) -> bool {
        self.with_state(|st| st.inspect_engine_config(config))
    }

    /// The `wgpu::Buffer` of the capture engine's page `page` (`UNIFORM | COPY_DST | COPY_SRC`),
    /// while the page lives: copy it to read back what the GPU holds. A testing aid: see
    /// [`crate::inspect`].
    #[doc(hidden)]
    pub fn inspect_page_buffer(&self, page: PageKey) -> Option<wgpu::Buffer> {
        self.with_state(|st| st.inspect_page_buffer(page))
    }
}
