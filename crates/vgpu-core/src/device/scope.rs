//! Error scopes: one call's (validation, out-of-memory and internal), and a frame's spanning
//! several calls ([`FrameScope`]), with wgpu's errors attributed to the operation that failed.

use super::GpuContext;
use crate::error::DeviceError;

impl GpuContext {
    /// Runs `f` inside a validation + out-of-memory + internal error scope and returns its value,
    /// or the first error wgpu reported, with wgpu's description. Fails with `VGPU-DEVICE-LOST`
    /// without calling `f` when the device is known lost ([`check_lost`](Self::check_lost): a
    /// flag; public entry points run the full [`check_device`](Self::check_device) first).
    ///
    /// On the browser's WebGPU, error scopes resolve asynchronously (a JavaScript promise) and a
    /// blocking call cannot wait for them: there `f` runs without scopes, and what wgpu rejects
    /// arrives later as an uncaptured error (counted, logged, passed to the callback of
    /// [`on_uncaptured_error`](Self::on_uncaptured_error); for an adopted device, to the app's
    /// own handler).
    pub fn scoped<T>(
        &self,
        operation: &'static str,
        label: Option<&str>,
        f: impl FnOnce(&wgpu::Device) -> T,
    ) -> Result<T, DeviceError> {
        self.check_lost(operation)?;
        if self.adapter_info.backend == wgpu::Backend::BrowserWebGpu {
            return Ok(f(&self.device));
        }
        let oom = self.device.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
        let internal = self.device.push_error_scope(wgpu::ErrorFilter::Internal);
        let validation = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let value = f(&self.device);
        let errors = [validation.pop(), internal.pop(), oom.pop()];
        // Pop order is innermost first; resolve all three so every scope is released.
        let mut first = None;
        for fut in errors {
            // wgpu-core resolves error scopes synchronously: this never waits.
            if let Some(e) = crate::wait::block_on(operation, "the async form", fut)? {
                first.get_or_insert(e);
            }
        }
        match first {
            None => Ok(value),
            Some(e) => Err(DeviceError::from_wgpu(operation, label, e)),
        }
    }

    /// Opens the error scopes of a frame around several wgpu calls (its
    /// `CommandEncoder::finish`, uploads and `Queue::submit`), closed by [`FrameScope::pop`]:
    /// validation and out-of-memory, one push and one pop each. [`scoped`](Self::scoped) pushes
    /// three scopes (validation, out-of-memory, internal) and wgpu boxes one future per pop: a
    /// frame affords two (two allocations). Internal errors raised inside it are not caught: they
    /// reach the uncaptured-error log (and the device's handler), as any error outside a scope
    /// does.
    ///
    /// Error scopes are per thread: pop the scope on the thread that pushed it (the guard is
    /// neither `Send` nor `Sync`). On the browser's WebGPU nothing is pushed (see
    /// [`scoped`](Self::scoped)).
    pub fn frame_scope(&self) -> FrameScope {
        if self.adapter_info.backend == wgpu::Backend::BrowserWebGpu {
            return FrameScope { guards: None };
        }
        let oom = self.device.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
        let validation = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
        FrameScope {
            guards: Some((oom, validation)),
        }
    }
}

/// The validation and out-of-memory error scopes of a frame, spanning several wgpu calls; see
/// [`GpuContext::frame_scope`]. Dropping it unpopped releases the scopes and discards what they
/// caught.
#[must_use = "pop the scope to learn whether the calls inside it failed"]
#[derive(Debug)]
pub struct FrameScope {
    /// (out-of-memory, validation): pushed in that order, popped innermost first.
    guards: Option<(wgpu::ErrorScopeGuard, wgpu::ErrorScopeGuard)>,
}

impl FrameScope {
    /// Closes the scopes: `Ok` when wgpu reported nothing inside them, else the first error
    /// (validation first) as [`DeviceError::Validation`] or the out-of-memory error, with wgpu's
    /// description and `label`.
    ///
    /// The error names the operation that failed. `operations` pairs the name wgpu gives each
    /// call in its descriptions (they begin with `In <name>`: `a CommandEncoder` for
    /// `CommandEncoder::finish`, `Queue::submit`, …) with the operation vgpu's error names; an
    /// error naming none of them is the last operation's.
    pub fn pop(
        self,
        label: Option<&str>,
        operations: &[(&str, &'static str)],
    ) -> Result<(), DeviceError> {
        let Some((oom, validation)) = self.guards else {
            return Ok(());
        };
        // wgpu-core resolves error scopes synchronously: this never waits. Both are popped
        // (innermost first) so both are released.
        let validation =
            crate::wait::block_on("pop_error_scope", "the async form", validation.pop())?;
        let oom = crate::wait::block_on("pop_error_scope", "the async form", oom.pop())?;
        let Some(error) = validation.or(oom) else {
            return Ok(());
        };
        let text = match &error {
            wgpu::Error::Validation { description, .. }
            | wgpu::Error::Internal { description, .. } => description.clone(),
            wgpu::Error::OutOfMemory { source } => source.to_string(),
        };
        let operation = named_operation(&text, operations)
            .or(operations.last().map(|&(_, op)| op))
            .unwrap_or("wgpu call");
        Err(DeviceError::from_wgpu(operation, label, error))
    }
}

/// The operation of the first of `operations` whose wgpu name `text` gives as wgpu does
/// (`In <name>`, then the end of the line or `,`).
fn named_operation(text: &str, operations: &[(&str, &'static str)]) -> Option<&'static str> {
    operations.iter().find_map(|&(name, operation)| {
        text.match_indices(name)
            .any(|(at, _)| {
                let after = &text[at + name.len()..];
                text[..at].ends_with("In ") && (after.is_empty() || after.starts_with(['\n', ',']))
            })
            .then_some(operation)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_error_is_attributed_to_the_operation_wgpu_names() {
        let text =
            "Validation Error\n\nCaused by:\n  In Queue::submit\n    Buffer 'b' is destroyed\n";
        let ops = [
            ("a CommandEncoder", "CommandEncoder::finish"),
            ("Queue::write_buffer", "Queue::write_buffer"),
            ("Queue::submit", "Queue::submit"),
        ];
        assert_eq!(named_operation(text, &ops), Some("Queue::submit"));
        let text = "Validation Error\n\nCaused by:\n  In a CommandEncoder, label = 'f'\n";
        assert_eq!(named_operation(text, &ops), Some("CommandEncoder::finish"));
        // A name not preceded by "In ", or followed by more of a longer name, is not the call.
        assert_eq!(named_operation("after Queue::submit\n", &ops), None);
        assert_eq!(named_operation("In Queue::submit_later\n", &ops), None);
    }

    #[test]
    fn one_frame_scope_catches_the_first_error_inside_it() {
        let ctx = GpuContext::noop();
        let ok = ctx.frame_scope();
        assert!(
            ok.pop(Some("nothing"), &[("Queue::submit", "Queue::submit")])
                .is_ok()
        );
        let scope = ctx.frame_scope();
        // MAP_READ with anything but COPY_DST is invalid: wgpu reports it in the scope.
        let _ = ctx.device().create_buffer(&wgpu::BufferDescriptor {
            label: Some("bad"),
            size: 16,
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::UNIFORM,
            mapped_at_creation: false,
        });
        let e = scope
            .pop(
                Some("scoped"),
                &[
                    ("Device::create_buffer", "create_buffer"),
                    ("Queue::submit", "Queue::submit"),
                ],
            )
            .expect_err("the invalid buffer is caught");
        let DeviceError::Validation {
            operation, label, ..
        } = &e
        else {
            panic!("{e}");
        };
        assert_eq!((*operation, label.as_str()), ("create_buffer", "scoped"));
        assert!(ctx.take_uncaptured_errors().is_empty());
    }
}
