//! The record of a user buffer: its registry keys (a buffer may be bound under several, one
//! per range), destroyed with the buffer or its last handle, which evicts exactly the bind groups
//! that used it (through `State::destroy_bound_resource`).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError, Weak};

use smallvec::SmallVec;
use vgpu_bind::ResourceKey;
use vgpu_core::GpuContext;

use crate::descriptors::GpuId;
use crate::error::BufferError;
use crate::state::lock::SharedState;

/// A user buffer.
#[derive(Debug)]
pub(crate) struct BufferRecord {
    pub(crate) buffer: wgpu::Buffer,
    /// Unique for the process's lifetime (never reused, unlike the `Arc`'s address): redundant
    /// vertex/index buffer sets compare it.
    pub(crate) id: u64,
    pub(crate) label: String,
    pub(crate) gpu: GpuId,
    pub(crate) destroyed: AtomicBool,
    pub(crate) ctx: Arc<GpuContext>,
    pub(crate) shared: Weak<SharedState>,
    /// Registry keys this buffer (or ranges of it) is bound under.
    registered: Mutex<SmallVec<[ResourceKey; 2]>>,
}

impl BufferRecord {
    pub(crate) fn new(
        buffer: wgpu::Buffer,
        label: &str,
        ctx: Arc<GpuContext>,
        shared: &Arc<SharedState>,
    ) -> BufferRecord {
        /// Source of buffer ids (0 means "none bound" in redundant-bind checks).
        static NEXT_BUFFER_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
        BufferRecord {
            buffer,
            id: NEXT_BUFFER_ID.fetch_add(1, Ordering::Relaxed),
            label: label.to_owned(),
            gpu: shared.id,
            destroyed: AtomicBool::new(false),
            ctx,
            shared: Arc::downgrade(shared),
            registered: Mutex::new(SmallVec::new()),
        }
    }

    /// True once the buffer was destroyed.
    pub(crate) fn is_destroyed(&self) -> bool {
        self.destroyed.load(Ordering::Acquire)
    }

    /// `VGPU-BUFFER-DESTROYED` once destroyed.
    pub(crate) fn check_live(&self) -> Result<(), BufferError> {
        if self.is_destroyed() {
            return Err(BufferError::Destroyed {
                label: self.label.clone(),
            });
        }
        Ok(())
    }

    /// Remembers a registry key so destroying the buffer evicts its bind groups.
    pub(crate) fn note_registered(&self, key: ResourceKey) {
        let mut keys = self
            .registered
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if !keys.contains(&key) {
            keys.push(key);
        }
    }

    /// Destroys the GPU buffer (once) and its registry keys.
    pub(crate) fn destroy(&self) {
        if !self.destroyed.swap(true, Ordering::AcqRel) {
            self.unregister();
            self.buffer.destroy();
        }
    }

    /// Destroys the registry keys of this buffer: exactly the bind groups using it are evicted.
    fn unregister(&self) {
        let keys = std::mem::take(
            &mut *self
                .registered
                .lock()
                .unwrap_or_else(PoisonError::into_inner),
        );
        if let Some(shared) = self.shared.upgrade() {
            shared.with(|st| {
                for k in keys {
                    st.destroy_bound_resource(k);
                }
                // A render bundle may hold it as a vertex, index or indirect buffer.
                st.note_resources_changed();
            });
        }
    }
}

impl Drop for BufferRecord {
    fn drop(&mut self) {
        self.unregister();
    }
}
