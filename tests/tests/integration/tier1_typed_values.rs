//! Typed values (`#[derive(vgpu::Uniform)]`, arrays, glam and mint types): the bytes they write
//! are the WGSL layout the strict packer produces for the same value; each kind of layout
//! mismatch (order, type, missing field, extra field, padding) is refused once, by name, before a
//! byte changes; the steady typed set allocates nothing and uploads only changed bytes.

use vgpu::{Gpu, Uniform, Value, value};

use crate::alloc_count::counted;

const WGSL: &str = "
    struct Object { world: mat4x4f, color: vec4f, gain: f32, offset: vec3f }
    @group(0) @binding(0) var<uniform> object: Object;
    struct Padded { a: f32, @align(16) b: f32 }
    @group(0) @binding(1) var<uniform> padded: Padded;
    struct Frame { view_projection: mat4x4f }
    @group(1) @binding(0) var<uniform> frame: Frame;
    @vertex fn vs_main(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
        return frame.view_projection * object.world * vec4f(object.offset, object.gain)
            + object.color + vec4f(padded.a + padded.b);
    }
    @fragment fn fs_main() -> @location(0) vec4f { return vec4f(1.0); }
";

#[derive(Clone, Copy, Uniform)]
struct Object {
    world: [[f32; 4]; 4],
    color: [f32; 4],
    gain: f32,
    offset: [f32; 3],
}

#[derive(Clone, Copy, Uniform)]
struct GlamObject {
    world: glam::Mat4,
    color: glam::Vec4,
    gain: f32,
    offset: glam::Vec3,
}

#[derive(Clone, Copy, Uniform)]
struct MintObject {
    world: mint::ColumnMatrix4<f32>,
    color: mint::Vector4<f32>,
    gain: f32,
    offset: mint::Vector3<f32>,
}

#[derive(Uniform)]
struct Swapped {
    color: [f32; 4],
    world: [[f32; 4]; 4],
    gain: f32,
    offset: [f32; 3],
}

#[derive(Uniform)]
struct WrongType {
    world: [[f32; 3]; 3],
    color: [f32; 4],
    gain: f32,
    offset: [f32; 3],
}

#[derive(Uniform)]
struct Missing {
    world: [[f32; 4]; 4],
    color: [f32; 4],
    gain: f32,
}

#[derive(Uniform)]
struct Extra {
    world: [[f32; 4]; 4],
    color: [f32; 4],
    gain: f32,
    offset: [f32; 3],
    _pad: f32,
}

#[derive(Uniform)]
struct Padded {
    a: f32,
    b: f32,
}

/// Nested structs and arrays of structs.
#[derive(Clone, Copy, Uniform)]
struct Light {
    position: [f32; 3],
    intensity: f32,
    color: [f32; 3],
}

#[derive(Clone, Copy, Uniform)]
struct Lights {
    count: u32,
    lights: [Light; 2],
    tail: [f32; 2],
}

const LIGHTS_WGSL: &str = "
    struct Light { position: vec3f, intensity: f32, color: vec3f }
    struct Lights { count: u32, lights: array<Light, 2>, tail: vec2f }
    @group(0) @binding(0) var<uniform> lights: Lights;
    @vertex fn vs_main() -> @builtin(position) vec4f {
        return vec4f(lights.lights[0].position, f32(lights.count));
    }
";

fn object() -> Object {
    Object {
        world: [
            [1.0, 2.0, 3.0, 4.0],
            [5.0, 6.0, 7.0, 8.0],
            [9.0, 10.0, 11.0, 12.0],
            [13.0, 14.0, 15.0, 16.0],
        ],
        color: [0.25, 0.5, 0.75, 1.0],
        gain: 3.0,
        offset: [-1.0, -2.0, -3.0],
    }
}

fn object_value(o: &Object) -> Value {
    value! { world: o.world, color: o.color, gain: o.gain, offset: o.offset }
}

/// The bytes the strict packer writes for `value` into binding `name` of `wgsl`.
fn packed(wgsl: &str, name: &str, value: &Value) -> Vec<u8> {
    let shader = vgpu_core::Shader::new("typed", wgsl).unwrap();
    let plan = shader.binding(name).unwrap().plan.clone().unwrap();
    let mut bytes = vec![0u8; plan.size()];
    plan.pack(
        value,
        &mut bytes,
        &vgpu::low_level::PackContext::new("typed", name),
    )
    .unwrap();
    bytes
}

/// What `value` writes over `T::SIZE` bytes of garbage: every byte, padding as zeros.
fn written<T: Uniform>(value: &T) -> Vec<u8> {
    let mut bytes = vec![0xAAu8; T::SIZE];
    value.write_wgsl(&mut bytes);
    bytes
}

#[test]
fn typed_values_write_the_bytes_the_packer_writes() {
    let o = object();
    let want = packed(WGSL, "object", &object_value(&o));
    assert_eq!(
        Object::SIZE,
        112,
        "offset: vec3f goes to 96, the size rounds to 16"
    );
    assert_eq!(written(&o), want);
    let g = GlamObject {
        world: glam::Mat4::from_cols_array_2d(&o.world),
        color: glam::Vec4::from_array(o.color),
        gain: o.gain,
        offset: glam::Vec3::from_array(o.offset),
    };
    assert_eq!(written(&g), want, "glam");
    let m = MintObject {
        world: o.world.into(),
        color: o.color.into(),
        gain: o.gain,
        offset: o.offset.into(),
    };
    assert_eq!(written(&m), want, "mint");
    // glam and mint values go into `value!` too.
    let from_glam = value! { world: g.world, color: g.color, gain: g.gain, offset: g.offset };
    assert_eq!(packed(WGSL, "object", &from_glam), want);
    let from_mint = value! { world: m.world, color: m.color, gain: m.gain, offset: m.offset };
    assert_eq!(packed(WGSL, "object", &from_mint), want);

    let light = |k: f32| Light {
        position: [k, k + 1.0, k + 2.0],
        intensity: k * 10.0,
        color: [k / 2.0, k / 4.0, k / 8.0],
    };
    let lights = Lights {
        count: 2,
        lights: [light(1.0), light(2.0)],
        tail: [7.0, 8.0],
    };
    let light_value = |l: &Light| {
        value! { position: l.position, intensity: l.intensity, color: l.color }
    };
    let v = value! {
        count: 2u32,
        lights: [light_value(&lights.lights[0]), light_value(&lights.lights[1])],
        tail: lights.tail,
    };
    assert_eq!(
        written(&lights),
        packed(LIGHTS_WGSL, "lights", &v),
        "nested"
    );
}

fn draw(gpu: &Gpu) -> vgpu::Draw {
    let shader = gpu.shader("typed", WGSL).unwrap();
    let draw = gpu
        .draw(
            &shader,
            vgpu::DrawDesc {
                label: "typed draw".into(),
                ..Default::default()
            },
        )
        .unwrap();
    draw.set("frame", value! { view_projection: Value::identity4() })
        .unwrap();
    draw.set("padded", value! { a: 1.0, b: 2.0 }).unwrap();
    draw
}

#[test]
fn each_layout_mismatch_is_refused_by_kind_field_and_types() {
    let gpu = Gpu::noop();
    let draw = draw(&gpu);
    let target = gpu.target(4, 4).unwrap();
    draw.set("object", &object()).unwrap();
    gpu.frame(|f| f.pass(&target, |p| p.draw(&draw))).unwrap();
    let o = object();
    let cases: [(vgpu::Result<()>, &str, &str, &str); 5] = [
        (
            draw.set(
                "object",
                &Swapped {
                    color: o.color,
                    world: o.world,
                    gain: o.gain,
                    offset: o.offset,
                },
            ),
            "order at $.color",
            "Swapped",
            "WGSL order: world: mat4x4<f32>, color: vec4<f32>",
        ),
        (
            draw.set(
                "object",
                &WrongType {
                    world: [[0.0; 3]; 3],
                    color: o.color,
                    gain: o.gain,
                    offset: o.offset,
                },
            ),
            "type at $.world",
            "WrongType",
            "expected mat4x4<f32>, got [[f32; 3]; 3] (WGSL array<vec3<f32>, 3>)",
        ),
        (
            draw.set(
                "object",
                &Missing {
                    world: o.world,
                    color: o.color,
                    gain: o.gain,
                },
            ),
            "missing field at $.offset",
            "Missing",
            "member `offset`: vec3<f32>",
        ),
        (
            draw.set(
                "object",
                &Extra {
                    world: o.world,
                    color: o.color,
                    gain: o.gain,
                    offset: o.offset,
                    _pad: 0.0,
                },
            ),
            "extra field at $._pad",
            "Extra",
            "remove the padding field",
        ),
        (
            draw.set("padded", &Padded { a: 1.0, b: 2.0 }),
            "padding at $.b",
            "Padded",
            "expected f32 at offset 16, got f32 at offset 4",
        ),
    ];
    for (result, kind_at, rust, detail) in cases {
        let e = result.unwrap_err();
        assert_eq!(e.code(), "VGPU-SET-TYPED-LAYOUT", "{e}");
        let text = e.to_string();
        for needle in [kind_at, rust, detail, "\"typed draw\""] {
            assert!(text.contains(needle), "{needle:?} not in: {text}");
        }
    }
    // Nothing changed: the next frame uploads nothing and creates nothing.
    let before = gpu.stats();
    gpu.frame(|f| f.pass(&target, |p| p.draw(&draw))).unwrap();
    let d = gpu.stats() - before;
    assert_eq!((d.bytes_uploaded, d.bind_groups_created), (0, 0), "{d:?}");
}

#[test]
fn steady_typed_sets_allocate_nothing_and_upload_only_changes() {
    let gpu = Gpu::noop();
    let draw = draw(&gpu);
    let target = gpu.target(4, 4).unwrap();
    let camera = gpu
        .uniforms_labeled("camera", &glam::Mat4::IDENTITY)
        .unwrap();
    #[derive(Uniform)]
    struct Frame {
        view_projection: glam::Mat4,
    }
    let mut frame_value = Frame {
        view_projection: glam::Mat4::IDENTITY,
    };
    camera.set(&frame_value).unwrap();
    draw.set("frame", &camera).unwrap();
    let mut o = object();
    draw.set("object", &o).unwrap();
    for _ in 0..3 {
        gpu.frame(|f| f.pass(&target, |p| p.draw(&draw))).unwrap();
    }
    // The same bytes again: no revision, no upload.
    let revision = camera.revision();
    camera.set(&frame_value).unwrap();
    draw.set("object", &o).unwrap();
    assert_eq!(camera.revision(), revision);
    let before = gpu.stats();
    gpu.frame(|f| f.pass(&target, |p| p.draw(&draw))).unwrap();
    assert_eq!((gpu.stats() - before).bytes_uploaded, 0);

    // One round of changes of the same values first: the engine's queue of home slots to
    // write and its buffer of bytes waiting for them grow once.
    o.gain = 1000.0;
    draw.set("object", &o).unwrap();
    frame_value.view_projection = glam::Mat4::from_scale(glam::Vec3::splat(2.0));
    camera.set(&frame_value).unwrap();
    gpu.frame(|f| f.pass(&target, |p| p.draw(&draw))).unwrap();
    let revision = camera.revision();
    // Changed values, set 100 times each: no allocation at all.
    let ((), allocations) = counted(|| {
        for k in 0..100 {
            o.gain = k as f32;
            draw.set("object", &o).unwrap();
            frame_value.view_projection = glam::Mat4::from_scale(glam::Vec3::splat(k as f32));
            camera.set(&frame_value).unwrap();
        }
    });
    assert_eq!(allocations, 0, "typed sets allocate");
    assert_eq!(
        camera.revision(),
        revision + 100,
        "each changed set is a revision"
    );
    let before = gpu.stats();
    gpu.frame(|f| f.pass(&target, |p| p.draw(&draw))).unwrap();
    let d = gpu.stats() - before;
    assert_eq!(d.bytes_uploaded, 112 + 64, "{d:?}");
}

#[test]
fn a_block_made_from_a_typed_value_is_checked_when_first_bound() {
    let gpu = Gpu::noop();
    let draw = draw(&gpu);
    // A 64-byte type of another shape than `Frame { view_projection: mat4x4f }`.
    let wrong = gpu.uniforms_labeled("wrong", &[[0.0f32; 4]; 4]).unwrap();
    let e = draw.set("frame", &wrong).unwrap_err();
    assert_eq!(e.code(), "VGPU-SET-TYPED-LAYOUT", "{e}");
    let text = e.to_string();
    assert!(
        text.contains("type at $") && text.contains("Frame"),
        "{text}"
    );
}

#[test]
fn a_resolved_binding_and_a_batch_set_as_draw_set_does() {
    let gpu = Gpu::noop();
    let target = gpu.target(4, 4).unwrap();
    let draws: Vec<vgpu::Draw> = (0..3).map(|_| draw(&gpu)).collect();
    let objects: Vec<vgpu::Binding> = draws.iter().map(|d| d.binding("object").unwrap()).collect();
    assert_eq!(objects[0].name(), "object");
    let e = draws[0].binding("objet").unwrap_err();
    assert_eq!(e.code(), "VGPU-SET-BINDING-UNKNOWN", "{e}");
    assert!(e.to_string().contains("did you mean `object`?"), "{e}");

    let mut o = object();
    for b in &objects {
        b.set(&o).unwrap();
    }
    let frame = || {
        let before = gpu.stats();
        gpu.frame(|f| {
            f.pass(&target, |p| {
                for d in &draws {
                    p.draw(d)?;
                }
                Ok(())
            })
        })
        .unwrap();
        gpu.stats() - before
    };
    frame();
    frame();
    assert_eq!(frame().bytes_uploaded, 0, "static");
    // One round of changes: the engine's queue of home slots to write grows once.
    o.gain = 8.0;
    for b in &objects {
        b.set(&o).unwrap();
    }
    // The three 112-byte values sit in adjacent 256-byte slots (the noop device's offset
    // alignment) of their size class's page: one run, uploaded up to the last value's end.
    let run = 2 * 256 + 112;
    assert_eq!(frame().bytes_uploaded, run);
    // A batch: one lock for many sets; the same captures as separate sets.
    o.gain = 9.0;
    let ((), allocations) = counted(|| {
        let mut batch = gpu.batch();
        for b in &objects {
            batch.set(b, &o).unwrap();
        }
    });
    assert_eq!(allocations, 0);
    assert_eq!(frame().bytes_uploaded, run);
    // A wrong type through the handle is refused as through the draw.
    let e = objects[1].set(&Padded { a: 0.0, b: 0.0 }).unwrap_err();
    assert_eq!(e.code(), "VGPU-SET-TYPED-LAYOUT", "{e}");
    // A binding of another Gpu is refused by a batch, and changes nothing.
    let other = Gpu::noop();
    let foreign = draw(&other).binding("object").unwrap();
    let e = gpu.batch().set(&foreign, &o).unwrap_err();
    assert_eq!(e.code(), "VGPU-FOREIGN-GPU", "{e}");
}

#[test]
fn a_typed_binding_is_checked_when_made_and_sets_in_place_without_allocating() {
    let gpu = Gpu::noop();
    let target = gpu.target(4, 4).unwrap();
    let typed_draw = draw(&gpu);
    // Each layout mismatch is refused when the handle is made, before any value is set.
    for e in [
        typed_draw.typed_binding::<Swapped>("object").unwrap_err(),
        typed_draw.typed_binding::<WrongType>("object").unwrap_err(),
        typed_draw.typed_binding::<Missing>("object").unwrap_err(),
        typed_draw.typed_binding::<Extra>("object").unwrap_err(),
        typed_draw.typed_binding::<Object>("padded").unwrap_err(),
    ] {
        assert_eq!(e.code(), "VGPU-SET-TYPED-LAYOUT", "{e}");
        assert!(e.to_string().contains("\"typed draw\""), "{e}");
    }
    let e = typed_draw.typed_binding::<Object>("objet").unwrap_err();
    assert_eq!(e.code(), "VGPU-SET-BINDING-UNKNOWN", "{e}");

    let handle = typed_draw.typed_binding::<Object>("object").unwrap();
    assert_eq!(handle.name(), "object");
    let mut o = object();
    handle.set(&o).unwrap();
    let frame = || {
        let before = gpu.stats();
        gpu.frame(|f| f.pass(&target, |p| p.draw(&typed_draw)))
            .unwrap();
        gpu.stats() - before
    };
    frame();
    // The same bytes again (handle and batch): counted unchanged, nothing uploaded.
    handle.set(&o).unwrap();
    gpu.batch().set_typed(&handle, &o).unwrap();
    let d = frame();
    assert_eq!((d.values_set_unchanged, d.bytes_uploaded), (2, 0), "{d:?}");
    // One round of changes first: the engine's queue of home slots to write grows once.
    o.gain = 7.0;
    handle.set(&o).unwrap();
    assert_eq!(frame().bytes_uploaded, 112);
    // Changed values, 100 sets through the handle and 100 in one batch: no allocation, and the
    // last bytes are the ones uploaded, as `draw.set` would.
    let ((), allocations) = counted(|| {
        for k in 0..100 {
            o.gain = k as f32;
            handle.set(&o).unwrap();
        }
        let mut batch = gpu.batch();
        for k in 0..100 {
            o.gain = 100.0 + k as f32;
            batch.set_typed(&handle, &o).unwrap();
        }
    });
    assert_eq!(allocations, 0, "typed binding sets allocate");
    let d = frame();
    assert_eq!((d.write_calls, d.bytes_uploaded), (1, 112), "{d:?}");
    // The binding given a struct value by name in between: the handle writes over it.
    typed_draw.set("object", object_value(&o)).unwrap();
    o.gain = -1.0;
    handle.set(&o).unwrap();
    assert_eq!(frame().bytes_uploaded, 112);
    typed_draw.set("object", &o).unwrap();
    assert_eq!(
        frame().values_set_unchanged,
        1,
        "the handle wrote the same bytes"
    );
    // A binding of another Gpu is refused by a batch.
    let other = Gpu::noop();
    let foreign = draw(&other).typed_binding::<Object>("object").unwrap();
    let e = gpu.batch().set_typed(&foreign, &o).unwrap_err();
    assert_eq!(e.code(), "VGPU-FOREIGN-GPU", "{e}");
}

#[test]
fn a_draw_lives_while_any_of_its_handles_does() {
    let gpu = Gpu::noop();
    let target = gpu.target(4, 4).unwrap();
    let owners = || gpu.uniform_gauges().owners;
    let base = owners();
    let d = draw(&gpu);
    d.set("object", &object()).unwrap();
    // The draw's values ("frame", "padded" and "object") are owners of the engine.
    let per_draw = owners() - base;
    assert_eq!(per_draw, 3);
    assert_eq!(d.label(), *"typed draw");
    let clone = d.clone();
    let binding = d.binding("object").unwrap();
    let typed = d.typed_binding::<Object>("object").unwrap();
    let typed_clone = typed.clone();
    drop(d);
    assert_eq!(
        owners(),
        base + per_draw,
        "the clone and the bindings keep the draw"
    );
    drop(clone);
    // Only bindings are left: they still set and the draw still records through a new handle…
    typed.set(&object()).unwrap();
    binding.set(&object()).unwrap();
    assert!(format!("{binding:?}").contains("typed draw"), "{binding:?}");
    drop(typed);
    drop(binding);
    assert_eq!(owners(), base + per_draw, "one typed binding left");
    typed_clone.set(&object()).unwrap();
    drop(typed_clone);
    // …and the last handle gone, its values are freed.
    assert_eq!(owners(), base);

    // A draw dropped inside a pass (the state held by the pass) is removed once the pass's
    // borrow ends, and the frame still records the others.
    let keep = draw(&gpu);
    keep.set("object", &object()).unwrap();
    let gone = draw(&gpu);
    gone.set("object", &object()).unwrap();
    assert_eq!(owners(), base + 2 * per_draw);
    gpu.frame(|f| {
        f.pass(&target, |p| {
            p.draw(&keep)?;
            p.draw(&gone)?;
            drop(gone);
            p.draw(&keep)
        })
    })
    .unwrap();
    assert_eq!(owners(), base + per_draw);
}
