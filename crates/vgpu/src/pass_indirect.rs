//! Indirect draws of a [`Pass`]: [`draw_indirect`](Pass::draw_indirect),
//! [`multi_draw_indirect`](Pass::multi_draw_indirect) and
//! [`multi_draw_indirect_count`](Pass::multi_draw_indirect_count), whose vertex (or index) and
//! instance counts come from a [`Buffer`] (written by the CPU, or by a compute pass earlier in
//! the same frame: wgpu orders the write before the draw, no barrier to add).
//!
//! The buffers are checked before wgpu sees anything, as
//! [`ComputePass::dispatch_indirect`](crate::ComputePass::dispatch_indirect) checks its own;
//! a rejected call records nothing. The draw's pipeline, bind groups and vertex (and index)
//! buffers are recorded as [`Pass::draw`] records them (the full path); the draw's fast record,
//! used by its later plain draws, keeps its own counts.

use std::sync::Arc;

use crate::buffer::Buffer;
use crate::draw::Draw;
use crate::error::{Result, foreign_gpu};
use crate::indirect_args::{ARGUMENTS, COUNT, args_size, check_features, check_indirect_buffer};
use crate::pass::Pass;
use crate::state::inspect::RecordPath;
use crate::state::{DrawCall, IndirectArgs, InspectRecorder};

impl Pass<'_> {
    /// Records `draw` with its counts read from `args` at `offset`: a draw with an index buffer
    /// reads a `DrawIndexedIndirectArgs` (20 bytes: index count, instance count, first index,
    /// base vertex, first instance), any other a `DrawIndirectArgs` (16 bytes: vertex count,
    /// instance count, first vertex, first instance). A non-zero first instance needs
    /// `wgpu::Features::INDIRECT_FIRST_INSTANCE` (the GPU ignores or rejects it otherwise:
    /// vgpu cannot see what a GPU wrote).
    ///
    /// Fails before recording anything with `VGPU-INDIRECT-USAGE` (the buffer lacks
    /// `INDIRECT`), `VGPU-INDIRECT-ALIGNMENT` (`offset` not a multiple of 4),
    /// `VGPU-INDIRECT-RANGE` (the arguments end past the buffer), `VGPU-INDIRECT-DESTROYED`,
    /// `VGPU-FOREIGN-GPU`, and `VGPU-FEATURE-MISSING` on a device without indirect execution.
    ///
    /// ```
    /// use vgpu::wgpu::BufferUsages;
    /// let gpu = vgpu::Gpu::noop();
    /// let shader = gpu.shader(
    ///     "quad",
    ///     "@vertex fn vs_main(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
    ///          return vec4f(f32(i & 1u), f32(i >> 1u), 0.0, 1.0);
    ///      }
    ///      @fragment fn fs_main() -> @location(0) vec4f { return vec4f(1.0); }",
    /// )?;
    /// let draw = gpu.draw(&shader, Default::default())?;
    /// // One draw of 3 vertices, 1 instance.
    /// let args: [u32; 4] = [3, 1, 0, 0];
    /// let buffer = gpu.buffer_init("args", bytemuck::cast_slice(&args), BufferUsages::INDIRECT)?;
    /// let target = gpu.target(4, 4)?;
    /// gpu.frame(|f| f.pass(&target, |p| p.draw_indirect(&draw, &buffer, 0)))?;
    /// // Past the end: a typed error, nothing recorded.
    /// let e = gpu
    ///     .frame(|f| f.pass(&target, |p| p.draw_indirect(&draw, &buffer, 4)))
    ///     .unwrap_err();
    /// assert_eq!(e.code(), "VGPU-INDIRECT-RANGE");
    /// # Ok::<(), vgpu::Error>(())
    /// ```
    pub fn draw_indirect(&mut self, draw: &Draw, args: &Buffer, offset: u64) -> Result<()> {
        self.record_indirect(draw, args, offset, 1, None)
    }

    /// Records `count` draws of `draw` whose arguments are packed in `args` from `offset` (16
    /// bytes each, 20 for an indexed draw: see [`draw_indirect`](Self::draw_indirect)). Core in
    /// wgpu (a backend without native multi-draw loops); checked as `draw_indirect` is, for all
    /// `count` structs.
    pub fn multi_draw_indirect(
        &mut self,
        draw: &Draw,
        args: &Buffer,
        offset: u64,
        count: u32,
    ) -> Result<()> {
        self.record_indirect(draw, args, offset, count, None)
    }

    /// Records as many draws of `draw` as the `u32` in `count_buffer` at `count_offset` says,
    /// at most `max_count`, their arguments packed in `args` from `offset` (see
    /// [`multi_draw_indirect`](Self::multi_draw_indirect)). Needs
    /// `wgpu::Features::MULTI_DRAW_INDIRECT_COUNT` (request it in
    /// [`GpuOptions`](crate::GpuOptions) where the adapter has it): `VGPU-FEATURE-MISSING`
    /// otherwise. The count buffer is checked like the argument buffer (usage, alignment, 4
    /// bytes in range, live).
    pub fn multi_draw_indirect_count(
        &mut self,
        draw: &Draw,
        args: &Buffer,
        offset: u64,
        count_buffer: &Buffer,
        count_offset: u64,
        max_count: u32,
    ) -> Result<()> {
        let count = Some((count_buffer, count_offset));
        self.record_indirect(draw, args, offset, max_count, count)
    }

    /// Checks an indirect call (features, then each buffer), then records it through the full
    /// path (through the binding inspector's recorder while it is on).
    fn record_indirect(
        &mut self,
        draw: &Draw,
        args: &Buffer,
        offset: u64,
        count: u32,
        count_buffer: Option<(&Buffer, u64)>,
    ) -> Result<()> {
        if draw.gpu_id != self.gpu_id {
            return Err(foreign_gpu("draw", &draw.label(), "recording the pass"));
        }
        let key = draw.inner.key;
        // Not while the state is borrowed: an error names the draw, whose label is in it.
        let (ctx, indexed) = {
            let st = self.held.borrow_mut();
            (Arc::clone(&st.ctx), st.draw_is_indexed(key))
        };
        check_features(&ctx, draw, count_buffer.is_some())?;
        let needed = args_size(indexed).saturating_mul(u64::from(count));
        check_indirect_buffer(self.gpu_id, draw, args, ARGUMENTS, offset, needed)?;
        if let Some((cb, co)) = count_buffer {
            check_indirect_buffer(self.gpu_id, draw, cb, COUNT, co, 4)?;
        }
        // Checked: recorded directly from here (issue #33 leaves indirect draws out of bundles).
        self.auto_off(crate::DirectReason::Indirect);
        let call = DrawCall::Indirect(IndirectArgs {
            buffer: args.raw(),
            offset,
            count,
            count_buffer: count_buffer.map(|(b, o)| (b.raw(), o)),
        });
        if self.inspect.is_some() {
            return self.indirect_inspected(draw, call);
        }
        self.held.borrow_mut().record_draw(
            key,
            &mut *self.rpass,
            &mut self.bound,
            self.sig,
            self.signature_id,
            call,
        )
    }

    /// An indirect call while the binding inspector is on: recorded through a recorder that
    /// notes the bind groups set, then logged (`crate::inspect`).
    #[cold]
    #[inline(never)]
    fn indirect_inspected(&mut self, draw: &Draw, call: DrawCall<'_>) -> Result<()> {
        let Some(inspect) = self.inspect.as_deref_mut() else {
            return Ok(());
        };
        let mut state = self.held.borrow_mut();
        let mut rec = InspectRecorder::new(&mut *self.rpass, inspect);
        let key = draw.inner.key;
        state.record_draw(
            key,
            &mut rec,
            &mut self.bound,
            self.sig,
            self.signature_id,
            call,
        )?;
        if rec.drawn {
            state.inspect_draw(key, inspect, RecordPath::Full);
        }
        Ok(())
    }
}
