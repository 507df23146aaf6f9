//! Pre-warm: a draw's render pipeline for a target signature, or a compute's pipeline, created
//! before the first frame that uses it ([`Draw::prepare`], [`Compute::prepare`],
//! [`Gpu::prepare`], [`Gpu::prepare_async`]), so that frame creates none (creating a pipeline
//! compiles its shaders for the GPU: from a fraction of a millisecond to hundreds of them).
//!
//! A prepared pipeline is the one the draw's first record would create: the same cache (shared
//! by every draw with the same shader, render state and target signature) and the draw's own
//! pipeline memo, which remembers its two most recent signatures; a draw prepared for more
//! signatures finds the older ones in the cache (a lookup, no creation). Pipelines created while
//! a frame is recorded are named in its report ([`FrameReport::pipelines_created_by`]) and by the
//! advisor ([`Advice::PipelinesCreatedInFrames`]).
//!
//! [`FrameReport::pipelines_created_by`]: crate::FrameReport::pipelines_created_by
//! [`Advice::PipelinesCreatedInFrames`]: crate::Advice::PipelinesCreatedInFrames
//! [`Draw::prepare`]: crate::Draw::prepare
//! [`Compute::prepare`]: crate::Compute::prepare

mod compute;
mod draw;

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use crate::descriptors::TargetSignature;
use crate::draw::Draw;
use crate::error::{Result, foreign_gpu};
use crate::gpu::Gpu;

impl Gpu {
    /// [`Draw::prepare`] for each of `draws` (draws or effects of this `Gpu`) and targets of
    /// `signature`, in order; stops at the first error (the draws before it stay prepared).
    ///
    /// ```
    /// let gpu = vgpu::Gpu::noop();
    /// let target = gpu.target(8, 8)?;
    /// let a = gpu.effect("a", "@fragment fn fs_main() -> @location(0) vec4f { return vec4f(1.0); }")?;
    /// let b = gpu.effect("b", "@fragment fn fs_main() -> @location(0) vec4f { return vec4f(0.5); }")?;
    /// gpu.prepare([&a, &b], target.signature())?;
    /// let report = gpu.frame(|f| f.pass(&target, |p| { p.draw(&a)?; p.draw(&b) }))?;
    /// assert_eq!(report.stats.pipelines_created, 0);
    /// # Ok::<(), vgpu::Error>(())
    /// ```
    pub fn prepare<'a, D>(
        &self,
        draws: impl IntoIterator<Item = &'a D>,
        signature: TargetSignature,
    ) -> Result<()>
    where
        D: AsRef<Draw> + ?Sized + 'a,
    {
        for draw in draws {
            self.prepare_one(draw.as_ref(), signature)?;
        }
        Ok(())
    }

    /// [`Gpu::prepare`] as a future that yields to its executor after each draw, for an app that
    /// must not block its thread for all of them at once (the web's main thread).
    ///
    /// wgpu 30 has no asynchronous pipeline creation: each pipeline is still created by a
    /// blocking call (on the web the browser compiles it in the background, behind that call).
    /// What this form adds is a yield between pipelines: the future wakes itself and returns
    /// `Pending` once per draw, so other tasks of the same executor run between them. On the web,
    /// `wasm_bindgen_futures` resumes it from a microtask, which does not let the browser paint;
    /// to spread many pipelines over animation frames, prepare a few per frame instead.
    ///
    /// ```
    /// let gpu = vgpu::Gpu::noop();
    /// let target = gpu.target(8, 8)?;
    /// let fx = gpu.effect("fx", "@fragment fn fs_main() -> @location(0) vec4f { return vec4f(1.0); }")?;
    /// pollster::block_on(gpu.prepare_async([&fx], target.signature()))?;
    /// assert_eq!(gpu.frame(|f| f.pass(&target, |p| p.draw(&fx)))?.stats.pipelines_created, 0);
    /// # Ok::<(), vgpu::Error>(())
    /// ```
    pub async fn prepare_async<'a, D>(
        &self,
        draws: impl IntoIterator<Item = &'a D>,
        signature: TargetSignature,
    ) -> Result<()>
    where
        D: AsRef<Draw> + ?Sized + 'a,
    {
        for draw in draws {
            self.prepare_one(draw.as_ref(), signature)?;
            YieldNow(false).await;
        }
        Ok(())
    }

    /// [`Draw::prepare`] for a draw checked to be of this `Gpu`.
    fn prepare_one(&self, draw: &Draw, signature: TargetSignature) -> Result<()> {
        if draw.gpu_id != self.id() {
            return Err(foreign_gpu("draw", &draw.label(), "preparing pipelines"));
        }
        draw.prepare(signature)
    }
}

/// A future that returns `Pending` once (waking its task at once), then `Ready`.
#[derive(Debug)]
struct YieldNow(bool);

impl Future for YieldNow {
    type Output = ();
    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        if self.0 {
            return Poll::Ready(());
        }
        self.0 = true;
        cx.waker().wake_by_ref();
        Poll::Pending
    }
}
