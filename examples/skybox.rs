//! A sky drawn from a cube map by view direction; writes `skybox.png` (an oblique view, three
//! faces meeting in a corner) and one image looking at the centre of each face
//! (`skybox_px.png`, `skybox_nx.png`, `skybox_py.png`, `skybox_ny.png`, `skybox_pz.png`,
//! `skybox_nz.png`), and prints the centre pixel of each (`centre px: [r, g, b, a]`).
//!
//! - **The cube map** comes from six PNG files, `px.png nx.png py.png ny.png pz.png nz.png`
//!   (the faces +X −X +Y −Y +Z −Z, square images of one size), read from the directory given as
//!   the first argument; without one, from `vgpu-skybox-faces` in the temporary directory,
//!   where the example first writes those missing of six faces of its own (a flat color each,
//!   darkening towards the edges, with a white mark off centre). `Gpu::cube_from_images` (vgpu's `image` feature) decodes them into the six layers of
//!   one texture whose default view is a cube, bound to a `texture_cube<f32>` binding like any
//!   texture.
//! - **The sky** is one fullscreen effect: each pixel turns its position on the screen back
//!   into a direction with the camera's inverse view-projection (a uniform), and samples the
//!   cube in that direction (`textureSample(sky, s, direction)`). The camera sits at the
//!   origin: only its orientation matters for a sky.
//!
//! One frame per view; each sets the camera block (one upload) and reads the image back.
//!
//! ```text
//! cargo run --release --example skybox [FACES_DIR]
//! ```

use std::path::{Path, PathBuf};

use glam::{Mat4, Vec3};
use vgpu::{Gpu, ImageOptions, PassDesc, SamplerDesc, Target, TargetDesc, Texture, value};

/// Width and height of the rendered images in pixels.
const SIZE: u32 = 128;
/// Width and height of the faces the example writes when given no directory.
const FACE_SIZE: u32 = 64;
/// Vertical field of view of the camera, in degrees: narrow enough that a view looking at a
/// face's centre sees only that face.
const FOV_DEGREES: f32 = 60.0;

/// The faces in cube-layer order (+X −X +Y −Y +Z −Z): the file stem, the direction looking at
/// the face's centre, an up vector for that view, and the color the example's own faces have.
const FACES: [(&str, Vec3, Vec3, [u8; 4]); 6] = [
    ("px", Vec3::X, Vec3::Y, [220, 60, 50, 255]),
    ("nx", Vec3::NEG_X, Vec3::Y, [50, 200, 210, 255]),
    ("py", Vec3::Y, Vec3::Z, [70, 210, 60, 255]),
    ("ny", Vec3::NEG_Y, Vec3::Z, [200, 60, 200, 255]),
    ("pz", Vec3::Z, Vec3::Y, [60, 80, 230, 255]),
    ("nz", Vec3::NEG_Z, Vec3::Y, [230, 200, 60, 255]),
];

/// The sky: a direction per pixel from the inverse view-projection, sampled in the cube.
const SKY: &str = r#"
struct Camera { inverse_view_projection: mat4x4f }
@group(0) @binding(0) var<uniform> camera: Camera;
@group(0) @binding(1) var sky: texture_cube<f32>;
@group(0) @binding(2) var s: sampler;

@fragment
fn fs_main(@location(0) uv: vec2f) -> @location(0) vec4f {
    // uv is 0,0 at the top-left; normalized device coordinates have +y up.
    let ndc = vec2f(uv.x * 2.0 - 1.0, 1.0 - uv.y * 2.0);
    // The point on the far plane under this pixel; the camera is at the origin, so it is also
    // the view direction.
    let far = camera.inverse_view_projection * vec4f(ndc, 1.0, 1.0);
    let direction = normalize(far.xyz / far.w);
    return textureSample(sky, s, direction);
}
"#;

/// A face the example writes: `color`, darkened towards the edges (the central half is
/// exactly `color`), with a white square mark in the upper-left quarter (so orientation
/// shows).
fn face_pixels(color: [u8; 4]) -> Vec<u8> {
    let mut data = Vec::with_capacity((FACE_SIZE * FACE_SIZE * 4) as usize);
    let half = FACE_SIZE as f32 / 2.0;
    for y in 0..FACE_SIZE {
        for x in 0..FACE_SIZE {
            let (u, v) = (
                (x as f32 + 0.5 - half) / half,
                (y as f32 + 0.5 - half) / half,
            );
            let mark = (-0.75..-0.55).contains(&u) && (-0.75..-0.55).contains(&v);
            let edge = (u.abs().max(v.abs()) - 0.5).max(0.0) * 2.0;
            let shade = 1.0 - 0.6 * edge;
            let pixel = if mark {
                [255, 255, 255, 255]
            } else {
                let c = |i: usize| (f32::from(color[i]) * shade).round() as u8;
                [c(0), c(1), c(2), 255]
            };
            data.extend_from_slice(&pixel);
        }
    }
    data
}

/// The directory of the example's own faces (`vgpu-skybox-faces` in the temporary directory),
/// writing those of them that are missing; returns it.
fn default_faces() -> Result<PathBuf, Box<dyn std::error::Error>> {
    let dir = std::env::temp_dir().join("vgpu-skybox-faces");
    std::fs::create_dir_all(&dir)?;
    for (name, .., color) in FACES {
        let path = dir.join(format!("{name}.png"));
        if path.exists() {
            continue;
        }
        let image = vgpu::RgbaImage {
            width: FACE_SIZE,
            height: FACE_SIZE,
            data: face_pixels(color),
        };
        image.save_png(&path)?;
    }
    Ok(dir)
}

/// The cube map: the six faces of `dir`, in layer order (`Gpu::cube_from_images` checks that
/// they are square and of one size). `srgb: false`: the faces' bytes reach the image unchanged
/// (no decoding to linear when sampled, an `Rgba8Unorm` target); a renderer that lights with the
/// sky would decode them (`srgb: true`) and draw into an sRGB target.
fn load_cube(gpu: &Gpu, dir: &Path) -> vgpu::Result<Texture> {
    let paths = FACES.map(|(name, ..)| dir.join(format!("{name}.png")));
    let options = ImageOptions {
        label: Some("sky".into()),
        srgb: false,
        ..Default::default()
    };
    gpu.cube_from_images(paths.each_ref(), &options)
}

/// The inverse view-projection of a camera at the origin looking along `forward`.
fn inverse_view_projection(forward: Vec3, up: Vec3) -> Mat4 {
    let view = Mat4::look_to_rh(Vec3::ZERO, forward, up);
    let projection = Mat4::perspective_rh(FOV_DEGREES.to_radians(), 1.0, 0.1, 10.0);
    (projection * view).inverse()
}

/// Renders the sky seen looking along `forward` into `target` (one frame).
fn render(
    gpu: &Gpu,
    sky: &vgpu::Effect,
    target: &Target,
    forward: Vec3,
    up: Vec3,
) -> vgpu::Result<vgpu::FrameReport> {
    sky.set(
        "camera",
        value! { inverse_view_projection: inverse_view_projection(forward, up) },
    )?;
    gpu.frame(|f| f.pass(PassDesc::new(target).label("sky"), |p| p.draw(sky)))
}

fn main() -> std::process::ExitCode {
    vgpu_examples::report(run())
}

fn run() -> Result<(), Box<dyn std::error::Error>> {
    let gpu = Gpu::from_env()?;
    println!(
        "adapter: {} ({:?})",
        gpu.adapter_info().name,
        gpu.adapter_info().backend
    );
    let dir = match std::env::args_os().nth(1) {
        Some(dir) => PathBuf::from(dir),
        None => default_faces()?,
    };
    println!("faces: {}", dir.display());
    let cube = load_cube(&gpu, &dir)?;
    let sampler = gpu.sampler(&SamplerDesc::default())?;
    let sky = gpu.effect("sky", SKY)?;
    sky.set("sky", &cube)?;
    sky.set("s", &sampler)?;
    let target = gpu.target_with(&TargetDesc::new(SIZE, SIZE).label("skybox"))?;

    // Looking at the corner where +X, +Y and −Z meet, then at each face's centre.
    let oblique = Vec3::new(1.0, 0.6, -1.0).normalize();
    let mut views = vec![("skybox.png".to_owned(), None, oblique, Vec3::Y)];
    for (name, forward, up, _) in FACES {
        views.push((format!("skybox_{name}.png"), Some(name), forward, up));
    }
    for (file, face, forward, up) in views {
        let report = render(&gpu, &sky, &target, forward, up)?;
        println!("{}", vgpu_examples::counter_line(&file, &report.stats));
        vgpu_examples::fail_on_uncaptured_errors(&gpu)?;
        if gpu.is_noop() {
            continue;
        }
        let image = target.read_rgba8()?;
        if let Some(face) = face {
            let centre = image.pixel(SIZE / 2, SIZE / 2).ok_or("the centre pixel")?;
            println!("centre {face}: {centre:?}");
        }
        image.save_png(&file)?;
        println!("wrote {file}");
    }
    if gpu.is_noop() {
        println!("nothing was rendered (the noop device executes no GPU work): no PNG was written");
    }
    Ok(())
}
