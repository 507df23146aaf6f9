//! The `scene --plot` chart (issue #15, pictures). `render_plot_*` draws known series with
//! `vgpu_examples::plot` and checks pixels (no device). `scene_example_writes_a_plot` runs the
//! `scene` example's binary on the `VGPU_BACKEND` device (noop included: the encode and submit
//! times are CPU times) and decodes the PNG it writes. Only pixels and sizes are asserted, never
//! timings.
//!
//! `cargo test --workspace` builds the example into `target/<profile>/examples/`; with `cargo test
//! -p vgpu-tests` alone, build it first (`cargo build -p vgpu-examples --example scene`, same
//! profile), or the test fails saying so.

use vgpu_examples::plot::{self, BACKGROUND, INK, Series};

const W: u32 = 960;
const H: u32 = 540;
const RED: [u8; 3] = [220, 20, 20];
const BLUE: [u8; 3] = [20, 40, 220];
const GREEN: [u8; 3] = [20, 170, 40];

fn pixel(image: &[u8], x: i32, y: i32) -> [u8; 4] {
    let i = (y as usize * W as usize + x as usize) * 4;
    image[i..i + 4].try_into().unwrap()
}

fn rgba(c: [u8; 3]) -> [u8; 4] {
    [c[0], c[1], c[2], 255]
}

fn count(image: &[u8], color: [u8; 4]) -> usize {
    image.chunks_exact(4).filter(|p| *p == color).count()
}

/// 40 frames: a flat line at 1 ms, a ramp 0.1 ms per frame up to 4 ms, and a line at 3.5 ms with
/// a gap (NaN) over frames 11–20.
fn known_series() -> (Vec<f64>, Vec<f64>, Vec<f64>) {
    let flat = vec![1.0; 40];
    let ramp: Vec<f64> = (1..=40).map(|f| f as f64 * 0.1).collect();
    let gappy: Vec<f64> = (1..=40)
        .map(|f| {
            if (11..=20).contains(&f) {
                f64::NAN
            } else {
                3.5
            }
        })
        .collect();
    (flat, ramp, gappy)
}

#[test]
fn render_plot_draws_each_series_where_the_axes_put_it() {
    let (flat, ramp, gappy) = known_series();
    let series = [
        Series {
            name: "encode",
            color: RED,
            values: &flat,
        },
        Series {
            name: "submit",
            color: BLUE,
            values: &ramp,
        },
        Series {
            name: "GPU",
            color: GREEN,
            values: &gappy,
        },
    ];
    let image = plot::render_plot(W, H, "test chart", "ms", &series);
    assert_eq!(image.len(), (W * H * 4) as usize);

    // Round axes: 40 frames -> x ticks every 5 (at most 10), x from 0 to 40; data max 4 ms ->
    // y ticks every 0.5 ms (at most 8), y from 0 to 4.
    let l = plot::layout(W, H, &series);
    assert_eq!((l.x_step, l.x_max), (5.0, 40.0));
    assert_eq!((l.y_step, l.y_max), (0.5, 4.0));
    assert_eq!(
        (l.left, l.top, l.right, l.bottom),
        (
            plot::MARGIN_LEFT,
            plot::MARGIN_TOP,
            W - plot::MARGIN_RIGHT,
            H - plot::MARGIN_BOTTOM
        )
    );
    // The mapping, computed here: frame f at x = left + f/40 * width, value v at
    // y = bottom - v/4 * height.
    let at = |f: f64, v: f64| {
        let x = l.left as f64 + f / 40.0 * (l.right - l.left) as f64;
        let y = l.bottom as f64 - v / 4.0 * (l.bottom - l.top) as f64;
        (x.round() as i32, y.round() as i32)
    };
    assert_eq!(at(30.0, 1.0), l.to_pixel(30.0, 1.0));

    // Each colour appears, as a line of some length (2 px wide over hundreds of pixels).
    for (name, c) in [("encode", RED), ("submit", BLUE), ("GPU", GREEN)] {
        assert!(
            count(&image, rgba(c)) > 200,
            "{name}: {}",
            count(&image, rgba(c))
        );
    }
    // Points on the lines, away from the other series: frame 30 of the flat line (1 ms; the
    // ramp is at 3 ms there), frame 5 of the ramp (0.5 ms), frame 35 of the 3.5 ms line.
    for (what, f, v, c) in [
        ("encode at frame 30", 30.0, 1.0, RED),
        ("submit at frame 5", 5.0, 0.5, BLUE),
        ("GPU at frame 35", 35.0, 3.5, GREEN),
    ] {
        let (x, y) = at(f, v);
        assert_eq!(pixel(&image, x, y), rgba(c), "{what}: pixel ({x},{y})");
    }
    // The gap: frame 15 of the 3.5 ms line is not drawn (grid or background there).
    let (x, y) = at(15.0, 3.5);
    assert_ne!(pixel(&image, x, y), rgba(GREEN), "gap at frame 15");

    // The background is white: the corners, and inside the plot area away from lines and grid
    // (between the 1.5 and 2 ms grid lines, frames 1-2, where the ramp is near 0).
    for (x, y) in [
        (0, 0),
        (W as i32 - 1, 0),
        (0, H as i32 - 1),
        (W as i32 - 1, H as i32 - 1),
    ] {
        assert_eq!(pixel(&image, x, y), BACKGROUND, "corner ({x},{y})");
    }
    let (x, y) = at(1.5, 1.75);
    assert_eq!(pixel(&image, x, y), BACKGROUND, "plot area ({x},{y})");
    assert!(
        count(&image, BACKGROUND) > (W * H) as usize / 2,
        "mostly white"
    );

    // The legend row holds each series' swatch and its name in ink.
    let (lx, ly, lw, lh) = l.legend;
    let mut legend = Vec::new();
    for y in ly..ly + lh {
        for x in lx..lx + lw {
            legend.push(pixel(&image, x as i32, y as i32));
        }
    }
    for c in [RED, BLUE, GREEN] {
        assert!(legend.contains(&rgba(c)), "legend swatch {c:?}");
    }
    let ink = legend.iter().filter(|p| **p == INK).count();
    // "encode", "submit" and "GPU" at 2x: well over 100 ink pixels.
    assert!(ink > 100, "legend text: {ink} ink pixels");
    // The tick labels left of the y axis are drawn (ink in the margin).
    let mut margin_ink = 0;
    for y in l.top..l.bottom {
        for x in 30..l.left - 8 {
            margin_ink += usize::from(pixel(&image, x as i32, y as i32) == INK);
        }
    }
    assert!(margin_ink > 100, "y tick labels: {margin_ink} ink pixels");
}

#[test]
fn scene_example_writes_a_plot() {
    // Runs in a fresh directory of its own (the scene's PNG goes there too).
    let run = vgpu_tests::run_example(
        "scene",
        &["--frames", "5", "--small", "--plot", "frames.png"],
    );
    let plot_path = run.path("frames.png");
    assert!(run.stdout.contains("wrote frames.png"), "{}", run.stdout);
    let (w, h, pixels) = vgpu_tests::load_png(&plot_path);
    assert_eq!((w, h), (W, H));
    // The encode line, the submit line's swatch at least (a frame's submit can be ~0 and lie
    // on the axis under the lines drawn after it), and text.
    let [encode, submit] = [[31, 119, 180], [255, 127, 14]].map(rgba);
    assert!(count(&pixels, encode) > 50, "encode colour in the plot");
    assert!(count(&pixels, submit) > 0, "submit colour in the plot");
    assert!(count(&pixels, INK) > 500, "axes and text");
    assert_eq!(&pixels[..4], BACKGROUND, "white background");
}
