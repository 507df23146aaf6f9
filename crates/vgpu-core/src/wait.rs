//! Waiting for futures in the blocking forms of vgpu's calls, on every target.
//!
//! Native targets block the calling thread (pollster). A browser's main thread cannot block:
//! std's `Condvar` (which pollster parks on) panics on `wasm32-unknown-unknown`. There the
//! blocking forms return [`DeviceError::WouldBlock`] instead, unless the future is already done
//! when first polled (wgpu's noop backend, and WebGL's error scopes, resolve at once); the async
//! forms (`Gpu::new_async`, `Buffer::read`, the targets' `read_*_async`) work everywhere.

use std::future::Future;
use std::task::{Context, Poll, Waker};

use crate::error::DeviceError;

/// Runs `fut` to completion. Polls it once first (no allocation when it is already done, as
/// wgpu-core's error scopes and the noop backend are); if it is not done, blocks on native
/// targets and, on wasm32, returns [`DeviceError::WouldBlock`] naming `operation` and its async
/// form `alternative`.
pub fn block_on<F: Future>(
    operation: &'static str,
    alternative: &'static str,
    fut: F,
) -> Result<F::Output, DeviceError> {
    let mut fut = std::pin::pin!(fut);
    let mut cx = Context::from_waker(Waker::noop());
    match fut.as_mut().poll(&mut cx) {
        Poll::Ready(v) => Ok(v),
        Poll::Pending => pending(operation, alternative, fut),
    }
}

/// A future not done at its first poll: blocked on (native targets), or refused with
/// [`DeviceError::WouldBlock`] on wasm32, where a browser's main thread cannot block.
fn pending<F: Future>(
    operation: &'static str,
    alternative: &'static str,
    fut: std::pin::Pin<&mut F>,
) -> Result<F::Output, DeviceError> {
    if cfg!(target_arch = "wasm32") {
        return Err(DeviceError::WouldBlock {
            operation,
            alternative,
        });
    }
    Ok(pollster::block_on(fut))
}

#[cfg(test)]
mod tests {
    use super::block_on;

    #[test]
    fn ready_futures_complete_without_blocking() {
        assert_eq!(block_on("op", "op_async", async { 7 }).ok(), Some(7));
    }

    #[test]
    fn pending_futures_block_on_native() {
        let mut polled = false;
        let fut = std::future::poll_fn(move |cx| {
            if polled {
                std::task::Poll::Ready(3)
            } else {
                polled = true;
                cx.waker().wake_by_ref();
                std::task::Poll::Pending
            }
        });
        assert_eq!(block_on("op", "op_async", fut).ok(), Some(3));
    }
}
