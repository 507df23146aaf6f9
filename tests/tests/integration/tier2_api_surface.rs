//! Tier 2, a real window: the success path of `Gpu::surface` (a surface for a window on a `Gpu`
//! created beforehand, not by `Gpu::new_for_window`) with an MSAA `SurfaceDesc`: frames into
//! it are presented without a skip or an error, its MSAA attachment is one texture created with
//! it, and where the window's texture can be read back, the frame shows the triangle over the
//! clear color with edge pixels that only a 4× resolve makes.
//!
//! Runs in a child process whose `$DISPLAY` is the display the window tests find (an `Xvfb`
//! they start where there is none); skipped, with the window tests' reason, without one.

use std::sync::Arc;

use vgpu::{DrawDesc, Gpu, PassDesc, SurfaceDesc};

use crate::tier2_window::{test_window, window_setup};

const WIDTH: u32 = 64;
const HEIGHT: u32 = 48;
const FRAMES: u64 = 4;
const BLUE: [u8; 4] = [0, 0, 255, 255];
const RED: [u8; 4] = [255, 0, 0, 255];

#[test]
fn gpu_surface_with_msaa_presents_frames_into_a_window() {
    let Some(setup) = window_setup("gpu_surface_with_msaa_presents_frames_into_a_window") else {
        return;
    };
    let mut env = vec![("VGPU_BACKEND", setup.backend.as_str())];
    if let Some(display) = setup.display.as_deref() {
        env.push(("DISPLAY", display));
    }
    vgpu_tests::run_child_test(module_path!(), "gpu_surface_msaa_child", &env);
}

#[test]
#[ignore = "child of gpu_surface_with_msaa_presents_frames_into_a_window"]
fn gpu_surface_msaa_child() {
    if !vgpu_tests::in_child_test("gpu_surface_msaa_child") {
        return;
    }
    let (event_loop, window) = test_window("vgpu surface test", Some((WIDTH, HEIGHT)));
    // The Gpu first (on GL it needs the window's display), then its surface.
    let options = vgpu::GpuOptions::from_env()
        .expect("VGPU_BACKEND")
        .with_display(event_loop.owned_display_handle());
    let gpu = Gpu::new(&options).expect("a Gpu");
    // The size the window got (a window manager on `$DISPLAY` may not grant the one asked for;
    // under `Xvfb` it is `WIDTH`×`HEIGHT`).
    let (w, h) = (window.inner_size().width, window.inner_size().height);
    assert!(w >= 16 && h >= 16, "a usable window: {w}x{h}");
    let before = gpu.stats();
    let surface = gpu
        .surface(Arc::clone(&window), &SurfaceDesc::new(w, h).samples(4))
        .expect("Gpu::surface");
    let created = gpu.stats() - before;
    assert_eq!(surface.size(), (w, h));
    assert_eq!(surface.signature().samples, 4);
    assert_eq!(surface.signature().depth, None);
    assert_eq!(
        created.textures_created, 1,
        "the MSAA attachment, at the surface's size: {created:?}"
    );

    // A triangle with slanted edges (where a 4× resolve leaves partial coverage) over blue.
    let shader = gpu
        .shader(
            "triangle",
            "@vertex fn vs_main(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
                 var p = array<vec2f, 3>(vec2f(-0.6, -0.7), vec2f(0.7, -0.5), vec2f(0.1, 0.8));
                 return vec4f(p[i], 0.0, 1.0);
             }
             @fragment fn fs_main() -> @location(0) vec4f { return vec4f(1.0, 0.0, 0.0, 1.0); }",
        )
        .expect("shader");
    let draw = gpu
        .draw(
            &shader,
            DrawDesc {
                label: "triangle".into(),
                ..Default::default()
            },
        )
        .expect("draw");
    let readable = surface.supports_read_back();
    eprintln!(
        "{:?}: surface {:?}, read back: {readable}",
        gpu.adapter_info().backend,
        surface.format()
    );
    let before = gpu.stats();
    for frame in 0..FRAMES {
        if readable && frame == FRAMES - 1 {
            surface
                .capture_next_frame()
                .expect("capture the last frame");
        }
        let report = gpu
            .frame(|f| {
                f.pass(PassDesc::new(&surface).clear([0.0, 0.0, 1.0, 1.0]), |p| {
                    p.draw(&draw)
                })
            })
            .expect("a frame into the surface");
        assert_eq!(report.skipped, None, "frame {frame} was presented");
        assert_eq!(report.stats.operations_recorded, 1, "frame {frame}");
    }
    let frames = gpu.stats() - before;
    assert!(frames.submissions >= FRAMES, "{frames:?}");
    assert_eq!(
        frames.pipelines_created, 1,
        "one 4-sample pipeline, then reused: {frames:?}"
    );
    assert_eq!(
        frames.textures_created, 0,
        "no attachment recreated: {frames:?}"
    );
    assert!(gpu.take_uncaptured_errors().is_empty());
    if !readable {
        vgpu_tests::skip(
            "surface-read-back",
            "the window's textures cannot be read back here (no COPY_SRC); counters checked",
        );
        return;
    }
    let image = surface.take_capture().expect("the captured frame");
    assert_eq!((image.width, image.height), (w, h));
    // RGBA8 whatever the surface's format (Bgra8UnormSrgb on lavapipe).
    let px = |x: u32, y: u32| image.pixel(x, y).expect("inside");
    for (x, y) in [(0, 0), (w - 1, 0), (0, h - 1), (w - 1, h - 1)] {
        assert_eq!(px(x, y), BLUE, "clear color at ({x},{y})");
    }
    assert_eq!(px(w / 2, h / 2), RED, "the triangle's middle");
    let pixels: Vec<[u8; 4]> = (0..h)
        .flat_map(|y| (0..w).map(move |x| (x, y)))
        .map(|(x, y)| px(x, y))
        .collect();
    let red = pixels.iter().filter(|p| **p == RED).count();
    let blended = pixels
        .iter()
        .filter(|p| p[1] == 0 && p[0] > 0 && p[0] < 255 && p[0].saturating_add(p[2]) >= 200)
        .count();
    let other = pixels.len() - red - blended - pixels.iter().filter(|p| **p == BLUE).count();
    eprintln!("{red} red, {blended} blended edge pixels, {other} other");
    // The triangle covers about 0.5 · |(1.3, 0.2) × (0.7, 1.5)| / 4 = 23% of the window.
    let share = red as f64 / pixels.len() as f64;
    assert!((0.18..0.28).contains(&share), "triangle share {share}");
    assert!(
        blended >= 20,
        "a 4× resolve blends the slanted edges: {blended} blended pixels"
    );
    assert_eq!(other, 0, "only red, blue and their mixes");
}
