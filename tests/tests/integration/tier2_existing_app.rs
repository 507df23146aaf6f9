//! The `existing_app` example, run as a binary (`vgpu_tests::run_example`): vgpu drawing into an
//! existing wgpu program's device, view, encoder and render pass, the program submitting. On a
//! real device the PNG the program writes after each frame shows its clear color plus vgpu's
//! three squares, each where its pass's camera put it; on every device the steady frames create
//! nothing and upload nothing, vgpu submits nothing, and the program's own error handler still
//! receives the errors raised outside vgpu calls.

use vgpu_tests::{parse_counters, run_example};

// Duplicated from examples/existing_app.rs: the program's target size, its clear color in
// 8-bit RGBA, vgpu's square color (1.0, 0.5, 0.0) in 8-bit RGBA, the three camera offsets.
const SIZE: u32 = 32;
const CLEAR_RGBA: [u8; 4] = [51, 102, 153, 255];
const SQUARE_RGBA: [u8; 4] = [255, 128, 0, 255];
const OFFSETS: [[f32; 2]; 3] = [[-0.5, -0.5], [0.5, -0.5], [0.0, 0.5]];
const FRAMES: usize = 3;

/// The pixel a square drawn at clip-space `offset` covers at its center.
fn center_of(offset: [f32; 2]) -> (u32, u32) {
    let half = SIZE as f32 / 2.0;
    (
        ((offset[0] + 1.0) * half) as u32,
        ((1.0 - offset[1]) * half) as u32,
    )
}

#[test]
fn vgpu_draws_into_the_apps_view_encoder_and_pass_and_the_app_keeps_its_error_handler() {
    let run = run_example("existing_app", &[]);
    let frames = run.lines_starting("frame ");
    assert_eq!(frames.len(), FRAMES, "{}", run.stdout);
    for (i, line) in frames.into_iter().enumerate() {
        let s = parse_counters(line);
        assert_eq!(s["draws"], 3, "frame {i}");
        assert_eq!(
            s["submissions"], 0,
            "frame {i}: the program submits, not vgpu"
        );
        if i > 0 {
            // Steady: the three camera values are resident, no group is built.
            assert_eq!(s["bind groups created"], 0, "frame {i}");
            assert_eq!(s["bytes uploaded"], 0, "frame {i}");
            assert_eq!(s["buffers created"], 0, "frame {i}");
        }
    }
    // One error reached the program's handler (the invalid buffer's usages), and vgpu logged
    // only that one, which the program forwarded.
    assert_eq!(
        run.line("the program's error handler received "),
        "the program's error handler received 1 error(s); vgpu logged 1 (the forwarded ones)"
    );
    let handler = run.line("  the program's handler: ");
    assert!(
        handler.contains("MAP_WRITE") || handler.contains("usage"),
        "{handler}"
    );
    if run.noop() {
        assert!(run.stdout.contains("no PNG was written"), "{}", run.stdout);
        vgpu_tests::skip("device", "noop backend: pixels not checked");
        return;
    }
    for frame in 1..=FRAMES {
        let (w, h, image) = run.png(&format!("existing_app_frame{frame}.png"));
        assert_eq!((w, h), (SIZE, SIZE));
        let pixel = |x: u32, y: u32| &image[((y * SIZE + x) * 4) as usize..][..4];
        for offset in OFFSETS {
            let (x, y) = center_of(offset);
            assert_eq!(
                pixel(x, y),
                SQUARE_RGBA,
                "frame {frame}: square at {offset:?}"
            );
        }
        for (x, y) in [(0, 0), (SIZE - 1, 0), (SIZE / 2, SIZE / 2)] {
            assert_eq!(
                pixel(x, y),
                CLEAR_RGBA,
                "frame {frame}: ({x}, {y}) keeps the program's clear"
            );
        }
    }
}
