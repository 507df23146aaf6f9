//! [`Draw`]: a render operation described once (shader, state, counts) whose bindings are set by
//! WGSL name.

use smallvec::SmallVec;
use vgpu_core::Label;

use crate::binding::Binding;
use crate::binding_arg::BindingArg;
use crate::buffer::Buffer;
use crate::descriptors::{ColorTarget, DepthState, GpuId};
use crate::error::{BindingError, Result, foreign_gpu};
use crate::geometry_error::GeometryError;
use crate::gpu::Gpu;
use crate::mesh::Mesh;
use crate::op_handle::OpHandle;
use crate::pipeline_error::PipelineError;
use crate::shader::Shader;
use crate::state::auto_bundle::SeqEntry;
use crate::state::{
    ConstantSet, IndexBinding, OperationKind, Program, RenderInfo, RenderStateKey, Stages,
    VertexBinding,
};
use crate::typed::Uniform;
use crate::typed_binding::TypedBinding;

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
    /// Added to each index before the vertex is fetched (WebGPU's `baseVertex`). Default 0.
    pub base_vertex: i32,
}

impl IndexBuffer {
    /// `count` indices of `format` from the start of `buffer`, base vertex 0.
    pub fn new(buffer: &Buffer, format: wgpu::IndexFormat, count: u32) -> Self {
        IndexBuffer {
            buffer: buffer.clone(),
            offset: 0,
            format,
            count,
            base_vertex: 0,
        }
    }
}

/// Describes a [`Draw`]. `Default`: the vertex buffers' vertex count (3 without vertex buffers),
/// 1 instance, triangle list, no culling, no blend, `vs_main`/`fs_main` (or the only entry
/// point of each stage).
#[derive(Clone, Debug)]
pub struct DrawDesc {
    /// Label used in errors.
    pub label: String,
    /// Vertex entry point; `None` = `vs_main` or the only vertex entry point.
    pub vertex_entry: Option<String>,
    /// Fragment entry point; `None` = `fs_main` or the only fragment entry point.
    pub fragment_entry: Option<String>,
    /// Vertices drawn (ignored with an index buffer, which gives its own count). `None` (the
    /// default): as many as the per-vertex buffers hold, the smallest `(size - offset) / stride`
    /// of the buffers with `step_mode: Vertex` and a non-zero stride; 3 (a fullscreen or single
    /// triangle) when there is no such buffer.
    pub vertex_count: Option<u32>,
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
    /// Color blending of every attachment not listed in `colors`; `None` replaces.
    pub blend: Option<wgpu::BlendState>,
    /// Which color channels are written, for every attachment not listed in `colors`.
    pub write_mask: wgpu::ColorWrites,
    /// Blend and write mask per color attachment, attachment 0 first (attachments past the
    /// list take `blend` and `write_mask`). Empty (the default): every attachment takes them.
    pub colors: Vec<ColorTarget>,
    /// Depth testing (used when the target has depth).
    pub depth: DepthState,
    /// Stencil testing and writing (targets with a stencil aspect, e.g.
    /// `Depth24PlusStencil8`; a state other than the default on a target without one is
    /// `VGPU-DRAW-STENCIL`). The reference value is the pass's
    /// ([`Pass::set_stencil_reference`](crate::Pass::set_stencil_reference)). Default: always
    /// passes, keeps, masks 0 (WebGPU's default compare is `Always`, ops `Keep`; its masks
    /// default to `0xFFFFFFFF`: give `read_mask`/`write_mask` when testing or writing).
    pub stencil: wgpu::StencilState,
    /// Depth not clipped to the view volume (needs `Features::DEPTH_CLIP_CONTROL`, else
    /// `VGPU-FEATURE-MISSING`). Default `false`.
    pub unclipped_depth: bool,
    /// Which samples are written (MSAA). Default all (`!0`). wgpu's GL backend ignores it
    /// (every sample is written there).
    pub multisample_mask: u64,
    /// Alpha to coverage (MSAA targets).
    pub alpha_to_coverage: bool,
    /// WGSL `override` constants by name (or `@id` as text), checked against the shader: an
    /// unknown name, a value the type cannot hold or a required one missing is an error at
    /// [`Gpu::draw`]. Pipelines are cached per constant set.
    pub constants: Vec<(String, f64)>,
    /// A mesh whose attributes feed the vertex inputs by name ([`Gpu::mesh`]). Default `None`.
    ///
    /// Each vertex input of the vertex entry point (an argument, or a member of a struct
    /// argument) takes the mesh attribute of its own name at its own `@location`:
    /// `@location(1) position: vec3f` reads `position`, whatever location the shader gives it.
    /// Inputs at a location that a buffer of `vertex_buffers` describes are fed by that buffer
    /// instead (per-instance data): those buffers take the slots after the mesh's (one per
    /// input it feeds) and keep their own locations. The mesh's indices are drawn (or, without
    /// indices, its vertices, unless `vertex_count` says otherwise).
    ///
    /// An input must read its attribute with the same scalar kind (float, including the
    /// normalized and `f16` formats; signed; unsigned) and the same component count: a
    /// `vec2f` input over a `Float32x3` attribute is refused, and so is a `vec3f` input over a
    /// `Float32x4` tangent or color (WebGPU would drop `w`; vgpu refuses it as the likelier
    /// mistake: declare `vec4f` and use `.xyz`).
    ///
    /// Errors at [`Gpu::draw`]: `VGPU-MESH-ATTRIBUTE-MISSING` (an input named as no attribute,
    /// listing the mesh's), `VGPU-MESH-ATTRIBUTE-TYPE`, `VGPU-MESH-INDEX-BUFFER` (a mesh and an
    /// `index_buffer` both), `VGPU-MESH-VERTEX-BUFFERS` (more buffers than the device allows),
    /// `VGPU-FOREIGN-GPU` (a mesh of another `Gpu`).
    pub mesh: Option<Mesh>,
}

impl Default for DrawDesc {
    fn default() -> Self {
        DrawDesc {
            label: "draw".to_owned(),
            vertex_entry: None,
            fragment_entry: None,
            vertex_count: None,
            instance_count: 1,
            vertex_buffers: Vec::new(),
            index_buffer: None,
            topology: wgpu::PrimitiveTopology::TriangleList,
            cull_mode: None,
            front_face: wgpu::FrontFace::Ccw,
            blend: None,
            write_mask: wgpu::ColorWrites::ALL,
            colors: Vec::new(),
            depth: DepthState::default(),
            stencil: wgpu::StencilState::default(),
            unclipped_depth: false,
            multisample_mask: !0,
            alpha_to_coverage: false,
            constants: Vec::new(),
            mesh: None,
        }
    }
}

/// A render operation: shader, pipeline state, vertex/instance counts, and bindings set by WGSL
/// name. Cheap to clone (the draw's record counts its handles; a clone locks the state once);
/// dropping the last clone frees its values and slots.
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
    /// Copy of `inner.gpu_id()`, so a pass checks it without following the state's `Arc`.
    pub(crate) gpu_id: GpuId,
    /// Its operation as an auto-bundle's sequence holds it: a replayed draw is compared with
    /// one load (`state/auto_bundle/sequence.rs`).
    pub(crate) seq: SeqEntry,
    pub(crate) inner: OpHandle,
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
        self.ctx.check_device("Gpu::draw")?;
        self.check_shader(shader, &format!("creating draw {:?}", desc.label))?;
        for b in desc
            .vertex_buffers
            .iter()
            .map(|v| &v.buffer)
            .chain(desc.index_buffer.iter().map(|i| &i.buffer))
        {
            self.check_buffer(b, &format!("creating draw {:?}", desc.label))?;
        }
        let stages = Stages::Render {
            vs: match &desc.vertex_entry {
                Some(n) => n.clone(),
                None => shader
                    .reflection()
                    .entry_point(vgpu_core::Stage::Vertex, None)?
                    .name
                    .clone(),
            },
            fs: match &desc.fragment_entry {
                Some(n) => Some(n.clone()),
                None => shader
                    .reflection()
                    .entry_point(vgpu_core::Stage::Fragment, None)
                    .ok()
                    .map(|e| e.name.clone()),
            },
        };
        // Checked before anything is created: a rejected draw changes nothing.
        self.check_render_state(&desc)?;
        let constants = match &stages {
            Stages::Render { vs, fs } => {
                let entry_points: SmallVec<[&str; 2]> =
                    std::iter::once(vs.as_str()).chain(fs.as_deref()).collect();
                shader.reflection().pipeline_constants_for(
                    &desc.label,
                    &entry_points,
                    &desc.constants,
                )?
            }
            Stages::Compute { .. } => Vec::new(),
        };
        let program = self.with_state(|st| st.program(&shader.inner, stages))?;
        let desc = self.lower_mesh(desc, &program)?;
        check_vertex_layout(&desc, &program)?;
        let state_key = render_state_key(&desc, constants);
        // One shared key per distinct render state (draws of a scene share a few).
        let state_key = self.with_state(|st| st.intern_render_state(state_key));
        let counts = (
            desc.vertex_count
                .unwrap_or_else(|| buffers_vertex_count(&desc.vertex_buffers)),
            desc.instance_count,
        );
        let render = RenderInfo::new(
            state_key,
            desc.vertex_buffers
                .iter()
                .map(|v| VertexBinding {
                    buffer: v.buffer.inner.clone(),
                    offset: v.offset,
                })
                .collect(),
            desc.index_buffer.as_ref().map(|i| IndexBinding {
                buffer: i.buffer.inner.clone(),
                offset: i.offset,
                format: i.format,
                count: i.count,
                base_vertex: i.base_vertex,
            }),
        );
        let handle = OpHandle::insert(
            self,
            &desc.label,
            program,
            OperationKind::Render(render),
            counts,
        );
        Ok(Draw {
            gpu_id: self.id(),
            seq: SeqEntry::draw(handle.key),
            inner: handle,
        })
    }
}

/// The pipeline state of `desc`, with its checked `constants`.
fn render_state_key(desc: &DrawDesc, constants: Vec<(String, f64)>) -> RenderStateKey {
    RenderStateKey {
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
        colors: desc.colors.clone(),
        depth: desc.depth,
        stencil: desc.stencil.clone(),
        unclipped_depth: desc.unclipped_depth,
        multisample_mask: desc.multisample_mask,
        alpha_to_coverage: desc.alpha_to_coverage,
        constants: ConstantSet::new(constants),
        vertex_layouts: desc
            .vertex_buffers
            .iter()
            .map(|v| (v.stride, v.step_mode, v.attributes.clone()))
            .collect(),
    }
}

impl Gpu {
    /// `VGPU-FEATURE-MISSING` for a state the device lacks the feature of.
    fn check_render_state(&self, desc: &DrawDesc) -> Result<()> {
        if desc.unclipped_depth
            && !self
                .ctx
                .features()
                .contains(wgpu::Features::DEPTH_CLIP_CONTROL)
        {
            return Err(PipelineError::FeatureMissing {
                label: desc.label.clone(),
                what: "unclipped depth (DrawDesc::unclipped_depth)",
                feature: wgpu::Features::DEPTH_CLIP_CONTROL,
            }
            .into());
        }
        Ok(())
    }
}

/// The vertex count of a draw that gives none: the smallest count of whole vertices held by a
/// per-vertex buffer past its offset (buffers of stride 0 hold any number), or 3 without one.
fn buffers_vertex_count(buffers: &[VertexBuffer]) -> u32 {
    buffers
        .iter()
        .filter(|v| v.step_mode == wgpu::VertexStepMode::Vertex && v.stride > 0)
        .map(|v| {
            let whole = v.buffer.size().saturating_sub(v.offset) / v.stride;
            u32::try_from(whole).unwrap_or(u32::MAX)
        })
        .min()
        .unwrap_or(3)
}

/// `VGPU-DRAW-VERTEX-LAYOUT` unless the vertex and index buffers of `desc` are usable and
/// feed every vertex input of `program`.
fn check_vertex_layout(desc: &DrawDesc, program: &Program) -> Result<()> {
    check_vertex_buffers(desc)?;
    check_index_buffer(desc)?;
    check_vertex_inputs(desc, program)
}

/// The error of a vertex layout check.
fn vertex_layout_error(
    desc: &DrawDesc,
    what: String,
    expected: String,
    actual: String,
) -> crate::error::Error {
    BindingError::VertexLayout {
        label: desc.label.clone(),
        what,
        expected,
        actual,
    }
    .into()
}

/// Usage and offset of each vertex buffer.
fn check_vertex_buffers(desc: &DrawDesc) -> Result<()> {
    let err = |what, expected, actual| vertex_layout_error(desc, what, expected, actual);
    for v in &desc.vertex_buffers {
        if !v.buffer.usage().contains(wgpu::BufferUsages::VERTEX) {
            return Err(err(
                format!("vertex buffer {:?}", v.buffer.label()),
                "VERTEX usage".into(),
                format!("{:?}", v.buffer.usage()),
            ));
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
            ));
        }
    }
    Ok(())
}

/// Usage, offset and range of the index buffer.
fn check_index_buffer(desc: &DrawDesc) -> Result<()> {
    let err = |what, expected, actual| vertex_layout_error(desc, what, expected, actual);
    if let Some(i) = &desc.index_buffer {
        if !i.buffer.usage().contains(wgpu::BufferUsages::INDEX) {
            return Err(err(
                format!("index buffer {:?}", i.buffer.label()),
                "INDEX usage".into(),
                format!("{:?}", i.buffer.usage()),
            ));
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
            ));
        }
    }
    Ok(())
}

/// Every vertex input of the program has an attribute of a compatible format.
fn check_vertex_inputs(desc: &DrawDesc, program: &Program) -> Result<()> {
    let err = |what, expected, actual| vertex_layout_error(desc, what, expected, actual);
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
            ));
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
            ));
        }
    }
    Ok(())
}

/// The WGSL spelling of the type a vertex format matches (`vec3f`, `u32`, …).
fn wgsl_type(format: wgpu::VertexFormat) -> String {
    use wgpu::VertexFormat as F;
    let (components, family) = vertex_format_shape(format);
    let half = matches!(format, F::Float16 | F::Float16x2 | F::Float16x4);
    let (scalar, suffix) = match (family, half) {
        (0, true) => ("f16", 'h'),
        (0, false) => ("f32", 'f'),
        (1, _) => ("i32", 'i'),
        _ => ("u32", 'u'),
    };
    if components == 1 {
        scalar.to_owned()
    } else {
        format!("vec{components}{suffix}")
    }
}

impl Gpu {
    /// `desc` with its mesh lowered onto vertex buffers and an index buffer: one vertex buffer
    /// per vertex input of `program` fed by the mesh attribute of the input's name, at the
    /// input's location (inputs at a location one of `desc.vertex_buffers` describes are left
    /// to it), then `desc.vertex_buffers`; the mesh's indices, or its vertex count. `desc`
    /// unchanged without a mesh.
    fn lower_mesh(&self, mut desc: DrawDesc, program: &Program) -> Result<DrawDesc> {
        let Some(mesh) = desc.mesh.clone() else {
            return Ok(desc);
        };
        let mesh = &mesh.inner;
        if mesh.gpu != self.id() {
            return Err(foreign_gpu(
                "mesh",
                &mesh.label,
                format!("creating draw {:?}", desc.label),
            ));
        }
        if desc.index_buffer.is_some() {
            return Err(GeometryError::IndexBuffer {
                draw: desc.label.clone(),
                mesh: mesh.label.clone(),
            }
            .into());
        }
        let mut buffers =
            Vec::with_capacity(program.vertex_inputs.len() + desc.vertex_buffers.len());
        for input in &program.vertex_inputs {
            let given = desc
                .vertex_buffers
                .iter()
                .flat_map(|v| &v.attributes)
                .any(|a| a.shader_location == input.location);
            if given {
                continue;
            }
            let Some(attribute) = mesh.attributes.iter().find(|a| a.name == input.name) else {
                return Err(GeometryError::AttributeMissing {
                    draw: desc.label.clone(),
                    mesh: mesh.label.clone(),
                    input: input.name.clone(),
                    location: input.location,
                    attributes: mesh
                        .attributes
                        .iter()
                        .map(|a| (a.name.clone(), a.format))
                        .collect(),
                }
                .into());
            };
            if vertex_format_shape(input.format) != vertex_format_shape(attribute.format) {
                return Err(GeometryError::AttributeType {
                    draw: desc.label.clone(),
                    mesh: mesh.label.clone(),
                    input: input.name.clone(),
                    location: input.location,
                    wgsl: wgsl_type(input.format),
                    input_format: input.format,
                    attribute_format: attribute.format,
                }
                .into());
            }
            buffers.push(VertexBuffer {
                buffer: attribute.buffer.clone(),
                offset: 0,
                stride: attribute.format.size(),
                step_mode: wgpu::VertexStepMode::Vertex,
                attributes: vec![wgpu::VertexAttribute {
                    format: attribute.format,
                    offset: 0,
                    shader_location: input.location,
                }],
            });
        }
        let max = self.ctx.limits().max_vertex_buffers;
        let needed = buffers.len() + desc.vertex_buffers.len();
        if u32::try_from(needed).ok().is_none_or(|n| n > max) {
            return Err(GeometryError::VertexBuffers {
                draw: desc.label.clone(),
                needed,
                mesh: buffers.len(),
                max,
            }
            .into());
        }
        buffers.append(&mut desc.vertex_buffers);
        desc.vertex_buffers = buffers;
        desc.index_buffer = mesh
            .index
            .as_ref()
            .map(|i| IndexBuffer::new(&i.buffer, i.format, i.count));
        if desc.index_buffer.is_none() {
            desc.vertex_count = desc.vertex_count.or(Some(mesh.vertex_count));
        }
        Ok(desc)
    }
}

impl Draw {
    /// The label (read from the draw's record: a clone, inline when short).
    pub fn label(&self) -> Label {
        self.inner.label()
    }

    /// The WGSL names of the bindings this draw's entry points use, in binding order (those of
    /// its shader now: [`Gpu::replace_shader`](crate::Gpu::replace_shader) may change them).
    pub fn binding_names(&self) -> Vec<String> {
        self.inner.program().map_or_else(Vec::new, |p| {
            p.bindings.iter().map(|b| b.name.to_string()).collect()
        })
    }

    /// Sets one binding by WGSL name (or one member of a struct binding by member name).
    ///
    /// Accepts a typed value (`&T` where `T:` [`Uniform`](crate::Uniform): a
    /// `#[derive(vgpu::Uniform)]` struct, a scalar, an array, a glam or mint type; checked
    /// against the WGSL type on its first set, then written straight into place), a
    /// [`Value`](crate::Value) (a library-owned struct, packed strictly; a partial
    /// struct merges onto the previous full value), a [`SharedUniforms`](crate::SharedUniforms)
    /// block, a [`Buffer`], a raw `wgpu::Buffer` or `wgpu::BufferBinding`, a
    /// [`Texture`](crate::Texture), a target's color or depth, a raw `wgpu::TextureView`, a
    /// [`Sampler`](crate::Sampler) or a raw `wgpu::Sampler`.
    ///
    /// The first accepted value latches the binding as library-owned or user-owned; switching
    /// is an error. A rejected set changes nothing.
    pub fn set<'a>(&self, name: &str, value: impl Into<BindingArg<'a>>) -> Result<()> {
        self.inner.set(name, value.into())
    }

    /// Sets a binding from raw bytes already in its WGSL layout; only their size is checked (the
    /// reflected size, or the fixed part plus whole elements of a runtime-sized array). Prefer a
    /// typed value (`#[derive(vgpu::Uniform)]`), which is checked by member name, order and type.
    pub fn set_bytes(&self, name: &str, bytes: &[u8]) -> Result<()> {
        self.set(name, BindingArg::Bytes(bytes))
    }

    /// Sets several bindings at once, atomically: if any is rejected, none changes.
    pub fn set_all<'a>(
        &self,
        values: impl IntoIterator<Item = (&'a str, BindingArg<'a>)>,
    ) -> Result<()> {
        self.inner.set_all(values)
    }

    /// The binding named `name`, resolved once (see [`Binding`]).
    pub fn binding(&self, name: &str) -> Result<Binding> {
        Binding::resolve(&self.inner, name)
    }

    /// The binding named `name`, resolved once and checked for values of type `T` (see
    /// [`TypedBinding`]).
    pub fn typed_binding<T: Uniform>(&self, name: &str) -> Result<TypedBinding<T>> {
        TypedBinding::resolve(&self.inner, name)
    }

    /// The vertex count (for an indexed draw: the index count) and the instance count that
    /// recording this draw draws: [`DrawDesc`]'s (the vertex buffers' count when it gave none),
    /// or the last [`set_counts`](Self::set_counts).
    pub fn counts(&self) -> (u32, u32) {
        let key = self.inner.key;
        self.inner.with_state(|st| st.counts(key))
    }

    /// Changes the vertex and instance counts.
    pub fn set_counts(&self, vertex_count: u32, instance_count: u32) {
        let key = self.inner.key;
        self.inner
            .with_state(|st| st.set_counts(key, vertex_count, instance_count));
    }
}
