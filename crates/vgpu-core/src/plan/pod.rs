//! Typed values: a `Pod` value (or raw bytes) is copied as it is once its size fits the plan's
//! type; its field offsets are checked once by the caller ([`TypeLayout::check_fields`]).
//!
//! [`TypeLayout::check_fields`]: crate::TypeLayout::check_fields

use super::WritePlan;
use crate::set_error::{PackContext, SetError};

impl WritePlan {
    /// Copies a `Pod` value whose size equals the reflected size (fixed-size types), or the
    /// fixed part plus a whole number of elements (types ending in a runtime-sized array).
    /// Check field offsets once with [`TypeLayout::check_fields`](crate::TypeLayout::check_fields).
    /// Returns the bytes written.
    pub fn pack_pod<T: bytemuck::Pod>(
        &self,
        value: &T,
        dst: &mut [u8],
        ctx: &PackContext<'_>,
    ) -> Result<usize, SetError> {
        self.pack_bytes(bytemuck::bytes_of(value), dst, ctx)
    }

    /// Like [`pack_pod`](Self::pack_pod) for a slice, e.g. the elements of a top-level
    /// `array<T>`.
    pub fn pack_pod_slice<T: bytemuck::Pod>(
        &self,
        values: &[T],
        dst: &mut [u8],
        ctx: &PackContext<'_>,
    ) -> Result<usize, SetError> {
        self.pack_bytes(bytemuck::cast_slice(values), dst, ctx)
    }

    /// Checks that `len` bytes of typed data fit this type (see [`pack_pod`](Self::pack_pod)).
    pub fn check_pod_size(&self, len: usize, ctx: &PackContext<'_>) -> Result<(), SetError> {
        let size = self.layout.size as usize;
        let ok = match self.tail {
            None => len == size,
            Some(rt) => {
                let fixed = rt.offset as usize;
                len >= fixed && (len - fixed).is_multiple_of(rt.stride.max(1) as usize)
            }
        };
        if ok {
            return Ok(());
        }
        Err(SetError::PodSize {
            label: ctx.label.into(),
            binding: ctx.binding.into(),
            type_name: self.layout.name.clone(),
            expected: match self.tail {
                Some(rt) => u64::from(rt.offset),
                None => size as u64,
            },
            actual: len as u64,
            hint: Some(match self.tail {
                Some(rt) => format!(
                    "{} ends in a runtime-sized array: give {} + k × {} bytes",
                    self.layout.name, rt.offset, rt.stride
                ),
                None => format!(
                    "{} is {size} bytes in WGSL's layout; put #[derive(vgpu::Uniform)] on the Rust struct and set it as a value: it is laid out as WGSL lays out {}, and checked once by member name, order and type",
                    self.layout.name, self.layout.name
                ),
            }
            .into()),
        })
    }

    /// Copies raw bytes after checking their length as [`pack_pod`](Self::pack_pod) does.
    pub fn pack_bytes(
        &self,
        bytes: &[u8],
        dst: &mut [u8],
        ctx: &PackContext<'_>,
    ) -> Result<usize, SetError> {
        self.check_pod_size(bytes.len(), ctx)?;
        match dst.get_mut(..bytes.len()) {
            Some(d) => {
                d.copy_from_slice(bytes);
                Ok(bytes.len())
            }
            None => Err(SetError::DestinationSize {
                label: ctx.label.into(),
                binding: ctx.binding.into(),
                expected: bytes.len() as u64,
                actual: dst.len() as u64,
            }),
        }
    }
}
