//! The `gpu_culling` example, run as a binary (`vgpu_tests::run_example`: `cargo test -p
//! vgpu-tests` alone needs `cargo build --examples` first) in a fresh directory. Per frame, the
//! instance count the GPU's culling pass wrote into the indirect arguments (read back by the
//! example) must equal a count of the same culling done here on the CPU from the camera the
//! example printed; the PNG of the last frame must show exactly the visible instances: the
//! center pixel of a grid cell is lit if and only if its instance is inside the camera's
//! rectangle, and every cell's corner pixel (the gap between squares) is the clear color. On
//! noop the example says nothing was rendered and the CPU counts are still checked.

/// Squares per row and column (duplicated from examples/gpu_culling.rs).
const GRID: u32 = 64;
/// Pixels per cell side.
const CELL: u32 = 8;
/// Image width and height.
const SIZE: u32 = GRID * CELL;
/// Frames the example renders (one camera each).
const FRAMES: usize = 2;

/// The center of instance `i` in clip space (the example's `center`, same `f32` operations).
fn center(i: u32) -> [f32; 2] {
    let (column, row) = (i % GRID, i / GRID);
    let px = 2.0 / SIZE as f32;
    let x = (column * CELL) as f32 + CELL as f32 / 2.0;
    let y = (row * CELL) as f32 + CELL as f32 / 2.0;
    [x * px - 1.0, 1.0 - y * px]
}

/// Whether instance `i` survives a camera `(center, half_extent)`.
fn visible(i: u32, (c, h): ([f32; 2], [f32; 2])) -> bool {
    let p = center(i);
    (p[0] - c[0]).abs() <= h[0] && (p[1] - c[1]).abs() <= h[1]
}

/// Parses `frame N camera: center X Y, half extent X Y`.
fn camera(line: &str) -> ([f32; 2], [f32; 2]) {
    let numbers: Vec<f32> = line
        .split([' ', ','])
        .filter_map(|w| w.parse().ok())
        .skip(1)
        .collect();
    assert_eq!(numbers.len(), 4, "{line:?}");
    ([numbers[0], numbers[1]], [numbers[2], numbers[3]])
}

/// The number after the last space of `line`.
fn last_number(line: &str) -> u64 {
    let word = line.split([' ']).rfind(|w| w.parse::<u64>().is_ok());
    word.and_then(|w| w.parse().ok())
        .unwrap_or_else(|| panic!("no number in {line:?}"))
}

#[test]
fn gpu_culling_draws_exactly_the_instances_the_cpu_counts() {
    let run = vgpu_tests::run_example("gpu_culling", &[]);
    let mut cameras = Vec::new();
    for frame in 1..=FRAMES {
        let cam = camera(run.line(&format!("frame {frame} camera: ")));
        let cpu = (0..GRID * GRID).filter(|&i| visible(i, cam)).count() as u64;
        assert!(
            cpu > 0 && cpu < u64::from(GRID * GRID),
            "frame {frame}: {cpu}"
        );
        let printed = run.line(&format!("frame {frame} cpu visible: "));
        assert!(
            printed.contains(&format!(": {cpu} of")),
            "{printed:?}: expected {cpu}"
        );
        if !run.noop() {
            let gpu = last_number(run.line(&format!("frame {frame} gpu instance count: ")));
            assert_eq!(gpu, cpu, "frame {frame}: the GPU's count");
        }
        cameras.push(cam);
    }
    if run.noop() {
        assert!(
            run.stdout.contains("nothing was rendered"),
            "{}",
            run.stdout
        );
        return;
    }
    let (width, height, pixels) = run.png("gpu_culling.png");
    assert_eq!((width, height), (SIZE, SIZE));
    let pixel = |x: u32, y: u32| {
        let i = ((y * SIZE + x) * 4) as usize;
        [pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3]]
    };
    let last = cameras[FRAMES - 1];
    let mut lit = 0;
    for i in 0..GRID * GRID {
        let (column, row) = (i % GRID, i / GRID);
        let (x, y) = (column * CELL + CELL / 2, row * CELL + CELL / 2);
        let on = pixel(x, y)[2] != 0;
        assert_eq!(
            on,
            visible(i, last),
            "cell ({column},{row}): {:?}",
            pixel(x, y)
        );
        lit += u32::from(on);
        let gap = pixel(column * CELL, row * CELL);
        assert_eq!(gap, [0, 0, 0, 255], "cell ({column},{row})'s gap");
    }
    let cpu = (0..GRID * GRID).filter(|&i| visible(i, last)).count() as u32;
    assert_eq!(lit, cpu, "lit cells");
}
