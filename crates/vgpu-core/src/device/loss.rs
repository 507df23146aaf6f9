//! How the context learns that its device is lost: the flag (one atomic load), and the checks
//! that ask wgpu at once, for the cases wgpu reports only at a later poll.

use std::time::Duration;

use super::GpuContext;
use super::lost_state::{INVALID_ADOPTED_MESSAGE, INVALID_MESSAGE};
use crate::error::DeviceError;

/// Label of the buffer [`GpuContext::check_device`] asks wgpu to create (and wgpu refuses).
const PROBE_LABEL: &str = "vgpu device check";

impl GpuContext {
    /// True once vgpu knows the device is lost: wgpu's device-lost callback ran (for any reason,
    /// `Destroyed` included), or a check found the device invalid ([`check_device`](Self::check_device),
    /// [`check_submitted`](Self::check_submitted)). One atomic load; never false again once true.
    ///
    /// After `wgpu::Device::destroy`, wgpu calls the device-lost callback only at a later poll of
    /// the device that finds its queue drained (on every backend, `noop` included), so this can
    /// stay false for a while after `destroy`: the checks named above find out at once.
    #[inline]
    pub fn is_lost(&self) -> bool {
        self.lost.is_lost()
    }

    /// `Err(VGPU-DEVICE-LOST)` naming `operation` when the device is known lost
    /// ([`is_lost`](Self::is_lost)); no wgpu call. For paths that run often (a frame's begin and
    /// end, uploads).
    #[inline]
    pub fn check_lost(&self, operation: &'static str) -> Result<(), DeviceError> {
        if self.lost.is_lost() {
            return Err(self.lost.error(operation));
        }
        Ok(())
    }

    /// [`check_lost`](Self::check_lost), then asks wgpu whether the device is still valid, so a
    /// `wgpu::Device::destroy` whose device-lost callback has not run yet is found at once: it
    /// creates a buffer wgpu must refuse (larger than any `max_buffer_size`) inside a validation
    /// error scope. A valid device reports the validation error; an invalid one reports nothing
    /// (wgpu drops errors of a lost device), and the device is then marked lost. One error scope
    /// and one refused buffer (a few allocations; about 12k instructions with wgpu's error
    /// formatting): for object creation and read-back, not for per-frame or per-draw paths. On
    /// the browser's WebGPU (no synchronous error scopes) only the flag is checked.
    pub fn check_device(&self, operation: &'static str) -> Result<(), DeviceError> {
        self.check_lost(operation)?;
        if self.device_is_valid() {
            return Ok(());
        }
        self.mark_invalid();
        Err(self.lost.error(operation))
    }

    /// After `Queue::submit` returned `index` and the submission's error scopes reported
    /// nothing: confirms that wgpu accepted the submission. wgpu drops a submission to an invalid
    /// (destroyed or lost) device without reporting an error; asking for that submission then
    /// fails (`Device::poll` with a zero timeout answers `WrongSubmissionIndex`, without
    /// waiting), and the device is checked ([`check_device`](Self::check_device)). A submission
    /// that was accepted costs one non-blocking poll of the device (which also runs the callbacks
    /// of work already done, as any poll does). On the browser's WebGPU only the flag is checked.
    pub fn check_submitted(
        &self,
        index: wgpu::SubmissionIndex,
        operation: &'static str,
    ) -> Result<(), DeviceError> {
        self.check_lost(operation)?;
        if self.adapter_info.backend == wgpu::Backend::BrowserWebGpu {
            return Ok(());
        }
        let poll = wgpu::PollType::Wait {
            submission_index: Some(index),
            timeout: Some(Duration::ZERO),
        };
        match self.poll_raw(operation, poll)? {
            // wgpu never took the submission (a validation error would have been reported in
            // its scope): is the device still valid?
            Err(wgpu::PollError::WrongSubmissionIndex(..)) => self.check_device(operation),
            // Taken (done, or still running: `Timeout`). The poll may have run the device-lost
            // callback.
            Ok(_) | Err(_) => self.check_lost(operation),
        }
    }

    /// Asks wgpu whether the device is valid (see [`check_device`](Self::check_device)).
    fn device_is_valid(&self) -> bool {
        if self.adapter_info.backend == wgpu::Backend::BrowserWebGpu {
            return true;
        }
        let scope = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
        drop(self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some(PROBE_LABEL),
            // Larger than any device's `max_buffer_size`: refused before any allocation.
            size: u64::MAX,
            usage: wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        }));
        // wgpu-core resolves error scopes synchronously: this never waits.
        match crate::wait::block_on("check_device", "the async form", scope.pop()) {
            Ok(refused) => refused.is_some(),
            Err(_) => true,
        }
    }

    /// Marks the device lost after wgpu reported it invalid (see [`check_device`](Self::check_device)).
    #[cold]
    fn mark_invalid(&self) {
        if self.handlers {
            // A loss by the driver runs the device-lost callback at once (setting the flag before
            // wgpu reports the device invalid to anyone); only `destroy` defers it.
            self.lost.mark(
                wgpu::DeviceLostReason::Destroyed,
                INVALID_MESSAGE.to_owned(),
            );
        } else {
            self.lost.mark(
                wgpu::DeviceLostReason::Unknown,
                INVALID_ADOPTED_MESSAGE.to_owned(),
            );
        }
    }
}
