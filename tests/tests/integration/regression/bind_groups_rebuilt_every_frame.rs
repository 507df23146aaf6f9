//! (a) idiomatic struct mode: 0 bind groups per steady frame at 1000 draws × 2 passes.

use vgpu::Gpu;

use super::{SEED_SHADER, Scenario, SeedScene};

#[test]
fn a_struct_mode_makes_no_bind_groups_in_steady_frames_at_1000_draws_2_passes() {
    for scenario in [
        Scenario::Static,
        Scenario::ResetIdentical,
        Scenario::PerPassCamera,
        Scenario::OneChanges,
        Scenario::AllChange,
    ] {
        let gpu = Gpu::noop();
        let mut scene = SeedScene::new(&gpu, SEED_SHADER, 1000, 2);
        let first = scene.frame(scenario);
        // Even the first frame makes bind groups per (layout, page), never per draw (the
        // upstream made 2 per draw: 4000 per frame).
        let pages = gpu.uniform_gauges().pages as u64;
        assert!(pages >= 1);
        assert!(
            first.stats.bind_groups_created <= 2 * pages,
            "{scenario:?}: first frame made {} bind groups for {pages} pages",
            first.stats.bind_groups_created
        );
        for (i, r) in scene.steady(scenario, 2, 5).iter().enumerate() {
            assert_eq!(r.stats.operations_recorded, 2000, "{scenario:?}");
            assert_eq!(
                r.stats.bind_groups_created, 0,
                "{scenario:?}: steady frame {i}: {:?}",
                r.stats
            );
            assert_eq!(r.stats.buffers_created, 0, "{scenario:?}: frame {i}");
            assert_eq!(r.stats.cache_misses, 0, "{scenario:?}: frame {i}");
        }
        assert!(gpu.take_uncaptured_errors().is_empty());
    }
}

#[test]
fn a_bind_groups_are_set_once_per_group_change_not_per_draw() {
    // The camera group is identical for every draw of a pass: after the first draw its
    // `set_bind_group` is skipped; the object group changes offset per draw.
    // The direct path's sets are counted: auto-bundles (which would replay them) are off.
    let gpu = Gpu::noop();
    gpu.set_auto_bundles(false);
    let mut scene = SeedScene::new(&gpu, SEED_SHADER, 1000, 2);
    let r = scene.steady(Scenario::Static, 2, 1).remove(0);
    assert_eq!(r.stats.set_bind_group_calls, 2 * (1 + 1000));
    assert_eq!(r.stats.set_bind_group_skipped, 2 * 999);
    assert_eq!(r.stats.set_pipeline_calls, 2);
}
