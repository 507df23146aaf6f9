//! User-owned GPU buffers: written explicitly, bound by identity.
//!
//! A [`Buffer`] is the "I manage the bytes" path: `write` issues one counted `write_buffer` every
//! time you call it, and every draw that binds it sees its *live* contents at execution time (the
//! last write before a submit wins for the whole submission). Choose it for large or
//! GPU-written data (storage buffers, compute outputs, indirect args). For small per-draw or
//! per-view structs prefer `Draw::set` with a value or a [`SharedUniforms`](crate::SharedUniforms)
//! block: those are snapshot per operation and uploaded only when they change.

use std::sync::Arc;

use crate::error::{BufferError, Error, Result};
use crate::gpu::Gpu;
use crate::readback;
use crate::state::BufferRecord;

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

/// A GPU buffer owned by the application. Cheap to clone (an `Arc`).
#[derive(Clone, Debug)]
pub struct Buffer {
    pub(crate) inner: Arc<BufferRecord>,
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
        self.ctx.check_device("Gpu::buffer")?;
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
        self.ctx.check_device("Gpu::buffer_init")?;
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
            inner: Arc::new(BufferRecord::new(
                buffer,
                label,
                self.ctx.clone(),
                &self.shared,
            )),
        }
    }

    /// `VGPU-FOREIGN-GPU` unless `buffer` was created by this `Gpu`.
    pub(crate) fn check_buffer(&self, buffer: &Buffer, used_by: &str) -> Result<()> {
        if buffer.inner.gpu != self.id() {
            return Err(crate::error::foreign_gpu(
                "buffer",
                buffer.label(),
                used_by.to_owned(),
            ));
        }
        Ok(())
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
    /// The raw wgpu buffer.
    pub fn raw(&self) -> &wgpu::Buffer {
        &self.inner.buffer
    }
    /// True once [`destroy`](Self::destroy) was called.
    pub fn is_destroyed(&self) -> bool {
        self.inner.is_destroyed()
    }

    pub(crate) fn check_live(&self) -> Result<(), BufferError> {
        self.inner.check_live()
    }

    /// Writes `data` at `offset` with one counted `queue.write_buffer`. Offset and length must be
    /// multiples of 4 and inside the buffer. Visible to every operation of the next submission.
    pub fn write(&self, offset: u64, data: &[u8]) -> Result<()> {
        self.inner.ctx.check_lost("Buffer::write")?;
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

    /// Reads the whole buffer back (waits for submitted work). Native targets; on the web, where
    /// nothing may block, use [`read`](Self::read).
    pub fn read_blocking(&self) -> Result<Vec<u8>> {
        let staging = self.copy_to_staging()?;
        Ok(readback::map_read(
            &self.inner.ctx,
            &staging,
            &self.inner.label,
        )?)
    }

    /// Reads the whole buffer back. The future completes once the GPU finished the copy; on
    /// native backends it drives the device itself, so plain `pollster::block_on` works. On the
    /// web it waits without blocking (on WebGL2, until the device is polled again: see
    /// [`GpuContext::map_read`](vgpu_core::GpuContext::map_read)).
    pub async fn read(&self) -> Result<Vec<u8>> {
        let staging = self.copy_to_staging()?;
        let ctx = &self.inner.ctx;
        Ok(ctx.map_read(&staging, &self.inner.label).await?)
    }

    /// Copies the whole buffer into a new `MAP_READ` staging buffer (submitted).
    fn copy_to_staging(&self) -> Result<wgpu::Buffer> {
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
        ctx.submit_read_back([cmd])?;
        Ok(staging)
    }

    /// Destroys the GPU buffer now. Later binds and writes fail with `VGPU-BUFFER-DESTROYED`;
    /// bind groups and bundles that used it are invalidated.
    pub fn destroy(&self) {
        self.inner.destroy();
    }
}
