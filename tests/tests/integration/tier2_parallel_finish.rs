//! Parallel finishing (`GpuOptions::parallel_finish`, issue 33's scene): a render pass that
//! recorded over a thousand draws at its place in the previous frame gets a command encoder of
//! its own; a frame with two or more such passes finishes their encoders at once, all but the
//! last on worker threads, and submits the command buffers in recording order.
//!
//! The frames here: a large pass `a` fills target `t` red; a small pass `s` copies `t`'s pixel
//! (0, 0) into target `u`; a large pass `b` draws green over `t`'s top half. Each frame must show
//! `t` green on top and red below and `u` red: `s` ran after `a` and before `b` (run out of
//! order, `u` would hold the cleared `t` or `b`'s green). The counters say which frames split
//! (`pass_encoders`) and that a worker finished one of them (`encoders_finished_in_parallel`),
//! on any machine of two cores or more. An error raised while a worker finishes fails the frame
//! like one raised on the frame's thread. Tier 2 (vulkan and gl) checks the pixels; on the noop
//! device (`each_gpu` runs it first) the same frames run and the counters are asserted.
//!
//! Shown to fail with the split removed (`Frame::begin_large_pass` returning `false`: the
//! `pass_encoders` counts), with the command buffers submitted in reverse order (`t`'s top red:
//! `b` ran before `a`), and with the worker's error scope removed (the finish error uncaptured,
//! the frame failing only at the submit).

#![allow(clippy::unwrap_used, reason = "an unwrap in a test is an assertion")]

use vgpu::{Draw, FrameReport, Gpu, PassDesc, Target};
use vgpu_tests::each_gpu;
use vgpu_tests::quad::quad_draw;

/// A fullscreen draw in the color of texel (0, 0) of `src`.
const SAMPLE_WGSL: &str = "
@group(0) @binding(0) var src: texture_2d<f32>;
@fragment fn fs_main() -> @location(0) vec4f { return textureLoad(src, vec2i(0, 0), 0); }
";

/// Draws of each large pass: over vgpu's threshold of 1 024.
const DRAWS: usize = 1100;
const SIZE: u32 = 4;
const FULL: [f32; 4] = [-1.0, 1.0, -1.0, 1.0];
const TOP: [f32; 4] = [-1.0, 1.0, 0.0, 1.0];
const RED: [u8; 4] = [200, 10, 10, 255];
const GREEN: [u8; 4] = [10, 200, 10, 255];

/// The scene of the module doc.
struct Scene {
    a: Draw,
    b: Draw,
    s: Draw,
    t: Target,
    u: Target,
}

impl Scene {
    fn new(gpu: &Gpu) -> Scene {
        let t = gpu
            .target_with(&vgpu::TargetDesc::new(SIZE, SIZE).label("t"))
            .unwrap();
        let u = gpu
            .target_with(&vgpu::TargetDesc::new(SIZE, SIZE).label("u"))
            .unwrap();
        let s = vgpu_tests::fullscreen(gpu, "s", SAMPLE_WGSL);
        s.set("src", &t).unwrap();
        Scene {
            a: quad_draw(gpu, "a", FULL, RED),
            b: quad_draw(gpu, "b", TOP, GREEN),
            s,
            t,
            u,
        }
    }

    /// Records the three passes; `in_a` runs inside pass `a` after its draws.
    fn record(
        &self,
        f: &mut vgpu::Frame<'_>,
        in_a: &dyn Fn(&mut vgpu::Pass<'_>),
    ) -> vgpu::Result<()> {
        f.pass(PassDesc::new(&self.t).label("a"), |p| {
            for _ in 0..DRAWS {
                p.draw(&self.a)?;
            }
            in_a(p);
            Ok(())
        })?;
        f.pass(PassDesc::new(&self.u).label("s"), |p| p.draw(&self.s))?;
        f.pass(PassDesc::new(&self.t).label("b").load(), |p| {
            for _ in 0..DRAWS {
                p.draw(&self.b)?;
            }
            Ok(())
        })
    }

    fn frame(&self, gpu: &Gpu) -> FrameReport {
        gpu.frame(|f| self.record(f, &|_| {})).unwrap()
    }

    /// `t` green on top, red below; `u` red (skipped on the noop device).
    #[track_caller]
    fn assert_pixels(&self, gpu: &Gpu, what: &str) {
        if gpu.is_noop() {
            return;
        }
        let t = self.t.read_rgba8().unwrap();
        assert_eq!(t.pixel(0, 0), Some(GREEN), "{what}: t's top (pass b)");
        assert_eq!(
            t.pixel(SIZE - 1, SIZE - 1),
            Some(RED),
            "{what}: t's bottom (pass a)"
        );
        let u = self.u.read_rgba8().unwrap();
        assert_eq!(
            u.pixel(1, 1),
            Some(RED),
            "{what}: u (pass s, between a and b)"
        );
    }
}

/// The worker pool is the process's: these tests take turns, so that one does not find the
/// workers busy with another's frames (a 2-core machine has one worker). No other test of this
/// binary records passes of a thousand draws.
static TAKE_TURNS: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn take_turn() -> std::sync::MutexGuard<'static, ()> {
    TAKE_TURNS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Whether this machine has a core for a worker.
fn workers_possible() -> bool {
    std::thread::available_parallelism().is_ok_and(|n| n.get() >= 2)
}

#[test]
fn large_passes_get_their_own_encoders_finished_in_parallel_in_order() {
    let _turn = take_turn();
    each_gpu(|gpu| {
        let scene = Scene::new(gpu);
        let first = scene.frame(gpu);
        assert_eq!(
            first.stats.pass_encoders, 0,
            "frame 1: no pass was large before"
        );
        assert_eq!(first.stats.encoders_finished_in_parallel, 0, "frame 1");
        scene.assert_pixels(gpu, "frame 1");
        let mut in_parallel = 0;
        for i in 2..=6 {
            let report = scene.frame(gpu);
            let what = format!("frame {i}");
            assert_eq!(report.stats.pass_encoders, 2, "{what}: a and b");
            assert!(
                report.stats.encoders_finished_in_parallel <= 1,
                "{what}: only a goes to a worker (b is the frame thread's)"
            );
            in_parallel += report.stats.encoders_finished_in_parallel;
            scene.assert_pixels(gpu, &what);
        }
        // A worker busy with another process-wide frame gives the encoder back: over five
        // frames, one finds it free.
        if workers_possible() {
            assert!(in_parallel >= 1, "no frame finished `a` on a worker");
        }
        gpu.set_parallel_finish(false);
        let off = scene.frame(gpu);
        assert_eq!(off.stats.pass_encoders, 0, "parallel finishing off");
        assert_eq!(off.stats.encoders_finished_in_parallel, 0, "off");
        scene.assert_pixels(gpu, "parallel finishing off");
        gpu.set_parallel_finish(true);
        assert_eq!(scene.frame(gpu).stats.pass_encoders, 2, "on again");
    });
}

#[test]
fn a_frame_in_the_apps_encoder_is_never_split() {
    let _turn = take_turn();
    each_gpu(|gpu| {
        let scene = Scene::new(gpu);
        for i in 1..=6 {
            let mut encoder = gpu.device().create_command_encoder(&Default::default());
            let report = gpu
                .frame_in(&mut encoder, |f| scene.record(f, &|_| {}))
                .unwrap();
            gpu.queue().submit([encoder.finish()]);
            assert_eq!(report.stats.pass_encoders, 0, "frame {i}");
            // On GL this read-back, right after the app's submit, is what found the race
            // `GpuContext::submit_read_back` waits out (a target read as it was between passes).
            scene.assert_pixels(gpu, &format!("frame {i}"));
        }
    });
}

/// A command wgpu rejects inside pass `a` (a viewport of negative width, through `Pass::raw`)
/// fails the frame at `CommandEncoder::finish` when a worker finishes `a`'s encoder, as it does
/// on the frame's thread: the worker's error scope caught it, nothing is uncaptured, the next
/// frame renders.
#[test]
fn an_error_raised_on_a_worker_fails_the_frame() {
    let _turn = take_turn();
    each_gpu(|gpu| {
        let scene = Scene::new(gpu);
        scene.frame(gpu);
        let mut on_worker = false;
        for attempt in 0..20 {
            let before = gpu.stats();
            let result = gpu.frame(|f| {
                scene.record(f, &|p| {
                    p.raw().set_viewport(0.0, 0.0, -1.0, 1.0, 0.0, 1.0);
                })
            });
            let after = gpu.stats();
            let e = result.expect_err("a negative viewport is rejected");
            assert_eq!(e.code(), "VGPU-DEVICE-VALIDATION", "{e}");
            assert!(
                e.to_string()
                    .starts_with("VGPU-DEVICE-VALIDATION: CommandEncoder::finish \"vgpu frame\""),
                "attempt {attempt}: {e}"
            );
            let uncaptured = gpu.take_uncaptured_errors();
            assert!(uncaptured.is_empty(), "{uncaptured:?}");
            assert_eq!(after.pass_encoders - before.pass_encoders, 2);
            if after.encoders_finished_in_parallel > before.encoders_finished_in_parallel {
                on_worker = true;
                break;
            }
        }
        if workers_possible() {
            assert!(on_worker, "a worker never finished the failing encoder");
        }
        scene.frame(gpu);
        scene.assert_pixels(gpu, "the frame after the failed one");
    });
}
