//! `typed`: the typed and raw-bytes paths. Arbitrary byte strings through `Draw::set_bytes`,
//! `Draw::set_all`, `Gpu::uniforms_bytes` and `SharedUniforms::set_bytes`, and
//! `#[derive(vgpu::Uniform)]` values filled from the input (any `f32` bit pattern, NaN included)
//! set on their own WGSL binding and on the others, by name and through `TypedBinding` handles
//! (alone and in a `SetBatch`).
//!
//! Invariants: no panic; every `Err` carries a `VGPU-` code; on the draw that only ever takes
//! values (`values`), a byte string of the binding's size (its reflected size, or the fixed part
//! plus one or more whole elements of a runtime-sized array) is accepted and any other size
//! refused, a typed struct is accepted on its own binding and refused on another struct's; the
//! bytes a typed value writes are the strict packer's for the same `Value`; what the engine holds
//! round-trips: a block's revision stays put when its typed value is set again as raw bytes
//! (`write_wgsl`) and moves by exactly one when a byte changes, and a draw whose typed value is
//! set again as the same bytes uploads nothing in the next frame, while a changed byte uploads;
//! a `TypedBinding` is made on exactly the bindings where a by-name typed set is accepted, and
//! writes the bytes the by-name set writes (setting the value again by name changes nothing).

#![no_main]

use arbitrary::{Arbitrary, Unstructured};
use libfuzzer_sys::fuzz_target;
use vgpu::{BindingArg, Draw, DrawDesc, Gpu, SharedUniforms, Target, Uniform, Value, value};

/// `draw.typed_binding::<T>(name)`, then the handle's `set` and a batch's `set_typed` (the first
/// takes the full path, the second the handle's kept owner), in the order `batch_first` says.
fn handle_set<T: Uniform>(
    gpu: &Gpu,
    draw: &Draw,
    name: &str,
    v: &T,
    batch_first: bool,
) -> vgpu::Result<()> {
    let handle = draw.typed_binding::<T>(name)?;
    if batch_first {
        gpu.batch().set_typed(&handle, v)?;
        handle.set(v)
    } else {
        handle.set(v)?;
        gpu.batch().set_typed(&handle, v)
    }
}
use vgpu_fuzz::{check_err, fresh_gpu, ok_or_coded, printing};

const WGSL: &str = "
struct Object { world: mat4x4f, color: vec4f, gain: f32, offset: vec3f }
@group(0) @binding(0) var<uniform> object: Object;
struct Light { position: vec3f, intensity: f32, color: vec3f }
struct Lights { count: u32, lights: array<Light, 2>, tail: vec2f }
@group(0) @binding(1) var<uniform> lights: Lights;
struct Padded { a: f32, @align(16) b: f32 }
@group(0) @binding(2) var<uniform> padded: Padded;
@group(0) @binding(3) var<storage, read> data: array<vec4f>;
struct Tailed { n: u32, items: array<vec4f> }
@group(0) @binding(4) var<storage, read> tailed: Tailed;
struct Frame { view_projection: mat4x4f }
@group(1) @binding(0) var<uniform> frame: Frame;
@vertex fn vs_main(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
    return frame.view_projection * object.world * vec4f(object.offset, object.gain) + object.color
        + vec4f(lights.lights[i % 2u].position, f32(lights.count))
        + vec4f(lights.tail, padded.a, padded.b);
}
@fragment fn fs_main() -> @location(0) vec4f { return data[0] + tailed.items[tailed.n]; }
";

const BINDINGS: [&str; 6] = ["object", "lights", "padded", "data", "tailed", "frame"];

#[derive(Uniform, Arbitrary, Clone, Copy, Debug)]
struct Object {
    world: [[f32; 4]; 4],
    color: [f32; 4],
    gain: f32,
    offset: [f32; 3],
}

#[derive(Uniform, Arbitrary, Clone, Copy, Debug)]
struct Light {
    position: [f32; 3],
    intensity: f32,
    color: [f32; 3],
}

#[derive(Uniform, Arbitrary, Clone, Copy, Debug)]
struct Lights {
    count: u32,
    lights: [Light; 2],
    tail: [f32; 2],
}

/// WGSL puts `b` at 16 (`@align(16)`); this struct has it at 4: refused on `padded`.
#[derive(Uniform, Arbitrary, Clone, Copy, Debug)]
struct Padded {
    a: f32,
    b: f32,
}

#[derive(Uniform, Arbitrary, Clone, Copy, Debug)]
struct Frame {
    view_projection: [[f32; 4]; 4],
}

/// `Object`'s members in another order: refused on `object`.
#[derive(Uniform, Arbitrary, Clone, Copy, Debug)]
struct Swapped {
    color: [f32; 4],
    world: [[f32; 4]; 4],
    gain: f32,
    offset: [f32; 3],
}

#[derive(Arbitrary, Clone, Copy, Debug)]
enum Typed {
    Object(Object),
    Lights(Lights),
    Padded(Padded),
    Frame(Frame),
    Swapped(Swapped),
    Vec4([f32; 4]),
    Mat4([[f32; 4]; 4]),
    Vec4s([[f32; 4]; 3]),
    F32(f32),
    U32(u32),
}

impl Typed {
    fn bind(&self) -> BindingArg<'_> {
        match self {
            Typed::Object(v) => v.into(),
            Typed::Lights(v) => v.into(),
            Typed::Padded(v) => v.into(),
            Typed::Frame(v) => v.into(),
            Typed::Swapped(v) => v.into(),
            Typed::Vec4(v) => v.into(),
            Typed::Mat4(v) => v.into(),
            Typed::Vec4s(v) => v.into(),
            Typed::F32(v) => v.into(),
            Typed::U32(v) => v.into(),
        }
    }
    fn value_arg(&self) -> vgpu::ValueArg<'_> {
        match self.bind() {
            BindingArg::Typed(t) => vgpu::ValueArg::Typed(t),
            _ => unreachable!(),
        }
    }
    /// The value through a `TypedBinding` of its own Rust type on `name`.
    fn handle_set(&self, gpu: &Gpu, draw: &Draw, name: &str, batch: bool) -> vgpu::Result<()> {
        match self {
            Typed::Object(v) => handle_set(gpu, draw, name, v, batch),
            Typed::Lights(v) => handle_set(gpu, draw, name, v, batch),
            Typed::Padded(v) => handle_set(gpu, draw, name, v, batch),
            Typed::Frame(v) => handle_set(gpu, draw, name, v, batch),
            Typed::Swapped(v) => handle_set(gpu, draw, name, v, batch),
            Typed::Vec4(v) => handle_set(gpu, draw, name, v, batch),
            Typed::Mat4(v) => handle_set(gpu, draw, name, v, batch),
            Typed::Vec4s(v) => handle_set(gpu, draw, name, v, batch),
            Typed::F32(v) => handle_set(gpu, draw, name, v, batch),
            Typed::U32(v) => handle_set(gpu, draw, name, v, batch),
        }
    }
    /// `write_wgsl`'s bytes.
    fn wgsl_bytes(&self) -> Vec<u8> {
        fn w<T: Uniform>(v: &T) -> Vec<u8> {
            let mut out = vec![0xEE; T::SIZE];
            v.write_wgsl(&mut out);
            out
        }
        match self {
            Typed::Object(v) => w(v),
            Typed::Lights(v) => w(v),
            Typed::Padded(v) => w(v),
            Typed::Frame(v) => w(v),
            Typed::Swapped(v) => w(v),
            Typed::Vec4(v) => w(v),
            Typed::Mat4(v) => w(v),
            Typed::Vec4s(v) => w(v),
            Typed::F32(v) => w(v),
            Typed::U32(v) => w(v),
        }
    }
    /// The binding this value's type is laid out for, if any.
    fn own_binding(&self) -> Option<usize> {
        match self {
            Typed::Object(_) => Some(0),
            Typed::Lights(_) => Some(1),
            Typed::Frame(_) => Some(5),
            _ => None,
        }
    }
    fn is_struct(&self) -> bool {
        matches!(
            self,
            Typed::Object(_)
                | Typed::Lights(_)
                | Typed::Padded(_)
                | Typed::Frame(_)
                | Typed::Swapped(_)
        )
    }
    /// The same value as a `Value`, for the strict packer.
    fn value(&self) -> Option<(usize, Value)> {
        Some(match self {
            Typed::Object(o) => (
                0,
                value! { world: o.world, color: o.color, gain: o.gain, offset: o.offset },
            ),
            Typed::Lights(l) => {
                let light = |x: &Light| {
                    value! { position: x.position, intensity: x.intensity, color: x.color }
                };
                (
                    1,
                    value! {
                        count: l.count,
                        lights: Value::Array(l.lights.iter().map(light).collect()),
                        tail: l.tail,
                    },
                )
            }
            Typed::Frame(f) => (5, value! { view_projection: f.view_projection }),
            _ => return None,
        })
    }
}

#[derive(Arbitrary, Debug)]
enum Op {
    /// `values.set_bytes` of arbitrary bytes.
    Bytes {
        binding: u8,
        bytes: Vec<u8>,
    },
    /// `values.set_bytes` of the binding's size (`elements` of a runtime-sized array), off by
    /// `delta` bytes.
    Sized {
        binding: u8,
        elements: u8,
        delta: i8,
        seed: u64,
    },
    /// `values.set_all` of sized byte strings: all or nothing.
    SetAll {
        sets: Vec<(u8, u8, i8, u64)>,
    },
    /// `values.set` of a typed value.
    Typed {
        binding: u8,
        value: Typed,
    },
    /// A `TypedBinding` of the value's type on either draw, set alone or in a batch.
    Handle {
        binding: u8,
        value: Typed,
        blocks_draw: bool,
        batch: bool,
    },
    /// A typed value on its own binding, then its bytes: the engine holds the same bytes.
    DrawRoundTrip {
        value: Typed,
        flip: u8,
    },
    /// `gpu.uniforms_bytes`.
    NewBlockBytes {
        bytes: Vec<u8>,
    },
    /// `gpu.uniforms` of a typed value.
    NewBlockTyped {
        value: Typed,
    },
    /// `block.set_bytes` of arbitrary bytes.
    BlockBytes {
        block: u8,
        bytes: Vec<u8>,
    },
    /// `block.set_bytes` of a binding's size.
    BlockSized {
        block: u8,
        binding: u8,
        delta: i8,
        seed: u64,
    },
    /// `block.set` of a typed value, then its bytes: the revision stays, a flipped byte moves it.
    BlockRoundTrip {
        block: u8,
        value: Typed,
        flip: u8,
    },
    /// `blocks.set(binding, &block)` on the draw that takes blocks.
    BindBlock {
        block: u8,
        binding: u8,
    },
    /// A value on the draw that takes blocks (values and blocks alternate there).
    BlocksDrawValue {
        binding: u8,
        value: Typed,
    },
    DropBlock {
        block: u8,
    },
    Frame,
}

struct World {
    gpu: Gpu,
    shader: vgpu::Shader,
    /// Takes values, typed values and bytes only (exact expectations).
    values: Draw,
    /// Takes blocks and values (error codes only).
    blocks: Draw,
    target: Target,
    shared: Vec<SharedUniforms>,
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
    let shader = gpu
        .shader("typed", WGSL)
        .expect("the typed target's shader");
    let draw = |label: &str| {
        gpu.draw(
            &shader,
            DrawDesc {
                label: label.into(),
                ..Default::default()
            },
        )
        .expect("draw")
    };
    let (values, blocks) = (draw("values"), draw("blocks"));
    let target = gpu.target(4, 4).expect("target");
    let mut w = World {
        gpu: gpu.clone(),
        shader,
        values,
        blocks,
        target,
        shared: Vec::new(),
    };
    w.init();
    for op in ops.iter().take(64) {
        w.apply(op);
    }
    // The draw that only took values still records.
    let r = w.frame(&w.values);
    assert!(r.is_ok(), "final frame: {r:?}");
    let errors = w.gpu.take_uncaptured_errors();
    assert!(errors.is_empty(), "uncaptured wgpu errors: {errors:?}");
});

fn sized(seed: u64, len: usize) -> Vec<u8> {
    let mut x = seed | 1;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect()
}

impl World {
    fn layout(&self, binding: usize) -> std::sync::Arc<vgpu::low_level::TypeLayout> {
        let info = self
            .shader
            .reflection()
            .binding(BINDINGS[binding])
            .expect("binding");
        info.layout.clone().expect("buffer layout")
    }

    /// The binding's size with `elements` elements of its runtime-sized array, and whether a
    /// byte string of `len` bytes has a valid size (`Some(false)`: refused, `None`: a
    /// runtime-sized array with no element, which may be refused).
    fn size_rule(&self, binding: usize, elements: usize, len: usize) -> (usize, Option<bool>) {
        let layout = self.layout(binding);
        match layout.runtime_array() {
            None => (layout.size as usize, Some(len == layout.size as usize)),
            Some(rt) => {
                let (off, stride) = (rt.offset as usize, rt.stride as usize);
                let whole = len >= off && (len - off) % stride == 0;
                let ok = if whole && len == off {
                    None
                } else {
                    Some(whole)
                };
                (off + elements * stride, ok)
            }
        }
    }

    /// Every binding of both draws set to a valid value.
    fn init(&mut self) {
        for draw in [&self.values, &self.blocks] {
            for (i, name) in BINDINGS.iter().enumerate() {
                let (len, _) = self.size_rule(i, 1, 0);
                draw.set_bytes(name, &vec![0u8; len])
                    .expect("initial bytes");
            }
        }
    }

    fn frame(&self, draw: &Draw) -> vgpu::Result<vgpu::FrameReport> {
        self.gpu.frame(|f| f.pass(&self.target, |p| p.draw(draw)))
    }

    fn block(&self, i: u8) -> Option<&SharedUniforms> {
        if self.shared.is_empty() {
            None
        } else {
            self.shared.get(i as usize % self.shared.len())
        }
    }

    fn apply(&mut self, op: &Op) {
        match op {
            Op::Bytes { binding, bytes } => {
                let b = *binding as usize % BINDINGS.len();
                let r = self.values.set_bytes(BINDINGS[b], bytes);
                self.expect_size("set_bytes", b, bytes.len(), &r);
            }
            Op::Sized {
                binding,
                elements,
                delta,
                seed,
            } => {
                let b = *binding as usize % BINDINGS.len();
                let (len, _) = self.size_rule(b, *elements as usize % 4, 0);
                let len = len.saturating_add_signed(*delta as isize % 9);
                let r = self.values.set_bytes(BINDINGS[b], &sized(*seed, len));
                self.expect_size("set_bytes (sized)", b, len, &r);
            }
            Op::SetAll { sets } => {
                let mut bufs = Vec::new();
                let mut all_ok = Some(true);
                for (binding, elements, delta, seed) in sets.iter().take(8) {
                    let b = *binding as usize % BINDINGS.len();
                    let (len, _) = self.size_rule(b, *elements as usize % 4, 0);
                    let len = len.saturating_add_signed(*delta as isize % 9);
                    let (_, ok) = self.size_rule(b, 0, len);
                    all_ok = match (all_ok, ok) {
                        (Some(false), _) | (_, Some(false)) => Some(false),
                        (Some(true), Some(true)) => Some(true),
                        _ => None,
                    };
                    bufs.push((BINDINGS[b], sized(*seed, len)));
                }
                let r = self
                    .values
                    .set_all(bufs.iter().map(|(n, b)| (*n, BindingArg::Bytes(b))));
                match (&r, all_ok) {
                    (Ok(()), Some(false)) => {
                        panic!("set_all accepted a byte string of a wrong size")
                    }
                    (Err(e), Some(true)) => {
                        panic!("set_all refused byte strings of valid sizes: {e}")
                    }
                    _ => {
                        ok_or_coded("set_all", &r);
                    }
                }
            }
            Op::Typed { binding, value } => {
                let b = *binding as usize % BINDINGS.len();
                let r = self.values.set(BINDINGS[b], value.bind());
                let ok = ok_or_coded("typed set", &r);
                if value.own_binding() == Some(b) {
                    assert!(
                        ok,
                        "{value:?} refused on its own binding `{}`: {r:?}",
                        BINDINGS[b]
                    );
                } else if value.is_struct() && b != 3 && b != 4 {
                    // A struct on another struct's binding (or on `padded`, whose `@align` no
                    // Rust struct has).
                    assert!(!ok, "{value:?} accepted on binding `{}`", BINDINGS[b]);
                }
                self.packer_agrees(value);
            }
            Op::Handle {
                binding,
                value,
                blocks_draw,
                batch,
            } => {
                let b = *binding as usize % BINDINGS.len();
                let draw = if *blocks_draw {
                    &self.blocks
                } else {
                    &self.values
                };
                let r = value.handle_set(&self.gpu, draw, BINDINGS[b], *batch);
                let ok = ok_or_coded("typed binding", &r);
                // Setting the same value by name again: accepted exactly where the handle was,
                // and then the bytes are already there. (A frame adds the engine's count of
                // unchanged sets to the stats: one before, one after.)
                self.gpu.frame(|_| Ok(())).expect("an empty frame");
                let unchanged = self.gpu.stats().values_set_unchanged;
                let by_name = draw.set(BINDINGS[b], value.bind());
                ok_or_coded("typed set after a typed binding", &by_name);
                if !*blocks_draw {
                    assert_eq!(
                        ok,
                        by_name.is_ok(),
                        "{value:?} on `{}`: typed binding {r:?}, by name {by_name:?}",
                        BINDINGS[b]
                    );
                }
                if ok {
                    assert!(
                        by_name.is_ok(),
                        "{value:?} through a typed binding on `{}`, refused by name: {by_name:?}",
                        BINDINGS[b]
                    );
                    self.gpu.frame(|_| Ok(())).expect("an empty frame");
                    assert_eq!(
                        self.gpu.stats().values_set_unchanged,
                        unchanged + 1,
                        "{value:?} on `{}`: the by-name set after the typed binding changed bytes",
                        BINDINGS[b]
                    );
                }
            }
            Op::DrawRoundTrip { value, flip } => self.draw_round_trip(value, *flip),
            Op::NewBlockBytes { bytes } => {
                let r = self.gpu.uniforms_bytes("block", bytes);
                if ok_or_coded("uniforms_bytes", &r) {
                    self.shared.extend(r.ok());
                }
            }
            Op::NewBlockTyped { value } => {
                let r = self.gpu.uniforms_labeled("block", value.value_arg());
                if ok_or_coded("uniforms (typed)", &r) {
                    self.shared.extend(r.ok());
                }
            }
            Op::BlockBytes { block, bytes } => {
                if let Some(b) = self.block(*block) {
                    ok_or_coded("block set_bytes", &b.set_bytes(bytes));
                }
            }
            Op::BlockSized {
                block,
                binding,
                delta,
                seed,
            } => {
                let (len, _) = self.size_rule(*binding as usize % BINDINGS.len(), 1, 0);
                let len = len.saturating_add_signed(*delta as isize % 9);
                if let Some(b) = self.block(*block) {
                    ok_or_coded("block set_bytes (sized)", &b.set_bytes(&sized(*seed, len)));
                }
            }
            Op::BlockRoundTrip { block, value, flip } => {
                if let Some(b) = self.block(*block) {
                    block_round_trip(b, value, *flip);
                }
            }
            Op::BindBlock { block, binding } => {
                let name = BINDINGS[*binding as usize % BINDINGS.len()];
                if let Some(b) = self.block(*block) {
                    ok_or_coded("bind block", &self.blocks.set(name, b));
                }
            }
            Op::BlocksDrawValue { binding, value } => {
                let name = BINDINGS[*binding as usize % BINDINGS.len()];
                ok_or_coded(
                    "typed set (blocks draw)",
                    &self.blocks.set(name, value.bind()),
                );
            }
            Op::DropBlock { block } => {
                if !self.shared.is_empty() {
                    let i = *block as usize % self.shared.len();
                    self.shared.remove(i);
                }
            }
            Op::Frame => {
                let values = self.frame(&self.values);
                assert!(values.is_ok(), "a frame of the values draw: {values:?}");
                ok_or_coded("frame (blocks draw)", &self.frame(&self.blocks));
                let errors = self.gpu.take_uncaptured_errors();
                assert!(errors.is_empty(), "uncaptured wgpu errors: {errors:?}");
            }
        }
    }

    #[track_caller]
    fn expect_size(&self, what: &str, b: usize, len: usize, r: &vgpu::Result<()>) {
        let (_, ok) = self.size_rule(b, 0, len);
        match (r, ok) {
            (Ok(()), Some(false)) => {
                panic!("{what}: {len} bytes accepted on `{}`", BINDINGS[b])
            }
            (Err(e), Some(true)) => {
                panic!(
                    "{what}: {len} bytes (a valid size) refused on `{}`: {e}",
                    BINDINGS[b]
                )
            }
            (Err(e), _) => check_err(what, e),
            _ => {}
        }
    }

    /// The bytes a typed value writes are the strict packer's for the same `Value`.
    fn packer_agrees(&self, value: &Typed) {
        let Some((b, v)) = value.value() else { return };
        let info = self
            .shader
            .reflection()
            .binding(BINDINGS[b])
            .expect("binding");
        let plan = info.plan.as_ref().expect("plan");
        let mut packed = vec![0xCC; plan.size()];
        let cx = vgpu::low_level::PackContext::new("typed", BINDINGS[b]);
        if let Err(e) = plan.pack(&v, &mut packed, &cx) {
            panic!("the packer refused {value:?}: {e}");
        }
        assert_eq!(
            packed,
            value.wgsl_bytes(),
            "typed bytes differ from packed bytes: {value:?}"
        );
    }

    /// `values.set(own binding, typed)`, a frame, the same bytes again: no upload; a changed
    /// byte: an upload.
    fn draw_round_trip(&self, value: &Typed, flip: u8) {
        let Some(b) = value.own_binding() else { return };
        let name = BINDINGS[b];
        let r = self.values.set(name, value.bind());
        assert!(r.is_ok(), "{value:?} refused on its own binding: {r:?}");
        if self.frame(&self.values).is_err() {
            return;
        }
        let bytes = value.wgsl_bytes();
        self.values
            .set_bytes(name, &bytes)
            .expect("the typed value's own bytes");
        let before = self.gpu.stats();
        self.frame(&self.values).expect("frame");
        let uploaded = self.gpu.stats().bytes_uploaded - before.bytes_uploaded;
        assert_eq!(
            uploaded, 0,
            "{value:?}: its own bytes set again changed what `{name}` holds"
        );
        let mut changed = bytes.clone();
        let at = flip as usize % changed.len();
        changed[at] ^= 0x01;
        self.values
            .set_bytes(name, &changed)
            .expect("changed bytes");
        let before = self.gpu.stats();
        self.frame(&self.values).expect("frame");
        let uploaded = self.gpu.stats().bytes_uploaded - before.bytes_uploaded;
        assert!(
            uploaded > 0,
            "{value:?}: byte {at} changed on `{name}`, nothing uploaded"
        );
        self.values
            .set(name, value.bind())
            .expect("the typed value again");
    }
}

/// `block.set(typed)` then `block.set_bytes(write_wgsl)`: the revision does not move; one flipped
/// byte moves it by one; the typed value again moves it back by one.
fn block_round_trip(block: &SharedUniforms, value: &Typed, flip: u8) {
    let r = block.set(value.value_arg());
    if !ok_or_coded("block set (typed)", &r) {
        return;
    }
    let rev = block.revision();
    let bytes = value.wgsl_bytes();
    let r = block.set_bytes(&bytes);
    assert!(
        r.is_ok(),
        "{value:?}: its own bytes refused by the block it was set on: {r:?}"
    );
    assert_eq!(
        block.revision(),
        rev,
        "{value:?}: its own bytes changed the block's bytes"
    );
    let mut changed = bytes;
    let at = flip as usize % changed.len();
    changed[at] ^= 0x01;
    block
        .set_bytes(&changed)
        .expect("changed bytes of the same size");
    assert_eq!(
        block.revision(),
        rev + 1,
        "{value:?}: byte {at} changed, revision did not move by one"
    );
    block.set(value.value_arg()).expect("the typed value again");
    assert_eq!(
        block.revision(),
        rev + 2,
        "{value:?}: typed value again, revision did not move by one"
    );
}
