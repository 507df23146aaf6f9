//! Reading a buffer back: `map_async` as a future that every target can wait on, and that
//! fails instead of waiting forever when wgpu drops its callback.

use std::sync::{Arc, Mutex, PoisonError};

use super::GpuContext;
use crate::error::DeviceError;

impl GpuContext {
    /// Submits the command buffers of a read-back (the copy into a `MAP_READ` buffer). On
    /// native GL it first waits for the work submitted before it: there (Mesa's llvmpipe), a copy
    /// submitted right after a frame sometimes read a target as it was between two of that
    /// frame's passes — a frame recorded into an app's encoder read back without its last pass
    /// in about 4 runs of 10 (`tier2_parallel_finish`), in none of 48 with this wait; a 100 ms
    /// sleep before the read did the same, so it is a race below vgpu. A blocking read-back
    /// waits for the device anyway; on the web nothing waits.
    pub fn submit_read_back(
        &self,
        buffers: impl IntoIterator<Item = wgpu::CommandBuffer>,
    ) -> Result<wgpu::SubmissionIndex, DeviceError> {
        if !cfg!(target_arch = "wasm32") && self.adapter_info.backend == wgpu::Backend::Gl {
            self.wait_idle()?;
        }
        Ok(self.submit(buffers))
    }

    /// Maps `buffer` (which must have `MAP_READ`) for reading once the GPU is done with the work
    /// submitted so far, copies its bytes out and unmaps it.
    ///
    /// On native targets the future waits for the device itself (so `pollster::block_on` of it
    /// returns at once after that). On the web it waits without blocking: with WebGPU the
    /// browser completes the map; with WebGL2 the map completes at a later poll of the device
    /// (each submission polls it, or call `device().poll(wgpu::PollType::Poll)`, e.g. once per
    /// animation frame).
    pub async fn map_read(
        &self,
        buffer: &wgpu::Buffer,
        label: &str,
    ) -> Result<Vec<u8>, DeviceError> {
        let map_error = |description: String| DeviceError::Map {
            label: label.to_owned(),
            description,
        };
        // On a destroyed device the map would fail with a validation error of the (invalid)
        // buffer: name the loss instead.
        self.check_device("read-back")?;
        let slot = Arc::new(MapSlot::default());
        let done = MapDone(Arc::clone(&slot));
        buffer.slice(..).map_async(wgpu::MapMode::Read, move |r| {
            done.0.complete(r.map_err(|e| e.to_string()));
        });
        if cfg!(target_arch = "wasm32") {
            // WebGL2: fire callbacks of work already done; WebGPU: no effect. Never blocks.
            let _ = self.poll("read-back", wgpu::PollType::Poll);
        } else {
            self.wait_idle()?;
        }
        std::future::poll_fn(|cx| slot.poll(cx))
            .await
            .map_err(map_error)?;
        let data = buffer
            .slice(..)
            .get_mapped_range()
            .map_err(|e| map_error(e.to_string()))?
            .to_vec();
        buffer.unmap();
        Ok(data)
    }
}

/// The result of one `map_async`, and the waker of the future waiting for it.
#[derive(Default)]
struct MapSlot {
    state: Mutex<MapState>,
}

/// The slot's state, behind its lock.
#[derive(Default)]
struct MapState {
    /// Set once, by the callback or, if wgpu drops it uncalled, by [`MapDone`]'s drop.
    completed: bool,
    result: Option<Result<(), String>>,
    waker: Option<std::task::Waker>,
}

impl MapSlot {
    /// Stores the result (the first one) and wakes the waiting future.
    fn complete(&self, result: Result<(), String>) {
        let waker = {
            let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
            if state.completed {
                return;
            }
            state.completed = true;
            state.result = Some(result);
            state.waker.take()
        };
        if let Some(w) = waker {
            w.wake();
        }
    }

    /// The result once stored, else registers the waker.
    fn poll(&self, cx: &mut std::task::Context<'_>) -> std::task::Poll<Result<(), String>> {
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        match state.result.take() {
            Some(r) => std::task::Poll::Ready(r),
            None => {
                state.waker = Some(cx.waker().clone());
                std::task::Poll::Pending
            }
        }
    }
}

/// Held by the map callback: if wgpu drops the callback without calling it, the waiting future
/// gets an error instead of waiting forever.
struct MapDone(Arc<MapSlot>);

impl Drop for MapDone {
    fn drop(&mut self) {
        self.0
            .complete(Err("the map callback never ran".to_owned()));
    }
}
