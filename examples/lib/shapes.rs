//! The `shapes` example's scene: every primitive of `vgpu::geometry` as a mesh, lit by one
//! directional light, on a 4 × 2 grid; and where each lands on the screen (for its test).
//!
//! One shader for all of them: its vertex inputs `position` and `normal` take the meshes'
//! attributes of those names; a shared camera block, a typed value per shape (model matrix and
//! color).

use glam::{Mat4, Vec3, Vec4};
use vgpu::{DrawDesc, Gpu, Mesh, Pass, Result, SharedUniforms, TypedBinding, Uniform, geometry};

/// Lambert from one directional light plus ambient; the color is gamma-encoded when the target
/// is linear (`camera.encode.x` = 1), left to an sRGB target otherwise.
pub const SHAPES_SHADER: &str = r#"
struct Camera { view_projection: mat4x4f, light: vec4f, encode: vec4f }
struct Shape { model: mat4x4f, color: vec4f }
@group(0) @binding(0) var<uniform> camera: Camera;
@group(1) @binding(0) var<uniform> shape: Shape;

struct Out { @builtin(position) clip: vec4f, @location(0) normal: vec3f }

@vertex fn vs_main(@location(0) position: vec3f, @location(1) normal: vec3f) -> Out {
    var out: Out;
    out.clip = camera.view_projection * shape.model * vec4f(position, 1.0);
    out.normal = (shape.model * vec4f(normal, 0.0)).xyz;
    return out;
}

@fragment fn fs_main(in: Out) -> @location(0) vec4f {
    let n = normalize(in.normal);
    let lit = 0.35 + 0.65 * max(dot(n, -normalize(camera.light.xyz)), 0.0);
    let color = shape.color.rgb * lit;
    return vec4f(select(color, pow(color, vec3f(1.0 / 2.2)), camera.encode.x > 0.5), 1.0);
}
"#;

/// The shared camera block.
#[derive(Clone, Copy, Debug, Uniform)]
pub struct Camera {
    /// Projection × view.
    pub view_projection: Mat4,
    /// The light's direction (xyz).
    pub light: Vec4,
    /// x: 1 when the shader gamma-encodes (a linear target).
    pub encode: Vec4,
}

/// One shape's value.
#[derive(Clone, Copy, Debug, Uniform)]
pub struct ShapeValue {
    /// Object to world.
    pub model: Mat4,
    /// Linear RGB (w unused).
    pub color: Vec4,
}

/// The primitives, in grid order (row 0 left to right, then row 1).
pub const NAMES: [&str; 8] = [
    "cuboid",
    "plane",
    "sphere",
    "icosphere",
    "torus",
    "cylinder",
    "cone",
    "capsule",
];

/// The camera the `shapes` example starts with: above and in front of the grid, looking at
/// its middle (orbit controls move it from there).
pub fn camera() -> vgpu::camera::PerspectiveCamera {
    vgpu::camera::PerspectiveCamera {
        eye: Vec3::new(0.0, 5.5, 8.0),
        target: Vec3::ZERO,
        ..Default::default()
    }
}

/// Distance between grid cells (world units).
pub const SPACING: f32 = 2.5;

/// Each primitive's geometry, about 1.6 units across.
pub fn geometry_of(name: &str) -> Result<geometry::Geometry> {
    match name {
        "cuboid" => geometry::cuboid([1.2, 1.2, 1.2]),
        "plane" => geometry::plane(1.6, 1.6, 4, 4),
        "sphere" => geometry::sphere(0.8, 32, 16),
        "icosphere" => geometry::icosphere(0.8, 2),
        "torus" => geometry::torus(0.6, 0.22, 32, 16),
        "cylinder" => geometry::cylinder(0.6, 1.4, 32, 1),
        "cone" => geometry::cone(0.7, 1.4, 32),
        _ => geometry::capsule(0.45, 0.8, 8, 24),
    }
}

/// Where shape `i` stands: a 4 × 2 grid centered on the origin, on the XZ plane.
pub fn position_of(i: usize) -> Vec3 {
    let column = (i % 4) as f32 - 1.5;
    let row = (i / 4) as f32 - 0.5;
    Vec3::new(column * SPACING, 0.0, row * SPACING)
}

/// Shape `i`'s model matrix at `time` seconds: placed on the grid, turning slowly about Y
/// (tilted forward, so the flat ones show their faces).
pub fn model_of(i: usize, time: f32) -> Mat4 {
    Mat4::from_translation(position_of(i))
        * Mat4::from_rotation_y(0.4 * time + i as f32)
        * Mat4::from_rotation_x(0.35)
}

/// Shape `i`'s color: primaries and secondaries, told apart in a picture.
pub fn color_of(i: usize) -> Vec4 {
    const COLORS: [[f32; 3]; 8] = [
        [0.9, 0.2, 0.2],
        [0.3, 0.8, 0.3],
        [0.25, 0.45, 0.95],
        [0.95, 0.85, 0.2],
        [0.2, 0.85, 0.85],
        [0.9, 0.3, 0.9],
        [0.95, 0.55, 0.15],
        [0.85, 0.85, 0.85],
    ];
    let [r, g, b] = COLORS[i % COLORS.len()];
    Vec4::new(r, g, b, 1.0)
}

/// The eight shapes: a mesh, a draw and its typed value each, and the shared camera block.
#[derive(Debug)]
pub struct Shapes {
    meshes: Vec<Mesh>,
    draws: Vec<vgpu::Draw>,
    values: Vec<TypedBinding<ShapeValue>>,
    camera: SharedUniforms,
}

impl Shapes {
    /// Uploads every primitive and makes its draw.
    pub fn new(gpu: &Gpu) -> Result<Shapes> {
        let shader = gpu.shader("shapes", SHAPES_SHADER)?;
        let camera = gpu.uniforms(&Camera {
            view_projection: Mat4::IDENTITY,
            light: Vec4::new(-0.4, -1.0, -0.6, 0.0),
            encode: Vec4::ZERO,
        })?;
        let (mut meshes, mut draws, mut values) = (Vec::new(), Vec::new(), Vec::new());
        for (i, name) in NAMES.iter().enumerate() {
            let mesh = gpu.mesh(&geometry_of(name)?.with_label(*name))?;
            let draw = gpu.draw(
                &shader,
                DrawDesc {
                    label: (*name).to_owned(),
                    mesh: Some(mesh.clone()),
                    ..Default::default()
                },
            )?;
            draw.set("camera", &camera)?;
            let value = draw.typed_binding::<ShapeValue>("shape")?;
            value.set(&ShapeValue {
                model: model_of(i, 0.0),
                color: color_of(i),
            })?;
            meshes.push(mesh);
            draws.push(draw);
            values.push(value);
        }
        Ok(Shapes {
            meshes,
            draws,
            values,
            camera,
        })
    }

    /// Sets the camera (`encode`: the target is linear, the shader gamma-encodes) and each
    /// shape's turn at `time`.
    pub fn update(&self, view_projection: Mat4, time: f32, encode: bool) -> Result<()> {
        self.camera.set(&Camera {
            view_projection,
            light: Vec4::new(-0.4, -1.0, -0.6, 0.0),
            encode: Vec4::new(if encode { 1.0 } else { 0.0 }, 0.0, 0.0, 0.0),
        })?;
        for (i, value) in self.values.iter().enumerate() {
            value.set(&ShapeValue {
                model: model_of(i, time),
                color: color_of(i),
            })?;
        }
        Ok(())
    }

    /// Draws every shape into `pass`.
    pub fn draw(&self, pass: &mut Pass<'_>) -> Result<()> {
        for draw in &self.draws {
            pass.draw(draw)?;
        }
        Ok(())
    }

    /// The meshes, in [`NAMES`] order.
    pub fn meshes(&self) -> &[Mesh] {
        &self.meshes
    }
}

/// The screen-space box (pixels, `[x0, y0, x1, y1]`, y down) of shape `i` at `time` under
/// `view_projection` in a `width`×`height` picture: its geometry's corners, transformed and
/// projected. What the example's test checks the picture against.
pub fn screen_box(
    i: usize,
    time: f32,
    view_projection: Mat4,
    (width, height): (u32, u32),
) -> Result<[f32; 4]> {
    let geometry = geometry_of(NAMES[i])?;
    let positions = geometry.positions().unwrap_or_default();
    let (mut lo, mut hi) = (Vec3::splat(f32::MAX), Vec3::splat(f32::MIN));
    for p in positions {
        let p = Vec3::from(*p);
        lo = lo.min(p);
        hi = hi.max(p);
    }
    let transform = view_projection * model_of(i, time);
    let mut b = [f32::MAX, f32::MAX, f32::MIN, f32::MIN];
    for corner in 0..8 {
        let pick = |bit: u32, a: f32, z: f32| if corner & bit != 0 { z } else { a };
        let p = Vec3::new(
            pick(1, lo.x, hi.x),
            pick(2, lo.y, hi.y),
            pick(4, lo.z, hi.z),
        );
        let ndc = transform.project_point3(p);
        let x = (ndc.x * 0.5 + 0.5) * width as f32;
        let y = (0.5 - ndc.y * 0.5) * height as f32;
        b = [b[0].min(x), b[1].min(y), b[2].max(x), b[3].max(y)];
    }
    Ok(b)
}
