//! User buffers bound by identity (live): usage, alignment, range and size checked against the
//! binding and the device's limits at `set`, not left to bind-group creation at record time.

use std::num::NonZeroU64;

use vgpu_core::BindingKind;

use super::{Assigned, resource_content};
use crate::error::{BindingError, Result};
use crate::state::State;
use crate::state::binding_input::BufferInput;
use crate::state::operation::BindingContent;
use crate::state::resources::HeldResource;

impl State {
    /// A buffer range for binding `t`; `None` when the binding already holds that range.
    pub(super) fn assign_buffer(
        &mut self,
        t: &Assigned<'_>,
        input: &BufferInput<'_>,
    ) -> Result<Option<BindingContent>> {
        if !t.binding.kind.is_buffer() {
            return Err(t.kind_error(if input.record.is_some() {
                "a vgpu buffer"
            } else {
                "a wgpu buffer"
            }));
        }
        if let Some(b) = input.record
            && b.is_destroyed()
        {
            return Err(BindingError::Destroyed {
                label: t.label.to_owned(),
                binding: t.binding.name.to_string(),
                resource: format!("buffer {:?}", b.label),
            }
            .into());
        }
        self.check_buffer_range(t, input.raw, input.offset, input.size)?;
        let res =
            self.bind
                .register_buffer_range(input.raw, input.offset, input.size, input.label)?;
        let held = match input.record {
            Some(b) => {
                b.note_registered(res);
                HeldResource::Buffer(b.clone())
            }
            None => HeldResource::None,
        };
        Ok(resource_content(self, t, res, held))
    }

    fn check_buffer_range(
        &self,
        t: &Assigned<'_>,
        raw: &wgpu::Buffer,
        offset: u64,
        size: Option<NonZeroU64>,
    ) -> Result<()> {
        let err = |what, expected: String, actual: String| -> crate::error::Error {
            BindingError::BufferRange {
                label: t.label.to_owned(),
                binding: t.binding.name.to_string(),
                what,
                expected,
                actual,
            }
            .into()
        };
        let limits = self.ctx.limits();
        let (usage, align, max) = match t.binding.kind {
            BindingKind::UniformBuffer => (
                wgpu::BufferUsages::UNIFORM,
                u64::from(limits.min_uniform_buffer_offset_alignment),
                limits.max_uniform_buffer_binding_size,
            ),
            _ => (
                wgpu::BufferUsages::STORAGE,
                u64::from(limits.min_storage_buffer_offset_alignment),
                limits.max_storage_buffer_binding_size,
            ),
        };
        if !raw.usage().contains(usage) {
            return Err(err(
                "usage",
                format!("{usage:?}"),
                format!("{:?}", raw.usage()),
            ));
        }
        if !offset.is_multiple_of(align) {
            return Err(err(
                "offset alignment",
                format!("a multiple of {align}"),
                offset.to_string(),
            ));
        }
        let len = match size {
            Some(s) => s.get(),
            None => raw.size().saturating_sub(offset),
        };
        if offset.checked_add(len).is_none_or(|end| end > raw.size()) {
            return Err(err(
                "range",
                format!("offset + size <= {} (the buffer's size)", raw.size()),
                format!("{offset} + {len}"),
            ));
        }
        let min_size = t.binding.min_size;
        if len < min_size {
            return Err(err(
                "size",
                format!("at least {min_size} bytes (the WGSL type)"),
                format!("{len} bytes"),
            ));
        }
        if len > max {
            return Err(err(
                "size",
                format!("at most {max} bytes (the device's binding size limit)"),
                format!("{len} bytes"),
            ));
        }
        Ok(())
    }
}
