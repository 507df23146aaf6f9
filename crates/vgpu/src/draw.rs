//! [`Draw`]: a render operation described once (shader, state, counts) whose bindings are set by
//! WGSL name.

use std::sync::Arc;

use smallvec::SmallVec;
use vgpu_bind::{BindGroupId, ResourceKey};
use vgpu_uniforms::{OwnerKey, UniformEngine};

use crate::buffer::Buffer;
use crate::error::{BindingError, Result};
use crate::gpu::{Gpu, State};
use crate::program::{Program, Stages};
use crate::shader::Shader;
use crate::target::TargetSignature;

slotmap::new_key_type! {
    /// A draw, effect or compute in the `Gpu` state.
    pub(crate) struct OpKey;
}

/// Depth testing for draws rendered into targets with a depth attachment (ignored otherwise).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DepthState {
    /// Comparison against the stored depth. Default `Less`.
    pub compare: wgpu::CompareFunction,
    /// Whether passing fragments write their depth. Default `true`.
    pub write: bool,
    /// Constant depth bias (e.g. for shadow maps). Default 0.
    pub bias: i32,
    /// Slope-scaled depth bias, as `f32` bits. Default 0.
    pub bias_slope_scale_bits: u32,
}

impl Default for DepthState {
    fn default() -> Self {
        DepthState {
            compare: wgpu::CompareFunction::Less,
            write: true,
            bias: 0,
            bias_slope_scale_bits: 0,
        }
    }
}

/// A vertex buffer bound at one slot, with its layout (checked against the shader's inputs).
#[derive(Clone, Debug)]
pub struct VertexBuffer {
    /// The buffer (needs `VERTEX` usage).
    pub buffer: Buffer,
    /// Byte offset of the first vertex.
    pub offset: u64,
    /// Bytes between consecutive vertices (or instances).
    pub stride: u64,
    /// Per vertex or per instance.
    pub step_mode: wgpu::VertexStepMode,
    /// The attributes read from this buffer.
    pub attributes: Vec<wgpu::VertexAttribute>,
}

/// An index buffer.
#[derive(Clone, Debug)]
pub struct IndexBuffer {
    /// The buffer (needs `INDEX` usage).
    pub buffer: Buffer,
    /// Byte offset of the first index.
    pub offset: u64,
    /// `Uint16` or `Uint32`.
    pub format: wgpu::IndexFormat,
    /// Number of indices drawn.
    pub count: u32,
}

/// Describes a [`Draw`]. `Default`: 3 vertices, 1 instance, triangle list, no culling, no blend,
/// `vs_main`/`fs_main` (or the only entry point of each stage).
#[derive(Clone, Debug)]
pub struct DrawDesc {
    /// Label used in errors.
    pub label: String,
    /// Vertex entry point; `None` = `vs_main` or the only vertex entry point.
    pub vertex_entry: Option<String>,
    /// Fragment entry point; `None` = `fs_main` or the only fragment entry point.
    pub fragment_entry: Option<String>,
    /// Vertices drawn (ignored with an index buffer).
    pub vertex_count: u32,
    /// Instances drawn.
    pub instance_count: u32,
    /// Vertex buffers, slot = index.
    pub vertex_buffers: Vec<VertexBuffer>,
    /// Index buffer, if indexed.
    pub index_buffer: Option<IndexBuffer>,
    /// Primitive topology.
    pub topology: wgpu::PrimitiveTopology,
    /// Face culling.
    pub cull_mode: Option<wgpu::Face>,
    /// Front face winding.
    pub front_face: wgpu::FrontFace,
    /// Color blending; `None` replaces.
    pub blend: Option<wgpu::BlendState>,
    /// Which color channels are written.
    pub write_mask: wgpu::ColorWrites,
    /// Depth testing (used when the target has depth).
    pub depth: DepthState,
    /// Alpha to coverage (MSAA targets).
    pub alpha_to_coverage: bool,
}

impl Default for DrawDesc {
    fn default() -> Self {
        DrawDesc {
            label: "draw".to_owned(),
            vertex_entry: None,
            fragment_entry: None,
            vertex_count: 3,
            instance_count: 1,
            vertex_buffers: Vec::new(),
            index_buffer: None,
            topology: wgpu::PrimitiveTopology::TriangleList,
            cull_mode: None,
            front_face: wgpu::FrontFace::Ccw,
            blend: None,
            write_mask: wgpu::ColorWrites::ALL,
            depth: DepthState::default(),
            alpha_to_coverage: false,
        }
    }
}

/// What a pipeline depends on besides the program and the target (hashable, shared by draws).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct RenderStateKey {
    pub(crate) topology: wgpu::PrimitiveTopology,
    pub(crate) strip_index_format: Option<wgpu::IndexFormat>,
    pub(crate) cull_mode: Option<wgpu::Face>,
    pub(crate) front_face: wgpu::FrontFace,
    pub(crate) blend: Option<wgpu::BlendState>,
    pub(crate) write_mask: wgpu::ColorWrites,
    pub(crate) depth: DepthState,
    pub(crate) alpha_to_coverage: bool,
    pub(crate) vertex_layouts: Vec<(u64, wgpu::VertexStepMode, Vec<wgpu::VertexAttribute>)>,
}

/// What a binding currently holds.
#[derive(Debug)]
pub(crate) enum Slot {
    Unset,
    /// A library-owned value (uniform: captured per operation; storage: live).
    Value {
        owner: OwnerKey,
    },
    /// A shared uniforms block (held so it lives while bound).
    Shared {
        owner: OwnerKey,
        #[allow(
            dead_code,
            reason = "held, never read: keeps the block alive while bound"
        )]
        block: crate::uniforms::SharedUniforms,
    },
    /// A user-owned resource bound by identity.
    Resource {
        res: ResourceKey,
        keep: Keep,
    },
}

/// Keeps a vgpu-owned resource alive while bound (raw wgpu resources are kept by the registry).
/// Only `Buffer` is read (to name a destroyed buffer); the others are held.
#[derive(Debug)]
#[allow(
    dead_code,
    reason = "held, never read: keeps the resource alive while bound"
)]
pub(crate) enum Keep {
    None,
    Buffer(Buffer),
    Texture(crate::texture::Texture),
    Target(crate::target::Target),
    Sampler(crate::texture::Sampler),
}

impl Slot {
    pub(crate) fn ownership(&self) -> Option<&'static str> {
        match self {
            Slot::Unset => None,
            Slot::Value { .. } | Slot::Shared { .. } => {
                Some("library-owned (a value or uniforms block)")
            }
            Slot::Resource { .. } => Some("user-owned (a buffer bound by identity)"),
        }
    }
}

/// Most value bindings per group whose slots are memoized (groups with more still work, through
/// the bind-group cache on every record).
pub(crate) const MEMO_VALUES: usize = 4;
/// `ValueRef::dyn_index` of a binding without a dynamic offset.
pub(crate) const STATIC: u8 = u8::MAX;

/// A library-owned value bound in a group, precomputed from the slots when they change.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ValueRef {
    pub(crate) owner: OwnerKey,
    /// Position of this binding's offset among the group's dynamic offsets, or [`STATIC`].
    pub(crate) dyn_index: u8,
}

/// The memoized bind group of one group of one operation: valid while the buffers its values
/// resolved to (and, for static bindings, their offsets), the operation's resource bindings and
/// the cache's eviction epoch are unchanged.
///
/// `repr(C)`, fields read on every record first (one cache line with the group's owner).
#[derive(Debug)]
#[repr(C)]
pub(crate) struct GroupMemo {
    pub(crate) epoch: u64,
    pub(crate) bindings_rev: u64,
    pub(crate) id: BindGroupId,
    pub(crate) group: wgpu::BindGroup,
    pub(crate) buffers: [Option<vgpu_uniforms::BufferKey>; MEMO_VALUES],
    pub(crate) statics: [u32; MEMO_VALUES],
}

/// Per-group recording state of an operation (`repr(C)`: what every record reads comes first).
#[derive(Debug, Default)]
#[repr(C, align(64))]
pub(crate) struct GroupRec {
    /// Exactly one value, which takes the group's only dynamic offset (fast path): its owner.
    pub(crate) single: Option<OwnerKey>,
    /// Number of dynamic offsets the group takes.
    pub(crate) dynamic: u8,
    pub(crate) memo: Option<GroupMemo>,
    /// The single-value path's previous (buffer, id, group), valid with `memo`'s epoch and
    /// revision: a value alternating between two pages swaps instead of looking up again.
    pub(crate) alt: Option<(
        Option<vgpu_uniforms::BufferKey>,
        BindGroupId,
        wgpu::BindGroup,
    )>,
    pub(crate) values: SmallVec<[ValueRef; 2]>,
}

/// Render-only parts of an operation (`repr(C)`: what every record reads comes first).
#[derive(Debug)]
#[repr(C)]
pub(crate) struct RenderInfo {
    pub(crate) pipeline_memo: Option<(TargetSignature, u64, wgpu::RenderPipeline)>,
    pub(crate) vertex_count: u32,
    pub(crate) instance_count: u32,
    pub(crate) vertex_buffers: Vec<VertexBuffer>,
    pub(crate) index: Option<IndexBuffer>,
    pub(crate) state_key: Arc<RenderStateKey>,
}

/// One single-value group as the steady-state record path sees it: the bind group last used
/// (built on page `buffer`) and the dynamic offset the value's owner resolved to, valid while
/// the owner's stamp at `idx` in the engine's stamps equals `stamp`
/// ([`UniformEngine::stamps`](vgpu_uniforms::UniformEngine::stamps)); the owner; and the other
/// (page, group) for a value that alternates between two pages (a camera set per pass whose
/// values sit in different pages). The two are swapped when the owner resolves to the other
/// page.
#[derive(Debug, Default)]
#[repr(C)]
pub(crate) struct HotGroup {
    pub(crate) stamp: u64,
    pub(crate) idx: u32,
    pub(crate) offset: u32,
    pub(crate) id: u64,
    pub(crate) group: Option<wgpu::BindGroup>,
    pub(crate) owner: OwnerKey,
    pub(crate) buffer: Option<vgpu_uniforms::BufferKey>,
    pub(crate) alt_buffer: Option<vgpu_uniforms::BufferKey>,
    pub(crate) alt_id: u64,
    pub(crate) alt_group: Option<wgpu::BindGroup>,
}

impl HotGroup {
    /// Makes the other (page, group) the current one.
    #[inline]
    pub(crate) fn swap_alt(&mut self) {
        std::mem::swap(&mut self.buffer, &mut self.alt_buffer);
        std::mem::swap(&mut self.id, &mut self.alt_id);
        std::mem::swap(&mut self.group, &mut self.alt_group);
    }
}

/// Everything a steady-state record of a simple draw reads, in one block at the start of its
/// [`OpState`]: a copy of the pipeline memo and of each single-value group's memo.
/// Valid while `valid_epoch` equals the bind-group cache's eviction epoch and the pass's target
/// signature id equals `sig_id`; any change of the operation's bindings invalidates it. Each
/// group's offset holds while its owner's stamp does.
#[derive(Debug)]
#[repr(C, align(64))]
pub(crate) struct OpHot {
    /// Eviction epoch the copies were made at (`u64::MAX`: invalid, or not a simple draw).
    pub(crate) valid_epoch: u64,
    /// Interned target signature of `pipeline` (0: none).
    pub(crate) sig_id: u32,
    /// Number of groups.
    pub(crate) n: u8,
    /// A render operation without vertex or index buffers whose groups (at most
    /// [`HOT_GROUPS`]) each hold exactly one value taking its only dynamic offset.
    pub(crate) fast: bool,
    /// Bindings never set (recording fails while non-zero).
    pub(crate) unset: u32,
    pub(crate) vertex_count: u32,
    pub(crate) instance_count: u32,
    pub(crate) pipeline_id: u64,
    pub(crate) pipeline: Option<wgpu::RenderPipeline>,
    pub(crate) groups: [HotGroup; HOT_GROUPS],
}

/// Groups an operation may have for the steady-state fast path.
pub(crate) const HOT_GROUPS: usize = 2;

impl Default for OpHot {
    fn default() -> Self {
        OpHot {
            valid_epoch: u64::MAX,
            unset: 0,
            fast: false,
            n: 0,
            sig_id: 0,
            pipeline_id: 0,
            pipeline: None,
            vertex_count: 0,
            instance_count: 0,
            groups: Default::default(),
        }
    }
}

/// Per-operation state kept in the `Gpu` state. `repr(C)`: the hot record comes first, so a
/// steady-state record touches one contiguous block per draw.
#[derive(Debug)]
#[repr(C, align(64))]
pub(crate) struct OpState {
    pub(crate) hot: OpHot,
    pub(crate) bindings_rev: u64,
    pub(crate) groups: SmallVec<[GroupRec; 2]>,
    pub(crate) render: Option<RenderInfo>,
    pub(crate) label: Arc<str>,
    pub(crate) program: Arc<Program>,
    pub(crate) slots: Vec<Slot>,
    pub(crate) compute_memo: Option<(u64, wgpu::ComputePipeline)>,
}

pub(crate) struct OpHandle {
    pub(crate) gpu: Gpu,
    pub(crate) key: OpKey,
    pub(crate) label: Arc<str>,
    pub(crate) program: Arc<Program>,
}

impl OpHandle {
    /// `set` of draws and computes.
    pub(crate) fn set(&self, name: &str, value: crate::bind::Bind<'_>) -> Result<()> {
        self.gpu.shared.lock().set_binding(self.key, name, value)
    }

    /// `set_all` of draws and computes.
    pub(crate) fn set_all<'a>(
        &self,
        values: impl IntoIterator<Item = (&'a str, crate::bind::Bind<'a>)>,
    ) -> Result<()> {
        let values: Vec<(&str, crate::bind::Bind<'_>)> = values.into_iter().collect();
        self.gpu
            .shared
            .lock()
            .set_bindings_atomic(self.key, &values)
    }
}

impl Drop for OpHandle {
    fn drop(&mut self) {
        let mut st = self.gpu.shared.lock();
        st.remove_op(self.key);
    }
}

/// A render operation: shader, pipeline state, vertex/instance counts, and bindings set by WGSL
/// name. Cheap to clone (an `Arc`); dropping the last clone frees its values and slots.
///
/// ```
/// let gpu = vgpu::Gpu::noop();
/// let shader = gpu.shader("tri", "
///     struct Object { color: vec4f }
///     @group(0) @binding(0) var<uniform> object: Object;
///     @vertex fn vs_main(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
///         return vec4f(f32(i) - 1.0, f32(i & 1u), 0.0, 1.0);
///     }
///     @fragment fn fs_main() -> @location(0) vec4f { return object.color; }
/// ")?;
/// let draw = gpu.draw(&shader, vgpu::DrawDesc { label: "tri".into(), ..Default::default() })?;
/// draw.set("object", vgpu::value! { color: [1.0, 0.0, 0.0, 1.0] })?;
/// let target = gpu.target(8, 8)?;
/// gpu.frame(|f| f.pass(&target, |p| p.draw(&draw)))?;
/// # Ok::<(), vgpu::Error>(())
/// ```
#[derive(Clone)]
pub struct Draw {
    /// Copy of `inner.key`, so recording reads it without following the `Arc`.
    pub(crate) key: OpKey,
    /// Copy of `inner.gpu.identity()`: a pass checks it before using `key`.
    pub(crate) gpu_id: usize,
    pub(crate) inner: Arc<OpHandle>,
}

impl std::fmt::Debug for Draw {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Draw")
            .field("label", &self.label())
            .finish_non_exhaustive()
    }
}

impl AsRef<Draw> for Draw {
    fn as_ref(&self) -> &Draw {
        self
    }
}

fn vertex_format_shape(f: wgpu::VertexFormat) -> (u8, u64) {
    use wgpu::VertexFormat as V;
    // (component count, a "family" tag: 0 float-like, 1 sint, 2 uint)
    match f {
        V::Float32 | V::Float16 | V::Unorm8 | V::Snorm8 | V::Unorm16 | V::Snorm16 => (1, 0),
        V::Float32x2 | V::Float16x2 | V::Unorm8x2 | V::Snorm8x2 | V::Unorm16x2 | V::Snorm16x2 => {
            (2, 0)
        }
        V::Float32x3 => (3, 0),
        V::Float32x4
        | V::Float16x4
        | V::Unorm8x4
        | V::Snorm8x4
        | V::Unorm16x4
        | V::Snorm16x4
        | V::Unorm10_10_10_2
        | V::Unorm8x4Bgra => (4, 0),
        V::Sint32 | V::Sint8 | V::Sint16 => (1, 1),
        V::Sint32x2 | V::Sint8x2 | V::Sint16x2 => (2, 1),
        V::Sint32x3 => (3, 1),
        V::Sint32x4 | V::Sint8x4 | V::Sint16x4 => (4, 1),
        V::Uint32 | V::Uint8 | V::Uint16 => (1, 2),
        V::Uint32x2 | V::Uint8x2 | V::Uint16x2 => (2, 2),
        V::Uint32x3 => (3, 2),
        V::Uint32x4 | V::Uint8x4 | V::Uint16x4 => (4, 2),
        _ => (0, 3),
    }
}

impl Gpu {
    /// A draw of `shader` per `desc`. Vertex buffer layouts are checked against the shader's
    /// vertex inputs; pipelines are created lazily per target signature and shared.
    pub fn draw(&self, shader: &Shader, desc: DrawDesc) -> Result<Draw> {
        let stages = Stages::Render {
            vs: match &desc.vertex_entry {
                Some(n) => n.clone(),
                None => shader
                    .reflection()
                    .entry_point(vgpu_core::reflect::Stage::Vertex, None)?
                    .name
                    .clone(),
            },
            fs: match &desc.fragment_entry {
                Some(n) => Some(n.clone()),
                None => shader
                    .reflection()
                    .entry_point(vgpu_core::reflect::Stage::Fragment, None)
                    .ok()
                    .map(|e| e.name.clone()),
            },
        };
        let mut st = self.shared.lock();
        let program = st.program(shader, stages)?;
        check_vertex_layout(&desc, &program)?;
        let state_key = Arc::new(RenderStateKey {
            topology: desc.topology,
            strip_index_format: match desc.topology {
                wgpu::PrimitiveTopology::LineStrip | wgpu::PrimitiveTopology::TriangleStrip => {
                    desc.index_buffer.as_ref().map(|i| i.format)
                }
                _ => None,
            },
            cull_mode: desc.cull_mode,
            front_face: desc.front_face,
            blend: desc.blend,
            write_mask: desc.write_mask,
            depth: desc.depth,
            alpha_to_coverage: desc.alpha_to_coverage,
            vertex_layouts: desc
                .vertex_buffers
                .iter()
                .map(|v| (v.stride, v.step_mode, v.attributes.clone()))
                .collect(),
        });
        let render = RenderInfo {
            state_key,
            vertex_count: desc.vertex_count,
            instance_count: desc.instance_count,
            vertex_buffers: desc.vertex_buffers,
            index: desc.index_buffer,
            pipeline_memo: None,
        };
        let handle = st.insert_op(&desc.label, program, Some(render));
        drop(st);
        Ok(Draw {
            key: handle.0,
            gpu_id: self.identity(),
            inner: Arc::new(OpHandle {
                gpu: self.clone(),
                key: handle.0,
                label: handle.1,
                program: handle.2,
            }),
        })
    }
}

fn check_vertex_layout(desc: &DrawDesc, program: &Program) -> Result<()> {
    let err = |what: String, expected: String, actual: String| BindingError::VertexLayout {
        label: desc.label.clone(),
        what,
        expected,
        actual,
    };
    for v in &desc.vertex_buffers {
        if !v.buffer.usage().contains(wgpu::BufferUsages::VERTEX) {
            return Err(err(
                format!("vertex buffer {:?}", v.buffer.label()),
                "VERTEX usage".into(),
                format!("{:?}", v.buffer.usage()),
            )
            .into());
        }
        // wgpu panics on an empty slice; offsets are 4-aligned (`VERTEX_ALIGNMENT`).
        if v.offset >= v.buffer.size() || !v.offset.is_multiple_of(wgpu::VERTEX_ALIGNMENT) {
            return Err(err(
                format!("vertex buffer {:?} offset", v.buffer.label()),
                format!(
                    "a multiple of {} below the size {}",
                    wgpu::VERTEX_ALIGNMENT,
                    v.buffer.size()
                ),
                v.offset.to_string(),
            )
            .into());
        }
    }
    if let Some(i) = &desc.index_buffer {
        if !i.buffer.usage().contains(wgpu::BufferUsages::INDEX) {
            return Err(err(
                format!("index buffer {:?}", i.buffer.label()),
                "INDEX usage".into(),
                format!("{:?}", i.buffer.usage()),
            )
            .into());
        }
        let size = match i.format {
            wgpu::IndexFormat::Uint16 => 2,
            wgpu::IndexFormat::Uint32 => 4,
        };
        let need = i.offset.checked_add(u64::from(i.count) * size);
        if need.is_none_or(|n| n > i.buffer.size())
            || i.offset >= i.buffer.size()
            || !i.offset.is_multiple_of(size)
        {
            return Err(err(
                "index range".into(),
                format!(
                    "offset a multiple of {size} below the buffer size, offset + count * {size} <= {}",
                    i.buffer.size()
                ),
                format!("offset {}, count {}", i.offset, i.count),
            )
            .into());
        }
    }
    for input in &program.vertex_inputs {
        let found = desc
            .vertex_buffers
            .iter()
            .flat_map(|v| v.attributes.iter())
            .find(|a| a.shader_location == input.location);
        let Some(attr) = found else {
            return Err(err(
                format!(
                    "vertex input `{}` (@location({}))",
                    input.name, input.location
                ),
                format!(
                    "an attribute at shader_location {} of format {:?}",
                    input.location, input.format
                ),
                "no attribute".into(),
            )
            .into());
        };
        let (n_shader, fam_shader) = vertex_format_shape(input.format);
        let (n_attr, fam_attr) = vertex_format_shape(attr.format);
        if n_shader != n_attr || fam_shader != fam_attr {
            return Err(err(
                format!(
                    "vertex input `{}` (@location({}))",
                    input.name, input.location
                ),
                format!("{:?} (or a format with the same components)", input.format),
                format!("{:?}", attr.format),
            )
            .into());
        }
    }
    Ok(())
}

impl Draw {
    /// The label.
    pub fn label(&self) -> &str {
        &self.inner.label
    }

    /// The WGSL names of the bindings this draw's entry points use.
    pub fn binding_names(&self) -> impl Iterator<Item = &str> {
        self.inner.program.bindings.iter().map(|b| &*b.name)
    }

    /// Sets one binding by WGSL name (or one member of a struct binding by member name).
    ///
    /// Accepts a [`Value`](crate::Value) (a library-owned struct, packed strictly; a partial
    /// struct merges onto the previous full value), a [`SharedUniforms`](crate::SharedUniforms)
    /// block, a [`Buffer`], a raw `wgpu::Buffer` or `wgpu::BufferBinding`, a
    /// [`Texture`](crate::Texture), a target's color or depth, a raw `wgpu::TextureView`, a
    /// [`Sampler`](crate::Sampler) or a raw `wgpu::Sampler`.
    ///
    /// The first accepted value latches the binding as library-owned or user-owned; switching
    /// is an error. A rejected set changes nothing.
    pub fn set<'a>(&self, name: &str, value: impl Into<crate::bind::Bind<'a>>) -> Result<()> {
        self.inner.set(name, value.into())
    }

    /// Sets a binding from a typed `bytemuck::Pod` value whose size equals the reflected size.
    pub fn set_pod<T: bytemuck::Pod>(&self, name: &str, value: &T) -> Result<()> {
        self.set(name, crate::bind::Bind::Pod(bytemuck::bytes_of(value)))
    }

    /// Sets several bindings at once, atomically: if any is rejected, none changes.
    pub fn set_all<'a>(
        &self,
        values: impl IntoIterator<Item = (&'a str, crate::bind::Bind<'a>)>,
    ) -> Result<()> {
        self.inner.set_all(values)
    }

    /// Changes the vertex and instance counts.
    pub fn set_counts(&self, vertex_count: u32, instance_count: u32) {
        let mut st = self.inner.gpu.shared.lock();
        if let Some(op) = st.ops.get_mut(self.inner.key) {
            if let Some(r) = op.render.as_mut() {
                r.vertex_count = vertex_count;
                r.instance_count = instance_count;
            }
            op.hot.vertex_count = vertex_count;
            op.hot.instance_count = instance_count;
        }
    }
}

impl OpState {
    /// Recomputes each group's value list after a slot changed.
    pub(crate) fn rebuild_groups(&mut self) {
        for (gi, group) in self.program.groups.iter().enumerate() {
            let Some(rec) = self.groups.get_mut(gi) else {
                continue;
            };
            rec.values.clear();
            let mut dynamic = 0u8;
            for bi in group.first..group.first + group.len {
                let pb = &self.program.bindings[bi];
                let dyn_index = if pb.dynamic {
                    dynamic += 1;
                    dynamic - 1
                } else {
                    STATIC
                };
                if let Slot::Value { owner } | Slot::Shared { owner, .. } = &self.slots[bi] {
                    rec.values.push(ValueRef {
                        owner: *owner,
                        dyn_index,
                    });
                }
            }
            rec.dynamic = dynamic;
            rec.single = match rec.values.as_slice() {
                [v] if dynamic == 1 && v.dyn_index == 0 => Some(v.owner),
                _ => None,
            };
        }
        let simple = self
            .render
            .as_ref()
            .is_some_and(|r| r.vertex_buffers.is_empty() && r.index.is_none());
        self.hot.valid_epoch = u64::MAX;
        self.hot.n = self.groups.len().min(HOT_GROUPS) as u8;
        self.hot.fast = simple
            && self.groups.len() <= HOT_GROUPS
            && self.groups.iter().all(|g| g.single.is_some());
    }

    /// Copies the pipeline memo and the single-value groups' memos into the hot record after a
    /// full record, if they are all current.
    pub(crate) fn refresh_hot(&mut self, epoch: u64, sig_id: u32, engine: &UniformEngine) {
        self.hot.valid_epoch = u64::MAX;
        if !self.hot.fast || sig_id == 0 {
            return;
        }
        let Some(render) = &self.render else { return };
        let Some((_, pid, pipeline)) = &render.pipeline_memo else {
            return;
        };
        for (gi, g) in self.groups.iter().enumerate().take(HOT_GROUPS) {
            let (Some(owner), Some(m)) = (g.single, &g.memo) else {
                return;
            };
            let Some(idx) = engine.stamp_slot(owner) else {
                return;
            };
            if m.epoch != epoch || m.bindings_rev != self.bindings_rev {
                return;
            }
            let (alt_buffer, alt_id, alt_group) = match &g.alt {
                Some((b, id, group)) => (*b, id.get(), Some(group.clone())),
                None => (None, 0, None),
            };
            self.hot.groups[gi] = HotGroup {
                // Stamps start at 1: the first record resolves the owner.
                stamp: 0,
                idx,
                offset: 0,
                id: m.id.get(),
                group: Some(m.group.clone()),
                owner,
                buffer: m.buffers[0],
                alt_buffer,
                alt_id,
                alt_group,
            };
        }
        self.hot.pipeline_id = *pid;
        self.hot.pipeline = Some(pipeline.clone());
        self.hot.vertex_count = render.vertex_count;
        self.hot.instance_count = render.instance_count;
        self.hot.sig_id = sig_id;
        self.hot.valid_epoch = epoch;
    }
}

impl State {
    /// Inserts an operation for `program`.
    pub(crate) fn insert_op(
        &mut self,
        label: &str,
        program: Arc<Program>,
        render: Option<RenderInfo>,
    ) -> (OpKey, Arc<str>, Arc<Program>) {
        let label: Arc<str> = Arc::from(label);
        let n = program.bindings.len();
        let key = self.ops.insert(OpState {
            label: label.clone(),
            program: program.clone(),
            slots: (0..n).map(|_| Slot::Unset).collect(),
            hot: OpHot {
                unset: n as u32,
                ..OpHot::default()
            },
            bindings_rev: 1,
            groups: (0..program.groups.len())
                .map(|_| GroupRec::default())
                .collect(),
            render,
            compute_memo: None,
        });
        if let Some(op) = self.ops.get_mut(key) {
            op.rebuild_groups();
        }
        (key, label, program)
    }

    /// Removes an operation and releases what its bindings held.
    pub(crate) fn remove_op(&mut self, key: OpKey) {
        if let Some(op) = self.ops.remove(key) {
            for slot in op.slots {
                self.release_slot(slot);
            }
        }
    }

    /// Releases what a slot held. Handles it kept alive are dropped once the state is unlocked.
    pub(crate) fn release_slot(&mut self, slot: Slot) {
        match &slot {
            Slot::Unset => return,
            Slot::Shared { .. } => {}
            Slot::Value { owner } => {
                let _ = self.engine.remove_owner(*owner);
                return;
            }
            Slot::Resource { res, .. } => self.release_resource(*res),
        }
        self.deferred.push(slot);
    }
}
