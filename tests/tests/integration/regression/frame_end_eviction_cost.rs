//! (d) frame-end work does not grow with cache size × captures.

use glam::Mat4;
use vgpu::{Buffer, Draw, DrawDesc, Gpu, StatsSnapshot};

use super::{SEED_SHADER, Scenario, SeedScene, world};

/// Per-frame deltas of the seed scene at `n` draws × 2 passes (after warm-up).
fn seed_deltas(n: usize, scenario: Scenario) -> Vec<StatsSnapshot> {
    let gpu = Gpu::noop();
    let mut scene = SeedScene::new(&gpu, SEED_SHADER, n, 2);
    let out = scene
        .steady(scenario, 3, 4)
        .into_iter()
        .map(|r| r.stats)
        .collect();
    assert!(gpu.take_uncaptured_errors().is_empty());
    out
}

/// The per-frame counters that must not depend on the number of draws.
fn frame_end_work(s: &StatsSnapshot) -> [(&'static str, u64); 9] {
    [
        ("bind_groups_created", s.bind_groups_created),
        ("buffers_created", s.buffers_created),
        ("write_calls", s.write_calls),
        ("bytes_uploaded", s.bytes_uploaded),
        ("slots_captured", s.slots_captured),
        ("pages_created", s.pages_created),
        ("cache_misses", s.cache_misses),
        ("cache_evictions", s.cache_evictions),
        ("cache_eviction_visits", s.cache_eviction_visits),
    ]
}

#[test]
fn d_frame_end_work_is_the_same_at_1k_and_3k_draws() {
    for scenario in [
        Scenario::Static,
        Scenario::ResetIdentical,
        Scenario::PerPassCamera,
        Scenario::OneChanges,
    ] {
        let small = seed_deltas(1000, scenario);
        let large = seed_deltas(3000, scenario);
        for (s, l) in small.iter().zip(&large) {
            assert_eq!(s.operations_recorded * 3, l.operations_recorded);
            assert_eq!(s.cache_eviction_visits, 0, "{scenario:?} at 1k: {s:?}");
            assert_eq!(s.cache_evictions, 0, "{scenario:?} at 1k");
            assert_eq!(s.bind_groups_created, 0, "{scenario:?} at 1k");
            assert_eq!(
                frame_end_work(s),
                frame_end_work(l),
                "{scenario:?}: 1k vs 3k draws"
            );
        }
    }
}

#[test]
fn d_all_change_work_is_proportional_to_what_changed() {
    let small = seed_deltas(1000, Scenario::AllChange);
    let large = seed_deltas(3000, Scenario::AllChange);
    for (s, l) in small.iter().zip(&large) {
        assert_eq!(s.bind_groups_created, 0);
        assert_eq!(l.bind_groups_created, 0);
        assert_eq!((s.cache_evictions, s.cache_eviction_visits), (0, 0));
        assert_eq!((l.cache_evictions, l.cache_eviction_visits), (0, 0));
        assert_eq!(
            s.bytes_uploaded * 3,
            l.bytes_uploaded,
            "bytes scale with the number of changed values"
        );
        assert!(s.bytes_uploaded >= 1000 * 64 && s.bytes_uploaded <= 1000 * 256);
        // Coalesced: at most one write per dirty page, never one per value.
        let pages = 1000 * 256 / (64 * 1024) + 1;
        assert!(s.write_calls <= pages as u64, "{s:?}");
        assert!(l.write_calls <= 3 * pages as u64, "{l:?}");
    }
}

/// The buffer-mode scene with one user buffer replaced (and the old one destroyed) per frame:
/// destroying a resource evicts exactly the bind groups that used it.
fn replaced_buffer_deltas(n: usize) -> Vec<StatsSnapshot> {
    let gpu = Gpu::noop();
    let shader = gpu.shader("seed.wgsl", SEED_SHADER).expect("shader");
    let uniform = |label: String, m: &Mat4| -> Buffer {
        gpu.buffer_init(
            &label,
            bytemuck::cast_slice(&m.to_cols_array()),
            wgpu::BufferUsages::UNIFORM,
        )
        .expect("buffer")
    };
    let camera = uniform("camera".into(), &Mat4::IDENTITY);
    let mut objects: Vec<Buffer> = (0..n)
        .map(|i| uniform(format!("object {i}"), &world(i)))
        .collect();
    let draws: Vec<Draw> = (0..n)
        .map(|i| {
            let d = gpu.draw(&shader, DrawDesc::default()).expect("draw");
            d.set("frame", &camera).expect("frame");
            d.set("object", &objects[i]).expect("object");
            d
        })
        .collect();
    let target = gpu.target(8, 8).expect("target");
    let mut out = Vec::new();
    for k in 0..7 {
        let before = gpu.stats();
        if k > 0 {
            let i = (k * 7) % n;
            let fresh = uniform(format!("object {i} v{k}"), &world(i));
            draws[i].set("object", &fresh).expect("rebind");
            std::mem::replace(&mut objects[i], fresh).destroy();
        }
        gpu.frame(|f| {
            for _ in 0..2 {
                f.pass(&target, |p| {
                    for d in &draws {
                        p.draw(d)?;
                    }
                    Ok(())
                })?;
            }
            Ok(())
        })
        .expect("frame");
        gpu.wait_idle().expect("wait");
        if k >= 3 {
            out.push(gpu.stats() - before);
        }
    }
    assert!(gpu.take_uncaptured_errors().is_empty());
    out
}

#[test]
fn d_destroying_a_buffer_evicts_only_its_bind_groups_at_1k_and_3k() {
    let small = replaced_buffer_deltas(1000);
    let large = replaced_buffer_deltas(3000);
    for (s, l) in small.iter().zip(&large) {
        // One new buffer bound: one bind group; the old one destroyed: its one entry evicted.
        assert_eq!(s.bind_groups_created, 1, "{s:?}");
        assert_eq!(s.cache_evictions, 1, "{s:?}");
        assert!(s.cache_eviction_visits <= 2, "{s:?}");
        assert_eq!(frame_end_work(s), frame_end_work(l), "1k vs 3k draws");
    }
}
