//! The largest value an owner may hold on the device: the binding size limit of its address
//! space, or the largest buffer where that is smaller, checked at every set that sizes a value.

use crate::{AddressSpace, UniformsError};

use super::owner::Owner;

/// The largest owner of each address space the device can hold, with the name of the limit
/// that sets it: the binding size limit, or `max_buffer_size` where that is smaller (a uniform
/// owner needs one page slot, a storage owner one buffer, and the device refuses larger
/// buffers).
#[derive(Clone, Copy, Debug)]
pub(super) struct SizeLimits {
    uniform: (&'static str, u64),
    storage: (&'static str, u64),
}

impl SizeLimits {
    pub(super) fn new(limits: &wgpu::Limits, slot_alignment: u32) -> Self {
        let smaller = |binding: (&'static str, u64), buffer: (&'static str, u64)| {
            if buffer.1 < binding.1 {
                buffer
            } else {
                binding
            }
        };
        // A uniform owner takes a whole slot (a multiple of the slot alignment) of a page.
        let align = u64::from(slot_alignment.max(1));
        let page = limits.max_buffer_size / align * align;
        let page_name = if page == limits.max_buffer_size {
            "max_buffer_size"
        } else {
            "max_buffer_size (in whole slots of min_uniform_buffer_offset_alignment)"
        };
        SizeLimits {
            uniform: smaller(
                (
                    "max_uniform_buffer_binding_size",
                    limits.max_uniform_buffer_binding_size,
                ),
                (page_name, page),
            ),
            storage: smaller(
                (
                    "max_storage_buffer_binding_size",
                    limits.max_storage_buffer_binding_size,
                ),
                // Storage buffers are sized in multiples of 4 bytes.
                ("max_buffer_size", limits.max_buffer_size / 4 * 4),
            ),
        }
    }
}

pub(super) fn check_size(
    owner: &Owner,
    len: usize,
    limits: SizeLimits,
) -> Result<(), UniformsError> {
    if len == 0 {
        return Err(UniformsError::Empty {
            label: owner.label.to_string(),
        });
    }
    let (limit, max) = match owner.space {
        AddressSpace::Uniform => limits.uniform,
        AddressSpace::Storage => limits.storage,
    };
    // An owner's length is kept in 32 bits (`Owner::len`).
    let (limit, max) = if max > u64::from(u32::MAX) {
        ("4 GiB (the largest value vgpu keeps)", u64::from(u32::MAX))
    } else {
        (limit, max)
    };
    if len as u64 > max {
        return Err(UniformsError::Limit {
            label: owner.label.to_string(),
            space: owner.space,
            limit,
            expected: max,
            actual: len as u64,
        });
    }
    Ok(())
}
