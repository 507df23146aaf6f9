//! Tier 2 (real device: VGPU_BACKEND=vulkan or gl; on noop the counters only): the `deferred`
//! example, run as a binary (`vgpu_tests::run_example`: `cargo test -p vgpu-tests` alone needs
//! `cargo build --examples` first). Its scene is duplicated below from examples/deferred.rs;
//! at a few pixels chosen well inside a surface (and well inside or outside the light's
//! volume) the test computes on the CPU what each G-buffer plane holds and what the lit image
//! shows, and compares with the PNGs the example wrote. Every frame's counters are checked on
//! every device.

use std::collections::HashMap;

use vgpu_tests::{ExampleRun, parse_counters, run_example};

/// Width and height of the images.
const SIZE: u32 = 256;
/// The ambient strength.
const AMBIENT: f32 = 0.25;
/// The objects: (name, center, half size, depth at the center, depth slope, albedo).
type Object = (&'static str, [f32; 2], f32, f32, [f32; 2], [u8; 4]);
const OBJECTS: [Object; 4] = [
    (
        "wall",
        [0.0, 0.0],
        1.0,
        0.9,
        [0.0, 0.0],
        [160, 160, 160, 255],
    ),
    ("red", [-0.4, 0.0], 0.3, 0.5, [0.2, 0.0], [200, 40, 40, 255]),
    (
        "green",
        [0.4, 0.0],
        0.3,
        0.5,
        [-0.2, 0.0],
        [40, 200, 40, 255],
    ),
    (
        "blue",
        [0.0, -0.55],
        0.25,
        0.4,
        [0.0, 0.3],
        [40, 80, 200, 255],
    ),
];
/// The light: position, volume radius, color, falloff.
const LIGHT_POSITION: [f32; 3] = [-0.2, 0.1, 0.3];
const LIGHT_RADIUS: f32 = 0.5;
const LIGHT_COLOR: [f32; 3] = [1.0, 0.9, 0.8];
const LIGHT_FALLOFF: f32 = 0.3;

/// The pixels checked (x, y from the top-left), with what each shows.
const SAMPLES: [(u32, u32, &str); 8] = [
    (102, 115, "red, under the light"),
    (76, 127, "red, its center"),
    (153, 127, "green, inside the volume's disc"),
    (115, 170, "blue, inside the volume's disc"),
    (204, 127, "green, outside the disc"),
    (102, 63, "wall, inside the disc but behind the volume"),
    (230, 25, "wall, outside the disc"),
    (140, 217, "blue, outside the disc"),
];

/// What the scene puts at one pixel.
struct Surface {
    albedo: [u8; 4],
    normal: [f32; 3],
    position: [f32; 3],
    /// Inside the light's volume: within its disc and in front of its sphere's back.
    marked: bool,
}

fn normalize(v: [f32; 3]) -> [f32; 3] {
    let length = v.iter().map(|c| c * c).sum::<f32>().sqrt();
    v.map(|c| c / length)
}

/// The nearest surface at the center of pixel (`px`, `py`); panics if the pixel lies too close
/// to an object's edge, the volume's disc edge or the volume's depth to be predicted exactly.
fn surface_at(px: u32, py: u32, what: &str) -> Surface {
    let x = (px as f32 + 0.5) / SIZE as f32 * 2.0 - 1.0;
    let y = 1.0 - (py as f32 + 0.5) / SIZE as f32 * 2.0;
    let margin = 3.0 * 2.0 / SIZE as f32;
    let (object, z) = OBJECTS
        .iter()
        .filter(|o| (x - o.1[0]).abs() < o.2 && (y - o.1[1]).abs() < o.2)
        .map(|o| (o, o.3 + o.4[0] * (x - o.1[0]) + o.4[1] * (y - o.1[1])))
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .unwrap_or_else(|| panic!("{what}: no object covers ({x}, {y})"));
    let (name, center, half, ..) = *object;
    let inset = half - (x - center[0]).abs().max((y - center[1]).abs());
    assert!(
        name == "wall" || inset > margin,
        "{what}: too close to {name}'s edge"
    );
    let disc = (x - LIGHT_POSITION[0]).hypot(y - LIGHT_POSITION[1]);
    let back = LIGHT_POSITION[2] + LIGHT_RADIUS;
    assert!(
        (disc - LIGHT_RADIUS).abs() > 0.05,
        "{what}: too close to the disc's edge"
    );
    assert!(
        (z - back).abs() > 0.02,
        "{what}: too close to the volume's depth"
    );
    Surface {
        albedo: object.5,
        normal: normalize([object.4[0], object.4[1], -1.0]),
        position: [x, y, z],
        marked: disc < LIGHT_RADIUS && z < back,
    }
}

/// The light's contribution (0..1 per channel) at `s`, as the example's lighting shader
/// computes it.
fn light_at(s: &Surface) -> [f32; 3] {
    let to_light: [f32; 3] = std::array::from_fn(|i| LIGHT_POSITION[i] - s.position[i]);
    let d = to_light.iter().map(|c| c * c).sum::<f32>().sqrt();
    let n_dot_l = (0..3)
        .map(|i| s.normal[i] * to_light[i] / d)
        .sum::<f32>()
        .max(0.0);
    let x = d / LIGHT_FALLOFF;
    std::array::from_fn(|i| {
        f32::from(s.albedo[i]) / 255.0 * LIGHT_COLOR[i] * n_dot_l / (1.0 + x * x)
    })
}

/// `pixel` is `expected` in every channel within `tolerance` (8-bit steps).
#[track_caller]
fn assert_near(pixel: [u8; 4], expected: [f32; 4], tolerance: f32, what: &str) {
    let near = pixel
        .iter()
        .zip(expected)
        .all(|(&p, e)| (f32::from(p) - e).abs() <= tolerance);
    assert!(
        near,
        "{what}: {pixel:?}, expected {expected:?} ±{tolerance}"
    );
}

/// The pixel (`x`, `y`) of an RGBA8 image `SIZE` wide.
fn pixel(image: &[u8], x: u32, y: u32) -> [u8; 4] {
    let i = ((y * SIZE + x) * 4) as usize;
    [image[i], image[i + 1], image[i + 2], image[i + 3]]
}

/// The image `name` the example wrote, checked to be `SIZE`×`SIZE`.
fn image(run: &ExampleRun, name: &str) -> Vec<u8> {
    let (w, h, pixels) = run.png(name);
    assert_eq!((w, h), (SIZE, SIZE), "{name}");
    pixels
}

/// Three frames of seven draws (four objects, ambient, volume, lighting); the steady ones
/// create nothing and upload nothing.
fn check_counters(run: &ExampleRun) {
    let frames: Vec<HashMap<String, u64>> = run
        .lines_starting("frame ")
        .into_iter()
        .map(parse_counters)
        .collect();
    assert_eq!(frames.len(), 3, "three frames:\n{}", run.stdout);
    for (i, s) in frames.iter().enumerate() {
        assert_eq!(s["draws"], 7, "frame {i}: draws");
    }
    assert!(
        frames[0]["bytes uploaded"] > 0,
        "the first frame uploads the values"
    );
    for (i, s) in frames.iter().enumerate().skip(1) {
        for counter in [
            "bind groups created",
            "bytes uploaded",
            "write_buffer calls",
            "buffers created",
            "pipelines created",
        ] {
            assert_eq!(s[counter], 0, "steady frame {i}: {counter}");
        }
    }
}

/// The G-buffer planes hold each surface's albedo, normal and position; the lit image is
/// `albedo × ambient` exactly outside the light's volume (the surfaces the stencil did not
/// mark, the wall behind the volume among them, although the light reaches them) and that plus
/// the light inside it; steady frames create no bind group and upload nothing.
#[test]
fn deferred_lights_only_the_stencil_marked_volume() {
    let run = run_example("deferred", &[]);
    check_counters(&run);
    if run.noop() {
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
        return;
    }
    let adapter = run.line("adapter: ").to_owned();
    let lit = image(&run, "deferred.png");
    let albedo = image(&run, "deferred_albedo.png");
    let normal = image(&run, "deferred_normal.png");
    let position = image(&run, "deferred_position.png");
    let mut marked = 0;
    for (x, y, what) in SAMPLES {
        let what = format!("{what} ({x}, {y}) on {adapter}");
        let s = surface_at(x, y, &what);
        assert_eq!(pixel(&albedo, x, y), s.albedo, "{what}: albedo");
        let n = s.normal.map(|c| (c * 0.5 + 0.5) * 255.0);
        assert_near(
            pixel(&normal, x, y),
            [n[0], n[1], n[2], 255.0],
            1.0,
            &format!("{what}: normal"),
        );
        let p = s.position;
        let p = [
            (p[0] * 0.5 + 0.5) * 255.0,
            (p[1] * 0.5 + 0.5) * 255.0,
            p[2] * 255.0,
            255.0,
        ];
        assert_near(pixel(&position, x, y), p, 1.0, &format!("{what}: position"));

        let ambient = s.albedo.map(|c| (f32::from(c) * AMBIENT).round());
        let light = light_at(&s);
        // Sanity: the light reaches every sample (by more than the tolerance below), so only
        // the stencil keeps it off the unmarked ones, and a marked one left unlit fails.
        assert!(
            light.iter().any(|&c| c * 255.0 >= 3.0),
            "{what}: the light reaches it ({light:?})"
        );
        let got = pixel(&lit, x, y);
        if s.marked {
            marked += 1;
            let expected: [f32; 4] = std::array::from_fn(|i| match i {
                3 => 255.0,
                i => ambient[i] + light[i] * 255.0,
            });
            assert_near(got, expected, 2.0, &format!("{what}: lit"));
        } else {
            let expected = [ambient[0], ambient[1], ambient[2], 255.0].map(|c| c as u8);
            assert_eq!(got, expected, "{what}: ambient only");
        }
    }
    assert_eq!(marked, 4, "samples inside the volume");
}
