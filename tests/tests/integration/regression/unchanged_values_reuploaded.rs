//! (b) nothing changed: 0 bytes, 0 write calls (also when identical values are re-set).

use vgpu::Gpu;

use super::{SEED_SHADER, Scenario, SeedScene, assert_zero_work};

#[test]
fn b_unchanged_values_upload_nothing_even_when_reset_every_frame() {
    for scenario in [
        Scenario::Static,
        Scenario::ResetIdentical,
        Scenario::PerPassCamera,
    ] {
        let gpu = Gpu::noop();
        let mut scene = SeedScene::new(&gpu, SEED_SHADER, 1000, 2);
        let first = scene.frame(scenario);
        // The first frame uploads each value once: 1000 objects + the camera value(s), each
        // at most one 256-byte aligned slot; never once per draw per pass.
        let values = 1000
            + if scenario == Scenario::PerPassCamera {
                2
            } else {
                1
            };
        assert!(first.stats.bytes_uploaded >= values * 64, "{first:?}");
        assert!(first.stats.bytes_uploaded <= values * 256, "{first:?}");
        let rev = scene.camera.revision();
        for r in scene.steady(scenario, 2, 5) {
            assert_zero_work(&r.stats, &format!("{scenario:?} steady frame"));
        }
        if scenario != Scenario::PerPassCamera {
            assert_eq!(
                scene.camera.revision(),
                rev,
                "{scenario:?}: identical sets must not bump the revision"
            );
        }
    }
}

#[test]
fn b_one_change_uploads_one_aligned_struct_in_one_write() {
    let gpu = Gpu::noop();
    let mut scene = SeedScene::new(&gpu, SEED_SHADER, 1000, 2);
    for r in scene.steady(Scenario::OneChanges, 2, 5) {
        assert_eq!(r.stats.write_calls, 1, "{:?}", r.stats);
        assert!(
            (64..=256).contains(&r.stats.bytes_uploaded),
            "{:?}",
            r.stats
        );
        assert_eq!(r.stats.bind_groups_created, 0);
        assert_eq!(r.stats.buffers_created, 0);
    }
}
