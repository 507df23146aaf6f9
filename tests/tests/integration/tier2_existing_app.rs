//! The `existing_app` example: vgpu drawing into an existing wgpu program's device, view,
//! encoder and render pass, the program submitting. On the env device (tier 2) its pixels
//! show the program's clear color plus vgpu's three squares, each where its pass's camera put
//! it; on every device the steady frames create nothing and upload nothing, and the program's
//! own error handler still receives the errors raised outside vgpu calls.

use vgpu_examples::existing_app::{self, CLEAR_RGBA, OFFSETS, SIZE};

#[test]
fn vgpu_draws_into_the_apps_view_encoder_and_pass_and_the_app_keeps_its_error_handler() {
    let app = existing_app::run(3).expect("the program runs");
    assert_eq!(app.reports.len(), 3);
    for (i, r) in app.reports.iter().enumerate() {
        assert_eq!(r.stats.operations_recorded, 3, "frame {i}");
        assert_eq!(
            r.stats.submissions, 0,
            "frame {i}: the program submits, not vgpu"
        );
        if i > 0 {
            // Steady: the three camera values are resident, no group is built.
            assert_eq!(r.stats.bind_groups_created, 0, "frame {i}");
            assert_eq!(r.stats.bytes_uploaded, 0, "frame {i}");
            assert_eq!(r.stats.buffers_created, 0, "frame {i}");
        }
    }
    assert_eq!(app.app_errors.len(), 1, "{:?}", app.app_errors);
    assert!(
        app.app_errors[0].contains("MAP_WRITE") || app.app_errors[0].contains("usage"),
        "{:?}",
        app.app_errors
    );
    assert_eq!(
        app.vgpu_errors.len(),
        1,
        "vgpu logs only what the program forwarded: {:?}",
        app.vgpu_errors
    );
    if app.noop {
        eprintln!("noop backend: pixels not checked");
        return;
    }
    for (frame, image) in app.pixels.iter().enumerate() {
        assert_eq!(image.len(), (SIZE * SIZE * 4) as usize);
        for offset in OFFSETS {
            let (x, y) = existing_app::center_of(offset);
            assert_eq!(
                existing_app::pixel(image, x, y),
                [255, 128, 0, 255],
                "frame {frame}: square at {offset:?}"
            );
        }
        for (x, y) in [(0, 0), (SIZE - 1, 0), (SIZE / 2, SIZE / 2)] {
            assert_eq!(
                existing_app::pixel(image, x, y),
                CLEAR_RGBA,
                "frame {frame}: ({x}, {y}) keeps the program's clear"
            );
        }
    }
}
