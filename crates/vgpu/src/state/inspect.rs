//! The binding inspector (a testing aid, see [`crate::inspect`]): while switched on, render
//! passes log, per recorded draw, what the GPU would read for each of the draw's buffer
//! bindings, taken from the calls really made to wgpu (the bind group and dynamic offsets of
//! the last `set_bind_group` per group index) and from what each bind group was built on (the
//! registry's buffer and offset for each entry, the layout's dynamic-offset flags).
//!
//! Switched off (the default), nothing here runs: a pass carries no inspector and its draws take
//! one extra branch (`Pass::draw`).

use std::sync::Arc;

use ahash::AHashMap;
use smallvec::SmallVec;
use vgpu_bind::{BindEntry, BindingStore, LayoutKey};
use vgpu_core::Label;
use vgpu_uniforms::{BufferKey, EngineConfig, PageKey, UniformEngine};

use super::State;
use super::command_sink::{CommandSink, MAX_DYNAMIC, MAX_GROUPS};
use super::operation::OpKey;
use super::program::ProgramBinding;

/// How a draw was recorded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RecordPath {
    /// From the draw's fast record (memoized bind groups and offsets, stamps compared).
    Fast,
    /// Through the full path (pipeline lookup, a resolve per value, bind-group memo checks).
    Full,
    /// Replayed from the pass's auto-bundle: what is logged is what the bundle's commands bind
    /// for the draw (see [`crate::DirectReason`]).
    AutoBundle,
}

/// One buffer binding of one recorded draw: where the GPU would read it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordedBinding {
    /// The draw's number among the draws logged since the inspector was switched on (from 1):
    /// the bindings of one draw share it.
    pub draw_seq: u64,
    /// The pass's number among the passes begun since the inspector was switched on (from 1).
    pub pass: u64,
    /// The draw's label (a clone of its record's: no allocation for a short one).
    pub draw: Label,
    /// How the draw was recorded.
    pub path: RecordPath,
    /// `@group` of the binding.
    pub group: u32,
    /// `@binding` of the binding.
    pub binding: u32,
    /// The WGSL name of the binding.
    pub name: Arc<str>,
    /// The capture engine's buffer the bound group was built on, at this binding; `None` when
    /// nothing was bound at the group index, the group was built before the inspector was on,
    /// or the buffer is not the engine's (a user buffer bound by identity).
    pub buffer: Option<BufferKey>,
    /// The byte offset read: the group's offset for the entry plus, for an entry with a dynamic
    /// offset, the dynamic offset passed with the group (`u64::MAX` if none was).
    pub offset: u64,
}

/// What the inspector keeps per `Gpu` while switched on.
#[derive(Debug, Default)]
pub(crate) struct Inspector {
    /// Logged bindings, oldest first (drained by `take_inspected`).
    log: Vec<RecordedBinding>,
    /// The entries each bind group was built from, by group.
    groups: AHashMap<wgpu::BindGroup, Box<[GroupEntry]>>,
    /// Passes begun since the inspector was switched on.
    passes: u64,
    /// Draws logged since the inspector was switched on.
    draws: u64,
}

/// One entry of a bind group as it was built.
#[derive(Debug)]
struct GroupEntry {
    binding: u32,
    name: Arc<str>,
    /// The buffer the entry binds (`None`: not a buffer).
    buffer: Option<wgpu::Buffer>,
    /// The registered range's offset plus the entry's offset.
    offset: u64,
    /// The layout entry takes a dynamic offset.
    dynamic: bool,
}

/// What a pass has bound, as the calls it made to wgpu say (one per inspected pass).
#[derive(Debug, Default)]
pub(crate) struct PassInspect {
    pass: u64,
    bound: [Option<(wgpu::BindGroup, SmallVec<[u32; MAX_DYNAMIC]>)>; MAX_GROUPS],
}

impl PassInspect {
    /// Forgets what is bound (wgpu resets a pass's bindings after `execute_bundles`; raw access
    /// may bind anything).
    pub(crate) fn reset(&mut self) {
        self.bound = Default::default();
    }
}

/// A command sink that forwards every call to the pass's and notes the bind groups set and
/// whether a draw was issued.
pub(crate) struct InspectRecorder<'a, S> {
    inner: &'a mut S,
    pass: &'a mut PassInspect,
    /// A draw call went through.
    pub(crate) drawn: bool,
}

impl<'a, S> InspectRecorder<'a, S> {
    pub(crate) fn new(inner: &'a mut S, pass: &'a mut PassInspect) -> Self {
        InspectRecorder {
            inner,
            pass,
            drawn: false,
        }
    }
}

impl<S: CommandSink> CommandSink for InspectRecorder<'_, S> {
    fn set_pipeline(&mut self, pipeline: &wgpu::RenderPipeline) {
        self.inner.set_pipeline(pipeline);
    }
    fn set_bind_group(&mut self, index: u32, group: &wgpu::BindGroup, offsets: &[u32]) {
        self.inner.set_bind_group(index, group, offsets);
        if let Some(slot) = self.pass.bound.get_mut(index as usize) {
            *slot = Some((group.clone(), SmallVec::from_slice(offsets)));
        }
    }
    fn set_vertex_buffer(&mut self, slot: u32, buffer: &wgpu::Buffer, offset: u64) {
        self.inner.set_vertex_buffer(slot, buffer, offset);
    }
    fn set_index_buffer(&mut self, buffer: &wgpu::Buffer, offset: u64, format: wgpu::IndexFormat) {
        self.inner.set_index_buffer(buffer, offset, format);
    }
    fn draw(&mut self, vertices: std::ops::Range<u32>, instances: std::ops::Range<u32>) {
        self.inner.draw(vertices, instances);
        self.drawn = true;
    }
    fn draw_indexed(
        &mut self,
        indices: std::ops::Range<u32>,
        base_vertex: i32,
        instances: std::ops::Range<u32>,
    ) {
        self.inner.draw_indexed(indices, base_vertex, instances);
        self.drawn = true;
    }
    fn draw_indirect(&mut self, args: crate::state::IndirectArgs<'_>, indexed: bool) {
        self.inner.draw_indirect(args, indexed);
        self.drawn = true;
    }
}

impl Inspector {
    /// Notes what a bind group returned by the cache was built from: per entry, the buffer and
    /// offset the registry holds for its resource, and whether the layout gives it a dynamic
    /// offset.
    pub(crate) fn note_group(
        &mut self,
        bind: &BindingStore,
        layout: LayoutKey,
        entries: &[BindEntry],
        bindings: &[ProgramBinding],
        group: &wgpu::BindGroup,
    ) {
        if self.groups.contains_key(group) {
            return;
        }
        let registry = bind.registry();
        let layout_entries = registry.layout_entries(layout).unwrap_or(&[]);
        let mut noted: Vec<GroupEntry> = entries
            .iter()
            .map(|e| {
                let name = bindings
                    .iter()
                    .find(|b| b.binding == e.binding)
                    .map_or_else(|| Arc::from("?"), |b| b.name.clone());
                let dynamic = layout_entries.iter().any(|l| {
                    l.binding == e.binding
                        && matches!(
                            l.ty,
                            wgpu::BindingType::Buffer {
                                has_dynamic_offset: true,
                                ..
                            }
                        )
                });
                let (buffer, offset) = match registry.buffer(e.resource) {
                    Some((buffer, base, _)) => (Some(buffer.clone()), base + e.offset),
                    None => (None, e.offset),
                };
                GroupEntry {
                    binding: e.binding,
                    name,
                    buffer,
                    offset,
                    dynamic,
                }
            })
            .collect();
        noted.sort_by_key(|e| e.binding);
        self.groups.insert(group.clone(), noted.into_boxed_slice());
    }
}

impl State {
    /// Switches the inspector on (a fresh, empty one) or off (dropping what it logged).
    pub(crate) fn set_inspect(&mut self, on: bool) {
        self.inspect = on.then(Box::default);
    }

    /// The inspector of a pass beginning now, if the inspector is on.
    pub(crate) fn inspect_pass(&mut self) -> Option<Box<PassInspect>> {
        let inspector = self.inspect.as_deref_mut()?;
        inspector.passes += 1;
        Some(Box::new(PassInspect {
            pass: inspector.passes,
            bound: Default::default(),
        }))
    }

    /// Logs the draw of operation `key` just recorded into the pass `pass`: for each buffer
    /// entry of each of its groups, the buffer and offset the GPU would read, from the group and
    /// dynamic offsets bound at that group index. A group index with nothing bound, or bound to
    /// a group the inspector never saw built, is logged with `buffer: None`.
    pub(crate) fn inspect_draw(&mut self, key: OpKey, pass: &PassInspect, path: RecordPath) {
        let State {
            inspect,
            ops,
            engine,
            page_resources,
            ..
        } = self;
        let (Some(inspector), Some(op)) = (inspect.as_deref_mut(), ops.get(key)) else {
            return;
        };
        inspector.draws += 1;
        let draw = inspector.draws;
        let page_of = |buffer: &wgpu::Buffer| -> Option<BufferKey> {
            page_resources
                .keys()
                .copied()
                .find(|k| engine.buffer(*k) == Some(buffer))
        };
        let log = &mut inspector.log;
        let mut push = |group: u32, binding: u32, name: &Arc<str>, buffer, offset| {
            log.push(RecordedBinding {
                draw_seq: draw,
                pass: pass.pass,
                draw: op.label.clone(),
                path,
                group,
                binding,
                name: name.clone(),
                buffer,
                offset,
            });
        };
        for (gi, program_group) in op.program.groups.iter().enumerate() {
            let bindings =
                &op.program.bindings[program_group.first..program_group.first + program_group.len];
            let bound = pass.bound.get(gi).and_then(|b| b.as_ref());
            let entries = bound.and_then(|(g, _)| inspector.groups.get(g));
            let Some(((_, offsets), entries)) = bound.zip(entries) else {
                for b in bindings {
                    push(program_group.wgsl_group, b.binding, &b.name, None, 0);
                }
                continue;
            };
            let mut dynamic = offsets.iter();
            for e in entries.iter() {
                let extra = if e.dynamic {
                    dynamic.next().copied().map_or(u64::MAX, u64::from)
                } else {
                    0
                };
                let Some(buffer) = &e.buffer else { continue };
                push(
                    program_group.wgsl_group,
                    e.binding,
                    &e.name,
                    page_of(buffer),
                    e.offset.saturating_add(extra),
                );
            }
        }
    }

    /// Takes the bindings logged so far (empty when the inspector is off).
    pub(crate) fn take_inspected(&mut self) -> Vec<RecordedBinding> {
        self.inspect
            .as_deref_mut()
            .map(|i| std::mem::take(&mut i.log))
            .unwrap_or_default()
    }

    /// Replaces the capture engine by one with `config`, if the current one holds nothing yet
    /// (no owner, page or storage buffer, no open submission; so no key of it is held anywhere
    /// in the state). Returns whether it did.
    pub(crate) fn inspect_engine_config(&mut self, config: EngineConfig) -> bool {
        let g = self.engine.gauges();
        let empty = g.owners == 0
            && g.pages == 0
            && g.storage_buffers == 0
            && self.page_resources.is_empty()
            && self.blocks.is_empty()
            && self.engine.open_submission().is_none();
        if empty {
            self.engine = UniformEngine::new(self.ctx.clone(), config);
        }
        empty
    }

    /// The buffer of the capture engine's page `page`, while it lives.
    pub(crate) fn inspect_page_buffer(&self, page: PageKey) -> Option<wgpu::Buffer> {
        self.engine.page_buffer(page).cloned()
    }

    /// The capture engine's CPU shadow of `len` bytes at `offset` of page `page`.
    pub(crate) fn inspect_shadow(&self, page: PageKey, offset: u32, len: usize) -> Option<Vec<u8>> {
        self.engine
            .shadow_bytes(page, offset, len)
            .map(<[u8]>::to_vec)
    }
}
