//! Errors wgpu raises outside any error scope (at submit, in a write wgpu refuses later):
//! routed to the context's log and its callback, never to wgpu's default panic handler.

use std::sync::{Arc, Mutex, PoisonError};

use super::GpuContext;
use crate::stats::Stats;

/// A wgpu error that happened outside an error scope and was routed to the context.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UncapturedError {
    /// `validation`, `out-of-memory`, `internal` or `device-lost`.
    pub kind: &'static str,
    /// wgpu's full description.
    pub description: String,
}

type ErrorCallback = Arc<dyn Fn(&UncapturedError) + Send + Sync>;

/// Uncaptured errors and their callback: shared with the handlers vgpu installs on the device,
/// which must be `Send + Sync` on every platform (wgpu's objects are not on the web, so the
/// handlers hold this, not the context).
#[derive(Default)]
pub(super) struct ErrorLog {
    errors: Mutex<Vec<UncapturedError>>,
    callback: Mutex<Option<ErrorCallback>>,
}

impl ErrorLog {
    /// Counts `error`, passes it to the callback and keeps it (the newest ones).
    pub(super) fn record(&self, stats: &Stats, error: UncapturedError) {
        stats.uncaptured_errors.bump();
        // Called with the lock released: the callback may install another one, or make wgpu
        // calls that report errors of their own.
        let callback = self
            .callback
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone();
        if let Some(cb) = callback {
            cb(&error);
        }
        let mut log = self.errors.lock().unwrap_or_else(PoisonError::into_inner);
        if log.len() >= MAX_KEPT_ERRORS {
            log.remove(0);
        }
        log.push(error);
    }

    /// [`record`](Self::record) for a wgpu error, with its kind and full description.
    pub(super) fn record_wgpu(&self, stats: &Stats, error: &wgpu::Error) {
        let (kind, description) = match error {
            wgpu::Error::Validation { description, .. } => ("validation", description.clone()),
            wgpu::Error::OutOfMemory { source } => {
                ("out-of-memory", crate::error::error_chain(&**source))
            }
            wgpu::Error::Internal { description, .. } => ("internal", description.clone()),
        };
        self.record(stats, UncapturedError { kind, description });
    }
}

/// Upper bound on uncaptured errors kept; older ones are dropped (the counter keeps counting).
const MAX_KEPT_ERRORS: usize = 256;

impl GpuContext {
    /// Counts and logs a wgpu error raised outside any vgpu call (what the device's
    /// uncaptured-error handler receives), and calls the callback of
    /// [`on_uncaptured_error`](Self::on_uncaptured_error).
    pub fn report_uncaptured(&self, error: &wgpu::Error) {
        self.errors.record_wgpu(&self.stats, error);
    }

    /// Takes the uncaptured errors recorded so far (oldest first), leaving the log empty.
    pub fn take_uncaptured_errors(&self) -> Vec<UncapturedError> {
        std::mem::take(
            &mut *self
                .errors
                .errors
                .lock()
                .unwrap_or_else(PoisonError::into_inner),
        )
    }

    /// Installs a callback called for each uncaptured error (replacing any previous one). Errors
    /// are still logged for [`take_uncaptured_errors`](Self::take_uncaptured_errors).
    pub fn on_uncaptured_error(&self, callback: impl Fn(&UncapturedError) + Send + Sync + 'static) {
        *self
            .errors
            .callback
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = Some(Arc::new(callback));
    }
}
