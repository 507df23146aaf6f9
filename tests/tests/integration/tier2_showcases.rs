//! Tier 2 (real device: VGPU_BACKEND=vulkan or gl; on noop the counters only): the showcase
//! examples `skybox` and `bloom`, run as binaries (`vgpu_tests::run_example`: `cargo test -p
//! vgpu-tests` alone needs `cargo build -p vgpu-examples --examples` first) in a fresh
//! directory, their PNGs checked pixel by pixel. An example exits non-zero on an uncaptured
//! wgpu error (`vgpu_examples::fail_on_uncaptured_errors`), which fails `run_example`: a run
//! that passes had none.

use std::collections::HashMap;

use vgpu_tests::{ExampleRun, parse_counters, run_example, temp_path};

/// Width and height of the skybox example's images.
const SKY_SIZE: u32 = 128;
/// Width and height of the faces this test writes.
const FACE_SIZE: u32 = 32;
/// The faces this test writes, in cube-layer order (+X −X +Y −Y +Z −Z): file stem and color
/// (none of them the example's own colors, so a pass shows the files were read).
const FACES: [(&str, [u8; 4]); 6] = [
    ("px", [250, 10, 10, 255]),
    ("nx", [10, 250, 250, 255]),
    ("py", [10, 250, 10, 255]),
    ("ny", [250, 10, 250, 255]),
    ("pz", [10, 10, 250, 255]),
    ("nz", [250, 250, 10, 255]),
];

/// Width and height of the bloom example's images.
const BLOOM_SIZE: u32 = 256;

/// The pixel (`x`, `y`) of RGBA8 `pixels`, `width` wide.
fn pixel(pixels: &[u8], width: u32, x: u32, y: u32) -> [u8; 4] {
    let i = ((y * width + x) * 4) as usize;
    [pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3]]
}

/// The image `name` the example wrote, checked to be `size`×`size`.
fn image(run: &ExampleRun, name: &str, size: u32) -> Vec<u8> {
    let (w, h, pixels) = run.png(name);
    assert_eq!((w, h), (size, size), "{name}");
    pixels
}

/// On noop: the example says nothing was rendered and wrote no file.
fn assert_nothing_written(run: &ExampleRun) {
    assert!(
        run.stdout.contains("nothing was rendered"),
        "{}",
        run.stdout
    );
    assert!(!run.stdout.contains("wrote "), "{}", run.stdout);
    let files: Vec<_> = std::fs::read_dir(&run.dir)
        .expect("the example's directory")
        .collect();
    assert!(files.is_empty(), "no file written on noop: {files:?}");
}

/// Writes the six faces: each its color, framed by a black border two texels wide (where two
/// faces meet); returns their directory.
fn write_faces() -> std::path::PathBuf {
    let dir = temp_path("skybox-faces");
    std::fs::create_dir_all(&dir).expect("the faces' directory");
    for (name, color) in FACES {
        let mut data = Vec::new();
        for y in 0..FACE_SIZE {
            for x in 0..FACE_SIZE {
                let border = x.min(y) < 2 || x.max(y) >= FACE_SIZE - 2;
                data.extend_from_slice(&if border { [0, 0, 0, 255] } else { color });
            }
        }
        let face = vgpu::RgbaImage {
            width: FACE_SIZE,
            height: FACE_SIZE,
            data,
        };
        face.save_png(dir.join(format!("{name}.png")))
            .expect("write a face");
    }
    dir
}

/// Seven frames, one per view; after the first, only the camera block changes: no bind group,
/// buffer or pipeline is created.
fn check_skybox_counters(run: &ExampleRun) {
    let frames: Vec<HashMap<String, u64>> = run
        .lines_starting("skybox")
        .into_iter()
        .map(parse_counters)
        .collect();
    assert_eq!(frames.len(), 7, "seven views:\n{}", run.stdout);
    for (i, s) in frames.iter().enumerate() {
        assert_eq!(s["draws"], 1, "view {i}: draws");
    }
    for (i, s) in frames.iter().enumerate().skip(1) {
        for counter in [
            "bind groups created",
            "buffers created",
            "pipelines created",
        ] {
            assert_eq!(s[counter], 0, "view {i}: {counter}");
        }
    }
}

/// The cube map loaded from six PNG files written here, sampled by view direction: looking at
/// the centre of each face, the pixel at the centre of the screen is exactly that face's color;
/// the oblique view towards the corner of +X, +Y and −Z shows those three faces and none of the
/// other three.
#[test]
fn skybox_samples_the_cube_face_the_camera_looks_at() {
    let dir = write_faces();
    let run = run_example("skybox", &[dir.to_str().expect("a UTF-8 temp path")]);
    check_skybox_counters(&run);
    if run.noop() {
        assert_nothing_written(&run);
        return;
    }
    let adapter = run.line("adapter: ").to_owned();
    for (name, color) in FACES {
        let view = image(&run, &format!("skybox_{name}.png"), SKY_SIZE);
        let centre = pixel(&view, SKY_SIZE, SKY_SIZE / 2, SKY_SIZE / 2);
        assert_eq!(centre, color, "looking at face {name} on {adapter}");
        assert_eq!(
            run.line(&format!("centre {name}: ")),
            format!("centre {name}: {color:?}"),
            "the printed centre pixel"
        );
    }
    let oblique = image(&run, "skybox.png", SKY_SIZE);
    let count = |color: [u8; 4]| oblique.chunks_exact(4).filter(|p| *p == color).count();
    for (name, color) in FACES {
        let seen = count(color);
        if ["px", "py", "nz"].contains(&name) {
            assert!(seen > 100, "face {name} in the oblique view: {seen} pixels");
        } else {
            assert_eq!(
                seen, 0,
                "face {name} in the oblique view (behind the camera)"
            );
        }
    }
}

/// Two frames of 12 draws; the second creates nothing and uploads nothing.
fn check_bloom_counters(run: &ExampleRun) {
    let frames: Vec<HashMap<String, u64>> = run
        .lines_starting("frame ")
        .into_iter()
        .map(parse_counters)
        .collect();
    assert_eq!(frames.len(), 2, "two frames:\n{}", run.stdout);
    for (i, s) in frames.iter().enumerate() {
        assert_eq!(s["draws"], 12, "frame {i}: draws");
    }
    for counter in [
        "bind groups created",
        "bytes uploaded",
        "buffers created",
        "pipelines created",
    ] {
        assert_eq!(frames[1][counter], 0, "steady frame: {counter}");
    }
}

/// The sum of the color channels of a pixel.
fn luma(p: [u8; 4]) -> u32 {
    p[..3].iter().map(|&c| u32::from(c)).sum()
}

/// The HDR scene through the bright pass, the mip chain down and up, and the composite: the
/// centre of an emissive disc is saturated; a pixel near it (outside it, on the dark
/// background) is clearly brighter than without bloom; pixels far from every emissive shape (the
/// background, the dim panel that is below the threshold) are unchanged within 2/255; the
/// scene and the bloom hold no NaN or infinity.
#[test]
fn bloom_glows_around_bright_shapes_only() {
    let run = run_example("bloom", &[]);
    check_bloom_counters(&run);
    if run.noop() {
        assert_nothing_written(&run);
        return;
    }
    let adapter = run.line("adapter: ").to_owned();
    assert_eq!(
        run.line("non-finite values: "),
        "non-finite values: scene 0, bloom 0",
        "on {adapter}"
    );
    let on = image(&run, "bloom.png", BLOOM_SIZE);
    let off = image(&run, "bloom_off.png", BLOOM_SIZE);
    let at = |pixels: &[u8], (x, y): (u32, u32)| pixel(pixels, BLOOM_SIZE, x, y);

    // The warm disc: centre (0.30, 0.30) in uv, radius 0.05 (12.8 pixels).
    let centre = (77, 77);
    assert_eq!(
        at(&on, centre),
        [255; 4],
        "disc centre, bloom on, {adapter}"
    );
    assert_eq!(
        at(&off, centre),
        [255; 4],
        "disc centre, bloom off, {adapter}"
    );

    // 7 pixels outside the disc's edge, on the dark background.
    for near in [(77 + 20, 77), (77, 77 + 20), (77 - 20, 77)] {
        let (with, without) = (at(&on, near), at(&off, near));
        assert!(
            luma(without) < 15,
            "{near:?} is background without bloom: {without:?}"
        );
        assert!(
            luma(with) >= luma(without) + 60,
            "{near:?} glows with bloom on {adapter}: {with:?} vs {without:?} without"
        );
    }

    // The background's far corner and the dim panel (0.70..0.95 in uv).
    for far in [(250, 250), (5, 250), (250, 140), (235, 235), (200, 200)] {
        let (with, without) = (at(&on, far), at(&off, far));
        let close = with.iter().zip(without).all(|(&a, b)| a.abs_diff(b) <= 2);
        assert!(
            close,
            "{far:?} is far from every bright shape, unchanged on {adapter}: {with:?} vs \
             {without:?} without bloom"
        );
    }
}
