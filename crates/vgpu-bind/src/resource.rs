//! What the registry holds under a key: a resource's wgpu object (a buffer range, a texture view
//! or a sampler), its kind and label; a layout with its entries sorted by binding; and the range
//! a buffer binding names within a registered buffer (`resolve_range`).

use std::num::NonZeroU64;

/// The kind of a registered resource.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ResourceKind {
    /// A buffer, or a range of one.
    Buffer,
    /// A texture view.
    TextureView,
    /// A sampler.
    Sampler,
}

impl ResourceKind {
    /// `a buffer`, `a texture view` or `a sampler` (for messages).
    pub fn describe(self) -> &'static str {
        match self {
            ResourceKind::Buffer => "a buffer",
            ResourceKind::TextureView => "a texture view",
            ResourceKind::Sampler => "a sampler",
        }
    }
}

/// The wgpu object behind a key (a cheap clone of the caller's handle).
#[derive(Debug)]
pub(crate) enum ResourceObject {
    /// `offset..offset + size` of `buffer`; bind entries' offsets are relative to `offset`.
    Buffer {
        buffer: wgpu::Buffer,
        offset: u64,
        size: u64,
    },
    TextureView(wgpu::TextureView),
    Sampler(wgpu::Sampler),
}

impl ResourceObject {
    pub(crate) fn kind(&self) -> ResourceKind {
        match self {
            ResourceObject::Buffer { .. } => ResourceKind::Buffer,
            ResourceObject::TextureView(_) => ResourceKind::TextureView,
            ResourceObject::Sampler(_) => ResourceKind::Sampler,
        }
    }
}

#[derive(Debug)]
pub(crate) struct Resource {
    pub(crate) object: ResourceObject,
    pub(crate) label: Box<str>,
}

#[derive(Debug)]
pub(crate) struct Layout {
    pub(crate) layout: wgpu::BindGroupLayout,
    /// Sorted by binding number.
    pub(crate) entries: Box<[wgpu::BindGroupLayoutEntry]>,
    pub(crate) label: Box<str>,
}

impl Layout {
    pub(crate) fn entry(&self, binding: u32) -> Option<&wgpu::BindGroupLayoutEntry> {
        self.entries
            .binary_search_by_key(&binding, |e| e.binding)
            .ok()
            .and_then(|i| self.entries.get(i))
    }
}

/// Resolves `size` (None = the rest of the buffer) against a buffer of `buffer_size` bytes.
pub(crate) fn resolve_range(
    buffer_size: u64,
    offset: u64,
    size: Option<NonZeroU64>,
) -> Result<u64, (&'static str, &'static str, u64, u64)> {
    if offset > buffer_size {
        return Err(("offset", "at most", buffer_size, offset));
    }
    let size = size.map_or(buffer_size - offset, NonZeroU64::get);
    if size == 0 {
        return Err(("size of the range (rest of the buffer)", "at least", 1, 0));
    }
    match offset.checked_add(size) {
        Some(end) if end <= buffer_size => Ok(size),
        end => Err((
            "end of the range (offset + size)",
            "at most",
            buffer_size,
            end.unwrap_or(u64::MAX),
        )),
    }
}
