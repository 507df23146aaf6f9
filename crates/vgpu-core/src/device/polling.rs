//! Waiting on the device: `Device::poll` with its failures (and its panic on a lost device) as
//! errors, and waiting for all submitted work.

use super::GpuContext;
use crate::error::DeviceError;

impl GpuContext {
    /// `Device::poll`, with wgpu's failures as errors: a timeout or a wrong submission index is
    /// `VGPU-DEVICE-POLL`. A poll that finds the device lost by the driver panics inside wgpu 30
    /// (`Device::poll` treats a device error as fatal) after running the device-lost callback:
    /// with vgpu's callback installed, that panic is caught and returned as `VGPU-DEVICE-LOST`
    /// (the panic hook still prints it; with `panic = "abort"` it aborts).
    pub fn poll(
        &self,
        operation: &'static str,
        poll_type: wgpu::PollType,
    ) -> Result<wgpu::PollStatus, DeviceError> {
        self.poll_raw(operation, poll_type)?
            .map_err(|e| DeviceError::Poll {
                description: e.to_string(),
            })
    }

    /// `Device::poll`, its panic on a lost device caught (see [`poll`](Self::poll)).
    pub(super) fn poll_raw(
        &self,
        operation: &'static str,
        poll_type: wgpu::PollType,
    ) -> Result<Result<wgpu::PollStatus, wgpu::PollError>, DeviceError> {
        let polled =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.device.poll(poll_type)));
        match polled {
            Ok(result) => Ok(result),
            // wgpu runs the device-lost callback before it panics on a device error; any
            // other panic is not vgpu's to turn into an error.
            Err(_) if self.lost.is_lost() => Err(self.lost.error(operation)),
            Err(panic) => std::panic::resume_unwind(panic),
        }
    }

    /// Blocks until all submitted work is done (native targets). On the web nothing may block:
    /// with WebGPU this returns at once (the browser drives the device), with WebGL2 it fails
    /// with `VGPU-DEVICE-POLL` unless the work is already done; use the async read-backs there.
    ///
    /// Fails with `VGPU-DEVICE-LOST` on a lost device: known lost before, or found lost by this
    /// wait (after `wgpu::Device::destroy`, the wait returns once the work submitted before it is
    /// done, and wgpu then runs the device-lost callback: the queue has drained). On a device
    /// vgpu adopted (whose callback is the app's), the device is checked after the wait
    /// ([`check_device`](Self::check_device)).
    pub fn wait_idle(&self) -> Result<(), DeviceError> {
        self.check_lost("wait_idle")?;
        self.poll("wait_idle", wgpu::PollType::wait_indefinitely())?;
        if self.handlers {
            self.check_lost("wait_idle")
        } else {
            self.check_device("wait_idle")
        }
    }
}
