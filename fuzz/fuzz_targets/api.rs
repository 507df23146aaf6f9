//! `api`: a sequence of API operations decoded from the input, on a `Gpu` with fresh state (the
//! noop device is shared): draws of three shaders (a per-draw struct binding and a shared camera
//! block binding; one with a storage array; one whose camera struct has another layout) and a
//! compute; shared blocks created, set (`value!`, typed, bytes, partial, member shorthand),
//! bound and dropped; `set`, `set_all`, `Binding::set`, `SetBatch`; user buffers written, bound,
//! destroyed and dropped; frames of 1–3 passes into two targets (color; color + depth) with sets,
//! drops and bundle replays between draws inside the frame closure, indirect draws from user
//! buffers; cancelled and dropped frames, a nested `begin_frame`, a frame whose closure fails;
//! compute passes; bundles recorded and replayed; things dropped mid-sequence, also inside
//! passes. Issue 31's calls (`pipelines.rs`, beside this file): targets of 0–9 color
//! attachments and depth-stencil formats, draws with per-attachment blend, stencil, depth bias,
//! multisample mask, unclipped depth and override constants, passes with per-attachment clears,
//! read-only aspects, blend constant, stencil reference and occlusion queries, `prepare`,
//! `render_once`, claimed groups, computes with constants.
//!
//! Invariants: no panic, no hang; every `Err` carries a `VGPU-` code; no uncaptured wgpu error
//! after any frame; after the sequence, a new draw renders in a frame that succeeds.

#![no_main]

use arbitrary::{Arbitrary, Unstructured};
use libfuzzer_sys::fuzz_target;
use vgpu::{
    BindingArg, Buffer, BufferDesc, Bundle, Compute, ComputeDesc, Draw, DrawDesc, DrawRange, Gpu,
    Shader, SharedUniforms, Target, TargetDesc, Uniform, Value, value, wgpu,
};
use vgpu_fuzz::{FValue, check_err, fresh_gpu, ok_or_coded, printing};

#[path = "api/pipelines.rs"]
mod pipelines;

use pipelines::{Constants, PassExtras, PassParts, RenderState, StateOp, TargetSpec};

/// Render shaders: object, params, view, texture (this file), MRT and uint (`pipelines.rs`).
const SHADERS: usize = 6;
/// Targets the sequence cannot drop: color, color + depth, G-buffer, uint.
const FIXED_TARGETS: usize = 4;

const OBJECT_WGSL: &str = "
struct Object { world: mat4x4f, color: vec4f }
struct Camera { view_proj: mat4x4f, eye: vec3f, time: f32 }
@group(0) @binding(0) var<uniform> object: Object;
@group(1) @binding(0) var<uniform> camera: Camera;
@vertex fn vs_main(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
    return camera.view_proj * object.world * vec4f(f32(i), camera.time, 0.0, 1.0) + vec4f(camera.eye, 0.0);
}
@fragment fn fs_main() -> @location(0) vec4f { return object.color; }
";

const PARAMS_WGSL: &str = "
struct Params { tint: vec4f, scale: f32, count: u32 }
struct Camera { view_proj: mat4x4f, eye: vec3f, time: f32 }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> data: array<vec4f>;
@group(1) @binding(0) var<uniform> camera: Camera;
@vertex fn vs_main(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
    return camera.view_proj * vec4f(f32(i) * params.scale, camera.time, 0.0, 1.0);
}
@fragment fn fs_main() -> @location(0) vec4f {
    return params.tint * data[params.count % arrayLength(&data)];
}
";

/// A camera block of another layout: binding a block adopted by `Camera` here is refused.
const VIEW_WGSL: &str = "
struct View { view_proj: mat4x4f, eye: vec4f }
@group(0) @binding(0) var<uniform> camera: View;
@vertex fn vs_main(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
    return camera.view_proj * vec4f(f32(i), 0.0, 0.0, 1.0) + camera.eye;
}
@fragment fn fs_main() -> @location(0) vec4f { return camera.eye; }
";

/// A texture and a sampler.
const TEXTURE_WGSL: &str = "
struct Camera { view_proj: mat4x4f, eye: vec3f, time: f32 }
@group(0) @binding(0) var tex: texture_2d<f32>;
@group(0) @binding(1) var samp: sampler;
@group(1) @binding(0) var<uniform> camera: Camera;
@vertex fn vs_main(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
    return camera.view_proj * vec4f(f32(i), camera.time, 0.0, 1.0);
}
@fragment fn fs_main() -> @location(0) vec4f { return textureSample(tex, samp, vec2f(0.5)); }
";

const COMPUTE_WGSL: &str = "
struct P { n: u32 }
@group(0) @binding(0) var<uniform> p: P;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(1) fn cs_main(@builtin(global_invocation_id) id: vec3u) {
    if id.x < p.n { out[id.x % arrayLength(&out)] = id.x; }
}
";

/// Binding and member names the ops pick from (some unknown or misspelled).
const NAMES: [&str; 16] = [
    "object", "camera", "params", "data", "color", "time", "eye", "p", "out", "world", "tint",
    "tex", "samp", "nope", "colr", "",
];

/// Texture formats the ops pick from: sampleable, unfilterable, integer, depth, compressed.
const FORMATS: [wgpu::TextureFormat; 10] = [
    wgpu::TextureFormat::Rgba8Unorm,
    wgpu::TextureFormat::Rgba8UnormSrgb,
    wgpu::TextureFormat::Bgra8Unorm,
    wgpu::TextureFormat::Rgba16Float,
    wgpu::TextureFormat::R32Float,
    wgpu::TextureFormat::R8Uint,
    wgpu::TextureFormat::Rgba32Float,
    wgpu::TextureFormat::Depth32Float,
    wgpu::TextureFormat::Depth24Plus,
    wgpu::TextureFormat::Bc1RgbaUnorm,
];

fn format(i: u8) -> wgpu::TextureFormat {
    FORMATS[i as usize % FORMATS.len()]
}

/// Field names arbitrary values use.
const FIELDS: [&str; 10] = [
    "world",
    "color",
    "view_proj",
    "eye",
    "time",
    "tint",
    "scale",
    "count",
    "n",
    "x",
];

#[derive(Uniform, Arbitrary, Clone, Copy, Debug)]
struct ObjectT {
    world: [[f32; 4]; 4],
    color: [f32; 4],
}

#[derive(Uniform, Arbitrary, Clone, Copy, Debug)]
struct CameraT {
    view_proj: [[f32; 4]; 4],
    eye: [f32; 3],
    time: f32,
}

#[derive(Uniform, Arbitrary, Clone, Copy, Debug)]
struct ParamsT {
    tint: [f32; 4],
    scale: f32,
    count: u32,
}

#[derive(Arbitrary, Clone, Debug)]
enum Val {
    Object {
        world: [f32; 16],
        color: [f32; 4],
    },
    Camera {
        view_proj: [f32; 16],
        eye: [f32; 3],
        time: f32,
    },
    Params {
        tint: [f32; 4],
        scale: f32,
        count: u32,
    },
    Color([f32; 4]),
    Eye([f32; 3]),
    Time(f32),
    Count(u32),
    Data(Vec<[f32; 4]>),
    ObjectT(ObjectT),
    CameraT(CameraT),
    ParamsT(ParamsT),
    Bytes(Vec<u8>),
    /// Zeroed bytes of a struct's size (112: Object, 80: Camera, 32: Params, 16: P).
    SizedBytes(u8),
    Any(FValue),
    Block(u8),
    Buffer {
        buffer: u8,
        offset: u8,
        size: Option<u8>,
    },
    Texture(u8),
    /// A target's color (`false`) or depth (`true`) texture (0 color, 1 depth, 2.. made ones).
    TargetView {
        target: u8,
        depth: bool,
    },
    Sampler {
        nearest: bool,
        compare: bool,
        repeat: bool,
    },
}

impl Val {
    fn value(&self) -> Option<Value> {
        Some(match self {
            Val::Object { world, color } => value! { world: *world, color: *color },
            Val::Camera {
                view_proj,
                eye,
                time,
            } => {
                value! { view_proj: *view_proj, eye: *eye, time: *time }
            }
            Val::Params { tint, scale, count } => {
                value! { tint: *tint, scale: *scale, count: *count }
            }
            Val::Color(c) => value! { color: *c },
            Val::Eye(e) => value! { eye: *e },
            Val::Time(t) => Value::F32(*t),
            Val::Count(n) => Value::U32(*n),
            Val::Data(d) => Value::from(d.iter().take(64).copied().collect::<Vec<_>>()),
            Val::Any(v) => v.to_value(&FIELDS),
            _ => return None,
        })
    }
}

/// How a new draw's bindings are first set (random sequences seldom set them all).
#[derive(Arbitrary, Debug)]
enum Init {
    Nothing,
    /// `value!`s (camera included).
    Values {
        color: [f32; 4],
        time: f32,
    },
    /// Typed values.
    Typed {
        object: ObjectT,
        camera: CameraT,
        params: ParamsT,
    },
    /// Values, and a shared block (an existing one, or a new camera block) for `camera`.
    Block {
        block: u8,
        data_buffer: bool,
    },
}

#[derive(Arbitrary, Debug)]
enum PassOp {
    Draw(u8),
    DrawWith {
        draw: u8,
        first: u8,
        count: u8,
        instances: u8,
    },
    Set {
        draw: u8,
        name: u8,
        val: Val,
    },
    SetBlock {
        block: u8,
        val: Val,
    },
    Execute(u8),
    DropDraw(u8),
    DropBlock(u8),
    NewDraw {
        shader: u8,
        init: Init,
    },
    DestroyBuffer(u8),
    Viewport {
        x: u8,
        y: u8,
        w: u8,
        h: u8,
    },
    Scissor {
        x: u8,
        y: u8,
        w: u8,
        h: u8,
    },
    /// `draw_indirect`, `multi_draw_indirect` or `multi_draw_indirect_count` (by `kind % 3`)
    /// from the user buffers (the vertex ones have `INDIRECT` too); offsets in words, some
    /// misaligned.
    DrawIndirect {
        kind: u8,
        draw: u8,
        args: u8,
        offset: u8,
        count: u8,
        count_buffer: u8,
    },
    /// Issue 31's calls inside a pass.
    State(StateOp),
}

#[derive(Arbitrary, Debug)]
struct PassSpec {
    /// 0 color, 1 color + depth, 2 G-buffer, 3 uint, 4.. the targets the ops made.
    target: u8,
    ops: Vec<PassOp>,
    extras: Option<PassExtras>,
}

/// [`Op::DrawScene`]: a new draw (shader, style) drawn at once after `ops` into a pass of
/// `target` with `extras` (issue 31's state reaches a pass in few bytes): inside occlusion
/// query `query` when given (of the pass's set, or of a new one of 1–5 queries), with a claimed
/// group (`draw_with_offsets`) or indirectly from a new buffer holding draw arguments.
#[derive(Arbitrary, Debug)]
struct Scene {
    shader: u8,
    style: Style,
    target: u8,
    extras: Option<PassExtras>,
    query: Option<u8>,
    ops: Vec<PassOp>,
    claim: Option<pipelines::ClaimSpec>,
    /// Kind (`draw_indirect`, `multi_draw_indirect`, `multi_draw_indirect_count`), offset in
    /// 16 bytes (odd: 2 bytes off), count.
    indirect: Option<(u8, u8, u8)>,
}

/// Pipeline state of a new draw.
#[derive(Arbitrary, Debug)]
struct Style {
    topology: u8,
    cull: u8,
    blend: bool,
    alpha_to_coverage: bool,
    depth_compare: u8,
    depth_write: bool,
    state: Option<RenderState>,
}

#[derive(Arbitrary, Debug)]
enum Op {
    NewDraw {
        shader: u8,
        instances: u8,
        init: Init,
        style: Option<Style>,
    },
    CloneDraw(u8),
    DropDraw(u8),
    /// `None`: the plain compute; `Some`: the override compute with these constants.
    NewCompute(Option<Constants>),
    DropCompute(u8),
    NewBlock(Val),
    DropBlock(u8),
    SetBlock {
        block: u8,
        val: Val,
    },
    Set {
        draw: u8,
        name: u8,
        val: Val,
    },
    SetAll {
        draw: u8,
        sets: Vec<(u8, Val)>,
    },
    BindingSet {
        draw: u8,
        name: u8,
        val: Val,
    },
    Batch {
        sets: Vec<(u8, u8, Val)>,
    },
    SetCounts {
        draw: u8,
        vertices: u8,
        instances: u8,
    },
    SetCompute {
        compute: u8,
        name: u8,
        val: Val,
    },
    NewBuffer {
        words: u8,
        usage: u8,
    },
    WriteBuffer {
        buffer: u8,
        offset: u8,
        data: Vec<u8>,
    },
    DestroyBuffer(u8),
    DropBuffer(u8),
    Frame(Vec<PassSpec>),
    CancelFrame(PassSpec),
    DropOpenFrame(PassSpec),
    NestedFrame,
    FailingFrame(PassSpec),
    ComputeFrame(Vec<(u8, u16, u8, u8)>),
    RecordBundle {
        target: u8,
        draws: Vec<u8>,
    },
    DropBundle(u8),
    NewTexture {
        width: u8,
        height: u8,
        format: u8,
        data: Option<Vec<u8>>,
        sized: bool,
    },
    WriteTexture {
        texture: u8,
        sized: bool,
        fill: u8,
    },
    DropTexture(u8),
    NewTarget(TargetSpec),
    DrawScene(Scene),
    DropTarget(u8),
    ReadBuffer(u8),
    NewQueries(u8),
    DropQueries(u8),
    LatestQueries(u8),
    /// `Draw::prepare` for a target's signature (read-only aspects per bits) or a made-up one.
    Prepare {
        draw: u8,
        target: u8,
        read_only: u8,
        made: Option<TargetSpec>,
    },
    PrepareCompute(u8),
    RenderOnce {
        draw: u8,
        target: u8,
        load: bool,
    },
    ClaimGroup {
        op: u8,
        compute: bool,
        group: u8,
        dynamic: bool,
    },
    /// Entries (binding, user buffer, offset and size in 16 bytes).
    CreateGroup {
        op: u8,
        compute: bool,
        group: u8,
        entries: Vec<(u8, u8, u8, Option<u8>)>,
    },
    SetGroup {
        op: u8,
        compute: bool,
        group: u8,
        bind: u8,
    },
    SetGroupOffsets {
        op: u8,
        compute: bool,
        group: u8,
        offsets: Vec<u8>,
    },
    ReadTarget {
        target: u8,
        index: u8,
        how: u8,
    },
}

/// Everything the ops create (mutated inside frame closures too).
#[derive(Default)]
struct Objs {
    draws: Vec<Draw>,
    computes: Vec<Compute>,
    blocks: Vec<SharedUniforms>,
    buffers: Vec<Buffer>,
    bundles: Vec<Bundle>,
    textures: Vec<vgpu::Texture>,
    /// Samplers by (nearest, compare, repeat); made lazily.
    samplers: Vec<Option<vgpu::Sampler>>,
    /// 0: color; 1: color + depth; 2: G-buffer; 3: uint; then the ones the ops made.
    targets: Vec<Target>,
    queries: Vec<vgpu::OcclusionQueries>,
    /// Bind groups for claimed groups.
    groups: Vec<wgpu::BindGroup>,
}

fn pick<T>(v: &[T], i: u8) -> Option<&T> {
    (!v.is_empty()).then(|| &v[i as usize % v.len()])
}

fn remove<T>(v: &mut Vec<T>, i: u8) {
    if !v.is_empty() {
        let i = i as usize % v.len();
        v.remove(i);
    }
}

fn name(i: u8) -> &'static str {
    NAMES[i as usize % NAMES.len()]
}

impl Objs {
    /// What `val` binds as, borrowing the block or buffer it names (`None` if there is none).
    fn bind<'a>(&'a self, val: &'a Val) -> Option<BindingArg<'a>> {
        if let Some(v) = val.value() {
            return Some(BindingArg::Value(v));
        }
        const SIZES: [usize; 4] = [112, 80, 32, 16];
        static ZEROS: [u8; 112] = [0; 112];
        Some(match val {
            Val::ObjectT(t) => t.into(),
            Val::CameraT(t) => t.into(),
            Val::ParamsT(t) => t.into(),
            Val::Bytes(b) => BindingArg::Bytes(b),
            Val::SizedBytes(i) => BindingArg::Bytes(&ZEROS[..SIZES[*i as usize % 4]]),
            Val::Block(i) => BindingArg::Shared(pick(&self.blocks, *i)?),
            Val::Buffer {
                buffer,
                offset,
                size,
            } => BindingArg::BufferRange(
                pick(&self.buffers, *buffer)?,
                u64::from(*offset) * 4,
                size.and_then(|s| wgpu::BufferSize::new(u64::from(s) * 4)),
            ),
            Val::Texture(i) => BindingArg::Texture(pick(&self.textures, *i)?),
            Val::TargetView { target, depth } => {
                let t = pick(&self.targets, *target)?;
                if *depth {
                    BindingArg::TargetDepth(t)
                } else {
                    BindingArg::TargetColor(t)
                }
            }
            Val::Sampler {
                nearest,
                compare,
                repeat,
            } => {
                let i =
                    usize::from(*nearest) | usize::from(*compare) << 1 | usize::from(*repeat) << 2;
                BindingArg::Sampler(self.samplers.get(i)?.as_ref()?)
            }
            _ => return None,
        })
    }

    fn set(&self, draw: u8, name_index: u8, val: &Val) {
        let (Some(d), Some(b)) = (pick(&self.draws, draw), self.bind(val)) else {
            return;
        };
        ok_or_coded("Draw::set", &d.set(name(name_index), b));
    }

    fn set_block(&self, block: u8, val: &Val) {
        let Some(b) = pick(&self.blocks, block) else {
            return;
        };
        let r = match val {
            Val::Bytes(bytes) => b.set_bytes(bytes),
            Val::ObjectT(t) => b.set(t),
            Val::CameraT(t) => b.set(t),
            Val::ParamsT(t) => b.set(t),
            other => match other.value() {
                Some(v) => b.set(v),
                None => return,
            },
        };
        ok_or_coded("SharedUniforms::set", &r);
    }
}

struct World {
    gpu: Gpu,
    shaders: [Shader; SHADERS],
    compute_shader: Shader,
    override_compute: Shader,
    color: Target,
    objs: Objs,
}

fuzz_target!(|data: &[u8]| {
    let mut u = Unstructured::new(data);
    let Ok(ops) = u.arbitrary::<Vec<Op>>() else {
        return;
    };
    if printing() {
        eprintln!("{ops:#?}");
    }
    let gpu = fresh_gpu();
    let shader = |label: &str, src: &str| gpu.shader(label, src).expect("the api target's shaders");
    let [mrt, uint] = pipelines::render_sources();
    let mut w = World {
        shaders: [
            shader("object", OBJECT_WGSL),
            shader("params", PARAMS_WGSL),
            shader("view", VIEW_WGSL),
            shader("texture", TEXTURE_WGSL),
            shader("mrt", &mrt),
            shader("uint", &uint),
        ],
        compute_shader: shader("compute", COMPUTE_WGSL),
        override_compute: shader("override compute", pipelines::COMPUTE_OVERRIDE_WGSL),
        color: gpu.target(8, 8).expect("target"),
        objs: Objs::default(),
        gpu,
    };
    let depth = TargetDesc::new(8, 8).depth(wgpu::TextureFormat::Depth32Float);
    w.objs.targets = vec![
        w.color.clone(),
        w.gpu.target_with(&depth).expect("depth target"),
    ];
    w.objs.targets.extend(pipelines::fixed_targets(&w.gpu));
    w.objs.samplers = (0..8)
        .map(|i| {
            let mut desc = if i & 1 == 1 {
                vgpu::SamplerDesc::nearest()
            } else {
                Default::default()
            };
            if i & 2 == 2 {
                desc.compare = Some(wgpu::CompareFunction::LessEqual);
            }
            if i & 4 == 4 {
                desc = desc.with_address_mode(wgpu::AddressMode::Repeat);
            }
            let r = w.gpu.sampler(&desc);
            assert!(r.is_ok(), "sampler {desc:?}: {r:?}");
            r.ok()
        })
        .collect();
    for op in ops.iter().take(48) {
        w.apply(op);
    }
    w.finish();
});

impl World {
    fn no_uncaptured(&self, after: &str) {
        let errors = self.gpu.take_uncaptured_errors();
        assert!(
            errors.is_empty(),
            "uncaptured wgpu errors after {after}: {errors:?}"
        );
    }

    fn new_draw(
        gpu: &Gpu,
        shaders: &[Shader; SHADERS],
        objs: &mut Objs,
        shader: u8,
        instances: u8,
        init: &Init,
        style: Option<&Style>,
    ) {
        let kind = shader as usize % SHADERS;
        let s = &shaders[kind];
        let mut desc = DrawDesc {
            label: format!("draw{}", objs.draws.len()),
            instance_count: u32::from(instances % 4),
            ..Default::default()
        };
        let mut expect_ok = Some(true);
        if let Some(st) = style {
            use wgpu::PrimitiveTopology as T;
            desc.topology = [
                T::TriangleList,
                T::TriangleStrip,
                T::LineList,
                T::LineStrip,
                T::PointList,
            ][st.topology as usize % 5];
            desc.cull_mode =
                [None, Some(wgpu::Face::Back), Some(wgpu::Face::Front)][st.cull as usize % 3];
            desc.blend = st.blend.then_some(wgpu::BlendState::ALPHA_BLENDING);
            desc.alpha_to_coverage = st.alpha_to_coverage;
            use wgpu::CompareFunction as C;
            desc.depth.compare = [C::Less, C::LessEqual, C::Always, C::Never, C::Greater]
                [st.depth_compare as usize % 5];
            desc.depth.write = st.depth_write;
        }
        match style.and_then(|st| st.state.as_ref()) {
            Some(state) => expect_ok = state.apply(gpu, kind, &mut desc),
            // The MRT shader's required override.
            None if kind == pipelines::MRT => desc.constants = vec![("scale".to_owned(), 1.0)],
            None => {}
        }
        let r = gpu.draw(s, desc);
        match (&r, expect_ok) {
            (Err(e), Some(true)) => panic!("creating a draw of a valid shader: {e}"),
            (Ok(_), Some(false)) => panic!("a draw with invalid constants or state was created"),
            _ => {}
        }
        if !ok_or_coded("Gpu::draw", &r) {
            return;
        }
        let Ok(draw) = r else { return };
        init_draw(gpu, objs, &draw, kind, init);
        objs.draws.push(draw);
    }

    fn apply(&mut self, op: &Op) {
        let gpu = self.gpu.clone();
        let objs = &mut self.objs;
        match op {
            Op::NewDraw {
                shader,
                instances,
                init,
                style,
            } => Self::new_draw(
                &gpu,
                &self.shaders,
                objs,
                *shader,
                *instances,
                init,
                style.as_ref(),
            ),
            Op::CloneDraw(i) => {
                if let Some(d) = pick(&objs.draws, *i).cloned() {
                    objs.draws.push(d);
                }
            }
            Op::DropDraw(i) => remove(&mut objs.draws, *i),
            Op::NewCompute(None) => {
                let r = gpu.compute(&self.compute_shader, ComputeDesc::default());
                assert!(r.is_ok(), "creating a compute: {r:?}");
                objs.computes.extend(r.ok());
            }
            Op::NewCompute(Some(constants)) => {
                pipelines::new_compute(&gpu, &self.override_compute, objs, constants);
            }
            Op::DropCompute(i) => remove(&mut objs.computes, *i),
            Op::NewBlock(val) => {
                let r = match val {
                    Val::Bytes(b) => gpu.uniforms_bytes("block", b),
                    Val::ObjectT(t) => gpu.uniforms(t),
                    Val::CameraT(t) => gpu.uniforms(t),
                    Val::ParamsT(t) => gpu.uniforms(t),
                    other => match other.value() {
                        Some(v) => gpu.uniforms_labeled("block", v),
                        None => return,
                    },
                };
                if ok_or_coded("Gpu::uniforms", &r) {
                    objs.blocks.extend(r.ok());
                }
            }
            Op::DropBlock(i) => remove(&mut objs.blocks, *i),
            Op::SetBlock { block, val } => objs.set_block(*block, val),
            Op::Set { draw, name, val } => objs.set(*draw, *name, val),
            Op::SetAll { draw, sets } => {
                let Some(d) = pick(&objs.draws, *draw) else {
                    return;
                };
                let binds: Vec<(&str, BindingArg<'_>)> = sets
                    .iter()
                    .take(6)
                    .filter_map(|(n, v)| Some((name(*n), objs.bind(v)?)))
                    .collect();
                ok_or_coded("Draw::set_all", &d.set_all(binds));
            }
            Op::BindingSet { draw, name: n, val } => {
                let Some(d) = pick(&objs.draws, *draw) else {
                    return;
                };
                let binding = d.binding(name(*n));
                if let (Ok(binding), Some(b)) = (&binding, objs.bind(val)) {
                    ok_or_coded("Binding::set", &binding.set(b));
                } else {
                    ok_or_coded("Draw::binding", &binding);
                }
            }
            Op::Batch { sets } => {
                let bindings: Vec<(vgpu::Binding, &Val)> = sets
                    .iter()
                    .take(8)
                    .filter_map(|(d, n, v)| {
                        let b = pick(&objs.draws, *d)?.binding(name(*n));
                        ok_or_coded("Draw::binding", &b);
                        Some((b.ok()?, v))
                    })
                    .collect();
                let mut batch = gpu.batch();
                for (binding, val) in &bindings {
                    if let Some(b) = objs.bind(val) {
                        ok_or_coded("SetBatch::set", &batch.set(binding, b));
                    }
                }
            }
            Op::SetCounts {
                draw,
                vertices,
                instances,
            } => {
                if let Some(d) = pick(&objs.draws, *draw) {
                    d.set_counts(u32::from(*vertices), u32::from(*instances));
                }
            }
            Op::SetCompute {
                compute,
                name: n,
                val,
            } => {
                let (Some(c), Some(b)) = (pick(&objs.computes, *compute), objs.bind(val)) else {
                    return;
                };
                ok_or_coded("Compute::set", &c.set(name(*n), b));
            }
            Op::NewBuffer { words, usage } => {
                let usage = match usage % 6 {
                    0 => wgpu::BufferUsages::STORAGE,
                    1 => wgpu::BufferUsages::UNIFORM,
                    2 => wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::UNIFORM,
                    3 => wgpu::BufferUsages::VERTEX | wgpu::BufferUsages::INDIRECT,
                    4 => wgpu::BufferUsages::INDIRECT,
                    _ => wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::INDIRECT,
                };
                let desc = BufferDesc {
                    label: format!("buffer{}", objs.buffers.len()),
                    size: u64::from(*words) * 4,
                    usage,
                };
                let r = gpu.buffer(&desc);
                if ok_or_coded("Gpu::buffer", &r) {
                    objs.buffers.extend(r.ok());
                }
            }
            Op::WriteBuffer {
                buffer,
                offset,
                data,
            } => {
                if let Some(b) = pick(&objs.buffers, *buffer) {
                    ok_or_coded("Buffer::write", &b.write(u64::from(*offset), data));
                }
            }
            Op::DestroyBuffer(i) => {
                if let Some(b) = pick(&objs.buffers, *i) {
                    b.destroy();
                }
            }
            Op::DropBuffer(i) => remove(&mut objs.buffers, *i),
            Op::Frame(passes) => {
                let shaders = &self.shaders;
                let r = gpu.frame(|f| {
                    for spec in passes.iter().take(3) {
                        let parts = PassParts::new(objs, spec.target, spec.extras.as_ref());
                        f.pass(parts.desc(spec.extras.as_ref()), |p| {
                            run_pass(&gpu, shaders, objs, p, &spec.ops);
                            Ok(())
                        })?;
                    }
                    Ok(())
                });
                ok_or_coded("Gpu::frame", &r);
                self.no_uncaptured("a frame");
            }
            Op::CancelFrame(spec) | Op::DropOpenFrame(spec) => {
                let mut frame = match gpu.begin_frame() {
                    Ok(f) => f,
                    Err(e) => panic!("begin_frame with no frame open: {e}"),
                };
                let parts = PassParts::new(objs, spec.target, spec.extras.as_ref());
                let shaders = &self.shaders;
                let r = frame.pass(parts.desc(spec.extras.as_ref()), |p| {
                    run_pass(&gpu, shaders, objs, p, &spec.ops);
                    Ok(())
                });
                ok_or_coded("Frame::pass", &r);
                if matches!(op, Op::CancelFrame(_)) {
                    frame.cancel();
                } else {
                    drop(frame);
                }
                self.no_uncaptured("a cancelled frame");
            }
            Op::NestedFrame => {
                let r = gpu.frame(|_| {
                    match gpu.begin_frame() {
                        Ok(_) => panic!("a second frame opened inside a frame"),
                        Err(e) => {
                            check_err("nested begin_frame", &e);
                            assert_eq!(e.code(), "VGPU-FRAME-ALREADY-OPEN");
                        }
                    }
                    Ok(())
                });
                assert!(r.is_ok(), "an empty frame: {r:?}");
            }
            Op::FailingFrame(spec) => {
                let (color, shaders) = (&self.color, &self.shaders);
                let r = gpu.frame(|f| {
                    f.pass(color, |p| {
                        run_pass(&gpu, shaders, objs, p, &spec.ops);
                        Ok(())
                    })?;
                    // Fail with a real error: an unknown binding.
                    Err(objs.draws.first().map_or_else(
                        || vgpu::Error::from(vgpu::FrameError::AlreadyOpen),
                        |d| {
                            d.set("no such binding", Value::F32(1.0))
                                .expect_err("unknown binding")
                        },
                    ))
                });
                match r {
                    Ok(_) => panic!("a frame whose closure failed succeeded"),
                    Err(e) => check_err("failing frame", &e),
                }
                self.no_uncaptured("a failed frame");
            }
            Op::ComputeFrame(dispatches) => {
                let r = gpu.frame(|f| {
                    f.compute_pass(|c| {
                        for (k, x, y, z) in dispatches.iter().take(8) {
                            if let Some(compute) = pick(&objs.computes, *k) {
                                let r = c.dispatch(
                                    compute,
                                    u32::from(*x) * 2,
                                    u32::from(*y % 4),
                                    u32::from(*z % 4),
                                );
                                ok_or_coded("ComputePass::dispatch", &r);
                            }
                        }
                        Ok(())
                    })
                });
                ok_or_coded("compute frame", &r);
                self.no_uncaptured("a compute frame");
            }
            Op::RecordBundle { target, draws } => {
                let target = pick(&objs.targets, *target).cloned().expect("targets");
                let r = gpu.bundle("bundle", target.signature(), |rec| {
                    for d in draws.iter().take(8) {
                        if let Some(draw) = pick(&objs.draws, *d) {
                            // A draw that cannot record fails the bundle.
                            rec.draw(draw)?;
                        }
                    }
                    Ok(())
                });
                if ok_or_coded("Gpu::bundle", &r) {
                    objs.bundles.extend(r.ok());
                }
                self.no_uncaptured("recording a bundle");
            }
            Op::DropBundle(i) => remove(&mut objs.bundles, *i),
            Op::NewTexture {
                width,
                height,
                format: f,
                data,
                sized,
            } => {
                let desc = vgpu::TextureDesc {
                    label: format!("texture{}", objs.textures.len()),
                    width: u32::from(*width % 17),
                    height: u32::from(*height % 17),
                    format: format(*f),
                    ..Default::default()
                };
                let r = match data {
                    None => gpu.texture(&desc),
                    Some(bytes) if *sized => {
                        let block = desc.format.block_copy_size(None).unwrap_or(4) as usize;
                        let len = desc.width as usize * desc.height as usize * block;
                        let bytes: Vec<u8> = bytes.iter().copied().cycle().take(len).collect();
                        let bytes = if bytes.len() == len {
                            bytes
                        } else {
                            vec![0; len]
                        };
                        gpu.texture_with_data(&desc, &bytes)
                    }
                    Some(bytes) => gpu.texture_with_data(&desc, bytes),
                };
                if ok_or_coded("Gpu::texture", &r) {
                    objs.textures.extend(r.ok());
                }
                self.no_uncaptured("creating a texture");
            }
            Op::WriteTexture {
                texture,
                sized,
                fill,
            } => {
                if let Some(t) = pick(&objs.textures, *texture) {
                    let (w, h) = t.size();
                    let block = t.format().block_copy_size(None).unwrap_or(4) as usize;
                    let len = w as usize * h as usize * block
                        + usize::from(!*sized) * usize::from(*fill % 5);
                    ok_or_coded("Texture::write", &t.write(&gpu, &vec![*fill; len]));
                    self.no_uncaptured("writing a texture");
                }
            }
            Op::DropTexture(i) => remove(&mut objs.textures, *i),
            Op::NewTarget(spec) => {
                let desc = spec.desc(format!("target{}", objs.targets.len()));
                let r = gpu.target_with(&desc);
                if printing()
                    && let Err(e) = &r
                {
                    eprintln!("Gpu::target_with({desc:?}): {e}");
                }
                if ok_or_coded("Gpu::target_with", &r) {
                    objs.targets.extend(r.ok());
                }
                self.no_uncaptured("creating a target");
            }
            Op::DropTarget(i) => {
                // The fixed ones stay.
                if objs.targets.len() > FIXED_TARGETS {
                    let i = FIXED_TARGETS + *i as usize % (objs.targets.len() - FIXED_TARGETS);
                    objs.targets.remove(i);
                }
            }
            Op::ReadBuffer(i) => {
                if let Some(b) = pick(&objs.buffers, *i) {
                    let r = b.read_blocking();
                    if ok_or_coded("Buffer::read_blocking", &r) {
                        assert_eq!(r.map(|v| v.len() as u64).ok(), Some(b.size()));
                    }
                    self.no_uncaptured("reading a buffer");
                }
            }
            _ => self.apply_pipelines(op),
        }
    }

    /// [`Op::DrawScene`].
    fn draw_scene(&mut self, scene: &Scene) {
        let gpu = self.gpu.clone();
        let objs = &mut self.objs;
        let init = Init::Values {
            color: [1.0; 4],
            time: 0.0,
        };
        let before = objs.draws.len();
        let style = Some(&scene.style);
        Self::new_draw(&gpu, &self.shaders, objs, scene.shader, 1, &init, style);
        let Some(draw) = objs.draws.get(before).cloned() else {
            return;
        };
        // Draw arguments (3 vertices, 1 instance) that claimed groups can bind too.
        let buffer = (scene.claim.is_some() || scene.indirect.is_some())
            .then(|| pipelines::scene_buffer(&gpu))
            .flatten();
        let claimed = match (&scene.claim, &buffer) {
            (Some(c), Some(b)) => Some(c.apply(objs, &draw, b)),
            _ => None,
        };
        let extras = scene.extras.as_ref();
        let mut parts = PassParts::new(objs, scene.target, extras);
        if let Some(n) = scene.query
            && parts.queries.is_none()
        {
            parts.queries = gpu.occlusion_queries("scene", 1 + u32::from(n % 5)).ok();
        }
        let shaders = &self.shaders;
        let record = |p: &mut vgpu::Pass<'_>| match (&claimed, scene.indirect, &buffer) {
            (Some((g, offsets)), _, _) => p.draw_with_offsets(&draw, *g, offsets),
            (None, Some((kind, offset, count)), Some(a)) => {
                let offset = u64::from(offset / 2) * 16 + u64::from(offset % 2) * 2;
                let count = u32::from(count % 4);
                match kind % 3 {
                    0 => p.draw_indirect(&draw, a, offset),
                    1 => p.multi_draw_indirect(&draw, a, offset, count),
                    _ => p.multi_draw_indirect_count(&draw, a, offset, a, 0, count),
                }
            }
            _ => p.draw(&draw),
        };
        let r = gpu.frame(|f| {
            f.pass(parts.desc(extras), |p| {
                run_pass(&gpu, shaders, objs, p, &scene.ops);
                let r = match scene.query {
                    Some(i) => p.occlusion_query(u32::from(i % 7), record),
                    None => record(p),
                };
                ok_or_coded("Pass::draw (scene)", &r);
                Ok(())
            })
        });
        ok_or_coded("scene frame", &r);
        self.no_uncaptured("a scene frame");
        if let Some(q) = &parts.queries
            && let Some(r) = q.latest()
        {
            assert_eq!(r.samples.len(), q.count() as usize, "{r:?}");
        }
    }

    /// Issue 31's operations (`pipelines.rs`).
    fn apply_pipelines(&mut self, op: &Op) {
        let gpu = self.gpu.clone();
        let objs = &mut self.objs;
        match op {
            Op::NewQueries(n) => pipelines::new_queries(&gpu, objs, *n),
            Op::DropQueries(i) => pipelines::drop_queries(objs, *i),
            Op::LatestQueries(i) => pipelines::latest(objs, *i),
            Op::Prepare {
                draw,
                target,
                read_only,
                made,
            } => {
                if let Some(d) = pick(&objs.draws, *draw) {
                    let sig = pipelines::signature(objs, *target, *read_only, made.as_ref());
                    pipelines::prepare(&gpu, d, sig);
                }
            }
            Op::PrepareCompute(i) => {
                if let Some(c) = pick(&objs.computes, *i) {
                    ok_or_coded("Compute::prepare", &c.prepare());
                }
            }
            Op::RenderOnce { draw, target, load } => {
                pipelines::render_once(&gpu, objs, *draw, *target, *load)
            }
            Op::ClaimGroup {
                op,
                compute,
                group,
                dynamic,
            } => {
                if let Some(c) = pipelines::operation(objs, *op, *compute) {
                    c.claim(*group, *dynamic);
                }
            }
            Op::CreateGroup {
                op,
                compute,
                group,
                entries,
            } => {
                // Cloned: the bind group goes into `objs`.
                let draw = (!*compute)
                    .then(|| pick(&objs.draws, *op).cloned())
                    .flatten();
                let comp = compute
                    .then(|| pick(&objs.computes, *op).cloned())
                    .flatten();
                let c = match (&draw, &comp) {
                    (Some(d), _) => pipelines::Claimant::Draw(d),
                    (_, Some(c)) => pipelines::Claimant::Compute(c),
                    _ => return,
                };
                c.create_group(objs, *group, entries);
            }
            Op::SetGroup {
                op,
                compute,
                group,
                bind,
            } => {
                if let Some(c) = pipelines::operation(objs, *op, *compute) {
                    c.set_group(objs, *group, *bind);
                }
            }
            Op::SetGroupOffsets {
                op,
                compute,
                group,
                offsets,
            } => {
                if let Some(c) = pipelines::operation(objs, *op, *compute) {
                    c.set_offsets(*group, offsets);
                }
            }
            Op::DrawScene(scene) => self.draw_scene(scene),
            Op::ReadTarget { target, index, how } => {
                pipelines::read_target(objs, *target, *index, *how)
            }
            _ => unreachable!("apply handles {op:?}"),
        }
        self.no_uncaptured("an issue-31 operation");
    }

    /// After the sequence: a new draw with fresh values renders, and an empty frame submits.
    fn finish(self) {
        let World {
            gpu,
            shaders,
            color,
            objs,
            ..
        } = self;
        let draw = gpu
            .draw(&shaders[0], DrawDesc::default())
            .expect("a draw after the sequence");
        draw.set(
            "object",
            value! { world: [[1.0f32; 4]; 4], color: [1.0f32; 4] },
        )
        .expect("object");
        let camera = gpu
            .uniforms(value! { view_proj: [[1.0f32; 4]; 4], eye: [0.0f32; 3], time: 0.0f32 })
            .expect("camera block");
        draw.set("camera", &camera).expect("camera");
        let r = gpu.frame(|f| f.pass(&color, |p| p.draw(&draw)));
        assert!(r.is_ok(), "a frame after the sequence: {r:?}");
        let r = gpu.frame(|_| Ok(()));
        assert!(r.is_ok(), "an empty frame after the sequence: {r:?}");
        drop(objs);
        let r = gpu.frame(|f| f.pass(&color, |p| p.draw(&draw)));
        assert!(r.is_ok(), "a frame after dropping everything else: {r:?}");
        let errors = gpu.take_uncaptured_errors();
        assert!(
            errors.is_empty(),
            "uncaptured wgpu errors at the end: {errors:?}"
        );
    }
}

fn run_pass(
    gpu: &Gpu,
    shaders: &[Shader; SHADERS],
    objs: &mut Objs,
    p: &mut vgpu::Pass<'_>,
    ops: &[PassOp],
) {
    for op in ops.iter().take(16) {
        match op {
            PassOp::Draw(i) => {
                if let Some(d) = pick(&objs.draws, *i) {
                    ok_or_coded("Pass::draw", &p.draw(d));
                }
            }
            PassOp::DrawWith {
                draw,
                first,
                count,
                instances,
            } => {
                if let Some(d) = pick(&objs.draws, *draw) {
                    let first = u32::from(*first % 8);
                    let range = DrawRange {
                        vertices: first..first + u32::from(*count % 8),
                        instances: 0..u32::from(*instances % 4),
                    };
                    ok_or_coded("Pass::draw_with", &p.draw_with(d, range));
                }
            }
            PassOp::Set { draw, name, val } => objs.set(*draw, *name, val),
            PassOp::SetBlock { block, val } => objs.set_block(*block, val),
            PassOp::Execute(i) => {
                if let Some(b) = pick(&objs.bundles, *i) {
                    ok_or_coded("Pass::execute", &p.execute(b));
                }
            }
            PassOp::DropDraw(i) => remove(&mut objs.draws, *i),
            PassOp::DropBlock(i) => remove(&mut objs.blocks, *i),
            PassOp::NewDraw { shader, init } => {
                World::new_draw(gpu, shaders, objs, *shader, 1, init, None)
            }
            PassOp::DestroyBuffer(i) => {
                if let Some(b) = pick(&objs.buffers, *i) {
                    b.destroy();
                }
            }
            PassOp::Viewport { x, y, w, h } => {
                let (x, y) = (f32::from(x % 8), f32::from(y % 8));
                // Inside the 8×8 targets and at least a pixel: valid wgpu commands.
                let w = 1.0 + f32::from(w % (8 - x as u8));
                let h = 1.0 + f32::from(h % (8 - y as u8));
                let (w, h) = (w.min(8.0 - x), h.min(8.0 - y));
                p.set_viewport(x, y, w, h);
            }
            PassOp::Scissor { x, y, w, h } => {
                let (x, y) = (u32::from(x % 8), u32::from(y % 8));
                p.set_scissor(x, y, u32::from(*w) % (9 - x), u32::from(*h) % (9 - y));
            }
            PassOp::DrawIndirect {
                kind,
                draw,
                args,
                offset,
                count,
                count_buffer,
            } => draw_indirect(
                objs,
                p,
                *kind,
                *draw,
                (*args, *offset),
                *count,
                *count_buffer,
            ),
            PassOp::State(op) => pipelines::run_state_op(objs, p, op),
        }
    }
}

/// [`PassOp::DrawIndirect`]: the argument buffer is user buffer `args`, at `offset` words
/// (odd `offset`s are off by 2 bytes: misaligned); `count` draws (at most 3); the count
/// buffer (needs `MULTI_DRAW_INDIRECT_COUNT`, which the noop device lacks: a coded error).
fn draw_indirect(
    objs: &Objs,
    p: &mut vgpu::Pass<'_>,
    kind: u8,
    draw: u8,
    (args, offset): (u8, u8),
    count: u8,
    count_buffer: u8,
) {
    let (Some(d), Some(a)) = (pick(&objs.draws, draw), pick(&objs.buffers, args)) else {
        return;
    };
    let offset = u64::from(offset / 2) * 4 + u64::from(offset % 2) * 2;
    let count = u32::from(count % 4);
    let r = match (kind % 3, pick(&objs.buffers, count_buffer)) {
        (0, _) => p.draw_indirect(d, a, offset),
        (2, Some(c)) => p.multi_draw_indirect_count(d, a, offset, c, 0, count),
        _ => p.multi_draw_indirect(d, a, offset, count),
    };
    ok_or_coded("Pass::draw_indirect", &r);
}

/// Sets every binding of a new draw of shader `kind` (0 object, 1 params, 2 view, 3 texture;
/// the MRT and uint shaders have none) per `init`.
fn init_draw(gpu: &Gpu, objs: &mut Objs, draw: &Draw, kind: usize, init: &Init) {
    if kind >= pipelines::MRT {
        return;
    }
    let m = [
        [1.0f32, 0.0, 0.0, 0.0],
        [0.0, 1.0, 0.0, 0.0],
        [0.0, 0.0, 1.0, 0.0],
        [0.0; 4],
    ];
    let camera = |time: f32| value! { view_proj: m, eye: [0.0f32; 3], time: time };
    let set = |name: &str, b: BindingArg<'_>| {
        ok_or_coded("initial set", &draw.set(name, b));
    };
    match init {
        Init::Nothing => {}
        Init::Values { color, time } => match kind {
            0 => {
                set(
                    "object",
                    BindingArg::Value(value! { world: m, color: *color }),
                );
                set("camera", BindingArg::Value(camera(*time)));
            }
            1 => {
                set(
                    "params",
                    BindingArg::Value(value! { tint: *color, scale: *time, count: 1u32 }),
                );
                set("data", BindingArg::Value(Value::from(vec![*color; 2])));
                set("camera", BindingArg::Value(camera(*time)));
            }
            2 => set(
                "camera",
                BindingArg::Value(value! { view_proj: m, eye: *color }),
            ),
            _ => {
                init_texture(gpu, objs, draw);
                set("camera", BindingArg::Value(camera(*time)));
            }
        },
        Init::Typed {
            object,
            camera: cam,
            params,
        } => match kind {
            0 => {
                set("object", object.into());
                set("camera", cam.into());
            }
            1 => {
                set("params", params.into());
                set("data", BindingArg::Bytes(&[0u8; 32]));
                set("camera", cam.into());
            }
            2 => set(
                "camera",
                BindingArg::Value(value! { view_proj: m, eye: [0.0f32; 4] }),
            ),
            _ => {
                init_texture(gpu, objs, draw);
                set("camera", cam.into());
            }
        },
        Init::Block { block, data_buffer } => {
            if objs.blocks.is_empty() {
                let r = gpu.uniforms_labeled("camera", camera(0.0));
                assert!(r.is_ok(), "a camera block: {r:?}");
                objs.blocks.extend(r.ok());
            }
            let b = pick(&objs.blocks, *block).cloned().expect("a block");
            match kind {
                0 => set(
                    "object",
                    BindingArg::Value(value! { world: m, color: [1.0f32; 4] }),
                ),
                1 => {
                    set(
                        "params",
                        BindingArg::Value(value! { tint: [1.0f32; 4], scale: 1.0f32, count: 0u32 }),
                    );
                    let buffer = objs.buffers.iter().find(|b| {
                        b.usage().contains(wgpu::BufferUsages::STORAGE) && b.size() >= 16
                    });
                    match buffer {
                        Some(buf) if *data_buffer => set("data", BindingArg::Buffer(buf)),
                        _ => set("data", BindingArg::Value(Value::from(vec![[0.5f32; 4]; 3]))),
                    }
                }
                3 => init_texture(gpu, objs, draw),
                _ => {}
            }
            set("camera", BindingArg::Shared(&b));
        }
    }
}

/// A 4×4 texture and the default sampler on a new texture draw.
fn init_texture(gpu: &Gpu, objs: &mut Objs, draw: &Draw) {
    if !objs
        .textures
        .iter()
        .any(|t| t.format() == wgpu::TextureFormat::Rgba8Unorm)
    {
        let desc = vgpu::TextureDesc {
            width: 4,
            height: 4,
            ..Default::default()
        };
        let r = gpu.texture_with_data(&desc, &[128; 64]);
        assert!(r.is_ok(), "a 4x4 texture: {r:?}");
        objs.textures.extend(r.ok());
    }
    let t = objs
        .textures
        .iter()
        .find(|t| t.format() == wgpu::TextureFormat::Rgba8Unorm)
        .expect("texture");
    ok_or_coded("initial set", &draw.set("tex", t));
    if let Some(Some(s)) = objs.samplers.first() {
        ok_or_coded("initial set", &draw.set("samp", s));
    }
}
