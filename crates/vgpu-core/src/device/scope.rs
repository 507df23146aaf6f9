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
    /// validation and out-of-memory errors raised inside it are the frame's, the first of each
    /// kept. Internal errors raised inside it are not caught: they reach the uncaptured-error log
    /// (and the device's handler), as any error outside a scope does.
    ///
    /// On a device whose handlers vgpu installed, no wgpu scope is pushed: wgpu hands an error
    /// raised outside any scope to the uncaptured-error handler on the thread that raised it,
    /// and vgpu's handler keeps it for the frame open on that thread (a thread-local slot)
    /// instead of logging it. That is what a pushed scope does, for a thread-local access instead
    /// of two pushes, two pops and two boxed futures per frame (about 1 100 instructions). Calls
    /// inside the window that push scopes of their own (`scoped`) still catch their errors
    /// first. On a device adopted from an app (whose handler is the app's), the two scopes are
    /// pushed.
    ///
    /// Error scopes are per thread: pop the scope on the thread that opened it (the guard is
    /// neither `Send` nor `Sync`). On the browser's WebGPU nothing is caught (see
    /// [`scoped`](Self::scoped)).
    pub fn frame_scope(&self) -> FrameScope {
        if self.adapter_info.backend == wgpu::Backend::BrowserWebGpu {
            return FrameScope {
                guards: Guards::None,
            };
        }
        if self.handlers && capture::open(self.log_id()) {
            return FrameScope {
                guards: Guards::Captured(std::marker::PhantomData),
            };
        }
        let oom = self.device.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
        let validation = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
        FrameScope {
            guards: Guards::Scopes(oom, validation),
        }
    }

    /// Identifies this context's error log (what its handler captures frames' errors for).
    pub(super) fn log_id(&self) -> usize {
        std::sync::Arc::as_ptr(&self.errors) as usize
    }
}

/// The thread-local slot of the frame open on this thread (see [`GpuContext::frame_scope`]).
pub(super) mod capture {
    use std::cell::RefCell;

    /// The frame open on this thread: its context's log id and the first validation and
    /// out-of-memory errors raised while it is open.
    struct Open {
        log: usize,
        validation: Option<wgpu::Error>,
        oom: Option<wgpu::Error>,
    }

    thread_local! {
        static OPEN: RefCell<Option<Open>> = const { RefCell::new(None) };
    }

    /// Opens the slot for the context whose log is `log`; `false` when one is open already on
    /// this thread (then the caller pushes scopes).
    pub(in crate::device) fn open(log: usize) -> bool {
        OPEN.with(|slot| {
            let mut slot = slot.borrow_mut();
            if slot.is_some() {
                return false;
            }
            *slot = Some(Open {
                log,
                validation: None,
                oom: None,
            });
            true
        })
    }

    /// Closes the slot: the first validation error, else the first out-of-memory one.
    pub(in crate::device) fn close() -> Option<wgpu::Error> {
        OPEN.with(|slot| slot.borrow_mut().take())
            .and_then(|open| open.validation.or(open.oom))
    }

    /// What the uncaptured-error handler of the context whose log is `log` does first: keeps
    /// `error` for the frame open on this thread for that context (`None`), or gives it back to
    /// be logged (another context's frame, none open, an internal error).
    pub(in crate::device) fn take(log: usize, error: wgpu::Error) -> Option<wgpu::Error> {
        OPEN.with(|slot| {
            let Ok(mut slot) = slot.try_borrow_mut() else {
                return Some(error);
            };
            let Some(open) = slot.as_mut().filter(|o| o.log == log) else {
                return Some(error);
            };
            let first = match &error {
                wgpu::Error::Validation { .. } => &mut open.validation,
                wgpu::Error::OutOfMemory { .. } => &mut open.oom,
                wgpu::Error::Internal { .. } => return Some(error),
            };
            if first.is_none() {
                *first = Some(error);
            }
            None
        })
    }
}

/// The error scopes of a frame, spanning several wgpu calls; see [`GpuContext::frame_scope`].
/// Dropping it unpopped releases the scopes and discards what they caught.
#[must_use = "pop the scope to learn whether the calls inside it failed"]
#[derive(Debug)]
pub struct FrameScope {
    guards: Guards,
}

/// What a [`FrameScope`] holds.
#[derive(Debug)]
enum Guards {
    /// Nothing is caught (the browser's WebGPU).
    None,
    /// (out-of-memory, validation): pushed in that order, popped innermost first.
    Scopes(wgpu::ErrorScopeGuard, wgpu::ErrorScopeGuard),
    /// The handler keeps the errors in this thread's slot (`capture`); not `Send`, as scopes.
    Captured(std::marker::PhantomData<*const ()>),
}

impl Drop for FrameScope {
    fn drop(&mut self) {
        if matches!(self.guards, Guards::Captured(_)) {
            drop(capture::close());
        }
    }
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
        mut self,
        label: Option<&str>,
        operations: &[(&str, &'static str)],
    ) -> Result<(), DeviceError> {
        let error = match std::mem::replace(&mut self.guards, Guards::None) {
            Guards::None => return Ok(()),
            Guards::Captured(_) => capture::close(),
            Guards::Scopes(oom, validation) => {
                // wgpu-core resolves error scopes synchronously: this never waits. Both are
                // popped (innermost first) so both are released.
                let validation =
                    crate::wait::block_on("pop_error_scope", "the async form", validation.pop())?;
                let oom = crate::wait::block_on("pop_error_scope", "the async form", oom.pop())?;
                validation.or(oom)
            }
        };
        let Some(error) = error else {
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
