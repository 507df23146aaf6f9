//! Tier 1 (noop device) and tier 2 (the `VGPU_BACKEND` device): faults, and what is left after
//! them (issue #14, part 3).
//!
//! - Device loss: `wgpu::Device::destroy` between frames, inside a frame's closure, inside a
//!   pass's closure, and through wgpu's device-lost callback: every later call that needs the
//!   device fails with `VGPU-DEVICE-LOST`, nothing panics or hangs, and a new `Gpu` works.
//! - Refused requests: a buffer, texture or uniform value the device cannot hold (over its
//!   limits; a real out-of-memory on lavapipe) is a typed error, and gauges, counters, values
//!   and the next frame are as before.
//! - Validation errors of raw commands inside a frame: the frame fails with wgpu's description,
//!   no page is leaked, the next frame renders.
//! - Panics in user closures (a frame's, a pass's, between `begin_frame` and `submit`): the
//!   submission is cancelled, no lock stays held, no page is leaked, values are kept.
//!
//! Each case runs on the noop device (counters) and on the env device (pixels read back), each
//! time on `Gpu`s of its own (a destroyed device cannot be shared).

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::mpsc;
use std::time::Duration;

use vgpu::{
    BufferDesc, Compute, ComputeDesc, Draw, FrameReport, Gpu, GpuOptions, SamplerDesc, Shader,
    SharedUniforms, Target, TextureDesc, value,
};
use vgpu_tests::{FULLSCREEN_VS, assert_all_pixels, fullscreen, real_gpu};

/// A draw whose color is `object.color * camera.tint`; `camera` is a shared block.
const SHADER: &str = "
struct Camera { tint: vec4f }
struct Object { color: vec4f }
@group(0) @binding(0) var<uniform> camera: Camera;
@group(0) @binding(1) var<uniform> object: Object;
@fragment fn fs_main() -> @location(0) vec4f { return object.color * camera.tint; }
";

/// A compute with a storage binding (its first set creates a storage buffer).
const COMPUTE: &str = "
@group(0) @binding(0) var<storage, read_write> data: array<u32>;
@compute @workgroup_size(1) fn cs_main() { data[0] = data[0] + 1u; }
";

/// A draw with a 512-byte uniform (a slot size of its own: binding it needs a new page).
const WIDE: &str = "
struct Wide { colors: array<vec4f, 32> }
@group(0) @binding(0) var<uniform> wide: Wide;
@fragment fn fs_main() -> @location(0) vec4f { return wide.colors[0]; }
";

/// A draw with a 2048-byte uniform.
const BIG: &str = "
struct Big { colors: array<vec4f, 128> }
@group(0) @binding(0) var<uniform> big: Big;
@fragment fn fs_main() -> @location(0) vec4f { return big.colors[0]; }
";

const WHITE: [f32; 4] = [1.0, 1.0, 1.0, 1.0];
const RED: [f32; 4] = [1.0, 0.0, 0.0, 1.0];
const GREEN: [f32; 4] = [0.0, 1.0, 0.0, 1.0];
const BLUE: [f32; 4] = [0.0, 0.0, 1.0, 1.0];

fn rgba8(c: [f32; 4]) -> [u8; 4] {
    c.map(|v| (v * 255.0).round() as u8)
}

/// Which device a case runs on; each case makes the `Gpu`s it needs (after a loss, a new one).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Device {
    Noop,
    Env,
}

impl Device {
    fn gpu(self) -> Gpu {
        match self {
            Device::Noop => Gpu::noop(),
            Device::Env => Gpu::from_env().expect("the env device"),
        }
    }

    /// A `Gpu` with this device's limits, changed by `change`.
    fn gpu_with_limits(self, change: impl FnOnce(&mut wgpu::Limits)) -> Gpu {
        let mut limits = self.gpu().device().limits();
        change(&mut limits);
        let options = match self {
            Device::Noop => GpuOptions {
                backend: vgpu::BackendChoice::Noop,
                ..Default::default()
            },
            Device::Env => GpuOptions::from_env().expect("VGPU_BACKEND"),
        };
        Gpu::new(&GpuOptions {
            required_limits: Some(limits),
            ..options
        })
        .expect("a device with lower limits")
    }
}

/// Runs `case` on the noop device, then on the env device (unless `VGPU_BACKEND=noop`).
fn each_device(case: impl Fn(Device)) {
    case(Device::Noop);
    if real_gpu().is_some() {
        case(Device::Env);
    }
}

/// The handles a case works with, all made on `gpu`.
struct Scene {
    gpu: Gpu,
    shader: Shader,
    draw: Draw,
    camera: SharedUniforms,
    target: Target,
    compute_shader: Shader,
    compute: Compute,
    buffer: vgpu::Buffer,
    texture: vgpu::Texture,
}

fn scene(gpu: &Gpu) -> Scene {
    let shader = gpu
        .shader("faults", &format!("{SHADER}\n{FULLSCREEN_VS}"))
        .expect("shader");
    let draw = fullscreen(gpu, "object", SHADER);
    let camera = gpu
        .uniforms_labeled("camera", value! { tint: WHITE })
        .expect("camera");
    draw.set("camera", &camera).expect("bind the camera");
    draw.set("object", value! { color: RED }).expect("object");
    let compute_shader = gpu.shader("compute", COMPUTE).expect("compute shader");
    let compute = gpu
        .compute(&compute_shader, ComputeDesc::default())
        .expect("compute");
    let buffer = gpu
        .buffer(&BufferDesc {
            size: 16,
            usage: wgpu::BufferUsages::STORAGE,
            ..Default::default()
        })
        .expect("buffer");
    let texture = gpu
        .texture(&TextureDesc {
            width: 2,
            height: 2,
            ..Default::default()
        })
        .expect("texture");
    Scene {
        gpu: gpu.clone(),
        shader,
        draw,
        camera,
        target: gpu.target(4, 4).expect("target"),
        compute_shader,
        compute,
        buffer,
        texture,
    }
}

/// One frame: one pass drawing the scene's draw.
fn render(s: &Scene) -> vgpu::Result<FrameReport> {
    s.gpu.frame(|f| f.pass(&s.target, |p| p.draw(&s.draw)))
}

/// Renders one frame and checks it: one draw recorded and nothing created or uploaded when
/// `steady`; on a real device, every pixel `expected`.
#[track_caller]
fn render_checked(s: &Scene, expected: [f32; 4], steady: bool, what: &str) {
    let report = render(s).unwrap_or_else(|e| panic!("{what}: the frame fails: {e}"));
    assert_eq!(report.stats.operations_recorded, 1, "{what}");
    if steady {
        assert_eq!(report.stats.bind_groups_created, 0, "{what}");
        assert_eq!(report.stats.buffers_created, 0, "{what}");
    }
    if !s.gpu.is_noop() {
        let image = s.target.read_rgba8().expect("read back");
        assert_all_pixels(&image, rgba8(expected), what);
    }
}

/// Asserts `result` failed with `VGPU-DEVICE-LOST` (reason `Destroyed`) and a message that says
/// what to do; returns the message.
#[track_caller]
fn assert_lost<T: std::fmt::Debug>(result: vgpu::Result<T>, what: &str) -> String {
    let e = result.expect_err(what);
    assert_eq!(e.code(), "VGPU-DEVICE-LOST", "{what}: {e}");
    let Some(vgpu::DeviceError::Lost { reason, .. }) = e.as_device() else {
        panic!("{what}: {e:?}")
    };
    assert_eq!(*reason, wgpu::DeviceLostReason::Destroyed, "{what}: {e}");
    let message = e.to_string();
    for part in ["the device was lost", "Device::destroy", "create a new Gpu"] {
        assert!(message.contains(part), "{what}: {message:?} lacks {part:?}");
    }
    message
}

/// A new `Gpu` on the same kind of device renders (pixels) and counts (noop) correctly.
#[track_caller]
fn a_new_gpu_works(device: Device, what: &str) {
    let s = scene(&device.gpu());
    render_checked(&s, RED, false, what);
    render_checked(&s, RED, true, what);
    assert!(s.gpu.take_uncaptured_errors().is_empty());
}

// ----- device loss ------------------------------------------------------------------------------

/// A public call that needs the device.
type Call = fn(&Scene) -> vgpu::Result<()>;

/// Every public call that needs the device, each one run first after a `destroy` (on a `Gpu` of
/// its own), so each finds the loss by itself.
const CALLS_NEEDING_THE_DEVICE: &[(&str, Call)] = &[
    ("Gpu::shader", |s| s.gpu.shader("again", SHADER).map(drop)),
    ("Gpu::draw", |s| {
        s.gpu.draw(&s.shader, Default::default()).map(drop)
    }),
    ("Gpu::effect", |s| s.gpu.effect("effect", SHADER).map(drop)),
    ("Gpu::compute", |s| {
        s.gpu
            .compute(&s.compute_shader, ComputeDesc::default())
            .map(drop)
    }),
    ("Gpu::uniforms", |s| {
        s.gpu.uniforms(value! { tint: GREEN }).map(drop)
    }),
    ("Gpu::uniforms_bytes", |s| {
        s.gpu.uniforms_bytes("bytes", &[0; 16]).map(drop)
    }),
    ("Gpu::buffer", |s| {
        s.gpu.buffer(&BufferDesc::default()).map(drop)
    }),
    ("Gpu::buffer_init", |s| {
        s.gpu
            .buffer_init("init", &[1; 16], wgpu::BufferUsages::STORAGE)
            .map(drop)
    }),
    ("Gpu::texture", |s| {
        s.gpu.texture(&TextureDesc::default()).map(drop)
    }),
    ("Gpu::texture_with_data", |s| {
        let desc = TextureDesc {
            width: 1,
            height: 1,
            ..Default::default()
        };
        s.gpu.texture_with_data(&desc, &[0; 4]).map(drop)
    }),
    ("Gpu::sampler", |s| {
        s.gpu.sampler(&SamplerDesc::default()).map(drop)
    }),
    ("Gpu::target", |s| s.gpu.target(4, 4).map(drop)),
    ("Gpu::target_for_view", |s| {
        let view = s.target.color_view().expect("a color target");
        s.gpu.target_for_view("view", &view, None).map(drop)
    }),
    ("Gpu::bundle", |s| {
        s.gpu
            .bundle("bundle", s.target.signature(), |b| b.draw(&s.draw))
            .map(drop)
    }),
    ("Gpu::frame", |s| render(s).map(drop)),
    ("Gpu::begin_frame and Frame::submit", |s| {
        let mut frame = s.gpu.begin_frame()?;
        frame.pass(&s.target, |p| p.draw(&s.draw))?;
        frame.submit().map(drop)
    }),
    ("Gpu::frame with a compute pass", |s| {
        s.gpu.frame(|f| f.compute_pass(|_| Ok(()))).map(drop)
    }),
    ("Gpu::wait_idle", |s| s.gpu.wait_idle()),
    ("Target::read_rgba8", |s| s.target.read_rgba8().map(drop)),
    ("Buffer::read_blocking", |s| {
        s.buffer.read_blocking().map(drop)
    }),
    ("Buffer::read", |s| {
        pollster::block_on(s.buffer.read()).map(drop)
    }),
    // The first value of a storage binding needs a buffer of the device.
    ("Compute::set (storage, first value)", |s| {
        s.compute.set_bytes("data", &[7; 16])
    }),
];

/// Calls that do not detect a loss themselves but fail once it is known (they check a flag: they
/// run often).
const CALLS_AFTER_THE_LOSS_IS_KNOWN: &[(&str, Call)] = &[
    ("Buffer::write", |s| s.buffer.write(0, &[1; 16])),
    ("Texture::write", |s| s.texture.write(&s.gpu, &[9; 16])),
    ("Gpu::begin_frame", |s| s.gpu.begin_frame().map(drop)),
];

#[test]
fn after_destroy_every_call_that_needs_the_device_fails_with_device_lost() {
    each_device(|device| {
        for &(name, call) in CALLS_NEEDING_THE_DEVICE {
            let s = scene(&device.gpu());
            render_checked(&s, RED, false, name);
            let gauges = s.gpu.uniform_gauges();
            s.gpu.device().destroy();
            let what = format!("{device:?}: {name} after destroy");
            let message = assert_lost(call(&s), &what);
            assert!(s.gpu.context().is_lost(), "{what}: the context knows");
            // The loss is known now: the calls that only check the flag fail too, and so does
            // every call that needs the device, again.
            let again = [(name, call)];
            for &(later, call) in CALLS_AFTER_THE_LOSS_IS_KNOWN.iter().chain(&again) {
                assert_lost(call(&s), &format!("{what}, then {later}"));
            }
            assert_lost(render(&s), &format!("{what}, then a frame"));
            // The value of a uniform binding is held on the CPU: setting it needs no device.
            s.draw
                .set("object", value! { color: GREEN })
                .unwrap_or_else(|e| panic!("{what}: a set that needs no device fails: {e}"));
            assert_eq!(s.gpu.uniform_gauges(), gauges, "{what}: {message}");
            let errors = s.gpu.take_uncaptured_errors();
            assert!(errors.is_empty(), "{what}: uncaptured errors {errors:?}");
        }
        a_new_gpu_works(device, "a new Gpu after the others were destroyed");
    });
}

#[test]
fn wgpu_reports_destroy_through_the_lost_callback_at_its_next_poll() {
    each_device(|device| {
        let s = scene(&device.gpu());
        render_checked(&s, RED, false, "before destroy");
        s.gpu.device().destroy();
        // wgpu does not call the device-lost callback in `destroy`: on every backend (noop
        // included) it does at the next poll that finds the queue drained.
        assert!(!s.gpu.context().is_lost(), "{device:?}: not known at once");
        s.gpu
            .device()
            .poll(wgpu::PollType::wait_indefinitely())
            .expect("wgpu waits for a destroyed device's last work");
        assert!(
            s.gpu.context().is_lost(),
            "{device:?}: the callback marked the context lost"
        );
        let message = assert_lost(render(&s), "a frame after the callback");
        // wgpu's callback for `destroy` gives reason `Destroyed` and no message of its own.
        assert!(
            message.contains("(Destroyed: wgpu::Device::destroy was called)"),
            "{message}"
        );
        assert!(s.gpu.take_uncaptured_errors().is_empty());
        a_new_gpu_works(device, "a new Gpu after the callback");
    });
}

#[test]
fn destroy_inside_a_frame_fails_that_frame_with_device_lost() {
    each_device(|device| {
        // Inside the frame's closure, between two passes.
        let s = scene(&device.gpu());
        render_checked(&s, RED, false, "warm-up");
        let gauges = s.gpu.uniform_gauges();
        let result = s.gpu.frame(|f| {
            f.pass(&s.target, |p| p.draw(&s.draw))?;
            s.gpu.device().destroy();
            f.pass(&s.target, |p| p.draw(&s.draw))
        });
        assert_lost(result, "destroy inside the frame's closure");
        assert_lost(render(&s), "the frame after");
        assert_eq!(s.gpu.uniform_gauges(), gauges);
        assert!(s.gpu.take_uncaptured_errors().is_empty());

        // Inside a pass's closure, between two draws.
        let s = scene(&device.gpu());
        render_checked(&s, RED, false, "warm-up");
        let result = s.gpu.frame(|f| {
            f.pass(&s.target, |p| {
                p.draw(&s.draw)?;
                s.gpu.device().destroy();
                p.draw(&s.draw)
            })
        });
        assert_lost(result, "destroy inside a pass's closure");
        assert_lost(s.gpu.target(2, 2), "a target after");
        assert!(s.gpu.take_uncaptured_errors().is_empty());

        // Between `begin_frame` and `submit`.
        let s = scene(&device.gpu());
        render_checked(&s, RED, false, "warm-up");
        let mut frame = s.gpu.begin_frame().expect("begin");
        frame.pass(&s.target, |p| p.draw(&s.draw)).expect("record");
        s.gpu.device().destroy();
        assert_lost(frame.submit(), "destroy before submit");
        assert_lost(s.gpu.begin_frame(), "the next begin_frame");
        assert!(s.gpu.take_uncaptured_errors().is_empty());

        a_new_gpu_works(device, "a new Gpu after losses inside frames");
    });
}

/// A page (or storage buffer) the lost device cannot create: a typed error, nothing changed.
#[test]
fn a_page_asked_of_a_lost_device_fails_and_changes_nothing() {
    each_device(|device| {
        let s = scene(&device.gpu());
        render_checked(&s, RED, false, "warm-up");
        // Set before the loss: values are held on the CPU; a page is asked for only when a draw
        // binding them is recorded (512-byte slots: a page of their own).
        let wide = fullscreen(&s.gpu, "wide", WIDE);
        wide.set_bytes("wide", &[0; 512]).expect("set on the CPU");
        let gauges = s.gpu.uniform_gauges();
        let stats = s.gpu.stats();
        s.gpu.device().destroy();
        let result = s.gpu.frame(|f| f.pass(&s.target, |p| p.draw(&wide)));
        assert_lost(result, "recording a draw that needs a new page");
        assert_lost(
            s.compute.set_bytes("data", &[1; 64]),
            "a storage value's first set",
        );
        assert_eq!(s.gpu.uniform_gauges(), gauges, "no page, slot or buffer");
        let after = s.gpu.stats();
        assert_eq!(
            (after.buffers_created, after.pages_created),
            (stats.buffers_created, stats.pages_created)
        );
        assert!(s.gpu.take_uncaptured_errors().is_empty());
    });
}

/// A device vgpu adopted keeps the app's device-lost callback: vgpu still finds the loss (wgpu
/// reports the device invalid) but cannot know why, and says so.
#[test]
fn an_adopted_device_that_was_destroyed_fails_with_device_lost() {
    let instance = wgpu::Instance::new(wgpu::InstanceDescriptor {
        backends: wgpu::Backends::NOOP,
        backend_options: wgpu::BackendOptions {
            noop: wgpu::NoopBackendOptions::enabled(),
            ..Default::default()
        },
        ..wgpu::InstanceDescriptor::new_without_display_handle()
    });
    let adapter =
        pollster::block_on(instance.request_adapter(&Default::default())).expect("noop adapter");
    let (device, queue) =
        pollster::block_on(adapter.request_device(&Default::default())).expect("noop device");
    let gpu = Gpu::from_wgpu(Some(instance), adapter, device, queue);
    let s = scene(&gpu);
    render_checked(&s, RED, false, "adopted");
    gpu.device().destroy();
    let e = render(&s).expect_err("a frame after destroy");
    assert_eq!(e.code(), "VGPU-DEVICE-LOST");
    let Some(vgpu::DeviceError::Lost {
        reason, message, ..
    }) = e.as_device()
    else {
        panic!("{e:?}")
    };
    assert_eq!(*reason, wgpu::DeviceLostReason::Unknown, "vgpu cannot know");
    assert!(message.contains("adopted"), "{message}");
    assert_eq!(
        gpu.wait_idle().expect_err("wait_idle").code(),
        "VGPU-DEVICE-LOST"
    );
}

// ----- refused requests -------------------------------------------------------------------------

/// Runs `refuse` (which must fail with `code`) between two frames of `s`, and asserts it changed
/// nothing: gauges, counters, the values set, the pixels and counters of the next frame.
#[track_caller]
fn refused_without_effect(s: &Scene, code: &str, refuse: impl FnOnce() -> vgpu::Result<()>) {
    s.camera.set(value! { tint: WHITE }).expect("camera");
    render_checked(s, RED, false, "warm-up");
    let gauges = s.gpu.uniform_gauges();
    let stats = s.gpu.stats();
    let revision = s.camera.revision();
    let e = refuse().expect_err("the device refuses");
    assert_eq!(e.code(), code, "{e}");
    assert_eq!(s.gpu.uniform_gauges(), gauges, "{e}");
    assert_eq!(s.gpu.stats(), stats, "{e}");
    assert_eq!(s.camera.revision(), revision);
    render_checked(s, RED, true, code);
    assert!(s.gpu.take_uncaptured_errors().is_empty());
}

#[test]
fn a_buffer_over_max_buffer_size_is_refused_and_changes_nothing() {
    each_device(|device| {
        let s = scene(&device.gpu());
        let max = s.gpu.device().limits().max_buffer_size;
        let size = (max / 4 + 1) * 4;
        refused_without_effect(&s, "VGPU-DEVICE-VALIDATION", || {
            let e = s
                .gpu
                .buffer(&BufferDesc {
                    label: "too large".into(),
                    size,
                    usage: wgpu::BufferUsages::STORAGE,
                })
                .expect_err("over max_buffer_size");
            let vgpu::DeviceError::Validation { description, .. } =
                e.as_device().expect("a device error")
            else {
                panic!("{e:?}")
            };
            // wgpu's description gives both sizes.
            assert!(
                description.contains(&size.to_string()) && description.contains(&max.to_string()),
                "{description}"
            );
            Err(e)
        });
    });
}

#[test]
fn a_texture_or_target_over_max_texture_dimension_is_refused_and_changes_nothing() {
    each_device(|device| {
        let s = scene(&device.gpu());
        let max = s.gpu.device().limits().max_texture_dimension_2d;
        refused_without_effect(&s, "VGPU-TEXTURE-DESC", || {
            s.gpu
                .texture(&TextureDesc {
                    width: max + 1,
                    height: 1,
                    ..Default::default()
                })
                .map(drop)
        });
        refused_without_effect(&s, "VGPU-TARGET-SIZE", || {
            s.gpu.target(1, max + 1).map(drop)
        });
    });
}

/// lavapipe refuses a 4 GiB texture (Rgba32Float, 16384 x 16384) with an out-of-memory error
/// before allocating anything (its largest allocation is smaller): a real out-of-memory, safe
/// to provoke. Other devices may hold such a texture (a real GPU) or not report it (GL): lavapipe
/// only.
#[test]
fn lavapipe_out_of_memory_for_a_texture_is_an_error_and_changes_nothing() {
    let Some(gpu) = real_gpu() else {
        return;
    };
    let info = gpu.adapter_info();
    if info.backend != wgpu::Backend::Vulkan || info.device_type != wgpu::DeviceType::Cpu {
        vgpu_tests::skip(
            "lavapipe",
            &format!(
                "not lavapipe ({:?} {:?} {}): the out-of-memory test",
                info.backend, info.device_type, info.name
            ),
        );
        return;
    }
    let s = scene(&gpu);
    let side = 16384.min(gpu.device().limits().max_texture_dimension_2d);
    assert_eq!(side, 16384, "lavapipe allows 16384 texels per side");
    refused_without_effect(&s, "VGPU-DEVICE-OUT-OF-MEMORY", || {
        let e = s
            .gpu
            .texture(&TextureDesc {
                label: "4 GiB".into(),
                width: side,
                height: side,
                format: wgpu::TextureFormat::Rgba32Float,
                ..Default::default()
            })
            .expect_err("lavapipe cannot allocate 4 GiB at once");
        let message = e.to_string();
        assert!(
            message.contains("4 GiB") && message.contains("create_texture"),
            "{message}"
        );
        Err(e)
    });
}

/// A uniform value larger than the device's `max_buffer_size` (here 1024 bytes, below its
/// `max_uniform_buffer_binding_size`) could never get a page slot: its set is refused with
/// `VGPU-UNIFORMS-LIMIT` naming that limit, before any page is asked for; the same for a storage
/// value. Nothing changes.
#[test]
fn a_value_larger_than_max_buffer_size_is_refused_at_set_and_changes_nothing() {
    each_device(|device| {
        let gpu = device.gpu_with_limits(|l| l.max_buffer_size = 1024);
        assert_eq!(gpu.device().limits().max_buffer_size, 1024);
        assert!(gpu.device().limits().max_uniform_buffer_binding_size >= 2048);
        let s = scene(&gpu);
        let big = fullscreen(&gpu, "big", BIG);
        refused_without_effect(&s, "VGPU-UNIFORMS-LIMIT", || {
            let e = big
                .set_bytes("big", &[0; 2048])
                .expect_err("2048 bytes cannot fit");
            let message = e.to_string();
            assert!(
                message.contains("max_buffer_size") && message.contains("2048"),
                "{message}"
            );
            Err(e)
        });
        refused_without_effect(&s, "VGPU-UNIFORMS-LIMIT", || {
            let e = s
                .compute
                .set_bytes("data", &[0; 2048])
                .expect_err("2048 bytes cannot fit");
            assert!(e.to_string().contains("max_buffer_size"), "{e}");
            Err(e)
        });
        // Recording the draw whose value was refused: its binding was never set.
        let e = gpu
            .frame(|f| f.pass(&s.target, |p| p.draw(&big)))
            .expect_err("unset binding");
        assert_eq!(e.code(), "VGPU-DRAW-UNSET-BINDING");
        render_checked(&s, RED, true, "after the refused values");
    });
}

// ----- validation errors inside a frame ---------------------------------------------------------

/// Two passes into two targets, the camera set differently for each (the second value is
/// captured into an extra slot), then `raw` commands in a third pass (into a third target: a
/// pass clears its target).
fn frame_with_raw(
    s: &Scene,
    [second, third]: [&Target; 2],
    raw: impl FnOnce(&mut wgpu::RenderPass<'static>),
) -> vgpu::Result<FrameReport> {
    s.gpu.frame(|f| {
        s.camera.set(value! { tint: GREEN })?;
        f.pass(&s.target, |p| p.draw(&s.draw))?;
        s.camera.set(value! { tint: BLUE })?;
        f.pass(second, |p| p.draw(&s.draw))?;
        f.pass(third, |p| {
            raw(p.raw());
            Ok(())
        })
    })
}

/// Checks a frame whose raw commands wgpu rejects: it fails with wgpu's description containing
/// `expected`, leaves the gauges as a good frame of the same values left them (100 times: no
/// page leaks), and the next frame renders.
fn rejected_raw_commands(device: Device, expected: &str, raw: fn(&mut wgpu::RenderPass<'static>)) {
    let s = scene(&device.gpu());
    s.draw.set("object", value! { color: WHITE }).expect("set");
    let (second, third) = (
        s.gpu.target(4, 4).expect("target"),
        s.gpu.target(4, 4).expect("target"),
    );
    let targets = [&second, &third];
    frame_with_raw(&s, targets, |_| {}).expect("the frame without the bad command");
    let gauges = s.gpu.uniform_gauges();
    assert_eq!(gauges.retained_slots, 1, "the second camera value");
    for i in 0..100 {
        let e = frame_with_raw(&s, targets, raw).expect_err("wgpu rejects the command");
        assert_eq!(e.code(), "VGPU-DEVICE-VALIDATION", "{e}");
        let vgpu::DeviceError::Validation { description, .. } = e.as_device().expect("device")
        else {
            panic!("{e:?}")
        };
        assert!(
            description.to_lowercase().contains(expected),
            "frame {i}: {description}"
        );
        assert_eq!(s.gpu.uniform_gauges(), gauges, "frame {i}: nothing leaked");
    }
    // The next frame: each pass sees its camera value.
    let report = frame_with_raw(&s, targets, |_| {}).expect("the next frame works");
    assert_eq!(report.stats.operations_recorded, 2);
    assert_eq!(report.stats.bind_groups_created, 0);
    assert_eq!(report.stats.buffers_created, 0);
    assert_eq!(s.gpu.uniform_gauges(), gauges);
    if !s.gpu.is_noop() {
        let first = s.target.read_rgba8().expect("read");
        assert_all_pixels(&first, rgba8(GREEN), "first pass");
        let image = second.read_rgba8().expect("read");
        assert_all_pixels(&image, rgba8(BLUE), "second pass");
    }
    assert!(s.gpu.take_uncaptured_errors().is_empty());
}

#[test]
fn a_raw_draw_without_a_pipeline_fails_the_frame_and_leaks_nothing() {
    each_device(|device| {
        rejected_raw_commands(device, "pipeline", |p| p.draw(0..3, 0..1));
    });
}

#[test]
fn a_raw_out_of_range_bind_group_fails_the_frame_and_leaks_nothing() {
    each_device(|device| {
        rejected_raw_commands(device, "bind group", |p| {
            p.set_bind_group(31, None, &[]);
        });
    });
}

// ----- panics in user closures ------------------------------------------------------------------

/// Where a test panics.
#[derive(Clone, Copy, Debug)]
enum PanicAt {
    /// In `gpu.frame`'s closure, after a pass.
    FrameClosure,
    /// In a pass's closure, after a draw.
    PassClosure,
    /// Between `begin_frame` and `submit` (the frame is dropped unsubmitted).
    BeforeSubmit,
}

/// One frame that sets the camera to `a`, draws, sets it to `b` (a second value in the frame: an
/// extra slot), draws again, and panics at `at`.
fn panicking_frame(s: &Scene, at: PanicAt, (a, b): ([f32; 4], [f32; 4])) {
    let result = catch_unwind(AssertUnwindSafe(|| match at {
        PanicAt::FrameClosure => {
            let _ = s.gpu.frame(|f| {
                s.camera.set(value! { tint: a })?;
                f.pass(&s.target, |p| p.draw(&s.draw))?;
                s.camera.set(value! { tint: b })?;
                f.pass(&s.target, |p| p.draw(&s.draw))?;
                panic!("user code panics in the frame");
            });
        }
        PanicAt::PassClosure => {
            let _ = s.gpu.frame(|f| {
                f.pass(&s.target, |p| {
                    s.camera.set(value! { tint: a })?;
                    p.draw(&s.draw)?;
                    s.camera.set(value! { tint: b })?;
                    p.draw(&s.draw)?;
                    panic!("user code panics in the pass");
                })
            });
        }
        PanicAt::BeforeSubmit => {
            let mut frame = s.gpu.begin_frame().expect("begin");
            s.camera.set(value! { tint: a }).expect("set");
            frame.pass(&s.target, |p| p.draw(&s.draw)).expect("record");
            s.camera.set(value! { tint: b }).expect("set");
            frame.pass(&s.target, |p| p.draw(&s.draw)).expect("record");
            panic!("user code panics before submit");
        }
    }));
    assert!(result.is_err(), "{at:?}: the closure panicked");
}

#[test]
fn a_panic_in_a_frame_or_pass_closure_cancels_the_frame_and_leaves_the_gpu_usable() {
    each_device(|device| {
        for at in [
            PanicAt::FrameClosure,
            PanicAt::PassClosure,
            PanicAt::BeforeSubmit,
        ] {
            let s = scene(&device.gpu());
            s.draw.set("object", value! { color: WHITE }).expect("set");
            render_checked(&s, WHITE, false, "warm-up");
            panicking_frame(&s, at, (GREEN, BLUE));
            let after_one = s.gpu.uniform_gauges();
            assert!(
                after_one.retained_slots >= 1,
                "{at:?}: the frame captured a second value ({after_one:?})"
            );
            let mut last = BLUE;
            for i in 0..99 {
                let values = if i % 2 == 0 {
                    (BLUE, GREEN)
                } else {
                    (GREEN, BLUE)
                };
                panicking_frame(&s, at, values);
                last = values.1;
            }
            assert_eq!(
                s.gpu.uniform_gauges(),
                after_one,
                "{at:?}: 100 panicking frames hold what 1 did"
            );
            // No open submission, no held lock: another thread records a frame (bounded wait:
            // a stuck lock fails the test instead of hanging it).
            let (done, finished) = mpsc::channel();
            let gpu = s.gpu.clone();
            let (target, draw) = (s.target.clone(), s.draw.clone());
            std::thread::spawn(move || {
                let r = gpu.frame(|f| f.pass(&target, |p| p.draw(&draw)));
                let _ = done.send(r.map(|_| ()).map_err(|e| e.to_string()));
            });
            finished
                .recv_timeout(Duration::from_secs(60))
                .expect("another thread's frame finishes (no lock left held)")
                .unwrap_or_else(|e| panic!("{at:?}: the next frame fails: {e}"));
            // The last value set (in the last panicking frame, before its panic) is kept.
            render_checked(&s, last, true, &format!("{at:?}: after the panics"));
            assert_eq!(s.gpu.uniform_gauges(), after_one, "{at:?}");
            assert!(s.gpu.take_uncaptured_errors().is_empty());
        }
    });
}
