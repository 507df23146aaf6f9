//! Threads that finish command encoders beside the frame's own thread.
//!
//! Since wgpu 27 the real encoding work of a frame (every pass's commands, a replayed bundle's
//! included, through the driver) happens in `CommandEncoder::finish`. A frame whose large passes
//! each have an encoder of their own (`frame_encoders.rs`) finishes them at once: all but one
//! on these workers, the rest on the frame's thread.
//!
//! A small process-wide pool, like rayon's: up to [`MAX_WORKERS`] threads (and one fewer than
//! the machine's cores), each started the first time it is needed and then parked on its
//! condition variable. A frame claims a free worker (an atomic flag: frames of several `Gpu`s
//! on several threads never wait for each other's workers; with none free the frame finishes
//! the encoder itself), hands it the encoder, and takes the command buffer back. Nothing is
//! allocated per frame. On wasm32 there are no threads: [`dispatch`] always gives the encoder
//! back.

#![cfg_attr(
    target_arch = "wasm32",
    allow(
        dead_code,
        reason = "no worker threads on wasm32: every job finishes on the frame's thread"
    )
)]

use std::sync::Arc;

use vgpu_core::{DeviceError, GpuContext};

/// A finished encoder: its command buffer, and the first validation or out-of-memory error
/// wgpu raised while finishing it (caught on the thread that finished it).
pub(crate) struct Finished {
    pub(crate) buffer: wgpu::CommandBuffer,
    pub(crate) error: Result<(), DeviceError>,
}

/// What a worker is given: the encoder, its context, and the names its errors carry (see
/// `FrameScope::pop`).
pub(crate) struct Job {
    pub(crate) encoder: wgpu::CommandEncoder,
    pub(crate) ctx: Arc<GpuContext>,
    pub(crate) label: &'static str,
    pub(crate) operations: &'static [(&'static str, &'static str)],
}

impl Job {
    /// Finishes the encoder inside a frame scope of this thread (wgpu raises `finish`'s errors
    /// on the thread that calls it).
    pub(crate) fn run(self) -> Finished {
        let scope = self.ctx.frame_scope();
        let buffer = self.encoder.finish();
        let error = scope.pop(Some(self.label), self.operations);
        Finished { buffer, error }
    }
}

/// The most worker threads the process starts.
pub(crate) const MAX_WORKERS: usize = 7;

/// A worker claimed by a frame, finishing its job; [`join`](Self::join) takes the result. Dropped
/// unjoined (the frame's thread unwinding), it still waits for the worker and drops the result.
pub(crate) struct Dispatched {
    #[cfg(not(target_arch = "wasm32"))]
    worker: &'static pool::Worker,
    #[cfg(target_arch = "wasm32")]
    _never: std::convert::Infallible,
}

/// Hands `job` to a free worker; gives it back when none is free (all busy, one core, wasm32,
/// a thread that could not be started).
pub(crate) fn dispatch(job: Job) -> Result<Dispatched, Job> {
    #[cfg(not(target_arch = "wasm32"))]
    {
        match pool::claim() {
            Some(worker) => {
                worker.give(job);
                Ok(Dispatched { worker })
            }
            None => Err(job),
        }
    }
    #[cfg(target_arch = "wasm32")]
    {
        Err(job)
    }
}

/// Whether this process can finish encoders on other threads at all (native, more than one
/// core).
pub(crate) fn available() -> bool {
    #[cfg(not(target_arch = "wasm32"))]
    {
        pool::limit() > 0
    }
    #[cfg(target_arch = "wasm32")]
    {
        false
    }
}

impl Dispatched {
    /// Waits for the worker and takes its result. A panic on the worker resumes here.
    pub(crate) fn join(self) -> Finished {
        #[cfg(not(target_arch = "wasm32"))]
        {
            let worker = self.worker;
            std::mem::forget(self);
            match worker.take() {
                Ok(finished) => finished,
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
        #[cfg(target_arch = "wasm32")]
        match self._never {}
    }
}

impl Drop for Dispatched {
    fn drop(&mut self) {
        #[cfg(not(target_arch = "wasm32"))]
        drop(self.worker.take());
    }
}

#[cfg(not(target_arch = "wasm32"))]
mod pool {
    use std::any::Any;
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    use std::sync::{Condvar, Mutex, MutexGuard, OnceLock};

    use super::{Finished, Job, MAX_WORKERS};

    /// A worker's mailbox.
    enum Slot {
        Empty,
        Job(Job),
        Done(std::thread::Result<Finished>),
    }

    /// One worker thread: claimed by at most one frame at a time (`busy`), its mailbox, and the
    /// condition variable both sides wait on.
    pub(super) struct Worker {
        busy: AtomicBool,
        started: OnceLock<bool>,
        slot: Mutex<Slot>,
        changed: Condvar,
    }

    static WORKERS: [Worker; MAX_WORKERS] = [const {
        Worker {
            busy: AtomicBool::new(false),
            started: OnceLock::new(),
            slot: Mutex::new(Slot::Empty),
            changed: Condvar::new(),
        }
    }; MAX_WORKERS];

    /// How many workers this process may use: one fewer than its cores, at most
    /// [`MAX_WORKERS`] (0 on one core).
    pub(super) fn limit() -> usize {
        static LIMIT: AtomicUsize = AtomicUsize::new(usize::MAX);
        match LIMIT.load(Ordering::Relaxed) {
            usize::MAX => {
                let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
                let limit = cores.saturating_sub(1).min(MAX_WORKERS);
                LIMIT.store(limit, Ordering::Relaxed);
                limit
            }
            limit => limit,
        }
    }

    /// A free worker, started if it was not yet; `None` when all are busy.
    pub(super) fn claim() -> Option<&'static Worker> {
        for (i, worker) in WORKERS.iter().take(limit()).enumerate() {
            if worker
                .busy
                .compare_exchange(false, true, Ordering::Acquire, Ordering::Relaxed)
                .is_err()
            {
                continue;
            }
            if *worker.started.get_or_init(|| start(i)) {
                return Some(worker);
            }
            // Its thread could not be started: leave it claimed, so no frame tries it again.
        }
        None
    }

    fn start(i: usize) -> bool {
        std::thread::Builder::new()
            .name(format!("vgpu finish {i}"))
            .spawn(move || WORKERS[i].serve())
            .is_ok()
    }

    /// A poisoned mailbox (a panic while it was locked) holds a whole slot still: go on.
    fn lock(slot: &Mutex<Slot>) -> MutexGuard<'_, Slot> {
        slot.lock().unwrap_or_else(|p| p.into_inner())
    }

    impl Worker {
        /// Gives the claimed worker its job.
        pub(super) fn give(&self, job: Job) {
            *lock(&self.slot) = Slot::Job(job);
            self.changed.notify_all();
        }

        /// Waits for the job's result, then frees the worker.
        pub(super) fn take(&self) -> Result<Finished, Box<dyn Any + Send>> {
            let mut slot = lock(&self.slot);
            loop {
                match std::mem::replace(&mut *slot, Slot::Empty) {
                    Slot::Done(result) => {
                        drop(slot);
                        self.busy.store(false, Ordering::Release);
                        return result;
                    }
                    other => {
                        *slot = other;
                        slot = self.changed.wait(slot).unwrap_or_else(|p| p.into_inner());
                    }
                }
            }
        }

        /// The worker thread: waits for a job, finishes it, posts the result.
        fn serve(&self) {
            loop {
                let job = {
                    let mut slot = lock(&self.slot);
                    loop {
                        match std::mem::replace(&mut *slot, Slot::Empty) {
                            Slot::Job(job) => break job,
                            other => {
                                *slot = other;
                                slot = self.changed.wait(slot).unwrap_or_else(|p| p.into_inner());
                            }
                        }
                    }
                };
                let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| job.run()));
                *lock(&self.slot) = Slot::Done(result);
                self.changed.notify_all();
            }
        }
    }
}
