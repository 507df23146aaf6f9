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

use std::sync::Arc;

pub use vgpu_uniforms::{BufferKey, EngineConfig, PageKey};

use crate::gpu::Gpu;

/// How a draw was recorded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RecordPath {
    /// From the draw's fast record (memoized bind groups and offsets, stamps compared).
    Fast,
    /// Through the full path (pipeline lookup, a resolve per value, bind-group memo checks).
    Full,
}

/// One buffer binding of one recorded draw: where the GPU would read it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordedBinding {
    /// The draw's number among the draws logged since the inspector was switched on (from 1):
    /// the bindings of one draw share it.
    pub draw_seq: u64,
    /// The pass's number among the passes begun since the inspector was switched on (from 1).
    pub pass: u64,
    /// The draw's label.
    pub draw: Arc<str>,
    /// How the draw was recorded.
    pub path: RecordPath,
    /// `@group` of the binding.
    pub group: u32,
    /// `@binding` of the binding.
    pub binding: u32,
    /// The WGSL name of the binding.
    pub name: Arc<str>,
    /// The capture engine's buffer the bound group was built on, at this binding; `None` when
    /// nothing was bound at the group index, the group was built before the inspector was on,
    /// or the buffer is not the engine's (a user buffer bound by identity).
    pub buffer: Option<BufferKey>,
    /// The byte offset read: the group's offset for the entry plus, for an entry with a dynamic
    /// offset, the dynamic offset passed with the group (`u64::MAX` if none was).
    pub offset: u64,
}

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
