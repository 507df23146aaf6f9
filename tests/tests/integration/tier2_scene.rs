//! The `scene` example (the upstream report's scene: two shadow maps and a lit main pass, one
//! camera block re-set per pass, a struct per draw) at a small size.
//!
//! Counters run on the noop device and on the tier-2 device; the shadow check needs the tier-2
//! device (`VGPU_BACKEND=vulkan` or `=gl`) and decides on the CPU, by ray casting against the
//! same placements, which ground points must be in shadow.

use vgpu::Gpu;
use vgpu_examples::scene::{Kind, Placement, Scene, SceneConfig};

/// Largest aligned slot one uniform value can occupy (wgpu's maximum
/// `min_uniform_buffer_offset_alignment`); the scene's values are 64 and 80 bytes.
const MAX_SLOT: u64 = 256;

/// The devices to count on: noop always, plus the tier-2 device when there is one.
fn devices() -> Vec<Gpu> {
    let mut out = vec![Gpu::noop()];
    out.extend(vgpu_tests::real_gpu());
    out
}

#[test]
fn scene_steady_frames_make_no_bind_groups_and_upload_only_what_moved() {
    for gpu in devices() {
        let backend = gpu.adapter_info().backend;
        let config = SceneConfig::small();
        let scene = Scene::new(&gpu, config).expect("scene");
        let draws = scene.draws_per_frame() as u64;
        let first = scene.render(0.0).expect("frame");
        assert_eq!(first.stats.operations_recorded, draws);
        // The first frame makes bind groups per layout and page, never per draw.
        assert!(
            first.stats.bind_groups_created < 16,
            "{backend:?}: {:?}",
            first.stats
        );
        // The same time again: every value is re-set to identical bytes (movers, the camera
        // before each of the three passes): a steady frame does no work at all.
        for _ in 0..2 {
            let r = scene.render(0.0).expect("frame");
            assert_eq!(r.stats.operations_recorded, draws);
            assert_eq!(r.stats.bind_groups_created, 0, "{backend:?}: {:?}", r.stats);
            assert_eq!(r.stats.buffers_created, 0, "{backend:?}");
            assert_eq!(r.stats.write_calls, 0, "{backend:?}: {:?}", r.stats);
            assert_eq!(r.stats.bytes_uploaded, 0, "{backend:?}");
            assert_eq!(r.stats.pipelines_created, 0, "{backend:?}");
        }
        // Animated frames: the orbiting main view and the movers (on two draws each) change;
        // the two light views are resident. No bind group; bytes bounded by what moved.
        let moved = 1 + 2 * u64::from(config.movers);
        for k in 1..5 {
            let r = scene.render(k as f32 / 60.0).expect("frame");
            assert_eq!(r.stats.bind_groups_created, 0, "{backend:?}: {:?}", r.stats);
            assert_eq!(r.stats.buffers_created, 0, "{backend:?}");
            assert!(
                r.stats.bytes_uploaded >= moved * 64 && r.stats.bytes_uploaded <= moved * MAX_SLOT,
                "{backend:?}: {:?}",
                r.stats
            );
            // Coalesced: one range for the camera, one per draw kind for the movers.
            assert!(r.stats.write_calls <= 3, "{backend:?}: {:?}", r.stats);
        }
        gpu.wait_idle().expect("wait");
        assert!(gpu.take_uncaptured_errors().is_empty(), "{backend:?}");
    }
}

#[test]
fn scene_camera_reset_per_pass_uploads_one_view_per_frame() {
    for gpu in devices() {
        let backend = gpu.adapter_info().backend;
        // Nothing moves but the main camera: the three per-pass camera values cost one upload
        // of the new main view per frame, the light views stay resident.
        let scene = Scene::new(
            &gpu,
            SceneConfig {
                movers: 0,
                ..SceneConfig::small()
            },
        )
        .expect("scene");
        scene.render(0.0).expect("frame");
        for k in 1..5 {
            let r = scene.render(k as f32 / 60.0).expect("frame");
            assert_eq!(r.stats.write_calls, 1, "{backend:?}: {:?}", r.stats);
            assert!(
                (64..=MAX_SLOT).contains(&r.stats.bytes_uploaded),
                "{backend:?}: {:?}",
                r.stats
            );
            assert_eq!(r.stats.bind_groups_created, 0, "{backend:?}");
        }
        // And a still camera: nothing at all.
        let still = Scene::new(
            &gpu,
            SceneConfig {
                movers: 0,
                orbit: false,
                ..SceneConfig::small()
            },
        )
        .expect("scene");
        still.render(0.0).expect("frame");
        for k in 1..4 {
            let r = still.render(k as f32 / 60.0).expect("frame");
            assert_eq!(
                (r.stats.write_calls, r.stats.bytes_uploaded),
                (0, 0),
                "{backend:?}"
            );
        }
        gpu.wait_idle().expect("wait");
        assert!(gpu.take_uncaptured_errors().is_empty(), "{backend:?}");
    }
}

/// How the two lights reach a ground point, decided by ray casting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shade {
    /// Both lights reach it.
    Lit,
    /// Light 1 (the strong one) is blocked, light 2 reaches it.
    SunShadow,
    /// Both lights are blocked.
    Dark,
    /// Light 2 only blocked (not compared).
    Other,
}

fn shade(placements: &[(Kind, Placement)], scene: &Scene, p: [f32; 3]) -> Shade {
    let blocked = |k: usize| {
        let d = scene.lights()[k].direction;
        Scene::blocked(placements, p, [-d[0], -d[1], -d[2]], 100.0)
    };
    match (blocked(0), blocked(1)) {
        (false, false) => Shade::Lit,
        (true, false) => Shade::SunShadow,
        (true, true) => Shade::Dark,
        (false, true) => Shade::Other,
    }
}

fn luminance(p: [u8; 4]) -> f32 {
    0.2126 * f32::from(p[0]) + 0.7152 * f32::from(p[1]) + 0.0722 * f32::from(p[2])
}

#[test]
fn scene_ground_in_shadow_is_darker_than_lit_ground() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    let scene = Scene::new(&gpu, SceneConfig::small()).expect("scene");
    let time = 0.75;
    for _ in 0..3 {
        scene.render(time).expect("frame");
    }
    let image = scene.target().read_rgba8().expect("read back");
    let placements = scene.placements(time);
    let eye = scene.eye(time);
    // Pixels whose center sees the ground (top face, y = 0) and whose ground point's whole
    // neighbourhood (radius 0.12: a few shadow-map texels) has the same shade, so filtering,
    // bias and rasterization cannot flip them.
    let e = scene.extent() + 1.5;
    let mut by_shade: Vec<(Shade, f32, (u32, u32))> = Vec::new();
    let (w, h) = scene.target().size();
    for y in (0..h).step_by(2) {
        for x in (0..w).step_by(2) {
            let dir = scene.pixel_ray(time, x, y);
            if dir[1] >= 0.0 {
                continue;
            }
            let t = -eye[1] / dir[1];
            let p: [f32; 3] = std::array::from_fn(|i| eye[i] + t * dir[i]);
            if p[0].abs() > e || p[2].abs() > e || Scene::blocked(&placements, eye, dir, t * 0.999)
            {
                continue;
            }
            let s = shade(&placements, &scene, p);
            let mut ring = (0..8).map(|k| {
                let a = k as f32 * std::f32::consts::FRAC_PI_4;
                [p[0] + 0.12 * a.cos(), 0.0, p[2] + 0.12 * a.sin()]
            });
            if ring.any(|q| shade(&placements, &scene, q) != s) {
                continue;
            }
            let rgba = image.pixel(x, y).expect("pixel inside");
            by_shade.push((s, luminance(rgba), (x, y)));
        }
    }
    let class = |s: Shade| -> Vec<(f32, (u32, u32))> {
        by_shade
            .iter()
            .filter(|(c, ..)| *c == s)
            .map(|(_, l, p)| (*l, *p))
            .collect()
    };
    let (lit, sun, dark) = (
        class(Shade::Lit),
        class(Shade::SunShadow),
        class(Shade::Dark),
    );
    let save = || {
        let path = vgpu_tests::temp_path("scene_small.png");
        image.save_png(&path).expect("png");
        path
    };
    assert!(
        lit.len() >= 5 && sun.len() + dark.len() >= 5,
        "not enough robust ground points: lit {}, sun shadow {}, dark {} (image {:?})",
        lit.len(),
        sun.len(),
        dark.len(),
        save()
    );
    eprintln!(
        "robust ground pixels: lit {} (luminance {:?}), sun shadow {} ({:?}), dark {} ({:?})",
        lit.len(),
        lit.first().map(|p| p.0),
        sun.len(),
        sun.first().map(|p| p.0),
        dark.len(),
        dark.first().map(|p| p.0)
    );
    let min = |v: &[(f32, (u32, u32))]| v.iter().copied().min_by(|a, b| a.0.total_cmp(&b.0));
    let max = |v: &[(f32, (u32, u32))]| v.iter().copied().max_by(|a, b| a.0.total_cmp(&b.0));
    let brightest_lit = max(&lit).expect("lit");
    let darkest_lit = min(&lit).expect("lit");
    // Lit ground is one surface under the same lights: uniformly bright.
    assert!(
        brightest_lit.0 - darkest_lit.0 < 12.0,
        "lit ground varies: {darkest_lit:?} .. {brightest_lit:?} (image {:?})",
        save()
    );
    for (name, points) in [("sun shadow", &sun), ("dark", &dark)] {
        if let Some(brightest) = max(points) {
            assert!(
                brightest.0 + 20.0 < darkest_lit.0,
                "{name}: ground at {:?} (luminance {}) is not darker than lit ground at {:?} \
                 ({}) (image {:?})",
                brightest.1,
                brightest.0,
                darkest_lit.1,
                darkest_lit.0,
                save()
            );
        }
    }
    // Blocking the fill light too makes it darker still.
    if let (Some(dark_max), Some(sun_min)) = (max(&dark), min(&sun)) {
        assert!(
            dark_max.0 < sun_min.0,
            "both lights blocked at {:?} ({}) vs sun only at {:?} ({})",
            dark_max.1,
            dark_max.0,
            sun_min.1,
            sun_min.0
        );
    }
    assert!(gpu.take_uncaptured_errors().is_empty());
}
