//! Tier 1: a reference model of capture (issue #14). Random sequences of operations run through
//! the public API on the noop device and through a small model that is obviously correct: the
//! current bytes of every owner (each draw's `object` value, each shared `camera` block), and for
//! each draw recorded in a frame the bytes it must see (its owners' bytes when it was recorded).
//!
//! After each submitted frame, for every recorded draw and each of its two bindings, the bytes at
//! the (page, offset) the draw was really bound with (logged by the binding inspector,
//! `vgpu::inspect`: the bind group and dynamic offsets passed to wgpu) are read from the capture
//! engine's CPU shadow and from the page's buffer on the device, and compared with the model.
//! Also asserted, as docs/design.md §3 and §5–7 promise:
//!
//! - **home slot first** (§3.3): an owner's first value bound in a frame sits in one slot for the
//!   owner's whole life (its home), unless its bytes changed after the frame's first pass began
//!   and before that first bind (the engine then counts the home as possibly bound by a memoized
//!   draw and captures: `vgpu_uniforms`' rule 7);
//! - **revision** (§3.1): a block's revision moves exactly when a set changes its bytes;
//! - **cancelled frames upload nothing** (§5);
//! - **steady frames** (§7): a frame that repeats the frame before it (the third run in a row
//!   of one frame's script, nothing in between: the same sets and draws from the same bytes; no
//!   draw created, removed or rebound in it) creates no bind group and no buffer, captures
//!   nothing and uploads nothing;
//! - **exact uploads** (§5): a frame after a frame with the same owners, with values set only
//!   between frames (none inside passes), uploads exactly the homes of the owners whose bytes
//!   changed, one `write_buffer` per run of adjacent slots of a page, the run's bytes from its
//!   first slot to the end of its last value; and creates no bind group, no buffer, no capture.
//!
//! **Auto-bundles** (issue 33) are on, as by default: a pass that repeats is replayed from the
//! render bundle vgpu recorded for it, and the inspector logs its draws with what the bundle's
//! commands bind (`RecordPath::AutoBundle`), which the checks above read like any other draw's.
//! Besides the steady runs (`Op::Static`), the generator changes the last frame's script
//! structurally and runs it three times (`Op::Restructure`: draws reordered, culled, added,
//! removed; a camera set to another value before each pass), destroys a resource
//! (`Op::DestroyBuffer`), and sets values before single passes (`PassScript::before`), so bundles
//! are recorded, replayed and invalidated between them. The test asserts that draws were replayed,
//! that passes were recorded directly for each structural reason ([`REASONS`]), and that every
//! frame counts its draws exactly (`operations_recorded`). A target resized under a draw that
//! samples it is not modelled (the model's shader samples no texture): `tier2_auto_bundles`
//! covers it.
//!
//! Half the cases give the engine four slots per page and two retained slots (pages fill, swap,
//! empty and go). The case count is `PROPTEST_CASES` (default [`DEFAULT_CASES`] on the noop
//! device, [`DEFAULT_DEVICE_CASES`] on the `VGPU_BACKEND` device, where the page buffers read
//! back are what a real device holds); the test also asserts that draws went through both the
//! fast record and the full record path, and that the counter checks applied.
//!
//! Deterministic: the cases come from a fixed seed ([`DEFAULT_SEED`]; `VGPU_PROPTEST_SEED=N`
//! overrides it, decimal or `0x` hex), named in the test's output and in a failure's message. A
//! failing case's seed is kept in [`REGRESSIONS`] (proptest's failure persistence; commit it),
//! and those cases run first on every later run; `capture_model_shrunk_sequences` keeps shrunk
//! sequences as plain tests.

use std::collections::{HashMap, HashSet};

use proptest::prelude::*;
use proptest::test_runner::{Config, FileFailurePersistence, RngSeed, TestCaseError, TestRunner};
use vgpu::inspect::{BufferKey, EngineConfig, PageKey, RecordPath, RecordedBinding};
use vgpu::{Draw, DrawDesc, DrawRange, Gpu, SharedUniforms, Target, TargetDesc, Uniform, value};

/// Cases when `PROPTEST_CASES` is unset, on the noop device (about 10 s of a debug build on
/// one core) and on the `VGPU_BACKEND` device (tier 2).
const DEFAULT_CASES: u32 = 2000;
const DEFAULT_DEVICE_CASES: u32 = 48;
/// Operations per case: 1 to `MAX_OPS - 1`.
const MAX_OPS: usize = 40;

const SHADER: &str = "
    struct Camera { view_projection: mat4x4f }
    struct Object { color: vec4f, center: vec2f, scale: f32 }
    @group(0) @binding(0) var<uniform> camera: Camera;   // a shared block
    @group(1) @binding(0) var<uniform> object: Object;   // the draw's own value

    @vertex
    fn vs_main(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
        let p = object.center + object.scale * vec2f(f32(i & 1u), f32(i >> 1u));
        return camera.view_projection * vec4f(p, 0.0, 1.0);
    }

    @fragment
    fn fs_main() -> @location(0) vec4f { return object.color; }
";

/// The `object` binding as a typed value.
#[derive(Clone, Copy, Debug, PartialEq, Uniform)]
struct Object {
    color: [f32; 4],
    center: [f32; 2],
    scale: f32,
}

/// The `camera` binding as a typed value.
#[derive(Clone, Copy, Debug, PartialEq, Uniform)]
struct Camera {
    view_projection: [[f32; 4]; 4],
}

const OBJECT_LEN: usize = 32;
/// The engine's configuration in half the cases: four slots per page and two retained slots
/// per owner, so pages fill, alternate, empty and go, and retained slots are reclaimed.
const SMALL_ENGINE: EngineConfig = EngineConfig {
    page_size: 1024,
    max_extra_slots: 2,
    retain_submissions: 3,
    idle_page_budget: 1,
};

// ----- the operations ---------------------------------------------------------------------------

/// How a value is set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// `value! { .. }`.
    Value,
    /// A `#[derive(vgpu::Uniform)]` struct.
    Typed,
    /// `set_bytes` (the bytes the model packs).
    Bytes,
    /// Through a resolved binding (`draw.binding("object")`; blocks: a typed value).
    Binding,
}

/// A new value for a draw's `object`.
#[derive(Clone, Copy, Debug)]
enum ObjectSet {
    /// Every member, from a palette of four per draw.
    Full(u8),
    /// Only `scale` (a partial `value!`, merged onto the previous value).
    Scale(u8),
    /// The bytes it holds (no change).
    Same,
}

/// A set, between frames or inside a frame. Indices pick among live draws / block handles
/// (modulo their count; nothing happens when there is none).
#[derive(Clone, Copy, Debug)]
enum SetOp {
    Object {
        draw: u8,
        value: ObjectSet,
        mode: Mode,
    },
    /// `Some(k)`: the block's palette value `k` (of four); `None`: the value it holds.
    Camera {
        block: u8,
        value: Option<u8>,
        mode: Mode,
    },
}

/// One step inside a pass.
#[derive(Clone, Copy, Debug)]
enum Step {
    /// `pass.draw(d)` (`ranged`: `pass.draw_with(d, its own range)`).
    Draw {
        draw: u8,
        ranged: bool,
    },
    Set(SetOp),
    /// `draw.set("camera", &block)`.
    Bind {
        draw: u8,
        block: u8,
    },
    /// Drops a draw (its value owner goes; draws recorded before keep their snapshots).
    Remove {
        draw: u8,
    },
    /// Creates a draw, binds a block, sets its object.
    Create {
        block: u8,
        object: u8,
        mode: Mode,
    },
}

/// One pass: its target (0 or 1: two target signatures), the sets made just before it begins
/// (after the frame's earlier passes: a per-pass value), and its steps.
#[derive(Clone, Debug)]
struct PassScript {
    target: u8,
    before: Vec<SetOp>,
    steps: Vec<Step>,
}

/// One frame: sets before its first pass, then 1–3 passes.
#[derive(Clone, Debug)]
struct Script {
    pre: Vec<SetOp>,
    passes: Vec<PassScript>,
}

#[derive(Clone, Debug)]
enum Op {
    CreateDraw {
        block: u8,
        object: u8,
        mode: Mode,
    },
    RemoveDraw {
        draw: u8,
    },
    /// A block from the camera palette (a new block id gets its own palette).
    CreateBlock {
        value: u8,
        mode: Mode,
    },
    /// Drops the test's handle; draws that bind the block keep it alive.
    DropBlock {
        block: u8,
    },
    Bind {
        draw: u8,
        block: u8,
    },
    Set(SetOp),
    Frame(Script),
    /// `begin_frame`, the script's passes, then `cancel`.
    Cancel(Script),
    /// The last submitted frame's script again, three times (steady frames).
    Static,
    /// The last submitted frame's script changed structurally, run three times: the first run
    /// records directly, the second records the pass's auto-bundle again, the third replays.
    Restructure(Restructure),
    /// A user buffer made and destroyed (no draw binds it): every auto-bundle is checked again
    /// from scratch (`DirectReason::ResourcesChanged`).
    DestroyBuffer,
}

/// A structural change of a script (see [`Op::Restructure`]); `at` picks a place.
#[derive(Clone, Copy, Debug)]
enum Restructure {
    /// Each pass's steps rotated by one (its draws reordered).
    Reorder,
    /// Every third draw step from `at` dropped (draws culled).
    Cull { at: u8 },
    /// A draw step added to one pass.
    AddDraw { at: u8, draw: u8 },
    /// One draw step dropped.
    RemoveDraw { at: u8 },
    /// The camera `block` set before each pass to another palette value (per-pass values).
    PerPass { block: u8, mode: Mode },
}

impl Restructure {
    /// `script` with the change.
    fn apply(self, script: &Script) -> Script {
        let mut s = script.clone();
        let is_draw = |step: &Step| matches!(step, Step::Draw { .. });
        match self {
            Restructure::Reorder => {
                for p in &mut s.passes {
                    if !p.steps.is_empty() {
                        p.steps.rotate_left(1);
                    }
                }
            }
            Restructure::Cull { at } => {
                let mut n = usize::from(at);
                for p in &mut s.passes {
                    p.steps.retain(|step| {
                        if !is_draw(step) {
                            return true;
                        }
                        n += 1;
                        n % 3 != 0
                    });
                }
            }
            Restructure::AddDraw { at, draw } => {
                let pass = usize::from(at) % s.passes.len().max(1);
                if let Some(p) = s.passes.get_mut(pass) {
                    let i = usize::from(at) % (p.steps.len() + 1);
                    p.steps.insert(
                        i,
                        Step::Draw {
                            draw,
                            ranged: false,
                        },
                    );
                }
            }
            Restructure::RemoveDraw { at } => {
                let draws: Vec<(usize, usize)> = s
                    .passes
                    .iter()
                    .enumerate()
                    .flat_map(|(p, pass)| {
                        (0..pass.steps.len())
                            .filter(move |&i| is_draw(&pass.steps[i]))
                            .map(move |i| (p, i))
                    })
                    .collect();
                if let Some(&(p, i)) = draws.get(usize::from(at) % draws.len().max(1)) {
                    s.passes[p].steps.remove(i);
                }
            }
            Restructure::PerPass { block, mode } => {
                for (k, p) in s.passes.iter_mut().enumerate() {
                    p.before = vec![SetOp::Camera {
                        block,
                        value: Some(k as u8),
                        mode,
                    }];
                }
            }
        }
        s
    }
}

fn mode() -> impl Strategy<Value = Mode> {
    prop_oneof![
        Just(Mode::Value),
        Just(Mode::Typed),
        Just(Mode::Bytes),
        Just(Mode::Binding)
    ]
}

fn set_op() -> impl Strategy<Value = SetOp> {
    let object = prop_oneof![
        4 => (0..4u8).prop_map(ObjectSet::Full),
        2 => (0..4u8).prop_map(ObjectSet::Scale),
        1 => Just(ObjectSet::Same),
    ];
    prop_oneof![
        (any::<u8>(), object, mode()).prop_map(|(draw, value, mode)| SetOp::Object {
            draw,
            value,
            mode
        }),
        (
            any::<u8>(),
            proptest::option::weighted(0.85, 0..4u8),
            mode()
        )
            .prop_map(|(block, value, mode)| SetOp::Camera { block, value, mode }),
    ]
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        10 => (any::<u8>(), proptest::bool::weighted(0.1))
            .prop_map(|(draw, ranged)| Step::Draw { draw, ranged }),
        6 => set_op().prop_map(Step::Set),
        1 => (any::<u8>(), any::<u8>()).prop_map(|(draw, block)| Step::Bind { draw, block }),
        1 => any::<u8>().prop_map(|draw| Step::Remove { draw }),
        1 => (any::<u8>(), 0..4u8, mode())
            .prop_map(|(block, object, mode)| Step::Create { block, object, mode }),
    ]
}

fn script() -> impl Strategy<Value = Script> {
    let pass = (
        0..2u8,
        proptest::option::weighted(0.1, set_op()),
        prop::collection::vec(step(), 0..7),
    )
        .prop_map(|(target, before, steps)| PassScript {
            target,
            before: before.into_iter().collect(),
            steps,
        });
    (
        prop::collection::vec(set_op(), 0..3),
        prop::collection::vec(pass, 1..=3),
    )
        .prop_map(|(pre, passes)| Script { pre, passes })
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        3 => (any::<u8>(), 0..4u8, mode())
            .prop_map(|(block, object, mode)| Op::CreateDraw { block, object, mode }),
        1 => any::<u8>().prop_map(|draw| Op::RemoveDraw { draw }),
        1 => (0..4u8, mode()).prop_map(|(value, mode)| Op::CreateBlock { value, mode }),
        1 => any::<u8>().prop_map(|block| Op::DropBlock { block }),
        1 => (any::<u8>(), any::<u8>()).prop_map(|(draw, block)| Op::Bind { draw, block }),
        4 => set_op().prop_map(Op::Set),
        6 => script().prop_map(Op::Frame),
        1 => script().prop_map(Op::Cancel),
        2 => Just(Op::Static),
        2 => restructure().prop_map(Op::Restructure),
        1 => Just(Op::DestroyBuffer),
    ]
}

fn restructure() -> impl Strategy<Value = Restructure> {
    prop_oneof![
        Just(Restructure::Reorder),
        any::<u8>().prop_map(|at| Restructure::Cull { at }),
        (any::<u8>(), any::<u8>()).prop_map(|(at, draw)| Restructure::AddDraw { at, draw }),
        any::<u8>().prop_map(|at| Restructure::RemoveDraw { at }),
        (any::<u8>(), mode()).prop_map(|(block, mode)| Restructure::PerPass { block, mode }),
    ]
}

// ----- the model --------------------------------------------------------------------------------

/// An owner: a draw's `object` value or a block, by model id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum OwnerId {
    Object(u32),
    Camera(u32),
}

/// The object value of draw `id` from palette entry `k` (distinct per draw and per entry).
fn palette_object(id: u32, k: u8) -> Object {
    let (i, k) = (id as f32, f32::from(k));
    Object {
        color: [i, k, 0.5, 1.0],
        center: [0.25 * k, -i],
        scale: 1.0 + k,
    }
}

/// Palette entry `k` of block `id`'s camera.
fn palette_camera(id: u32, k: u8) -> [f32; 16] {
    std::array::from_fn(|n| id as f32 * 1000.0 + f32::from(k) * 16.0 + n as f32)
}

/// The WGSL bytes of an `Object`: `color` at 0, `center` at 16, `scale` at 24, 4 bytes of
/// padding (the struct's size rounds up to its 16-byte alignment).
fn object_bytes(o: &Object) -> Vec<u8> {
    let mut out = Vec::with_capacity(OBJECT_LEN);
    for f in o.color.iter().chain(&o.center).chain([&o.scale]) {
        out.extend_from_slice(&f.to_le_bytes());
    }
    out.resize(OBJECT_LEN, 0);
    out
}

/// The WGSL bytes of a camera: 16 `f32`, column by column.
fn camera_bytes(m: &[f32; 16]) -> Vec<u8> {
    m.iter().flat_map(|f| f.to_le_bytes()).collect()
}

fn columns(m: &[f32; 16]) -> [[f32; 4]; 4] {
    std::array::from_fn(|c| std::array::from_fn(|r| m[4 * c + r]))
}

/// A draw the test holds, with what the model knows about it.
struct LiveDraw {
    id: u32,
    draw: Draw,
    object: Object,
    /// The block its `camera` binds.
    block: u32,
}

/// A block by model id (kept after its handle is dropped: draws may still bind it).
struct Block {
    handle: Option<SharedUniforms>,
    camera: [f32; 16],
    /// Bound to a draw at least once (its layout is adopted; its bytes are in the engine).
    bound: bool,
    /// Its bytes are in the engine (made from a typed value or bytes, bound, or set so since):
    /// the engine took its home slot then, which may have made a page.
    sized: bool,
}

/// What one recorded draw must see.
#[derive(Clone, Debug, PartialEq)]
struct Seen {
    label: String,
    object: (OwnerId, Vec<u8>),
    camera: (OwnerId, Vec<u8>),
}

/// The open frame, as the model follows it.
#[derive(Default)]
struct OpenFrame {
    /// A pass has begun: every home slot counts as possibly bound from now on.
    in_passes: bool,
    /// Owners whose bytes changed (or whose layout was adopted) once passes had begun.
    changed_in_passes: HashSet<OwnerId>,
    seen: Vec<Seen>,
}

/// A submitted frame, as the model saw it.
struct FrameRecord {
    seen: Vec<Seen>,
    /// Structural epoch at the frame's start and end (equal: nothing created, removed or
    /// rebound during it).
    epoch: (u64, u64),
    /// Owners whose bytes changed (or whose layout was adopted) inside a pass.
    changed_in_passes: HashSet<OwnerId>,
    /// Owner bytes when the frame was submitted.
    bytes_at_end: HashMap<OwnerId, Vec<u8>>,
    /// How many times in a row its script ran, nothing else in between (1: the first).
    run: u32,
    /// Owners whose bytes changed at some point since the previous frame's submit.
    touched: HashSet<OwnerId>,
}

/// The reasons ([`vgpu::DirectReason::kind`]) a pass was recorded directly that the coverage
/// counts: the structural changes the generator makes.
const REASONS: [&str; 7] = [
    "warming up",
    "draw order changed",
    "draws added",
    "draws removed",
    "a draw changed",
    "a value moved",
    "a resource was destroyed",
];

/// What the checks covered: draws recorded per path, frames whose counters were checked.
#[derive(Clone, Copy, Debug, Default)]
struct Coverage {
    fast: u64,
    full: u64,
    /// Draws replayed from an auto-bundle.
    auto: u64,
    /// Passes recorded directly, per reason ([`REASONS`]).
    direct: [u64; REASONS.len()],
    steady: u64,
    exact: u64,
}

impl std::ops::AddAssign for Coverage {
    fn add_assign(&mut self, o: Coverage) {
        self.fast += o.fast;
        self.full += o.full;
        self.auto += o.auto;
        for (a, b) in self.direct.iter_mut().zip(o.direct) {
            *a += b;
        }
        self.steady += o.steady;
        self.exact += o.exact;
    }
}

/// The system under test and the model, side by side.
struct World {
    gpu: Gpu,
    shader: vgpu::Shader,
    draws: Vec<LiveDraw>,
    blocks: Vec<Block>,
    next_draw: u32,
    /// Moves on every create, remove, bind, drop and cancel.
    epoch: u64,
    frame: Option<OpenFrame>,
    frames: Vec<FrameRecord>,
    /// The last submitted frame's script.
    last_script: Option<Script>,
    /// Runs of `last_script` in a row so far (0: something else happened since).
    runs: u32,
    /// Each owner's home slot, once seen.
    homes: HashMap<OwnerId, (PageKey, u64)>,
    /// Owners bound by any recorded draw, submitted or cancelled (they have a home slot).
    ever_bound: HashSet<OwnerId>,
    /// Owners whose bytes changed since the last submit.
    touched: HashSet<OwnerId>,
    alignment: u64,
    config: EngineConfig,
    coverage: Coverage,
}

type Check = Result<(), String>;

fn fail(msg: impl Into<String>) -> Check {
    Err(msg.into())
}

impl World {
    fn new(gpu: Gpu, config: EngineConfig) -> vgpu::Result<World> {
        gpu.inspect_bindings(true);
        let shader = gpu.shader("model", SHADER)?;
        let alignment = u64::from(gpu.context().limits().min_uniform_buffer_offset_alignment);
        Ok(World {
            gpu,
            shader,
            draws: Vec::new(),
            blocks: Vec::new(),
            next_draw: 0,
            epoch: 0,
            frame: None,
            frames: Vec::new(),
            last_script: None,
            runs: 0,
            homes: HashMap::new(),
            ever_bound: HashSet::new(),
            touched: HashSet::new(),
            alignment,
            config,
            coverage: Coverage::default(),
        })
    }

    fn pick_draw(&self, i: u8) -> Option<usize> {
        (!self.draws.is_empty()).then(|| usize::from(i) % self.draws.len())
    }

    /// A live block handle's id.
    fn pick_block(&self, i: u8) -> Option<u32> {
        let live: Vec<u32> = (0..self.blocks.len() as u32)
            .filter(|&b| self.blocks[b as usize].handle.is_some())
            .collect();
        (!live.is_empty()).then(|| live[usize::from(i) % live.len()])
    }

    fn all_bytes(&self) -> HashMap<OwnerId, Vec<u8>> {
        let objects = self
            .draws
            .iter()
            .map(|d| (OwnerId::Object(d.id), object_bytes(&d.object)));
        let cameras = self
            .blocks
            .iter()
            .enumerate()
            .map(|(b, block)| (OwnerId::Camera(b as u32), camera_bytes(&block.camera)));
        objects.chain(cameras).collect()
    }

    /// Notes a change of `owner`'s bytes (or an adoption; inside a pass: see [`OpenFrame`]).
    fn changed(&mut self, owner: OwnerId) {
        self.touched.insert(owner);
        if let Some(f) = self.frame.as_mut().filter(|f| f.in_passes) {
            f.changed_in_passes.insert(owner);
        }
    }

    fn structural(&mut self) {
        self.epoch += 1;
    }

    // ----- operations, on both sides ------------------------------------------------------------

    fn create_block(&mut self, k: u8, mode: Mode) -> vgpu::Result<u32> {
        let id = self.blocks.len() as u32;
        let camera = palette_camera(id, k);
        let label = format!("b{id}");
        let handle = match mode {
            Mode::Value => self
                .gpu
                .uniforms_labeled(&label, value! { view_projection: camera })?,
            Mode::Typed | Mode::Binding => self.gpu.uniforms_labeled(
                &label,
                &Camera {
                    view_projection: columns(&camera),
                },
            )?,
            Mode::Bytes => self.gpu.uniforms_bytes(&label, &camera_bytes(&camera))?,
        };
        self.blocks.push(Block {
            handle: Some(handle),
            camera,
            bound: false,
            sized: mode != Mode::Value,
        });
        self.structural();
        Ok(id)
    }

    fn bind(&mut self, d: usize, block: u32) -> vgpu::Result<()> {
        let Some(handle) = self.blocks[block as usize].handle.clone() else {
            return Ok(());
        };
        self.draws[d].draw.set("camera", &handle)?;
        self.draws[d].block = block;
        if !self.blocks[block as usize].bound {
            self.blocks[block as usize].bound = true;
            self.blocks[block as usize].sized = true;
            self.changed(OwnerId::Camera(block));
        }
        self.structural();
        Ok(())
    }

    fn create_draw(&mut self, block: u8, k: u8, mode: Mode) -> vgpu::Result<()> {
        let block = match self.pick_block(block) {
            Some(b) => b,
            None => self.create_block(k, Mode::Value)?,
        };
        let id = self.next_draw;
        self.next_draw += 1;
        let draw = self.gpu.draw(
            &self.shader,
            DrawDesc {
                label: format!("d{id}"),
                vertex_count: Some(3),
                ..Default::default()
            },
        )?;
        let object = palette_object(id, k);
        self.draws.push(LiveDraw {
            id,
            draw,
            object,
            block,
        });
        let d = self.draws.len() - 1;
        // The first set of a new owner: the model's "changed" does not apply (no home yet).
        let frame = self.frame.take();
        let result = self.set_object(d, ObjectSet::Full(k), mode);
        self.frame = frame;
        result?;
        self.bind(d, block)
    }

    fn remove_draw(&mut self, d: usize) {
        self.draws.remove(d);
        self.structural();
    }

    fn drop_block(&mut self, block: u32) {
        self.blocks[block as usize].handle = None;
        self.structural();
    }

    fn set_object(&mut self, d: usize, set: ObjectSet, mode: Mode) -> vgpu::Result<()> {
        let id = self.draws[d].id;
        let old = self.draws[d].object;
        let new = match set {
            ObjectSet::Full(k) => palette_object(id, k),
            ObjectSet::Scale(k) => Object {
                scale: 10.0 + f32::from(k),
                ..old
            },
            ObjectSet::Same => old,
        };
        let draw = &self.draws[d].draw;
        match (set, mode) {
            (ObjectSet::Scale(_), _) => draw.set("object", value! { scale: new.scale })?,
            (_, Mode::Value) => draw.set(
                "object",
                value! { color: new.color, center: new.center, scale: new.scale },
            )?,
            (_, Mode::Typed) => draw.set("object", &new)?,
            (_, Mode::Bytes) => draw.set_bytes("object", &object_bytes(&new))?,
            (_, Mode::Binding) => draw.binding("object")?.set(&new)?,
        }
        self.draws[d].object = new;
        if object_bytes(&new) != object_bytes(&old) {
            self.changed(OwnerId::Object(id));
        }
        Ok(())
    }

    fn set_camera(&mut self, block: u32, k: Option<u8>, mode: Mode) -> Result<(), String> {
        let b = &self.blocks[block as usize];
        let Some(handle) = b.handle.clone() else {
            return Ok(());
        };
        let (old, bound) = (b.camera, b.bound);
        let new = k.map_or(old, |k| palette_camera(block, k));
        let before = handle.revision();
        let result = match mode {
            Mode::Value => handle.set(value! { view_projection: new }),
            Mode::Typed | Mode::Binding => handle.set(&Camera {
                view_projection: columns(&new),
            }),
            Mode::Bytes => handle.set_bytes(&camera_bytes(&new)),
        };
        result.map_err(|e| format!("camera b{block} set: {e}"))?;
        self.blocks[block as usize].camera = new;
        if !self.blocks[block as usize].sized && mode != Mode::Value {
            // Its first bytes: the engine takes the home slot now (a page may be made).
            self.blocks[block as usize].sized = true;
            self.structural();
        }
        let changed = camera_bytes(&new) != camera_bytes(&old);
        if bound {
            // docs/design.md §3.1: the revision moves exactly when the bytes change.
            let after = handle.revision();
            if (after != before) != changed {
                return fail(format!(
                    "block b{block}: revision {before} -> {after} for a set that {} its bytes",
                    if changed { "changed" } else { "kept" }
                ));
            }
        }
        if changed || !bound {
            self.changed(OwnerId::Camera(block));
        }
        Ok(())
    }

    fn set(&mut self, op: SetOp) -> Check {
        match op {
            SetOp::Object { draw, value, mode } => match self.pick_draw(draw) {
                Some(d) => self
                    .set_object(d, value, mode)
                    .map_err(|e| format!("object set: {e}")),
                None => Ok(()),
            },
            SetOp::Camera { block, value, mode } => match self.pick_block(block) {
                Some(b) => self.set_camera(b, value, mode),
                None => Ok(()),
            },
        }
    }

    /// Records draw `d` into `pass` and what it must see.
    fn record(&mut self, pass: &mut vgpu::Pass<'_>, d: usize, ranged: bool) -> vgpu::Result<()> {
        let draw = &self.draws[d];
        if ranged {
            pass.draw_with(
                &draw.draw,
                DrawRange {
                    vertices: 0..3,
                    instances: 0..1,
                },
            )?;
        } else {
            pass.draw(&draw.draw)?;
        }
        let seen = Seen {
            label: format!("d{}", draw.id),
            object: (OwnerId::Object(draw.id), object_bytes(&draw.object)),
            camera: (
                OwnerId::Camera(draw.block),
                camera_bytes(&self.blocks[draw.block as usize].camera),
            ),
        };
        self.ever_bound.insert(seen.object.0);
        self.ever_bound.insert(seen.camera.0);
        if let Some(f) = self.frame.as_mut() {
            f.seen.push(seen);
        }
        Ok(())
    }

    fn step(&mut self, pass: &mut vgpu::Pass<'_>, step: Step) -> Result<(), StepError> {
        match step {
            Step::Draw { draw, ranged } => {
                if let Some(d) = self.pick_draw(draw) {
                    self.record(pass, d, ranged)?;
                }
            }
            Step::Set(op) => self.set(op).map_err(StepError::Model)?,
            Step::Bind { draw, block } => {
                if let (Some(d), Some(b)) = (self.pick_draw(draw), self.pick_block(block)) {
                    self.bind(d, b)?;
                }
            }
            Step::Remove { draw } => {
                if let Some(d) = self.pick_draw(draw) {
                    self.remove_draw(d);
                }
            }
            Step::Create {
                block,
                object,
                mode,
            } => self.create_draw(block, object, mode)?,
        }
        Ok(())
    }

    /// Runs `script`'s sets and passes in `frame`.
    fn run_script(
        &mut self,
        frame: &mut vgpu::Frame<'_>,
        targets: &[Target; 2],
        script: &Script,
    ) -> Result<(), StepError> {
        for op in &script.pre {
            self.set(*op).map_err(StepError::Model)?;
        }
        for pass in &script.passes {
            for op in &pass.before {
                self.set(*op).map_err(StepError::Model)?;
            }
            if let Some(f) = self.frame.as_mut() {
                f.in_passes = true;
            }
            let mut model_error = None;
            let target = &targets[usize::from(pass.target % 2)];
            frame.pass(target, |p| {
                for step in &pass.steps {
                    match self.step(p, *step) {
                        Ok(()) => {}
                        Err(StepError::Gpu(e)) => return Err(e),
                        Err(StepError::Model(m)) => {
                            model_error = Some(m);
                            return Ok(());
                        }
                    }
                }
                Ok(())
            })?;
            if let Some(m) = model_error {
                return Err(StepError::Model(m));
            }
        }
        Ok(())
    }

    fn frame(&mut self, targets: &[Target; 2], script: &Script) -> Check {
        let gpu = self.gpu.clone();
        let start_epoch = self.epoch;
        self.frame = Some(OpenFrame::default());
        let mut frame = gpu.begin_frame().map_err(|e| format!("begin_frame: {e}"))?;
        let ran = self.run_script(&mut frame, targets, script);
        let open = self.frame.take().unwrap_or_default();
        match ran {
            Ok(()) => {}
            Err(StepError::Gpu(e)) => return fail(format!("recording: {e}")),
            Err(StepError::Model(m)) => return fail(m),
        }
        let report = frame.submit().map_err(|e| format!("submit: {e}"))?;
        for pass in &*report.direct_passes {
            if let Some(i) = REASONS.iter().position(|&r| r == pass.reason.kind()) {
                self.coverage.direct[i] += 1;
            }
        }
        let log = gpu.take_inspected();
        let record = FrameRecord {
            seen: open.seen,
            epoch: (start_epoch, self.epoch),
            changed_in_passes: open.changed_in_passes,
            bytes_at_end: self.all_bytes(),
            run: self.runs + 1,
            touched: std::mem::take(&mut self.touched),
        };
        self.check_frame(&record, &log, &report.stats)?;
        self.runs = record.run;
        self.frames.push(record);
        self.last_script = Some(script.clone());
        Ok(())
    }

    fn cancel(&mut self, targets: &[Target; 2], script: &Script) -> Check {
        let gpu = self.gpu.clone();
        let before = gpu.stats();
        self.frame = Some(OpenFrame::default());
        let mut frame = gpu.begin_frame().map_err(|e| format!("begin_frame: {e}"))?;
        let ran = self.run_script(&mut frame, targets, script);
        self.frame = None;
        frame.cancel();
        match ran {
            Ok(()) => {}
            Err(StepError::Gpu(e)) => return fail(format!("recording: {e}")),
            Err(StepError::Model(m)) => return fail(m),
        }
        gpu.take_inspected();
        self.structural();
        let delta = gpu.stats() - before;
        if delta.write_calls != 0 || delta.bytes_uploaded != 0 {
            return fail(format!(
                "cancelled frame uploaded: {} writes, {} bytes (docs/design.md §5: nothing)",
                delta.write_calls, delta.bytes_uploaded
            ));
        }
        Ok(())
    }

    fn apply(&mut self, targets: &[Target; 2], op: &Op) -> Check {
        if !matches!(op, Op::Static) {
            self.runs = 0; // a new script, or something between two runs of one
        }
        let gpu_err = |e: vgpu::Error| format!("{op:?}: {e}");
        match op {
            Op::CreateDraw {
                block,
                object,
                mode,
            } => self.create_draw(*block, *object, *mode).map_err(gpu_err)?,
            Op::RemoveDraw { draw } => {
                if let Some(d) = self.pick_draw(*draw) {
                    self.remove_draw(d);
                }
            }
            Op::CreateBlock { value, mode } => {
                self.create_block(*value, *mode).map_err(gpu_err)?;
            }
            Op::DropBlock { block } => {
                if let Some(b) = self.pick_block(*block) {
                    self.drop_block(b);
                }
            }
            Op::Bind { draw, block } => {
                if let (Some(d), Some(b)) = (self.pick_draw(*draw), self.pick_block(*block)) {
                    self.bind(d, b).map_err(gpu_err)?;
                }
            }
            Op::Set(set) => self.set(*set)?,
            Op::Frame(script) => self.frame(targets, script)?,
            Op::Cancel(script) => self.cancel(targets, script)?,
            Op::Static => {
                if let Some(script) = self.last_script.clone() {
                    for _ in 0..3 {
                        self.frame(targets, &script)?;
                    }
                }
            }
            Op::Restructure(change) => {
                if let Some(script) = self.last_script.as_ref().map(|s| change.apply(s)) {
                    for _ in 0..3 {
                        self.frame(targets, &script)?;
                    }
                }
            }
            Op::DestroyBuffer => {
                let buffer = self
                    .gpu
                    .buffer_init("doomed", &[0; 16], wgpu::BufferUsages::UNIFORM)
                    .map_err(gpu_err)?;
                buffer.destroy();
            }
        }
        Ok(())
    }

    // ----- checks after a submitted frame -------------------------------------------------------

    fn check_frame(
        &mut self,
        record: &FrameRecord,
        log: &[RecordedBinding],
        stats: &vgpu::StatsSnapshot,
    ) -> Check {
        let n = self.frames.len() + 1;
        // The log, per draw, in recording order.
        let mut draws: Vec<Vec<&RecordedBinding>> = Vec::new();
        for b in log {
            match draws.last_mut() {
                Some(d) if d[0].draw_seq == b.draw_seq => d.push(b),
                _ => draws.push(vec![b]),
            }
        }
        if draws.len() != record.seen.len() {
            return fail(format!(
                "frame {n}: {} draws logged, {} recorded",
                draws.len(),
                record.seen.len()
            ));
        }
        let mut readback = Readback::default();
        let mut first_slot: HashMap<OwnerId, (PageKey, u64)> = HashMap::new();
        for (i, (seen, logged)) in record.seen.iter().zip(&draws).enumerate() {
            let what = format!("frame {n}, draw #{i} ({})", seen.label);
            if logged.iter().any(|b| *b.draw != seen.label) {
                return fail(format!("{what}: logged as {:?}", logged[0].draw));
            }
            match logged[0].path {
                RecordPath::Fast => self.coverage.fast += 1,
                RecordPath::Full => self.coverage.full += 1,
                RecordPath::AutoBundle => self.coverage.auto += 1,
            }
            for (name, (owner, bytes)) in [("camera", &seen.camera), ("object", &seen.object)] {
                let Some(b) = logged.iter().find(|b| &*b.name == name) else {
                    return fail(format!("{what}: no `{name}` binding logged"));
                };
                let Some(BufferKey::Page(page)) = b.buffer else {
                    return fail(format!("{what}: `{name}` bound to {:?}", b.buffer));
                };
                let shadow = u32::try_from(b.offset)
                    .ok()
                    .and_then(|o| self.gpu.inspect_shadow(page, o, bytes.len()));
                if shadow.as_deref() != Some(&bytes[..]) {
                    return fail(format!(
                        "{what}: `{name}` ({owner:?}) at {page:?}+{}: the shadow holds {}, the \
                         draw must see {}",
                        b.offset,
                        show(shadow.as_deref()),
                        show(Some(bytes))
                    ));
                }
                let gpu_bytes = readback.read(&self.gpu, page, b.offset, bytes.len());
                if gpu_bytes.as_deref() != Some(&bytes[..]) {
                    return fail(format!(
                        "{what}: `{name}` ({owner:?}) at {page:?}+{}: the page buffer holds {}, \
                         the draw must see {}",
                        b.offset,
                        show(gpu_bytes.as_deref()),
                        show(Some(bytes))
                    ));
                }
                first_slot.entry(*owner).or_insert((page, b.offset));
            }
        }
        // Every draw recorded is drawn once (`operations_recorded`), and no more draws are
        // replayed than logged as replayed from auto-bundles: a bundle replays only draws the
        // pass recorded. (Fewer: a pass leaving its replay issues the draws it matched from the
        // bundle's commands, logged as such, counted as recorded, not as replayed.)
        let replayed = draws
            .iter()
            .filter(|d| d[0].path == RecordPath::AutoBundle)
            .count() as u64;
        if stats.operations_recorded != record.seen.len() as u64
            || stats.auto_bundle_draws > replayed
        {
            return fail(format!(
                "frame {n}: {} draws recorded, {replayed} logged as replayed from auto-bundles; \
                 the counters say {} drawn, {} replayed",
                record.seen.len(),
                stats.operations_recorded,
                stats.auto_bundle_draws
            ));
        }
        // docs/design.md §3.3: the first value of an owner bound in a frame uses its persistent
        // home.
        for (owner, slot) in &first_slot {
            if record.changed_in_passes.contains(owner) {
                continue;
            }
            let home = *self.homes.entry(*owner).or_insert(*slot);
            if home != *slot {
                return fail(format!(
                    "frame {n}: {owner:?} first bound at {slot:?}, its home is {home:?}"
                ));
            }
        }
        self.check_counters(record, stats)
    }

    /// docs/design.md §5 and §7, where the model predicts the counters exactly.
    fn check_counters(&mut self, record: &FrameRecord, stats: &vgpu::StatsSnapshot) -> Check {
        let n = self.frames.len() + 1;
        let counters = format!(
            "bind groups {}, buffers {}, writes {}, bytes {}, captures {}",
            stats.bind_groups_created,
            stats.buffers_created,
            stats.write_calls,
            stats.bytes_uploaded,
            stats.slots_captured
        );
        let quiet = |f: &FrameRecord| f.epoch.0 == f.epoch.1;
        let Some(previous) = self.frames.last() else {
            return Ok(());
        };
        // Steady: the third run in a row of one script (nothing in between): it starts from
        // the bytes the second started from and makes the same calls. Its draws must see what
        // the second's saw.
        let steady = record.run >= 3 && quiet(previous) && quiet(record);
        if steady && (record.seen != previous.seen || record.bytes_at_end != previous.bytes_at_end)
        {
            return fail(format!(
                "frame {n}: a repeated script saw other bytes (model error)"
            ));
        }
        if steady && resident(record, &self.config) {
            self.coverage.steady += 1;
            if stats.bind_groups_created != 0
                || stats.buffers_created != 0
                || stats.write_calls != 0
                || stats.bytes_uploaded != 0
                || stats.slots_captured != 0
            {
                return fail(format!(
                    "frame {n} repeats the frame before it: {counters} (docs/design.md §7: all 0)"
                ));
            }
        }
        // Exact uploads: values changed only between frames, every owner bound now was bound in
        // the previous frame (at its home), every changed owner is bound now or has no home.
        if !(quiet(previous)
            && quiet(record)
            && previous.epoch.1 == record.epoch.0
            && previous.changed_in_passes.is_empty()
            && record.changed_in_passes.is_empty())
        {
            return Ok(());
        }
        let owners_now: HashSet<OwnerId> = record
            .seen
            .iter()
            .flat_map(|s| [s.object.0, s.camera.0])
            .collect();
        let owners_before: HashSet<OwnerId> = previous
            .seen
            .iter()
            .flat_map(|s| [s.object.0, s.camera.0])
            .collect();
        if !owners_now.is_subset(&owners_before) {
            return Ok(());
        }
        // An owner not bound now that was set since (even back to the same bytes) has its home
        // written if it does not hold them: unless it has no home, the model cannot say.
        if record
            .touched
            .iter()
            .any(|o| !owners_now.contains(o) && self.ever_bound.contains(o))
        {
            return Ok(());
        }
        let mut dirty: Vec<(PageKey, u64, usize)> = Vec::new();
        for (owner, bytes) in &record.bytes_at_end {
            // Bound in both frames, at its home: the home holds the previous frame's bytes.
            let old = previous.bytes_at_end.get(owner);
            if old == Some(bytes) || !owners_now.contains(owner) {
                continue;
            }
            let Some(&(page, offset)) = self.homes.get(owner) else {
                return Ok(());
            };
            dirty.push((page, offset, bytes.len()));
        }
        dirty.sort_by_key(|&(page, offset, _)| (page, offset));
        let (mut writes, mut bytes) = (0u64, 0u64);
        let mut run: Option<(PageKey, u64, u64, usize)> = None; // page, first, last, last len
        for (page, offset, len) in dirty {
            let slot = (len as u64).div_ceil(self.alignment.max(4)) * self.alignment.max(4);
            match &mut run {
                Some((p, _, last, last_len)) if *p == page && *last + slot == offset => {
                    *last = offset;
                    *last_len = len;
                }
                _ => {
                    if let Some((_, first, last, last_len)) = run {
                        writes += 1;
                        bytes += last - first + (last_len as u64).div_ceil(4) * 4;
                    }
                    run = Some((page, offset, offset, len));
                }
            }
        }
        if let Some((_, first, last, last_len)) = run {
            writes += 1;
            bytes += last - first + (last_len as u64).div_ceil(4) * 4;
        }
        self.coverage.exact += 1;
        if stats.write_calls != writes
            || stats.bytes_uploaded != bytes
            || stats.bind_groups_created != 0
            || stats.buffers_created != 0
            || stats.slots_captured != 0
        {
            return fail(format!(
                "frame {n}: {counters}; expected {writes} writes of {bytes} bytes, nothing \
                 else (the changed homes, one write per run of adjacent slots)"
            ));
        }
        Ok(())
    }
}

/// A step's failure: the library's error, or the model's finding.
enum StepError {
    Gpu(vgpu::Error),
    Model(String),
}

impl From<vgpu::Error> for StepError {
    fn from(e: vgpu::Error) -> Self {
        StepError::Gpu(e)
    }
}

/// No owner took more distinct values in the frame than it keeps resident: its home and
/// `max_extra_slots` retained slots, or only the retained slots for an owner whose bytes changed
/// inside a pass before its first bind (its values are all captured: the home keeps an older
/// value).
fn resident(record: &FrameRecord, config: &EngineConfig) -> bool {
    let mut values: HashMap<OwnerId, HashSet<&[u8]>> = HashMap::new();
    for s in &record.seen {
        for (owner, bytes) in [&s.object, &s.camera] {
            values.entry(*owner).or_default().insert(bytes);
        }
    }
    values.iter().all(|(owner, v)| {
        let home = usize::from(!record.changed_in_passes.contains(owner));
        v.len() <= home + config.max_extra_slots
    })
}

fn show(bytes: Option<&[u8]>) -> String {
    match bytes {
        None => "nothing (no such range)".to_owned(),
        Some(b) => format!(
            "{:?}",
            bytemuck::cast_slice::<u8, f32>(&b[..b.len() / 4 * 4])
        ),
    }
}

/// Page buffers read back from the device once per frame.
#[derive(Default)]
struct Readback {
    pages: HashMap<PageKey, Option<Vec<u8>>>,
}

impl Readback {
    fn read(&mut self, gpu: &Gpu, page: PageKey, offset: u64, len: usize) -> Option<Vec<u8>> {
        let all = self
            .pages
            .entry(page)
            .or_insert_with(|| gpu.inspect_page_buffer(page).map(|b| read_buffer(gpu, &b)));
        let start = usize::try_from(offset).ok()?;
        all.as_ref()?.get(start..start + len).map(<[u8]>::to_vec)
    }
}

/// Copies `buffer` into a mappable buffer made on the raw device (not counted), and returns its
/// bytes (the noop device executes copies).
fn read_buffer(gpu: &Gpu, buffer: &wgpu::Buffer) -> Vec<u8> {
    let device = gpu.device();
    let staging = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("model read-back"),
        size: buffer.size(),
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let mut encoder = device.create_command_encoder(&Default::default());
    encoder.copy_buffer_to_buffer(buffer, 0, &staging, 0, buffer.size());
    gpu.queue().submit([encoder.finish()]);
    let slice = staging.slice(..);
    slice.map_async(wgpu::MapMode::Read, |r| {
        r.expect("map the read-back buffer")
    });
    gpu.wait_idle().expect("wait for the read-back");
    let bytes = slice
        .get_mapped_range()
        .expect("the mapped read-back range")
        .to_vec();
    staging.unmap();
    bytes
}

/// Runs `ops` on `gpu` (a fresh device, with [`SMALL_ENGINE`] if `small`) and the model; the
/// first disagreement is the error.
fn run_case(gpu: &Gpu, small: bool, ops: &[Op]) -> Result<Coverage, String> {
    let config = if small {
        SMALL_ENGINE
    } else {
        EngineConfig::default()
    };
    if !gpu.inspect_engine_config(config) {
        return Err("the engine of a new Gpu refused a configuration".into());
    }
    let targets = [
        gpu.target(8, 8).map_err(|e| e.to_string())?,
        gpu.target_with(&TargetDesc::new(8, 8).format(wgpu::TextureFormat::Rgba16Float))
            .map_err(|e| e.to_string())?,
    ];
    let mut world = World::new(gpu.clone(), config).map_err(|e| e.to_string())?;
    for (i, op) in ops.iter().enumerate() {
        world
            .apply(&targets, op)
            .map_err(|e| format!("op #{i} {op:?}: {e}"))?;
    }
    let errors = gpu.take_uncaptured_errors();
    if !errors.is_empty() {
        return Err(format!("uncaptured wgpu errors: {errors:?}"));
    }
    Ok(world.coverage)
}

/// The seed of the random sequences when `VGPU_PROPTEST_SEED` is unset.
const DEFAULT_SEED: u64 = 0x5eed_0030_c0de_0001;

/// Where the seeds of failing cases are kept, replayed before new cases (commit this file).
const REGRESSIONS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/integration/tier1_capture_model.proptest-regressions"
);

/// `VGPU_PROPTEST_SEED` (decimal, or hexadecimal after `0x`), or [`DEFAULT_SEED`].
///
/// # Panics
/// If it is set and not a number: a typo must not silently run the default seed.
fn seed() -> u64 {
    let Ok(text) = std::env::var("VGPU_PROPTEST_SEED") else {
        return DEFAULT_SEED;
    };
    let text = text.trim();
    let parsed = match text.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(&hex.replace('_', ""), 16),
        None => text.parse(),
    };
    parsed.unwrap_or_else(|e| panic!("VGPU_PROPTEST_SEED={text:?}: not a u64 ({e})"))
}

/// `PROPTEST_CASES`, or `default`.
fn cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(default)
}

/// Runs `cases` random sequences, each on a fresh device from `new_gpu`; panics with the
/// shrunk sequence on the first failure. Returns what the checks covered.
fn run_model(cases: u32, new_gpu: impl Fn() -> Gpu) -> Coverage {
    let seed = seed();
    let config = Config {
        cases,
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(REGRESSIONS))),
        rng_seed: RngSeed::Fixed(seed),
        max_shrink_iters: 4096,
        ..Config::default()
    };
    let mut runner = TestRunner::new(config);
    let coverage = std::cell::Cell::new(Coverage::default());
    let case = (any::<bool>(), prop::collection::vec(op(), 1..MAX_OPS));
    let result = runner.run(&case, |(small, ops)| {
        let covered = run_case(&new_gpu(), small, &ops).map_err(TestCaseError::fail)?;
        let mut total = coverage.get();
        total += covered;
        coverage.set(total);
        Ok(())
    });
    if let Err(e) = result {
        panic!(
            "{e}\n(VGPU_PROPTEST_SEED={seed:#x}; the failing case's seed is now in {REGRESSIONS})"
        );
    }
    let c = coverage.get();
    eprintln!(
        "capture model: {cases} cases, VGPU_PROPTEST_SEED={seed:#x}; draws recorded: {} fast, \
         {} full, {} replayed from auto-bundles; passes recorded directly: {}; frames whose \
         counters were checked: {} steady, {} exact uploads",
        c.fast,
        c.full,
        c.auto,
        REASONS
            .iter()
            .zip(c.direct)
            .map(|(r, n)| format!("{n} {r}"))
            .collect::<Vec<_>>()
            .join(", "),
        c.steady,
        c.exact
    );
    c
}

#[test]
fn capture_model_random_operations_see_their_snapshots() {
    let c = run_model(cases(DEFAULT_CASES), Gpu::noop);
    assert!(
        c.fast > 0 && c.full > 0 && c.auto > 0,
        "the three record paths (fast, full, auto-bundle replay) must be exercised: {c:?}"
    );
    // Every structural change invalidates some pass's bundle (the first reason is kept: the
    // order of the checks decides which; "a draw changed" is a rebind or a new draw's sets).
    for (reason, n) in REASONS.iter().zip(c.direct) {
        assert!(n > 0, "no pass recorded directly for `{reason}`: {c:?}");
    }
    assert!(
        c.steady > 0 && c.exact > 0,
        "the counter checks must apply: {c:?}"
    );
}

/// The same on the `VGPU_BACKEND` device (tier 2: lavapipe or llvmpipe in CI), fewer cases:
/// the page buffers read back are what a real device holds.
#[test]
fn capture_model_on_the_env_device() {
    if vgpu_tests::real_gpu().is_none() {
        return;
    }
    let c = run_model(cases(DEFAULT_DEVICE_CASES), || {
        Gpu::from_env().expect("the VGPU_BACKEND device")
    });
    assert!(
        c.fast > 0 && c.full > 0 && c.auto > 0,
        "the three record paths: {c:?}"
    );
}

/// A pass of `steps` into the first target.
fn pass(steps: Vec<Step>) -> PassScript {
    PassScript {
        target: 0,
        before: Vec::new(),
        steps,
    }
}

/// A frame of `passes`, no sets before them.
fn frame_of(passes: Vec<PassScript>) -> Script {
    Script {
        pre: Vec::new(),
        passes,
    }
}

const DRAW_0: Step = Step::Draw {
    draw: 0,
    ranged: false,
};

/// Sequences the property test shrank to when the library was broken on purpose (each fails
/// with that breakage), and one the model first got wrong, run as plain tests on the noop
/// device.
#[test]
fn capture_model_shrunk_sequences() {
    use Mode::Value;
    let set_object = |draw, k| {
        Step::Set(SetOp::Object {
            draw,
            value: ObjectSet::Full(k),
            mode: Value,
        })
    };
    let create = Step::Create {
        block: 0,
        object: 0,
        mode: Value,
    };
    let cases: Vec<(&str, bool, Vec<Op>)> = vec![
        (
            // A set that cannot go to the home slot does not move the owner's stamp: the
            // memoized draw of the next frame binds the home, which holds the old value.
            "stamp bump",
            false,
            vec![
                Op::Cancel(frame_of(vec![pass(vec![create, DRAW_0, DRAW_0])])),
                Op::Frame(frame_of(vec![
                    pass(vec![set_object(0, 1)]),
                    pass(vec![DRAW_0]),
                ])),
            ],
        ),
        (
            // A second value in a frame captured into the home slot overwrites what the first
            // draw saw.
            "capture into the home slot",
            false,
            vec![
                Op::CreateDraw {
                    block: 0,
                    object: 0,
                    mode: Value,
                },
                Op::Frame(frame_of(vec![
                    pass(vec![DRAW_0]),
                    pass(vec![set_object(0, 1), DRAW_0]),
                ])),
            ],
        ),
        (
            // A pass skips `set_bind_group` when only the dynamic offset changed: the second
            // draw reads the first camera.
            "skipped set_bind_group",
            false,
            vec![
                Op::Cancel(frame_of(vec![pass(vec![create])])),
                Op::Frame(frame_of(vec![pass(vec![
                    DRAW_0,
                    Step::Set(SetOp::Camera {
                        block: 0,
                        value: Some(1),
                        mode: Value,
                    }),
                    DRAW_0,
                ])])),
            ],
        ),
        (
            // Every value of an owner set inside passes: all are captured and its home keeps an
            // older value, so three values churn through two retained slots every frame (the
            // model first counted the home as resident).
            "values set inside passes",
            true,
            vec![
                Op::Frame(frame_of(vec![pass(vec![create])])),
                Op::Frame(frame_of(vec![
                    pass(vec![
                        Step::Set(SetOp::Object {
                            draw: 0,
                            value: ObjectSet::Scale(0),
                            mode: Value,
                        }),
                        DRAW_0,
                        set_object(0, 0),
                    ]),
                    pass(vec![DRAW_0, set_object(0, 1), DRAW_0]),
                ])),
                Op::Static,
            ],
        ),
        (
            // With auto-bundles: passes that draw nothing, around a removed draw (the seed kept
            // in the regressions file; its sequence as the generator of then made it).
            "auto-bundles: empty passes and a removed draw",
            false,
            vec![
                Op::CreateDraw {
                    block: 0,
                    object: 0,
                    mode: Value,
                },
                Op::Cancel(frame_of(vec![pass(vec![create])])),
                Op::Frame(frame_of(vec![pass(vec![]), pass(vec![DRAW_0])])),
                Op::RemoveDraw { draw: 0 },
                Op::Static,
                Op::Frame(frame_of(vec![pass(vec![Step::Set(SetOp::Camera {
                    block: 0,
                    value: Some(1),
                    mode: Value,
                })])])),
                Op::RemoveDraw { draw: 0 },
                Op::Static,
                Op::Frame(frame_of(vec![pass(vec![]), pass(vec![])])),
            ],
        ),
    ];
    for (name, small, ops) in cases {
        if let Err(e) = run_case(&Gpu::noop(), small, &ops) {
            panic!("{name}: {e}");
        }
    }
}
