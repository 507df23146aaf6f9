//! The upstream report's real scene
//! ([vercel-labs/vgpu#483](https://github.com/vercel-labs/vgpu/issues/483)): about 1 500 objects,
//! two shadow maps and a main pass with shadows, every draw binding one shared per-view camera block and its own
//! per-object struct.
//!
//! - Objects: a ground slab, a grid of pillars and a few cubes orbiting above them, all drawn as
//!   individual draws of one small shared cube mesh (vertex + index buffer).
//! - Per object, two draws: a depth-only draw (used by both shadow passes) and a lit draw (main
//!   pass). Each has its own `object` value `{ world, color }` set by binding name, a typed
//!   value (`#[derive(vgpu::Uniform)]`, [`ObjectUniform`]).
//! - One [`SharedUniforms`] camera, set before each of the three passes to a typed
//!   [`CameraUniform`]: light 1's view, light 2's view, the main view. This is exactly the
//!   per-pass camera case: the two light views repeat every frame and stay resident; only the
//!   orbiting main view is uploaded.
//! - Lights (view-projections, directions, colors) in a second shared block; the shadow maps are
//!   depth-only targets sampled as `texture_depth_2d` with a comparison sampler.
//!
//! [`Scene::render`] draws one frame for a given animation time and returns its
//! [`FrameReport`]; [`Scene::render_into`] and [`Scene::record`] draw the main pass into another
//! target — a window [`Surface`](vgpu::Surface), say — at that target's aspect and color
//! encoding; the geometry helpers ([`Scene::eye`], [`Scene::project`],
//! [`Scene::placements`], [`Scene::blocked`]) let a test decide on the CPU which pixels must be
//! in shadow.

use std::sync::atomic::{AtomicBool, Ordering};

use vgpu::{
    BindingArg, Buffer, DepthState, Draw, DrawDesc, Frame, FrameReport, Gpu, IndexBuffer, PassDesc,
    PassTarget, Result, SamplerDesc, SharedUniforms, Target, TargetDesc, Uniform, Value,
    VertexBuffer, value,
};

use glam::{Mat4, Vec3};

/// What to build. `Default` is the full scene: 640×480 main target, two 1024² shadow maps,
/// 39×38 pillars + 17 moving cubes + the ground = 1 500 objects (4 500 draws per frame).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SceneConfig {
    /// Main target width in pixels.
    pub width: u32,
    /// Main target height in pixels.
    pub height: u32,
    /// Side of each (square) shadow map in texels.
    pub shadow_size: u32,
    /// Pillars along x and z.
    pub grid: [u32; 2],
    /// Cubes orbiting above the pillars (their values change every frame).
    pub movers: u32,
    /// Whether the main camera orbits (its value changes every frame).
    pub orbit: bool,
}

impl Default for SceneConfig {
    fn default() -> Self {
        SceneConfig {
            width: 640,
            height: 480,
            shadow_size: 1024,
            grid: [39, 38],
            movers: 17,
            orbit: true,
        }
    }
}

impl SceneConfig {
    /// A small scene for tests: 200×150, 512² shadow maps, 8×8 pillars, 3 movers.
    pub fn small() -> Self {
        SceneConfig {
            width: 200,
            height: 150,
            shadow_size: 512,
            grid: [8, 8],
            movers: 3,
            orbit: true,
        }
    }

    /// Number of objects: pillars, movers and the ground.
    pub fn objects(&self) -> usize {
        (self.grid[0] * self.grid[1] + self.movers) as usize + 1
    }
}

/// Distance between pillar centers (world units).
pub const SPACING: f32 = 1.0;

/// Vertical field of view of the main camera (radians).
pub const FOV_Y: f32 = std::f32::consts::FRAC_PI_4;

/// Depth-only pass: the camera is the light's view.
pub const SHADOW_SHADER: &str = r#"
struct Camera { view_projection: mat4x4f }
struct Object { world: mat4x4f, color: vec4f }
@group(0) @binding(0) var<uniform> camera: Camera;
@group(1) @binding(0) var<uniform> object: Object;

@vertex
fn vs_main(@location(0) position: vec3f) -> @builtin(position) vec4f {
    return camera.view_projection * object.world * vec4f(position, 1.0);
}
"#;

/// Main pass: Lambert lighting from two directional lights, each with a 2×2 PCF shadow lookup.
pub const LIT_SHADER: &str = include_str!("../shaders/scene/lit.wgsl");

/// The folder of [`LIT_SHADER`] (`lit.wgsl`), for the `window` example's hot reload.
pub const LIT_SHADER_FOLDER: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/shaders/scene");

/// The shaders' `Object` (`{ world: mat4x4f, color: vec4f }`) as a typed value: set on each
/// draw's `object` binding, written straight into place.
#[derive(Clone, Copy, Debug, PartialEq, Uniform)]
pub struct ObjectUniform {
    /// The world matrix, column-major.
    pub world: [[f32; 4]; 4],
    /// Linear RGBA.
    pub color: [f32; 4],
}

/// The shaders' `Camera` (`{ view_projection: mat4x4f }`) as a typed value: what the shared
/// camera block is set to before each pass.
#[derive(Clone, Copy, Debug, PartialEq, Uniform)]
pub struct CameraUniform {
    /// The view-projection matrix, column-major.
    pub view_projection: [[f32; 4]; 4],
}

impl CameraUniform {
    fn new(view_projection: &Mat4) -> CameraUniform {
        CameraUniform {
            view_projection: view_projection.to_cols_array_2d(),
        }
    }
}

/// One directional light.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Light {
    /// Direction the light travels (unit length, pointing down).
    pub direction: [f32; 3],
    /// Linear RGB intensity.
    pub color: [f32; 3],
    /// Orthographic view-projection covering the whole scene (shadow-map space).
    pub view_projection: Mat4,
}

/// Ambient light (linear RGB).
pub const AMBIENT: [f32; 3] = [0.08, 0.08, 0.1];

/// What an object is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// The ground slab; its top face is the plane y = 0.
    Ground,
    /// A pillar standing on the ground.
    Pillar,
    /// A cube orbiting above the pillars.
    Mover,
}

/// Where an object is: its world matrix is `translate(position) · rotate_y(yaw) · scale(size)`
/// applied to the unit cube `[-0.5, 0.5] × [0, 1] × [-0.5, 0.5]`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Placement {
    /// Center of the bottom face.
    pub position: [f32; 3],
    /// Rotation around +y, radians.
    pub yaw: f32,
    /// Size along x, y, z.
    pub size: [f32; 3],
}

impl Placement {
    /// The world matrix.
    pub fn world(&self) -> Mat4 {
        Mat4::from_translation(Vec3::from(self.position))
            * Mat4::from_rotation_y(self.yaw)
            * Mat4::from_scale(Vec3::from(self.size))
    }

    /// The smallest `t` in `0..t_max` where `origin + t · dir` enters the box, if any.
    pub fn ray_hit(&self, origin: [f32; 3], dir: [f32; 3], t_max: f32) -> Option<f32> {
        // Into the unit cube's space: undo translate, rotate, scale.
        let (s, c) = (-self.yaw).sin_cos();
        let local = |v: [f32; 3], point: bool| {
            let v = if point {
                (Vec3::from(v) - Vec3::from(self.position)).to_array()
            } else {
                v
            };
            let (x, z) = (c * v[0] + s * v[2], -s * v[0] + c * v[2]);
            [x / self.size[0], v[1] / self.size[1], z / self.size[2]]
        };
        let (o, d) = (local(origin, true), local(dir, false));
        let (lo, hi) = ([-0.5, 0.0, -0.5], [0.5, 1.0, 0.5]);
        let (mut t0, mut t1) = (0.0f32, t_max);
        for a in 0..3 {
            if d[a].abs() < 1e-9 {
                if o[a] < lo[a] || o[a] > hi[a] {
                    return None;
                }
                continue;
            }
            let (mut near, mut far) = ((lo[a] - o[a]) / d[a], (hi[a] - o[a]) / d[a]);
            if near > far {
                std::mem::swap(&mut near, &mut far);
            }
            t0 = t0.max(near);
            t1 = t1.min(far);
            if t0 > t1 {
                return None;
            }
        }
        Some(t0)
    }
}

struct Object {
    kind: Kind,
    color: [f32; 4],
    shadow: Draw,
    lit: Draw,
}

/// The scene: objects, their draws, the shared camera and lights, three targets.
pub struct Scene {
    gpu: Gpu,
    config: SceneConfig,
    camera: SharedUniforms,
    lights: [Light; 2],
    lights_block: SharedUniforms,
    /// What `lights_block.ambient.w` says: the lit shader gamma-encodes its output.
    encodes_gamma: AtomicBool,
    objects: Vec<Object>,
    shadow_maps: [Target; 2],
    main: Target,
    /// Keeps the mesh alive (the draws hold clones too).
    _mesh: (Buffer, Buffer),
}

impl std::fmt::Debug for Scene {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Scene")
            .field("config", &self.config)
            .field("objects", &self.objects.len())
            .finish_non_exhaustive()
    }
}

/// The unit cube `[-0.5, 0.5] × [0, 1] × [-0.5, 0.5]`: 24 vertices (position, normal) and 36
/// `u16` indices, counter-clockwise seen from outside.
pub fn cube_mesh() -> (Vec<[f32; 6]>, Vec<u16>) {
    // (normal, u, v) with u × v = normal, so (−,−), (+,−), (+,+), (−,+) runs counter-clockwise.
    let faces: [([f32; 3], [f32; 3], [f32; 3]); 6] = [
        ([1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]),
        ([-1.0, 0.0, 0.0], [0.0, 0.0, 1.0], [0.0, 1.0, 0.0]),
        ([0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [1.0, 0.0, 0.0]),
        ([0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]),
        ([0.0, 0.0, 1.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]),
        ([0.0, 0.0, -1.0], [0.0, 1.0, 0.0], [1.0, 0.0, 0.0]),
    ];
    let mut vertices = Vec::with_capacity(24);
    let mut indices = Vec::with_capacity(36);
    for (n, u, v) in faces {
        let base = vertices.len() as u16;
        for (a, b) in [(-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5)] {
            let p: [f32; 3] = std::array::from_fn(|i| 0.5 * n[i] + a * u[i] + b * v[i]);
            vertices.push([p[0], p[1] + 0.5, p[2], n[0], n[1], n[2]]);
        }
        indices.extend([0, 1, 2, 0, 2, 3].map(|i| base + i));
    }
    (vertices, indices)
}

/// A small deterministic hash in 0..1.
fn hash(i: u32) -> f32 {
    let mut x = i.wrapping_mul(0x9E37_79B9) ^ 0x85EB_CA6B;
    x ^= x >> 15;
    x = x.wrapping_mul(0x2C1B_3C6D);
    x ^= x >> 12;
    (x & 0xFFFF) as f32 / 65535.0
}

fn object_value(placement: &Placement, color: [f32; 4]) -> ObjectUniform {
    ObjectUniform {
        world: placement.world().to_cols_array_2d(),
        color,
    }
}

/// The `lights` block; `encode_gamma`: the lit shader gamma-encodes (see `Lights.ambient.w`).
fn lights_value(lights: &[Light; 2], encode_gamma: bool) -> Value {
    value! {
        light: [light_value(&lights[0]), light_value(&lights[1])],
        ambient: [AMBIENT[0], AMBIENT[1], AMBIENT[2], if encode_gamma { 1.0 } else { 0.0 }],
    }
}

fn light_value(l: &Light) -> Value {
    let [x, y, z] = l.direction;
    let [r, g, b] = l.color;
    value! {
        view_projection: l.view_projection,
        direction: [x, y, z, 0.0],
        color: [r, g, b, 1.0],
    }
}

impl Scene {
    /// Builds the scene on `gpu`: shaders, mesh, targets, one shadow draw and one lit draw per
    /// object with its value set, the camera and lights blocks.
    pub fn new(gpu: &Gpu, config: SceneConfig) -> Result<Scene> {
        let lit_shader = gpu.shader("scene lit", LIT_SHADER)?;
        Scene::with_lit_shader(gpu, config, &lit_shader)
    }

    /// [`new`](Self::new) with the main pass's shader given (one with [`LIT_SHADER`]'s
    /// bindings, entry points and vertex inputs: the `window` example's watched one).
    pub fn with_lit_shader(
        gpu: &Gpu,
        config: SceneConfig,
        lit_shader: &vgpu::Shader,
    ) -> Result<Scene> {
        let (vertices, indices) = cube_mesh();
        let vertex_buffer = gpu.buffer_init(
            "cube vertices",
            bytemuck::cast_slice(&vertices),
            wgpu::BufferUsages::VERTEX,
        )?;
        let index_buffer = gpu.buffer_init(
            "cube indices",
            bytemuck::cast_slice(&indices),
            wgpu::BufferUsages::INDEX,
        )?;
        let index = IndexBuffer {
            buffer: index_buffer.clone(),
            offset: 0,
            format: wgpu::IndexFormat::Uint16,
            count: indices.len() as u32,
            base_vertex: 0,
        };
        let position = wgpu::VertexAttribute {
            format: wgpu::VertexFormat::Float32x3,
            offset: 0,
            shader_location: 0,
        };
        let normal = wgpu::VertexAttribute {
            format: wgpu::VertexFormat::Float32x3,
            offset: 12,
            shader_location: 1,
        };
        let vertex = |attributes: Vec<wgpu::VertexAttribute>| VertexBuffer {
            buffer: vertex_buffer.clone(),
            offset: 0,
            stride: 24,
            step_mode: wgpu::VertexStepMode::Vertex,
            attributes,
        };

        let shadow_shader = gpu.shader("scene shadow", SHADOW_SHADER)?;
        let depth = wgpu::TextureFormat::Depth32Float;
        let shadow_maps = [
            gpu.target_with(
                &TargetDesc::depth_only(config.shadow_size, config.shadow_size, depth)
                    .label("shadow map 1"),
            )?,
            gpu.target_with(
                &TargetDesc::depth_only(config.shadow_size, config.shadow_size, depth)
                    .label("shadow map 2"),
            )?,
        ];
        let main = gpu.target_with(
            &TargetDesc::new(config.width, config.height)
                .depth(depth)
                .label("scene"),
        )?;

        let placements = placements(&config, 0.0);
        let lights = scene_lights(&config);
        let camera =
            gpu.uniforms_labeled("camera", &CameraUniform::new(&lights[0].view_projection))?;
        let lights_block = gpu.uniforms_labeled("lights", lights_value(&lights, true))?;
        let shadow_sampler = gpu.sampler(&SamplerDesc::shadow())?;

        let mut objects = Vec::with_capacity(placements.len());
        for (i, &(kind, ref placement)) in placements.iter().enumerate() {
            let color = object_color(kind, i as u32);
            let value = object_value(placement, color);
            let shadow = gpu.draw(
                &shadow_shader,
                DrawDesc {
                    label: format!("shadow {i}"),
                    vertex_buffers: vec![vertex(vec![position])],
                    index_buffer: Some(index.clone()),
                    cull_mode: Some(wgpu::Face::Back),
                    depth: DepthState {
                        bias: 2,
                        bias_slope_scale_bits: 2.0f32.to_bits(),
                        ..Default::default()
                    },
                    ..Default::default()
                },
            )?;
            shadow.set("camera", &camera)?;
            shadow.set("object", &value)?;
            let lit = gpu.draw(
                lit_shader,
                DrawDesc {
                    label: format!("lit {i}"),
                    vertex_buffers: vec![vertex(vec![position, normal])],
                    index_buffer: Some(index.clone()),
                    cull_mode: Some(wgpu::Face::Back),
                    ..Default::default()
                },
            )?;
            lit.set_all([
                ("camera", BindingArg::Shared(&camera)),
                ("object", BindingArg::from(&value)),
                ("lights", BindingArg::Shared(&lights_block)),
                ("shadow_map_1", BindingArg::TargetDepth(&shadow_maps[0])),
                ("shadow_map_2", BindingArg::TargetDepth(&shadow_maps[1])),
                ("shadow_sampler", BindingArg::Sampler(&shadow_sampler)),
            ])?;
            objects.push(Object {
                kind,
                color,
                shadow,
                lit,
            });
        }
        Ok(Scene {
            gpu: gpu.clone(),
            config,
            camera,
            lights,
            lights_block,
            encodes_gamma: AtomicBool::new(true),
            objects,
            shadow_maps,
            main,
            _mesh: (vertex_buffer, index_buffer),
        })
    }

    /// The configuration.
    pub fn config(&self) -> &SceneConfig {
        &self.config
    }

    /// Number of objects (each is drawn three times per frame).
    pub fn objects(&self) -> usize {
        self.objects.len()
    }

    /// Draws recorded per frame: every object in both shadow passes and the main pass.
    pub fn draws_per_frame(&self) -> usize {
        3 * self.objects.len()
    }

    /// The main target (color + depth), holding the last frame.
    pub fn target(&self) -> &Target {
        &self.main
    }

    /// The two shadow maps (depth-only).
    pub fn shadow_maps(&self) -> &[Target; 2] {
        &self.shadow_maps
    }

    /// The two lights.
    pub fn lights(&self) -> &[Light; 2] {
        &self.lights
    }

    /// Where the main camera is at animation time `time` (seconds).
    pub fn eye(&self, time: f32) -> [f32; 3] {
        let angle = if self.config.orbit {
            0.6 + 0.3 * time
        } else {
            0.6
        };
        let radius = self.orbit_radius();
        [radius * angle.cos(), 0.55 * radius, radius * angle.sin()]
    }

    /// The main camera's view-projection at `time` (for the main target's aspect).
    pub fn view_projection(&self, time: f32) -> Mat4 {
        self.view_projection_at(time, self.config.width as f32 / self.config.height as f32)
    }

    /// The main camera's view-projection at `time` for a target of aspect `aspect` (width /
    /// height).
    pub fn view_projection_at(&self, time: f32, aspect: f32) -> Mat4 {
        // Far enough for the ground's far corners from anywhere on the orbit.
        let far = 2.0 * (self.orbit_radius() + 2.0 * self.extent() + 4.0);
        let projection = Mat4::perspective_rh(FOV_Y, aspect, 0.5, far);
        let view = Mat4::look_at_rh(Vec3::from(self.eye(time)), Vec3::ZERO, Vec3::Y);
        projection * view
    }

    /// The direction (not normalized) from [`eye`](Self::eye) through the center of pixel
    /// `(x, y)` of the main target at `time`: where that pixel's sample looks.
    pub fn pixel_ray(&self, time: f32, x: u32, y: u32) -> [f32; 3] {
        let eye = self.eye(time);
        let f = (Vec3::ZERO - Vec3::from(eye)).normalize();
        let s = f.cross(Vec3::Y).normalize();
        let u = s.cross(f);
        let (w, h) = (self.config.width as f32, self.config.height as f32);
        let tan = (FOV_Y / 2.0).tan();
        let nx = ((x as f32 + 0.5) / w * 2.0 - 1.0) * tan * w / h;
        let ny = (1.0 - (y as f32 + 0.5) / h * 2.0) * tan;
        std::array::from_fn(|i| f[i] + nx * s[i] + ny * u[i])
    }

    /// The pixel `(x, y)` where world point `p` lands in the main target at `time`, if inside.
    pub fn project(&self, time: f32, p: [f32; 3]) -> Option<(u32, u32)> {
        let c = self.view_projection(time) * Vec3::from(p).extend(1.0);
        if c[3] <= 0.0 {
            return None;
        }
        let (x, y) = (c[0] / c[3], c[1] / c[3]);
        let px = (x * 0.5 + 0.5) * self.config.width as f32;
        let py = (0.5 - y * 0.5) * self.config.height as f32;
        let inside = (0.0..self.config.width as f32).contains(&px)
            && (0.0..self.config.height as f32).contains(&py);
        inside.then_some((px as u32, py as u32))
    }

    /// Every object's kind and placement at animation time `time`, in draw order (ground,
    /// pillars, movers).
    pub fn placements(&self, time: f32) -> Vec<(Kind, Placement)> {
        placements(&self.config, time)
    }

    /// Whether the segment `origin + t · dir`, `t` in `0..t_max`, hits any of `placements` but
    /// the ground (a CPU ray cast, to check shadows and visibility).
    pub fn blocked(
        placements: &[(Kind, Placement)],
        origin: [f32; 3],
        dir: [f32; 3],
        t_max: f32,
    ) -> bool {
        placements
            .iter()
            .filter(|(kind, _)| *kind != Kind::Ground)
            .any(|(_, p)| p.ray_hit(origin, dir, t_max).is_some())
    }

    /// Half the side of the pillar grid (world units).
    pub fn extent(&self) -> f32 {
        grid_extent(&self.config)
    }

    /// Horizontal distance of the main camera from the center.
    fn orbit_radius(&self) -> f32 {
        0.8 * self.extent() + 6.0
    }

    /// Records and submits one frame at animation time `time` (seconds): moves the movers,
    /// then for each light sets the camera to the light's view and renders its shadow map, then
    /// sets the camera to the main view and renders the main pass. Values are set inside the
    /// frame, so the report's encode time covers them.
    pub fn render(&self, time: f32) -> Result<FrameReport> {
        self.render_into(time, &self.main)
    }

    /// [`render`](Self::render) with the main pass into `main` (a window surface, say) instead
    /// of the scene's own target; `main` needs a `Depth32Float` depth attachment and one sample.
    /// See [`record`](Self::record).
    pub fn render_into<'t>(
        &self,
        time: f32,
        main: impl Into<PassTarget<'t>>,
    ) -> Result<FrameReport> {
        let main = main.into();
        self.gpu.frame(|f| self.record(f, time, main))
    }

    /// Records the frame of [`render`](Self::render) into `f`, the main pass into `main`, so that
    /// the caller can add passes (a copy to a window, an overlay) before the frame's submit. The
    /// main camera takes `main`'s aspect (the scene's while `main` is a minimized, 0×0 surface),
    /// and the lit shader leaves the gamma encoding to `main` when its format is sRGB.
    pub fn record<'t>(
        &self,
        f: &mut Frame<'_>,
        time: f32,
        main: impl Into<PassTarget<'t>>,
    ) -> Result<()> {
        let main = main.into();
        let ((width, height), format) = match main {
            PassTarget::Target(t) => (t.size(), t.format()),
            PassTarget::Surface(s) => (s.size(), s.format()),
        };
        let aspect = if width == 0 || height == 0 {
            self.config.width as f32 / self.config.height as f32
        } else {
            width as f32 / height as f32
        };
        let encode_gamma = !format.is_srgb();
        if self.encodes_gamma.load(Ordering::Relaxed) != encode_gamma {
            self.lights_block
                .set(lights_value(&self.lights, encode_gamma))?;
            self.encodes_gamma.store(encode_gamma, Ordering::Relaxed);
        }
        let movers = placements_movers(&self.config, time);
        let view_projection = self.view_projection_at(time, aspect);
        let moving = self.objects.iter().filter(|o| o.kind == Kind::Mover);
        for (o, placement) in moving.zip(&movers) {
            let value = object_value(placement, o.color);
            o.shadow.set("object", &value)?;
            o.lit.set("object", &value)?;
        }
        for (light, (map, label)) in self
            .lights
            .iter()
            .zip(self.shadow_maps.iter().zip(["shadow 1", "shadow 2"]))
        {
            self.camera
                .set(&CameraUniform::new(&light.view_projection))?;
            f.pass(PassDesc::new(map).label(label), |p| {
                for o in &self.objects {
                    p.draw(&o.shadow)?;
                }
                Ok(())
            })?;
        }
        self.camera.set(&CameraUniform::new(&view_projection))?;
        // The sky looks the same in either target: an sRGB target gets its linear value.
        let sky = if encode_gamma {
            SKY
        } else {
            let [r, g, b, a] = SKY;
            [srgb_to_linear(r), srgb_to_linear(g), srgb_to_linear(b), a]
        };
        f.pass(PassDesc::new(main).label("main").clear(sky), |p| {
            for o in &self.objects {
                p.draw(&o.lit)?;
            }
            Ok(())
        })
    }
}

/// The ground's color (linear RGB, lit by [`AMBIENT`] and the two lights).
pub const GROUND: [f32; 4] = [0.75, 0.72, 0.66, 1.0];

/// The main pass's clear color, as stored in a linear-unorm target (gamma-encoded).
pub const SKY: [f64; 4] = [0.55, 0.65, 0.8, 1.0];

/// The linear value an sRGB target stores as `c` (so the sky looks the same in both).
fn srgb_to_linear(c: f64) -> f64 {
    if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

fn grid_extent(config: &SceneConfig) -> f32 {
    0.5 * SPACING * config.grid[0].max(config.grid[1]) as f32
}

fn object_color(kind: Kind, i: u32) -> [f32; 4] {
    match kind {
        Kind::Ground => GROUND,
        Kind::Pillar => {
            let h = hash(i * 7 + 3);
            [
                0.2 + 0.6 * h,
                0.3 + 0.3 * hash(i * 13 + 1),
                0.8 - 0.6 * h,
                1.0,
            ]
        }
        Kind::Mover => [0.95, 0.35 + 0.4 * hash(i), 0.1, 1.0],
    }
}

/// Every object's placement at `time`: the ground, the pillars, then the movers.
fn placements(config: &SceneConfig, time: f32) -> Vec<(Kind, Placement)> {
    let e = grid_extent(config);
    let mut out = Vec::with_capacity(config.objects());
    out.push((
        Kind::Ground,
        Placement {
            position: [0.0, -0.2, 0.0],
            yaw: 0.0,
            size: [2.0 * e + 4.0, 0.2, 2.0 * e + 4.0],
        },
    ));
    let [gx, gz] = config.grid;
    for z in 0..gz {
        for x in 0..gx {
            let i = z * gx + x;
            let px = (x as f32 - 0.5 * (gx - 1) as f32) * SPACING;
            let pz = (z as f32 - 0.5 * (gz - 1) as f32) * SPACING;
            let height = 0.4 + 2.2 * hash(i).powi(2);
            out.push((
                Kind::Pillar,
                Placement {
                    position: [px, 0.0, pz],
                    yaw: 0.0,
                    size: [0.35, height, 0.35],
                },
            ));
        }
    }
    out.extend(
        placements_movers(config, time)
            .into_iter()
            .map(|p| (Kind::Mover, p)),
    );
    out
}

/// The movers at `time`: cubes on a ring above the pillars, orbiting and spinning.
fn placements_movers(config: &SceneConfig, time: f32) -> Vec<Placement> {
    let e = grid_extent(config);
    (0..config.movers)
        .map(|k| {
            let phase = k as f32 / config.movers.max(1) as f32 * std::f32::consts::TAU;
            let angle = phase + 0.4 * time;
            let radius = 0.55 * e;
            Placement {
                position: [
                    radius * angle.cos(),
                    3.2 + 0.5 * (1.7 * time + phase).sin(),
                    radius * angle.sin(),
                ],
                yaw: 1.3 * time + phase,
                size: [0.8, 0.8, 0.8],
            }
        })
        .collect()
}

/// Two directional lights with orthographic views fitted around the scene.
fn scene_lights(config: &SceneConfig) -> [Light; 2] {
    let e = grid_extent(config) + 2.0;
    let make = |direction: [f32; 3], color: [f32; 3]| {
        let direction = Vec3::from(direction).normalize();
        let distance = 4.0 * e;
        let eye = -direction * distance;
        let view = Mat4::look_at_rh(eye, Vec3::ZERO, Vec3::Y);
        // Fit the box [-e, e] × [-0.2, 5] × [-e, e] in light space.
        let (mut lo, mut hi) = ([f32::MAX; 3], [f32::MIN; 3]);
        for corner in 0..8 {
            let p = [
                if corner & 1 == 0 { -e } else { e },
                if corner & 2 == 0 { -0.2 } else { 5.0 },
                if corner & 4 == 0 { -e } else { e },
            ];
            let v = view * Vec3::from(p).extend(1.0);
            for a in 0..3 {
                lo[a] = lo[a].min(v[a]);
                hi[a] = hi[a].max(v[a]);
            }
        }
        // View space looks down −z: near/far are distances, so negate and swap.
        let projection = Mat4::orthographic_rh(lo[0], hi[0], lo[1], hi[1], -hi[2], -lo[2]);
        Light {
            direction: direction.to_array(),
            color,
            view_projection: projection * view,
        }
    };
    [
        make([-0.55, -0.6, -0.35], [1.0, 0.92, 0.8]),
        make([0.7, -0.75, 0.45], [0.28, 0.32, 0.45]),
    ]
}
