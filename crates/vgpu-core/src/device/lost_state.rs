//! The lost flag, and why: shared with wgpu's device-lost callback, which must be `Send + Sync`
//! on every platform.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, PoisonError};

use crate::error::DeviceError;

/// What a lost device's error says when wgpu gave no message: `Device::destroy` was called
/// (wgpu's callback for it carries an empty message).
pub(super) const DESTROYED_MESSAGE: &str = "wgpu::Device::destroy was called";

/// What a lost device's error says when wgpu reports the device invalid before its device-lost
/// callback ran (after `Device::destroy`, wgpu calls it only once the queue has drained).
pub(super) const INVALID_MESSAGE: &str =
    "wgpu reports the device invalid: wgpu::Device::destroy was called";

/// What a lost device's error says when wgpu reports the device invalid on a device whose
/// device-lost callback is the app's (an adopted device: vgpu does not learn the reason).
pub(super) const INVALID_ADOPTED_MESSAGE: &str = "wgpu reports the device invalid (destroyed or lost; this Gpu adopted the app's device, whose device-lost callback is the app's)";

/// Whether the device was lost, and why: set by wgpu's device-lost callback (for every reason,
/// `Destroyed` included), or by vgpu when wgpu reports the device invalid before that callback
/// ran. Shared with the callback (which must be `Send + Sync`).
#[derive(Default)]
pub(super) struct LostState {
    /// Read on every check (one atomic load); set once, never cleared.
    lost: AtomicBool,
    /// wgpu's reason and message (the first ones recorded).
    why: Mutex<Option<(wgpu::DeviceLostReason, String)>>,
}

impl LostState {
    /// True once the loss is recorded (one atomic load).
    #[inline]
    pub(super) fn is_lost(&self) -> bool {
        self.lost.load(Ordering::Acquire)
    }

    /// Records the loss; the first reason recorded is kept.
    pub(super) fn mark(&self, reason: wgpu::DeviceLostReason, message: String) {
        let mut why = self.why.lock().unwrap_or_else(PoisonError::into_inner);
        if why.is_none() {
            *why = Some((reason, message));
        }
        drop(why);
        self.lost.store(true, Ordering::Release);
    }

    /// `VGPU-DEVICE-LOST` naming `operation`, with the recorded reason and message.
    #[cold]
    #[inline(never)]
    pub(super) fn error(&self, operation: &'static str) -> DeviceError {
        let why = self.why.lock().unwrap_or_else(PoisonError::into_inner);
        let (reason, message) = why
            .clone()
            .unwrap_or((wgpu::DeviceLostReason::Unknown, String::new()));
        DeviceError::Lost {
            operation,
            reason,
            message,
        }
    }
}
