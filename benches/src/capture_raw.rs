//! `--mode raw`: the hand-written wgpu 30 twin, the command stream an expert would issue, and
//! `--mode raw-bundle`: the same with one render bundle per pass recorded at setup.
//!
//! Built once at setup:
//! 1. one pipeline with an explicit layout: group 0 = camera, group 1 = object, both uniform
//!    buffers of 64 bytes with `has_dynamic_offset: true`;
//! 2. one camera buffer with one 256-byte slot per pass (per-pass cameras in one submission), and
//!    its one bind group;
//! 3. object pages: one buffer holding every object's matrix in its own 256-byte slot (split into
//!    several pages only when the device's `max_buffer_size` requires it), one bind group per page;
//! 4. a CPU mirror of every page's bytes.
//!
//! Per frame:
//! 1. apply the scenario's changes to the mirrors, comparing bytes: an unchanged value is no work
//!    (`reset-all` sets every object to the matrix it holds: compared, nothing dirtied);
//! 2. one encoder, `passes` render passes (clear), each: `set_pipeline`, `set_bind_group(0)` once,
//!    then per draw `set_bind_group(1, page, &[offset])` + `draw(0..3, 0..1)`; `finish`
//!    (`reshuffle`: the draws of [`Scenario::draw_order`], each with its page and offset);
//! 3. one `write_buffer` per contiguous run of dirty slots per page (all-change: one per page),
//!    timed with the submit as vgpu's uploads are, then `submit`, wait until the GPU is done.
//!
//! `raw-bundle` ([`RawCapture::with_bundles`]) records, at setup, one `wgpu::RenderBundle` per
//! pass holding exactly step 2's commands for that pass (`set_pipeline`, the pass's camera
//! offset, every draw with its page and offset), and each frame's pass only executes it. Values
//! live at fixed slots, so the bundles stay valid in every scenario; step 1 and step 3 are
//! unchanged (changes uploaded as `raw` uploads them). `reshuffle` records a different draw
//! sequence in every pass, so there `raw-bundle` records no bundle and encodes per draw exactly
//! as `raw`.
//!
//! Every creation and write goes through [`GpuContext`], so the counters compare with vgpu modes.

use std::sync::Arc;
use std::time::Instant;

use vgpu_core::{GpuContext, StatsSnapshot, UncapturedError};

use crate::capture::{
    BenchError, FrameLoop, FrameTimes, Mat4, SHADER_WGSL, Scenario, TARGET_SIZE, camera_matrix,
    changed_world, initial_world,
};

/// Bytes between two slots: WebGPU's largest `min_uniform_buffer_offset_alignment`.
pub const SLOT_STRIDE: u64 = 256;
/// Bytes of one value (`mat4x4f`).
pub const VALUE_SIZE: u64 = 64;
/// The render target's format (bundles are recorded for it).
const TARGET_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8Unorm;

/// One buffer of 256-byte slots, its CPU mirror, and the slots changed since the last flush.
#[derive(Debug)]
struct Page {
    buffer: wgpu::Buffer,
    bind_group: wgpu::BindGroup,
    /// Exactly the bytes the GPU buffer holds once pending writes are flushed.
    mirror: Vec<u8>,
    /// Slots used by draws (the last page may be partly used).
    slots: u32,
}

/// A set of pages with dirty tracking: values land in the mirror only when their bytes differ.
#[derive(Debug)]
struct SlotBuffer {
    pages: Vec<Page>,
    slots_per_page: usize,
    /// Global slot indices whose mirror bytes changed since the last flush. Capacity = all
    /// slots, so pushing never allocates.
    dirty: Vec<u32>,
}

impl SlotBuffer {
    fn new(
        ctx: &GpuContext,
        label: &str,
        layout: &wgpu::BindGroupLayout,
        slots: usize,
        slots_per_page: usize,
    ) -> Result<SlotBuffer, BenchError> {
        let mut pages = Vec::new();
        let mut remaining = slots;
        while remaining > 0 {
            let n = remaining.min(slots_per_page);
            let size = n as u64 * SLOT_STRIDE;
            let page_label = format!("{label} page {}", pages.len());
            let buffer = ctx.create_buffer(&wgpu::BufferDescriptor {
                label: Some(&page_label),
                size,
                usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            })?;
            let bind_group = ctx.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some(&page_label),
                layout,
                entries: &[wgpu::BindGroupEntry {
                    binding: 0,
                    resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                        buffer: &buffer,
                        offset: 0,
                        size: wgpu::BufferSize::new(VALUE_SIZE),
                    }),
                }],
            })?;
            pages.push(Page {
                buffer,
                bind_group,
                // New buffers are zero-filled, and so is the mirror.
                mirror: vec![0; size as usize],
                slots: n as u32,
            });
            remaining -= n;
        }
        Ok(SlotBuffer {
            pages,
            slots_per_page,
            dirty: Vec::with_capacity(slots),
        })
    }

    /// Stores `value` in `slot` if its bytes differ from what the slot holds.
    #[inline]
    fn set(&mut self, slot: usize, value: &Mat4) {
        let bytes: &[u8] = bytemuck::cast_slice(value);
        let page = &mut self.pages[slot / self.slots_per_page];
        let at = (slot % self.slots_per_page) * SLOT_STRIDE as usize;
        let dst = &mut page.mirror[at..at + VALUE_SIZE as usize];
        if dst != bytes {
            dst.copy_from_slice(bytes);
            self.dirty.push(slot as u32);
        }
    }

    /// Uploads the dirty slots: one `write_buffer` per run of consecutive slots within a page,
    /// covering the first slot's start through the last slot's value.
    fn flush(&mut self, ctx: &GpuContext) {
        if self.dirty.is_empty() {
            return;
        }
        if !self.dirty.is_sorted() {
            self.dirty.sort_unstable();
        }
        let spp = self.slots_per_page as u32;
        let mut first = self.dirty[0];
        let mut last = first;
        for i in 1..self.dirty.len() {
            let slot = self.dirty[i];
            if slot <= last {
                continue; // set twice in one frame
            }
            if slot == last + 1 && slot / spp == first / spp {
                last = slot;
                continue;
            }
            self.write_run(ctx, first, last);
            first = slot;
            last = slot;
        }
        self.write_run(ctx, first, last);
        self.dirty.clear();
    }

    fn write_run(&self, ctx: &GpuContext, first: u32, last: u32) {
        let spp = self.slots_per_page as u32;
        let page = &self.pages[(first / spp) as usize];
        let start = (first % spp) as u64 * SLOT_STRIDE;
        let end = (last % spp) as u64 * SLOT_STRIDE + VALUE_SIZE;
        ctx.write_buffer(
            &page.buffer,
            start,
            &page.mirror[start as usize..end as usize],
        );
    }

    fn slot_count(&self) -> usize {
        self.pages.iter().map(|p| p.slots as usize).sum()
    }
}

/// The raw wgpu renderer. See the module docs for the command stream.
#[derive(Debug)]
pub struct RawCapture {
    ctx: Arc<GpuContext>,
    scenario: Scenario,
    draws: usize,
    passes: usize,
    pipeline: wgpu::RenderPipeline,
    cameras: SlotBuffer,
    objects: SlotBuffer,
    /// Each object's current matrix, the application's state (kept for `reset-all` only).
    worlds: Vec<Mat4>,
    /// `raw-bundle`: pass `k`'s commands, recorded once at setup; empty in `raw` mode (and in
    /// `reshuffle`, where no bundle applies).
    bundles: Vec<wgpu::RenderBundle>,
    _target: wgpu::Texture,
    target_view: wgpu::TextureView,
}

/// The camera slot's dynamic offset for pass `pass`: per-pass cameras live in one slot per
/// pass, the shared camera in slot 0.
fn camera_offset(scenario: Scenario, pass: usize) -> u32 {
    if scenario.camera_per_pass() {
        (pass as u64 * SLOT_STRIDE) as u32
    } else {
        0
    }
}

impl RawCapture {
    /// Builds everything for `draws` objects and `passes` passes on `ctx`. Object pages hold up
    /// to `max_page_slots` slots (capped by the device's `max_buffer_size`); `None` means as many
    /// as the device allows. The initial values are set in the mirrors and uploaded by the first
    /// frame, as vgpu uploads values set at setup.
    pub fn new(
        ctx: Arc<GpuContext>,
        scenario: Scenario,
        draws: usize,
        passes: usize,
        max_page_slots: Option<usize>,
    ) -> Result<RawCapture, BenchError> {
        let limits = ctx.limits();
        let align = u64::from(limits.min_uniform_buffer_offset_alignment);
        if !SLOT_STRIDE.is_multiple_of(align) {
            return Err(format!(
                "min_uniform_buffer_offset_alignment {align} does not divide the {SLOT_STRIDE}-byte slot stride"
            )
            .into());
        }
        // Dynamic offsets are u32; the page must also fit the device's buffer size limit.
        let max_bytes = limits.max_buffer_size.min(u64::from(u32::MAX) + 1);
        let device_slots = (max_bytes / SLOT_STRIDE) as usize;
        let slots_per_page = max_page_slots
            .unwrap_or(device_slots)
            .clamp(1, device_slots);

        let layout_entry = wgpu::BindGroupLayoutEntry {
            binding: 0,
            visibility: wgpu::ShaderStages::VERTEX,
            ty: wgpu::BindingType::Buffer {
                ty: wgpu::BufferBindingType::Uniform,
                has_dynamic_offset: true,
                min_binding_size: wgpu::BufferSize::new(VALUE_SIZE),
            },
            count: None,
        };
        let camera_layout = ctx.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("raw camera"),
            entries: &[layout_entry],
        })?;
        let object_layout = ctx.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("raw object"),
            entries: &[layout_entry],
        })?;
        let pipeline_layout = ctx.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("raw capture"),
            bind_group_layouts: &[Some(&camera_layout), Some(&object_layout)],
            immediate_size: 0,
        })?;
        let module = ctx.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("capture.wgsl"),
            source: wgpu::ShaderSource::Wgsl(SHADER_WGSL.into()),
        })?;
        let format = TARGET_FORMAT;
        let pipeline = ctx.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some("raw capture"),
            layout: Some(&pipeline_layout),
            vertex: wgpu::VertexState {
                module: &module,
                entry_point: Some("vs_main"),
                compilation_options: Default::default(),
                buffers: &[],
            },
            primitive: wgpu::PrimitiveState::default(),
            depth_stencil: None,
            multisample: wgpu::MultisampleState::default(),
            fragment: Some(wgpu::FragmentState {
                module: &module,
                entry_point: Some("fs_main"),
                compilation_options: Default::default(),
                targets: &[Some(format.into())],
            }),
            multiview_mask: None,
            cache: None,
        })?;
        let target = ctx.create_texture(&wgpu::TextureDescriptor {
            label: Some("raw capture target"),
            size: wgpu::Extent3d {
                width: TARGET_SIZE,
                height: TARGET_SIZE,
                depth_or_array_layers: 1,
            },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
            view_formats: &[],
        })?;
        let target_view = target.create_view(&wgpu::TextureViewDescriptor::default());

        let camera_slots = if scenario.camera_per_pass() {
            passes
        } else {
            1
        };
        let mut cameras = SlotBuffer::new(
            &ctx,
            "raw cameras",
            &camera_layout,
            camera_slots,
            device_slots,
        )?;
        if cameras.pages.len() != 1 {
            return Err(format!("{passes} camera slots do not fit one buffer").into());
        }
        let mut objects =
            SlotBuffer::new(&ctx, "raw objects", &object_layout, draws, slots_per_page)?;
        for slot in 0..camera_slots {
            cameras.set(slot, &camera_matrix(slot));
        }
        for i in 0..draws {
            objects.set(i, &initial_world(i));
        }
        let worlds = scenario.reset_objects(draws).map(initial_world).collect();
        Ok(RawCapture {
            ctx,
            scenario,
            draws,
            passes,
            pipeline,
            cameras,
            objects,
            worlds,
            bundles: Vec::new(),
            _target: target,
            target_view,
        })
    }

    /// `--mode raw-bundle`: [`RawCapture::new`], then one render bundle per pass recorded with
    /// that pass's commands (pipeline, camera group at the pass's slot, every object's group at
    /// its offset and its draw), which every frame executes instead of recording them. In
    /// [`Scenario::Reshuffle`] no bundle is recorded and frames encode as `raw` does.
    pub fn with_bundles(
        ctx: Arc<GpuContext>,
        scenario: Scenario,
        draws: usize,
        passes: usize,
        max_page_slots: Option<usize>,
    ) -> Result<RawCapture, BenchError> {
        let mut raw = RawCapture::new(ctx, scenario, draws, passes, max_page_slots)?;
        if scenario != Scenario::Reshuffle {
            raw.bundles = (0..passes).map(|pass| raw.record_bundle(pass)).collect();
        }
        Ok(raw)
    }

    /// Pass `pass`'s commands, as [`FrameLoop::frame`] records them, in a render bundle.
    fn record_bundle(&self, pass: usize) -> wgpu::RenderBundle {
        let label = format!("raw pass {pass}");
        let mut encoder =
            self.ctx
                .device()
                .create_render_bundle_encoder(&wgpu::RenderBundleEncoderDescriptor {
                    label: Some(&label),
                    color_formats: &[Some(TARGET_FORMAT)],
                    depth_stencil: None,
                    sample_count: 1,
                    multiview: None,
                });
        encoder.set_pipeline(&self.pipeline);
        encoder.set_bind_group(
            0,
            &self.cameras.pages[0].bind_group,
            &[camera_offset(self.scenario, pass)],
        );
        for page in &self.objects.pages {
            let mut offset = 0u32;
            for _ in 0..page.slots {
                encoder.set_bind_group(1, &page.bind_group, &[offset]);
                encoder.draw(0..3, 0..1);
                offset += SLOT_STRIDE as u32;
            }
        }
        encoder.finish(&wgpu::RenderBundleDescriptor {
            label: Some(&label),
        })
    }

    /// Render bundles recorded at setup (`raw-bundle`: one per pass; 0 in `raw` mode and in
    /// `reshuffle`).
    pub fn bundle_count(&self) -> usize {
        self.bundles.len()
    }

    /// Number of object pages (buffers and bind groups for group 1).
    pub fn object_pages(&self) -> usize {
        self.objects.pages.len()
    }
}

impl FrameLoop for RawCapture {
    fn frame(&mut self, index: u64) -> Result<FrameTimes, BenchError> {
        let start = Instant::now();

        // 1. Scenario updates, byte-compared against the mirrors.
        for i in self.scenario.changed_objects(index, self.draws) {
            self.objects.set(i, &changed_world(i, index));
        }
        // `worlds` holds the matrices of the objects `reset-all` re-sets (all of them).
        for (i, world) in self.worlds.iter().enumerate() {
            self.objects.set(i, world);
        }
        if self.scenario.camera_per_pass() {
            for pass in 0..self.passes {
                self.cameras.set(pass, &camera_matrix(pass));
            }
        }
        // 2. Encode.
        let mut encoder = self
            .ctx
            .device()
            .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: None });
        let camera_group = &self.cameras.pages[0].bind_group;
        for pass in 0..self.passes {
            let camera_at = camera_offset(self.scenario, pass);
            let mut rp = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: None,
                color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                    view: &self.target_view,
                    depth_slice: None,
                    resolve_target: None,
                    ops: wgpu::Operations {
                        load: wgpu::LoadOp::Clear(wgpu::Color::BLACK),
                        store: wgpu::StoreOp::Store,
                    },
                })],
                depth_stencil_attachment: None,
                timestamp_writes: None,
                occlusion_query_set: None,
                multiview_mask: None,
            });
            if let Some(bundle) = self.bundles.get(pass) {
                // `raw-bundle`: the commands below, recorded at setup.
                rp.execute_bundles(std::iter::once(bundle));
                continue;
            }
            rp.set_pipeline(&self.pipeline);
            rp.set_bind_group(0, camera_group, &[camera_at]);
            if let Some(order) = self
                .scenario
                .draw_order(index, pass, self.passes, self.draws)
            {
                // `reshuffle`: this pass's objects, each with its page and offset.
                let spp = self.objects.slots_per_page;
                for i in order {
                    let page = &self.objects.pages[i / spp];
                    let offset = ((i % spp) as u64 * SLOT_STRIDE) as u32;
                    rp.set_bind_group(1, &page.bind_group, &[offset]);
                    rp.draw(0..3, 0..1);
                }
                continue;
            }
            for page in &self.objects.pages {
                // The group object changes only here; the offset changes every draw.
                let mut offset = 0u32;
                for _ in 0..page.slots {
                    rp.set_bind_group(1, &page.bind_group, &[offset]);
                    rp.draw(0..3, 0..1);
                    offset += SLOT_STRIDE as u32;
                }
            }
        }
        let commands = encoder.finish();
        let encode = start.elapsed();

        // 3. One write per contiguous dirty run per page (queued writes land before the
        // submit's commands), then submit, and settle. The writes are timed with the submit, as
        // vgpu's uploads are (`FrameReport::submit`).
        let submit_start = Instant::now();
        self.cameras.flush(&self.ctx);
        self.objects.flush(&self.ctx);
        self.ctx.submit([commands]);
        let submit = submit_start.elapsed();
        self.ctx.wait_idle()?;
        Ok(FrameTimes { encode, submit })
    }

    fn stats(&self) -> StatsSnapshot {
        self.ctx.stats().snapshot()
    }

    fn take_uncaptured_errors(&self) -> Vec<UncapturedError> {
        self.ctx.take_uncaptured_errors()
    }

    fn backend(&self) -> &'static str {
        self.ctx.adapter_info().backend.to_str()
    }

    fn adapter(&self) -> String {
        self.ctx.adapter_info().name.clone()
    }

    fn describe(&self) -> String {
        let bundles = if self.bundles.is_empty() {
            String::new()
        } else {
            format!(
                ", one render bundle per pass replayed ({})",
                self.bundles.len()
            )
        };
        format!(
            "raw wgpu: {} object page(s) of up to {} x {SLOT_STRIDE} B slots ({} objects), {} camera slot(s), dynamic offsets{bundles}",
            self.objects.pages.len(),
            self.objects.slots_per_page,
            self.objects.slot_count(),
            self.cameras.slot_count(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Counter deltas of each frame `0..frames` of a raw run on the noop device.
    fn run(
        scenario: Scenario,
        draws: usize,
        passes: usize,
        frames: u64,
        page: Option<usize>,
    ) -> Vec<StatsSnapshot> {
        let ctx = GpuContext::noop();
        let mut raw =
            RawCapture::new(ctx.clone(), scenario, draws, passes, page).expect("raw setup on noop");
        let deltas = (0..frames)
            .map(|f| {
                let before = raw.stats();
                raw.frame(f).expect("raw frame on noop");
                raw.stats() - before
            })
            .collect();
        assert_eq!(ctx.take_uncaptured_errors(), vec![]);
        deltas
    }

    #[test]
    fn first_frame_uploads_initial_values_then_static_is_free() {
        let d = run(Scenario::Static, 10, 2, 3, None);
        // Frame 0: one run for the one camera slot, one run for the 10 object slots.
        assert_eq!(d[0].write_calls, 2);
        assert_eq!(d[0].bytes_uploaded, 64 + (9 * 256 + 64));
        for steady in &d[1..] {
            assert_eq!(steady.write_calls, 0);
            assert_eq!(steady.bytes_uploaded, 0);
            assert_eq!(steady.bind_groups_created, 0);
            assert_eq!(steady.buffers_created, 0);
            assert_eq!(steady.submissions, 1);
        }
    }

    #[test]
    fn per_pass_camera_writes_each_slot_once() {
        let d = run(Scenario::PerPassCamera, 4, 3, 3, None);
        assert_eq!(d[0].write_calls, 2);
        assert_eq!(d[0].bytes_uploaded, (2 * 256 + 64) + (3 * 256 + 64));
        assert_eq!((d[2].write_calls, d[2].bytes_uploaded), (0, 0));
    }

    #[test]
    fn one_changes_writes_one_value() {
        let d = run(Scenario::OneChanges, 1000, 2, 4, None);
        for steady in &d[1..] {
            assert_eq!((steady.write_calls, steady.bytes_uploaded), (1, 64));
        }
    }

    #[test]
    fn reset_all_compares_and_writes_nothing() {
        let d = run(Scenario::ResetAll, 1000, 2, 4, None);
        assert_eq!(d[0].write_calls, 2, "the initial values");
        for steady in &d[1..] {
            assert_eq!((steady.write_calls, steady.bytes_uploaded), (0, 0));
            assert_eq!(steady.bind_groups_created, 0);
        }
    }

    #[test]
    fn all_change_writes_one_range_per_page() {
        let d = run(Scenario::AllChange, 1000, 2, 3, None);
        assert_eq!((d[2].write_calls, d[2].bytes_uploaded), (1, 999 * 256 + 64));
        // Pages of 4 slots: 10 objects in 3 pages, one write each.
        let d = run(Scenario::AllChange, 10, 1, 3, Some(4));
        assert_eq!(d[2].write_calls, 3);
        assert_eq!(d[2].bytes_uploaded, 2 * (3 * 256 + 64) + (256 + 64));
        assert_eq!(d[2].bind_groups_created, 0);
    }

    /// Counter deltas of each frame `0..frames` of a `raw` (`bundles` false) or `raw-bundle` run
    /// on the noop device, and the number of bundles it recorded.
    fn run_mode(
        bundles: bool,
        scenario: Scenario,
        draws: usize,
        passes: usize,
        frames: u64,
    ) -> (Vec<StatsSnapshot>, usize) {
        let ctx = GpuContext::noop();
        let new = if bundles {
            RawCapture::with_bundles
        } else {
            RawCapture::new
        };
        let mut raw = new(ctx.clone(), scenario, draws, passes, Some(7)).expect("setup on noop");
        let deltas = (0..frames)
            .map(|f| {
                let before = raw.stats();
                raw.frame(f).expect("frame on noop");
                raw.stats() - before
            })
            .collect();
        assert_eq!(ctx.take_uncaptured_errors(), vec![], "{scenario:?}");
        (deltas, raw.bundle_count())
    }

    #[test]
    fn raw_bundle_uploads_as_raw_does_and_bundles_every_scenario_but_reshuffle() {
        for name in Scenario::NAMES {
            let scenario = Scenario::parse(name).unwrap();
            // 20 objects in pages of 7 slots: 3 pages, bundles crossing page boundaries.
            let (raw, none) = run_mode(false, scenario, 20, 3, 4);
            let (bundled, bundles) = run_mode(true, scenario, 20, 3, 4);
            assert_eq!(none, 0, "raw records no bundle");
            let expected = if scenario == Scenario::Reshuffle {
                0
            } else {
                3
            };
            assert_eq!(bundles, expected, "{name}: one bundle per pass");
            // The same uploads frame by frame, no creation in steady frames.
            assert_eq!(bundled, raw, "{name}");
            for steady in &bundled[1..] {
                assert_eq!(
                    (steady.bind_groups_created, steady.buffers_created),
                    (0, 0),
                    "{name}"
                );
            }
        }
    }

    #[test]
    fn reshuffle_draws_every_object_of_its_order_with_its_page() {
        // 1 000 objects in pages of 7 slots: an offset past a page's end would be a wgpu
        // validation error (`run_mode` asserts there is none).
        let (deltas, _) = run_mode(false, Scenario::Reshuffle, 1000, 2, 3);
        assert_eq!((deltas[2].write_calls, deltas[2].bytes_uploaded), (0, 0));
    }

    #[test]
    fn dirty_runs_split_at_gaps_and_page_ends() {
        let ctx = GpuContext::noop();
        let mut raw =
            RawCapture::new(ctx.clone(), Scenario::Static, 10, 1, Some(4)).expect("raw setup");
        raw.frame(0).expect("frame 0");
        // Slots 1, 2 (page 0), 3 (page 0, adjacent), 4 (page 1), 7 (page 1, gap), set out of
        // order and 2 twice; 5 set to its current value (no change).
        for &i in &[7usize, 2, 1, 4, 3, 2] {
            raw.objects.set(i, &changed_world(i, 99));
        }
        raw.objects.set(5, &initial_world(5));
        let before = raw.stats();
        raw.frame(1).expect("frame 1");
        let d = raw.stats() - before;
        // Runs: 1..=3, 4, 7.
        assert_eq!(d.write_calls, 3);
        assert_eq!(d.bytes_uploaded, (2 * 256 + 64) + 64 + 64);
        assert_eq!(ctx.take_uncaptured_errors(), vec![]);
    }
}
