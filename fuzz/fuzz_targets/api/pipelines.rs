//! Issue 31's calls for the `api` target: targets of 0–9 color attachments and depth-stencil
//! formats; draws with per-attachment blend, stencil, unclipped depth, multisample mask, depth
//! bias and override constants (on a shader with overrides and three `@location` outputs, and
//! one with a `vec4u` output); pass descriptors with per-attachment clears, stencil clear,
//! read-only depth/stencil, blend constant, stencil reference and occlusion queries; inside
//! passes the blend constant, the stencil reference, occlusion queries and draws with dynamic
//! offsets; `prepare`, `render_once`, claimed groups (claim, `create_group`, `set_group`,
//! offsets) on draws and computes; computes with constants; reads of any attachment.
//!
//! Oracles besides the target's invariants: `Gpu::draw` and `Gpu::compute` succeed exactly when
//! the constants fit the shader (for the presets whose outcome is known) and unclipped depth is
//! supported; a `prepare` that succeeded creates nothing the second time, one that failed fails
//! again with the same code; claiming a group again as claimed succeeds; occlusion results have
//! one entry per query.

use arbitrary::Arbitrary;
use vgpu::{
    ColorTarget, Compute, ComputeDesc, Draw, DrawDesc, Gpu, OcclusionQueries, PassDesc, Target,
    TargetDesc, TargetSignature, wgpu,
};
use vgpu_fuzz::{check_err, ok_or_coded};

use crate::{Objs, pick, remove};

/// A fullscreen-triangle vertex stage without bindings.
const VS: &str = "
@vertex fn vs_main(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
    let p = vec2f(f32((i << 1u) & 2u), f32(i & 2u));
    return vec4f(p * 2.0 - 1.0, 0.0, 1.0);
}
";

/// Overrides (one required, one by `@id`, a bool) and three `@location` outputs.
pub const MRT_WGSL: &str = "
override gain: f32 = 1.0;
override layers: u32 = 1u;
@id(3) override bright: bool = true;
override scale: f32;
struct Out { @location(0) a: vec4f, @location(1) b: vec4f, @location(2) c: f32 }
@fragment fn fs_main() -> Out {
    var k = gain * scale;
    if bright { k = k + 1.0; }
    return Out(vec4f(k), vec4f(f32(layers)), k);
}
";

/// One `vec4u` output (for `Rgba8Uint` attachments) and an override with a default.
pub const UINT_WGSL: &str = "
override level: u32 = 7u;
@fragment fn fs_main() -> @location(0) vec4u { return vec4u(level); }
";

/// A compute whose workgroup size is an override.
pub const COMPUTE_OVERRIDE_WGSL: &str = "
override wg: u32 = 1u;
override factor: f32 = 1.0;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(wg) fn cs_main(@builtin(global_invocation_id) id: vec3u) {
    out[id.x % arrayLength(&out)] = u32(f32(id.x) * factor);
}
";

/// The WGSL of the shaders of kind 4 (MRT) and 5 (uint), vertex stage added.
pub fn render_sources() -> [String; 2] {
    [format!("{MRT_WGSL}{VS}"), format!("{UINT_WGSL}{VS}")]
}

/// Shader kind of [`MRT_WGSL`] (kinds 0–3 are the target's older shaders).
pub const MRT: usize = 4;
/// Shader kind of [`UINT_WGSL`].
pub const UINT: usize = 5;

/// Override names the raw constants pick from (some unknown).
const CONSTANT_NAMES: [&str; 10] = [
    "gain", "layers", "3", "bright", "scale", "level", "wg", "factor", "gian", "99",
];

/// A constant set and the shader kinds that accept it.
type Preset = (&'static [(&'static str, f64)], &'static [usize]);

/// Constant sets whose outcome is known per shader kind: (constants, kinds they are valid for).
/// Render kinds 0–3 have no override; kind 16 is the override compute.
const PRESETS: [Preset; 12] = [
    (&[("scale", 2.0)], &[MRT]),
    (
        &[("gain", 2.0), ("layers", 3.0), ("3", 0.0), ("scale", 0.5)],
        &[MRT],
    ),
    (&[("level", 9.0)], &[UINT]),
    // Unknown (a misspelling), wrong types, a required one missing, a duplicate.
    (&[("gian", 1.0), ("scale", 1.0)], &[]),
    (&[("layers", -1.0), ("scale", 1.0)], &[]),
    (&[("bright", 0.5), ("scale", 1.0)], &[]),
    (&[("scale", f64::NAN)], &[]),
    (&[("gain", 1.0)], &[]),
    (&[("scale", 1.0), ("scale", 2.0)], &[]),
    (&[("level", 4.5)], &[]),
    // The override compute: a workgroup size, a factor.
    (&[("wg", 64.0), ("factor", 0.5)], &[COMPUTE]),
    (&[("wg", 1.0)], &[COMPUTE]),
];

/// "Kind" of the override compute in [`PRESETS`].
pub const COMPUTE: usize = 16;

/// Override constants of a draw or compute.
#[derive(Arbitrary, Debug)]
pub enum Constants {
    None,
    /// One of [`PRESETS`].
    Preset(u8),
    /// Names from [`CONSTANT_NAMES`], any values (outcome not predicted).
    Raw(Vec<(u8, f64)>),
    /// A workgroup size (0 and past the device's limits included) for the override compute.
    Workgroup(u32),
}

impl Constants {
    /// The constants, and whether a shader of `kind` must accept them (`None`: not predicted).
    fn resolve(&self, kind: usize) -> (Vec<(String, f64)>, Option<bool>) {
        let own = |c: &[(&str, f64)]| c.iter().map(|(k, v)| ((*k).to_owned(), *v)).collect();
        match self {
            Constants::None => (Vec::new(), Some(kind != MRT)),
            Constants::Preset(i) => {
                let (c, valid) = PRESETS[usize::from(*i) % PRESETS.len()];
                (own(c), Some(valid.contains(&kind)))
            }
            Constants::Raw(raw) => {
                let c = raw
                    .iter()
                    .take(6)
                    .map(|(n, v)| {
                        let name = CONSTANT_NAMES[usize::from(*n) % CONSTANT_NAMES.len()];
                        (name.to_owned(), *v)
                    })
                    .collect();
                (c, None)
            }
            Constants::Workgroup(n) => (vec![("wg".to_owned(), f64::from(*n))], None),
        }
    }
}

/// Issue 31's render state of a new draw.
#[derive(Arbitrary, Debug)]
pub struct RenderState {
    /// Per attachment (at most 3): a blend preset and a write mask.
    colors: Vec<(u8, u8)>,
    stencil: u8,
    /// Unclipped depth when `% 8 == 7`.
    unclipped: u8,
    multisample_mask: u8,
    /// Constant, slope scale, clamp.
    bias: Option<(i8, f32, f32)>,
    constants: Constants,
}

fn blend(i: u8) -> Option<wgpu::BlendState> {
    use wgpu::{BlendComponent, BlendFactor as B, BlendOperation, BlendState};
    match i % 5 {
        0 => None,
        1 => Some(BlendState::REPLACE),
        2 => Some(BlendState::ALPHA_BLENDING),
        3 => Some(BlendState::PREMULTIPLIED_ALPHA_BLENDING),
        _ => Some(BlendState {
            color: BlendComponent {
                src_factor: B::Constant,
                dst_factor: B::OneMinusConstant,
                operation: BlendOperation::Add,
            },
            alpha: BlendComponent::OVER,
        }),
    }
}

fn stencil(i: u8) -> wgpu::StencilState {
    use wgpu::{CompareFunction as C, StencilOperation as O};
    let face = |compare, fail_op, depth_fail_op, pass_op| wgpu::StencilFaceState {
        compare,
        fail_op,
        depth_fail_op,
        pass_op,
    };
    let state = |front, back, read_mask, write_mask| wgpu::StencilState {
        front,
        back,
        read_mask,
        write_mask,
    };
    let keep = face(C::Always, O::Keep, O::Keep, O::Keep);
    match i % 6 {
        0 => wgpu::StencilState::default(),
        // Marks (portal, outline).
        1 => {
            let f = face(C::Always, O::Keep, O::Keep, O::Replace);
            state(f, f, 0xff, 0xff)
        }
        // Tests only.
        2 => {
            let f = face(C::Equal, O::Keep, O::Keep, O::Keep);
            state(f, f, 0xff, 0)
        }
        // Faces differ.
        3 => state(
            face(C::Always, O::Keep, O::Keep, O::IncrementWrap),
            face(C::Always, O::Keep, O::Invert, O::DecrementClamp),
            0xff,
            0xff,
        ),
        4 => {
            let f = face(C::NotEqual, O::Zero, O::Invert, O::IncrementClamp);
            state(f, f, 0x0f, 0xf0)
        }
        // Masks only.
        _ => state(keep, keep, 0xff, 0xff),
    }
}

impl RenderState {
    /// Applies the state to `desc`; returns whether `Gpu::draw` must accept it for a shader of
    /// `kind` (`None`: not predicted).
    pub fn apply(&self, gpu: &Gpu, kind: usize, desc: &mut DrawDesc) -> Option<bool> {
        desc.colors = self
            .colors
            .iter()
            .take(3)
            .map(|(b, m)| ColorTarget {
                blend: blend(*b),
                write_mask: wgpu::ColorWrites::from_bits_truncate(u32::from(*m & 0xf)),
            })
            .collect();
        desc.stencil = stencil(self.stencil);
        desc.unclipped_depth = self.unclipped % 8 == 7;
        desc.multisample_mask =
            [!0, 0, 1, 0b1010, 0xffff_ffff][usize::from(self.multisample_mask % 5)];
        if let Some((constant, slope, clamp)) = self.bias {
            desc.depth = desc.depth.bias(i32::from(constant), slope, clamp);
        }
        let (constants, valid) = self.constants.resolve(kind);
        desc.constants = constants;
        let clip = !desc.unclipped_depth
            || gpu
                .device()
                .features()
                .contains(wgpu::Features::DEPTH_CLIP_CONTROL);
        valid.map(|v| v && clip)
    }
}

/// Color formats targets pick from (common ones more often; two that are not color formats).
const COLOR_FORMATS: [wgpu::TextureFormat; 10] = [
    wgpu::TextureFormat::Rgba8Unorm,
    wgpu::TextureFormat::Rgba16Float,
    wgpu::TextureFormat::R32Float,
    wgpu::TextureFormat::Rgba32Float,
    wgpu::TextureFormat::Rgba8Uint,
    wgpu::TextureFormat::Rgba8Unorm,
    wgpu::TextureFormat::Rgba16Float,
    wgpu::TextureFormat::Bgra8Unorm,
    wgpu::TextureFormat::Depth32Float,
    wgpu::TextureFormat::Bc1RgbaUnorm,
];

/// Depth formats targets pick from (one feature-gated, one not a depth format).
const DEPTH_FORMATS: [wgpu::TextureFormat; 6] = [
    wgpu::TextureFormat::Depth24PlusStencil8,
    wgpu::TextureFormat::Depth32Float,
    wgpu::TextureFormat::Depth24Plus,
    wgpu::TextureFormat::Stencil8,
    wgpu::TextureFormat::Depth32FloatStencil8,
    wgpu::TextureFormat::Rgba8Unorm,
];

fn color_format(i: u8) -> wgpu::TextureFormat {
    COLOR_FORMATS[usize::from(i) % COLOR_FORMATS.len()]
}

fn depth_format(i: u8) -> wgpu::TextureFormat {
    DEPTH_FORMATS[usize::from(i) % DEPTH_FORMATS.len()]
}

/// A target: 0–9 color attachments, a depth format or none, 1 or 4 samples (sometimes others).
#[derive(Arbitrary, Debug)]
pub struct TargetSpec {
    width: u8,
    height: u8,
    /// How many color attachments (mostly 1–3; 0, 4, 8 and 9 too), of `formats` in turn.
    count: u8,
    formats: [u8; 3],
    depth: Option<u8>,
    samples: u8,
}

impl TargetSpec {
    pub fn desc(&self, label: String) -> TargetDesc {
        let count = [1, 2, 3, 1, 2, 3, 0, 4, 8, 9][usize::from(self.count % 10)];
        TargetDesc {
            label,
            width: u32::from(self.width % 24),
            height: u32::from(self.height % 24),
            colors: (0..count)
                .map(|i| color_format(self.formats[i % 3]))
                .collect(),
            depth: self.depth.map(depth_format),
            sample_count: [1, 4, 1, 4, 2, 3][usize::from(self.samples % 6)],
        }
    }
}

/// The fixed targets after the color (0) and color + depth (1) ones: a G-buffer of three
/// attachments with `Depth24PlusStencil8` (2) and an `Rgba8Uint` target with stencil (3).
pub fn fixed_targets(gpu: &Gpu) -> [Target; 2] {
    use wgpu::TextureFormat as F;
    let gbuffer = TargetDesc::new(8, 8)
        .colors(&[F::Rgba8Unorm, F::Rgba16Float, F::R32Float])
        .depth(F::Depth24PlusStencil8)
        .label("gbuffer");
    let uint = TargetDesc::new(8, 8)
        .format(F::Rgba8Uint)
        .depth(F::Depth24PlusStencil8)
        .label("uint");
    [
        gpu.target_with(&gbuffer).expect("gbuffer target"),
        gpu.target_with(&uint).expect("uint target"),
    ]
}

/// Issue 31's part of a pass's descriptor.
#[derive(Arbitrary, Debug)]
pub struct PassExtras {
    /// Per attachment (at most 4): a grey level to clear to, or keep.
    clears: Vec<Option<u8>>,
    load: bool,
    clear_stencil: Option<u32>,
    /// 1: the builder; 2: the field alone (the depth clear kept).
    depth_read_only: u8,
    stencil_read_only: u8,
    blend_constant: Option<[f32; 4]>,
    stencil_reference: u32,
    occlusion: Option<u8>,
}

/// What a [`PassDesc`] borrows, cloned out of [`Objs`] (which the pass's ops mutate).
pub struct PassParts {
    target: Target,
    clears: Vec<Option<[f64; 4]>>,
    pub queries: Option<OcclusionQueries>,
}

impl PassParts {
    pub fn new(objs: &Objs, target: u8, extras: Option<&PassExtras>) -> Self {
        let target = pick(&objs.targets, target).cloned().expect("targets");
        let Some(x) = extras else {
            return PassParts {
                target,
                clears: Vec::new(),
                queries: None,
            };
        };
        let grey = |v: u8| [f64::from(v) / 255.0; 4];
        PassParts {
            target,
            clears: x.clears.iter().take(4).map(|c| c.map(grey)).collect(),
            queries: x.occlusion.and_then(|i| pick(&objs.queries, i).cloned()),
        }
    }

    pub fn desc(&self, extras: Option<&PassExtras>) -> PassDesc<'_> {
        let mut d = PassDesc::new(&self.target);
        if let Some(q) = &self.queries {
            d = d.occlusion(q);
        }
        let Some(x) = extras else { return d };
        if x.load {
            d = d.load();
        }
        d = d.clear_attachments(&self.clears);
        if let Some(s) = x.clear_stencil {
            d = d.clear_stencil(s);
        }
        match x.depth_read_only % 3 {
            1 => d = d.depth_read_only(),
            2 => d.depth_read_only = true,
            _ => {}
        }
        match x.stencil_read_only % 3 {
            1 => d = d.stencil_read_only(),
            2 => d.stencil_read_only = true,
            _ => {}
        }
        if let Some(c) = x.blend_constant {
            d = d.blend_constant(c.map(f64::from));
        }
        d.stencil_reference(x.stencil_reference)
    }
}

/// Issue 31's operations inside a pass.
#[derive(Arbitrary, Debug)]
pub enum StateOp {
    BlendConstant([f32; 4]),
    StencilReference(u32),
    /// Query `index % 7` (sets have 1–5 queries: some out of range).
    BeginQuery(u8),
    EndQuery,
    /// `Pass::occlusion_query` around draws; `end_inside` ends the query inside too.
    OcclusionQuery {
        index: u8,
        draws: Vec<u8>,
        end_inside: bool,
    },
    /// Dynamic offsets in units of 256 bytes (odd values are 4 bytes off: misaligned).
    DrawWithOffsets {
        draw: u8,
        group: u8,
        offsets: Vec<u8>,
    },
}

fn offsets(raw: &[u8]) -> Vec<u32> {
    raw.iter()
        .take(4)
        .map(|o| u32::from(o / 2) * 256 + u32::from(o % 2) * 4)
        .collect()
}

pub fn run_state_op(objs: &Objs, p: &mut vgpu::Pass<'_>, op: &StateOp) {
    match op {
        StateOp::BlendConstant(c) => p.set_blend_constant(c.map(f64::from)),
        StateOp::StencilReference(r) => p.set_stencil_reference(*r),
        StateOp::BeginQuery(i) => {
            let r = p.begin_occlusion_query(u32::from(i % 7));
            ok_or_coded("Pass::begin_occlusion_query", &r);
        }
        StateOp::EndQuery => {
            ok_or_coded("Pass::end_occlusion_query", &p.end_occlusion_query());
        }
        StateOp::OcclusionQuery {
            index,
            draws,
            end_inside,
        } => {
            let r = p.occlusion_query(u32::from(index % 7), |p| {
                for d in draws.iter().take(4) {
                    if let Some(d) = pick(&objs.draws, *d) {
                        ok_or_coded("Pass::draw in a query", &p.draw(d));
                    }
                }
                if *end_inside {
                    p.end_occlusion_query()?;
                }
                Ok(())
            });
            ok_or_coded("Pass::occlusion_query", &r);
        }
        StateOp::DrawWithOffsets {
            draw,
            group,
            offsets: raw,
        } => {
            if let Some(d) = pick(&objs.draws, *draw) {
                let r = p.draw_with_offsets(d, u32::from(group % 3), &offsets(raw));
                ok_or_coded("Pass::draw_with_offsets", &r);
            }
        }
    }
}

/// A new compute of the override compute shader with `constants`.
pub fn new_compute(gpu: &Gpu, shader: &vgpu::Shader, objs: &mut Objs, constants: &Constants) {
    let (constants, valid) = constants.resolve(COMPUTE);
    let desc = ComputeDesc {
        label: format!("compute{}", objs.computes.len()),
        constants,
        ..Default::default()
    };
    let r = gpu.compute(shader, desc);
    match (&r, valid) {
        (Ok(_), Some(false)) => panic!("a compute with constants it cannot take was created"),
        (Err(e), Some(true)) => panic!("a compute with valid constants was refused: {e}"),
        _ => {}
    }
    if ok_or_coded("Gpu::compute", &r) {
        objs.computes.extend(r.ok());
    }
}

/// `prepare` twice: a success creates nothing the second time; a failure fails again alike.
pub fn prepare(gpu: &Gpu, draw: &Draw, signature: TargetSignature) {
    let r = draw.prepare(signature);
    if vgpu_fuzz::printing()
        && let Err(e) = &r
    {
        eprintln!("Draw::prepare({signature:?}): {e}");
    }
    let created = gpu.stats().pipelines_created;
    let again = draw.prepare(signature);
    match (&r, &again) {
        (Ok(()), Ok(())) => assert_eq!(
            gpu.stats().pipelines_created,
            created,
            "preparing {signature:?} again created a pipeline"
        ),
        (Err(a), Err(b)) => {
            check_err("Draw::prepare", a);
            assert_eq!(a.code(), b.code(), "prepare failed differently: {a} / {b}");
        }
        _ => panic!("prepare {signature:?}: {r:?} then {again:?}"),
    }
}

/// A signature of a target, read-only aspects per `read_only`'s bits, or made up.
pub fn signature(
    objs: &Objs,
    target: u8,
    read_only: u8,
    made: Option<&TargetSpec>,
) -> TargetSignature {
    let mut sig = match made {
        Some(spec) => {
            let d = spec.desc(String::new());
            let mut sig = TargetSignature::new(None, d.depth, d.sample_count);
            if let Some(c) = vgpu::ColorFormats::from_slice(&d.colors) {
                sig.colors = c;
            }
            sig
        }
        None => pick(&objs.targets, target).expect("targets").signature(),
    };
    sig.depth_read_only = read_only & 1 == 1;
    sig.stencil_read_only = read_only & 2 == 2;
    sig
}

/// A draw or a compute whose groups are claimed.
pub enum Claimant<'a> {
    Draw(&'a Draw),
    Compute(&'a Compute),
}

/// The draw (`compute` false) or compute `i` of `objs`.
pub fn operation(objs: &Objs, i: u8, compute: bool) -> Option<Claimant<'_>> {
    if compute {
        pick(&objs.computes, i).map(Claimant::Compute)
    } else {
        pick(&objs.draws, i).map(Claimant::Draw)
    }
}

impl Claimant<'_> {
    /// Claims `group % 3`; claiming again alike must succeed too.
    pub fn claim(&self, group: u8, dynamic: bool) {
        let g = u32::from(group % 3);
        let claim = || match self {
            Claimant::Draw(d) => d.claim_group(g, dynamic),
            Claimant::Compute(c) => c.claim_group(g, dynamic),
        };
        let r = claim();
        if ok_or_coded("claim_group", &r) {
            let again = claim();
            assert!(again.is_ok(), "claiming group {g} again: {again:?}");
        }
    }

    /// A bind group for claimed group `group % 3` from user buffers, kept in `objs.groups`.
    pub fn create_group(&self, objs: &mut Objs, group: u8, entries: &[(u8, u8, u8, Option<u8>)]) {
        let g = u32::from(group % 3);
        let entries: Vec<wgpu::BindGroupEntry<'_>> = entries
            .iter()
            .take(3)
            .filter_map(|(binding, buffer, offset, size)| {
                let b = pick(&objs.buffers, *buffer)?;
                Some(wgpu::BindGroupEntry {
                    binding: u32::from(binding % 3),
                    resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                        buffer: b.raw(),
                        offset: u64::from(*offset) * 16,
                        size: size.and_then(|s| wgpu::BufferSize::new(u64::from(s) * 16)),
                    }),
                })
            })
            .collect();
        let r = match self {
            Claimant::Draw(d) => d.create_group(g, &entries),
            Claimant::Compute(c) => c.create_group(g, &entries),
        };
        drop(entries);
        if ok_or_coded("create_group", &r) {
            objs.groups.extend(r.ok());
        }
    }

    /// Attaches bind group `bind` of `objs.groups` (made for any draw: maybe another layout).
    pub fn set_group(&self, objs: &Objs, group: u8, bind: u8) {
        let Some(bg) = pick(&objs.groups, bind) else {
            return;
        };
        let g = u32::from(group % 3);
        let r = match self {
            Claimant::Draw(d) => d.set_group(g, bg),
            Claimant::Compute(c) => c.set_group(g, bg),
        };
        ok_or_coded("set_group", &r);
    }

    pub fn set_offsets(&self, group: u8, raw: &[u8]) {
        let g = u32::from(group % 3);
        let offsets = offsets(raw);
        let r = match self {
            Claimant::Draw(d) => d.set_group_offsets(g, &offsets),
            Claimant::Compute(c) => c.set_group_offsets(g, &offsets),
        };
        ok_or_coded("set_group_offsets", &r);
    }
}

/// A 1 KiB buffer of draw arguments (3 vertices, 1 instance, repeated) usable as uniform,
/// storage and indirect buffer.
pub fn scene_buffer(gpu: &Gpu) -> Option<vgpu::Buffer> {
    let desc = vgpu::BufferDesc {
        label: "scene".to_owned(),
        size: 1024,
        usage: wgpu::BufferUsages::UNIFORM
            | wgpu::BufferUsages::STORAGE
            | wgpu::BufferUsages::INDIRECT,
    };
    let r = gpu.buffer(&desc);
    assert!(r.is_ok(), "a scene buffer: {r:?}");
    let b = r.ok()?;
    let args: Vec<u8> = [3u32, 1, 0, 0]
        .iter()
        .cycle()
        .take(256)
        .flat_map(|w| w.to_le_bytes())
        .collect();
    assert!(b.write(0, &args).is_ok(), "writing the scene buffer");
    Some(b)
}

/// A claim in a scene: the group claimed, a bind group made and attached, offsets to draw with.
#[derive(Arbitrary, Debug)]
pub struct ClaimSpec {
    group: u8,
    dynamic: bool,
    /// Entries as [`Claimant::create_group`] takes them; empty: bindings 0 (and 1 when
    /// `two`) of 256 bytes of the scene buffer.
    entries: Vec<(u8, u8, u8, Option<u8>)>,
    two: bool,
    offsets: Vec<u8>,
}

impl ClaimSpec {
    /// Claims, creates and attaches on `draw` (from `buffer` when `entries` is empty); the
    /// group and offsets to draw with.
    pub fn apply(&self, objs: &mut Objs, draw: &Draw, buffer: &vgpu::Buffer) -> (u32, Vec<u32>) {
        let c = Claimant::Draw(draw);
        let g = u32::from(self.group % 3);
        c.claim(self.group, self.dynamic);
        let made = if self.entries.is_empty() {
            let entry = |binding| wgpu::BindGroupEntry {
                binding,
                resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                    buffer: buffer.raw(),
                    offset: 0,
                    size: wgpu::BufferSize::new(256),
                }),
            };
            let entries: Vec<_> = (0..1 + u32::from(self.two)).map(entry).collect();
            let r = draw.create_group(g, &entries);
            ok_or_coded("create_group (scene)", &r);
            r.ok()
        } else {
            let before = objs.groups.len();
            c.create_group(objs, self.group, &self.entries);
            (objs.groups.len() > before)
                .then(|| objs.groups.pop())
                .flatten()
        };
        if let Some(bg) = made {
            ok_or_coded("set_group (scene)", &draw.set_group(g, &bg));
            objs.groups.push(bg);
        }
        (g, offsets(&self.offsets))
    }
}

/// A new occlusion query set of `n % 6` queries (0: `VGPU-QUERY-COUNT`).
pub fn new_queries(gpu: &Gpu, objs: &mut Objs, n: u8) {
    let r = gpu.occlusion_queries("queries", u32::from(n % 6));
    if n.is_multiple_of(6) {
        assert!(r.is_err(), "a set of 0 queries was made");
    }
    if ok_or_coded("Gpu::occlusion_queries", &r) {
        objs.queries.extend(r.ok());
    }
}

pub fn drop_queries(objs: &mut Objs, i: u8) {
    remove(&mut objs.queries, i);
}

/// `latest()`: one count per query.
pub fn latest(objs: &Objs, i: u8) {
    if let Some(q) = pick(&objs.queries, i)
        && let Some(r) = q.latest()
    {
        assert_eq!(r.samples.len(), q.count() as usize, "{r:?}");
    }
}

/// `render_once` (clearing) or `render_once_with` (loading).
pub fn render_once(gpu: &Gpu, objs: &Objs, draw: u8, target: u8, load: bool) {
    let (Some(d), Some(t)) = (pick(&objs.draws, draw), pick(&objs.targets, target)) else {
        return;
    };
    let r = if load {
        gpu.render_once_with(PassDesc::new(t).load(), d)
    } else {
        gpu.render_once(t, d)
    };
    ok_or_coded("Gpu::render_once", &r);
}

/// Reads color attachment `index % 10` (as RGBA8 or f32) or the depth of a target.
pub fn read_target(objs: &Objs, target: u8, index: u8, how: u8) {
    let Some(t) = pick(&objs.targets, target) else {
        return;
    };
    let i = usize::from(index % 10);
    match how % 3 {
        0 => {
            let r = t.read_rgba8_at(i);
            ok_or_coded("Target::read_rgba8_at", &r);
        }
        1 => {
            let r = t.read_f32_at(i);
            ok_or_coded("Target::read_f32_at", &r);
        }
        _ => {
            let r = t.read_depth();
            ok_or_coded("Target::read_depth", &r);
        }
    }
}
