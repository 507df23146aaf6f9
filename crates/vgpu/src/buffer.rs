//! User-owned GPU buffers: written explicitly, bound by identity.
//!
//! A [`Buffer`] is the "I manage the bytes" path: `write` issues one counted `write_buffer` every
//! time you call it, and every draw that binds it sees its *live* contents at execution time (the
//! last write before a submit wins for the whole submission). Choose it for large or
//! GPU-written data (storage buffers, compute outputs, indirect args). For small per-draw or
//! per-view structs prefer `Draw::set` with a value or a [`SharedUniforms`](crate::SharedUniforms)
//! block: those are snapshot per operation and uploaded only when they change.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError, Weak};

use smallvec::SmallVec;
use vgpu_bind::ResourceKey;

use vgpu_core::GpuContext;

use crate::error::{Error, Result};
use crate::gpu::{Gpu, Shared};
use crate::readback;

/// Describes a [`Buffer`]. `COPY_DST` and `COPY_SRC` are always added (for `write` and `read`).
#[derive(Clone, Debug)]
pub struct BufferDesc {
    /// Label used in errors and wgpu messages.
    pub label: String,
    /// Size in bytes (a multiple of 4).
    pub size: u64,
    /// Usages (`UNIFORM`, `STORAGE`, `VERTEX`, `INDEX`, `INDIRECT`, …).
    pub usage: wgpu::BufferUsages,
}

impl Default for BufferDesc {
    fn default() -> Self {
        BufferDesc {
            label: "buffer".to_owned(),
            size: 0,
            usage: wgpu::BufferUsages::empty(),
        }
    }
}

/// Source of [`BufferInner`] ids (0 means "none bound" in redundant-bind checks).
static NEXT_BUFFER_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

#[derive(Debug)]
pub(crate) struct BufferInner {
    pub(crate) buffer: wgpu::Buffer,
    /// Unique for the process's lifetime (never reused, unlike the `Arc`'s address).
    id: u64,
    pub(crate) label: String,
    pub(crate) destroyed: AtomicBool,
    ctx: Arc<GpuContext>,
    shared: Weak<Shared>,
    /// Registry keys this buffer (or ranges of it) is bound under.
    registered: Mutex<SmallVec<[ResourceKey; 2]>>,
}

impl Drop for BufferInner {
    fn drop(&mut self) {
        self.unregister();
    }
}

impl BufferInner {
    /// Destroys the registry keys of this buffer: exactly the bind groups using it are evicted.
    fn unregister(&self) {
        let keys = std::mem::take(
            &mut *self
                .registered
                .lock()
                .unwrap_or_else(PoisonError::into_inner),
        );
        if keys.is_empty() {
            return;
        }
        if let Some(shared) = self.shared.upgrade() {
            let mut st = shared.lock();
            for k in keys {
                st.bind.destroy(k);
            }
        }
    }
}

/// A GPU buffer owned by the application. Cheap to clone (an `Arc`).
#[derive(Clone, Debug)]
pub struct Buffer {
    pub(crate) inner: Arc<BufferInner>,
}

impl PartialEq for Buffer {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.inner, &other.inner)
    }
}
impl Eq for Buffer {}

fn copy_usages(usage: wgpu::BufferUsages) -> wgpu::BufferUsages {
    if usage.intersects(wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::MAP_WRITE) {
        usage
    } else {
        usage | wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::COPY_SRC
    }
}

impl Gpu {
    /// A zero-initialized buffer.
    pub fn buffer(&self, desc: &BufferDesc) -> Result<Buffer> {
        if desc.size == 0 || !desc.size.is_multiple_of(wgpu::COPY_BUFFER_ALIGNMENT) {
            return Err(Error::from(BufferError::Size {
                label: desc.label.clone(),
                actual: desc.size,
            }));
        }
        let buffer = self.ctx.create_buffer(&wgpu::BufferDescriptor {
            label: Some(&desc.label),
            size: desc.size,
            usage: copy_usages(desc.usage),
            mapped_at_creation: false,
        })?;
        Ok(self.wrap_buffer(buffer, &desc.label))
    }

    /// A buffer holding `contents` (padded with zeros to a multiple of 4 bytes).
    pub fn buffer_init(
        &self,
        label: &str,
        contents: &[u8],
        usage: wgpu::BufferUsages,
    ) -> Result<Buffer> {
        if contents.is_empty() {
            return Err(Error::from(BufferError::Size {
                label: label.to_owned(),
                actual: 0,
            }));
        }
        let padded;
        let contents = if contents.len().is_multiple_of(4) {
            contents
        } else {
            let mut v = contents.to_vec();
            v.resize(contents.len().next_multiple_of(4), 0);
            padded = v;
            &padded
        };
        let buffer = self
            .ctx
            .create_buffer_init(Some(label), contents, copy_usages(usage))?;
        Ok(self.wrap_buffer(buffer, label))
    }

    fn wrap_buffer(&self, buffer: wgpu::Buffer, label: &str) -> Buffer {
        Buffer {
            inner: Arc::new(BufferInner {
                buffer,
                id: NEXT_BUFFER_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
                label: label.to_owned(),
                destroyed: AtomicBool::new(false),
                ctx: self.ctx.clone(),
                shared: Arc::downgrade(&self.shared),
                registered: Mutex::new(SmallVec::new()),
            }),
        }
    }
}

/// Errors of user buffers.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum BufferError {
    /// Size zero or not a multiple of 4.
    #[error(
        "VGPU-BUFFER-SIZE: buffer {label:?}: size {actual} is invalid; expected a non-zero multiple of 4"
    )]
    Size {
        /// Buffer label.
        label: String,
        /// Size asked for.
        actual: u64,
    },
    /// A write or read range outside the buffer, or misaligned.
    #[error("VGPU-BUFFER-RANGE: buffer {label:?}: {what}: expected {expected}, got {actual}")]
    Range {
        /// Buffer label.
        label: String,
        /// What is wrong.
        what: &'static str,
        /// What would be accepted.
        expected: String,
        /// What was given.
        actual: String,
    },
    /// The buffer was destroyed.
    #[error("VGPU-BUFFER-DESTROYED: buffer {label:?} was destroyed")]
    Destroyed {
        /// Buffer label.
        label: String,
    },
}

impl vgpu_core::ErrorCode for BufferError {
    fn code(&self) -> &'static str {
        match self {
            BufferError::Size { .. } => "VGPU-BUFFER-SIZE",
            BufferError::Range { .. } => "VGPU-BUFFER-RANGE",
            BufferError::Destroyed { .. } => "VGPU-BUFFER-DESTROYED",
        }
    }
}

impl Buffer {
    /// The label.
    pub fn label(&self) -> &str {
        &self.inner.label
    }
    /// Size in bytes.
    pub fn size(&self) -> u64 {
        self.inner.buffer.size()
    }
    /// Usages (including the `COPY_DST | COPY_SRC` vgpu adds).
    pub fn usage(&self) -> wgpu::BufferUsages {
        self.inner.buffer.usage()
    }
    /// A number identifying this buffer, never reused (for redundant-bind checks: a buffer
    /// dropped during a pass and another allocated at its address must not compare equal).
    pub(crate) fn identity(&self) -> u64 {
        self.inner.id
    }
    /// The raw wgpu buffer.
    pub fn raw(&self) -> &wgpu::Buffer {
        &self.inner.buffer
    }
    /// True once [`destroy`](Self::destroy) was called.
    pub fn is_destroyed(&self) -> bool {
        self.inner.destroyed.load(Ordering::Acquire)
    }

    pub(crate) fn check_live(&self) -> Result<(), BufferError> {
        if self.is_destroyed() {
            return Err(BufferError::Destroyed {
                label: self.inner.label.clone(),
            });
        }
        Ok(())
    }

    /// Writes `data` at `offset` with one counted `queue.write_buffer`. Offset and length must be
    /// multiples of 4 and inside the buffer. Visible to every operation of the next submission.
    pub fn write(&self, offset: u64, data: &[u8]) -> Result<()> {
        self.check_live()?;
        let range_err = |what, expected: String, actual: String| BufferError::Range {
            label: self.inner.label.clone(),
            what,
            expected,
            actual,
        };
        if !offset.is_multiple_of(4) || !data.len().is_multiple_of(4) {
            return Err(range_err(
                "alignment",
                "offset and length multiples of 4".to_owned(),
                format!("offset {offset}, length {}", data.len()),
            )
            .into());
        }
        let end = offset.checked_add(data.len() as u64);
        if end.is_none_or(|end| end > self.size()) {
            return Err(range_err(
                "range",
                format!("end <= {}", self.size()),
                format!("{offset}..{}", offset.saturating_add(data.len() as u64)),
            )
            .into());
        }
        if !self.usage().contains(wgpu::BufferUsages::COPY_DST) {
            return Err(range_err(
                "usage",
                "COPY_DST".to_owned(),
                format!("{:?}", self.usage()),
            )
            .into());
        }
        if data.is_empty() {
            return Ok(());
        }
        self.inner
            .ctx
            .write_buffer(&self.inner.buffer, offset, data);
        Ok(())
    }

    /// Reads the whole buffer back (waits for submitted work).
    pub fn read_blocking(&self) -> Result<Vec<u8>> {
        self.check_live()?;
        let ctx = &self.inner.ctx;
        let staging = ctx.create_buffer(&wgpu::BufferDescriptor {
            label: Some("vgpu buffer read-back"),
            size: self.size(),
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        })?;
        let mut encoder = ctx.device().create_command_encoder(&Default::default());
        encoder.copy_buffer_to_buffer(&self.inner.buffer, 0, &staging, 0, self.size());
        let cmd = ctx.scoped("read_buffer", Some(&self.inner.label), |_| encoder.finish())?;
        ctx.submit([cmd]);
        Ok(readback::map_read(ctx, &staging, &self.inner.label)?)
    }

    /// Reads the whole buffer back. The future completes once the GPU finished the copy; on
    /// native backends it drives the device itself, so plain `pollster::block_on` works.
    pub async fn read(&self) -> Result<Vec<u8>> {
        self.read_blocking()
    }

    /// Destroys the GPU buffer now. Later binds and writes fail with `VGPU-BUFFER-DESTROYED`;
    /// bind groups and bundles that used it are invalidated.
    pub fn destroy(&self) {
        if !self.inner.destroyed.swap(true, Ordering::AcqRel) {
            self.inner.unregister();
            self.inner.buffer.destroy();
        }
    }

    /// Remembers a registry key so destroying the buffer evicts its bind groups.
    pub(crate) fn note_registered(&self, key: ResourceKey) {
        let mut keys = self
            .inner
            .registered
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if !keys.contains(&key) {
            keys.push(key);
        }
    }
}
