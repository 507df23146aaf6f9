//! Deferred shading with a stencil-marked light volume; writes `deferred.png` (the lit image)
//! and the three G-buffer planes (`deferred_albedo.png`, `deferred_normal.png`,
//! `deferred_position.png`), and prints the counters of every frame.
//!
//! Each frame has four passes:
//!
//! 1. **geometry**: the objects (tilted squares made in the vertex shader, no vertex buffer) are
//!    drawn once into a G-buffer target of three color attachments (albedo `Rgba8Unorm`, normal
//!    `Rgba16Float`, position `Rgba16Float`, one `@location` each) and `Depth24PlusStencil8`;
//!    the pass clears stencil to 0.
//! 2. **ambient**: a fullscreen effect (`Gpu::effect_with`, its `ambient` strength an override
//!    constant) reads the albedo plane (`BindingArg::TargetColorAt`) and writes `albedo ×
//!    ambient` everywhere into the final `Rgba8Unorm` image.
//! 3. **light volume**: the light's screen-space disc, drawn at the depth of the back of its
//!    sphere, with color writes off, depth tested (`Greater`) against the G-buffer's depth in a
//!    `depth_read_only` pass, and stencil `Replace` with reference 1: it marks the pixels whose
//!    surface lies inside the disc and in front of the sphere's back (the wall behind the light
//!    is not marked).
//! 4. **lighting**: a fullscreen draw reading the three planes adds the point light (additive
//!    blend) where the stencil equals 1 (a `stencil_read_only` pass); every other pixel keeps
//!    its ambient value exactly, although the light's falloff never reaches zero.
//!
//! Passes 3 and 4 render into a target made of the final image's color view and the
//! G-buffer's depth-stencil view (`Gpu::target_for_view`), so they test against the depth and
//! stencil the geometry pass wrote.
//!
//! World space is clip space (x, y in −1..1, up is +y; z in 0..1, away from the viewer), so
//! the scene below is also where its pixels land. Every value is set once before the first
//! frame: steady frames create no bind group and upload no byte (docs/design.md §3.4, §3.7).
//!
//! ```text
//! cargo run --release --example deferred
//! ```

use glam::{Vec2, Vec3};
use vgpu::wgpu::TextureFormat as F;
use vgpu::{
    BindingArg, DepthState, DrawDesc, EffectOptions, FULLSCREEN_VERTEX, Gpu, PassDesc, RgbaImage,
    Target, TargetDesc, value, wgpu,
};

/// Width and height of the images in pixels (one world unit is `SIZE / 2` pixels).
const SIZE: u32 = 256;
/// Clear color of the final image (0, 0, 0, 255 in 8-bit unorm); the wall covers all of it.
const CLEAR: [f64; 4] = [0.0, 0.0, 0.0, 1.0];
/// Frames rendered: the first uploads everything, the others are steady.
const FRAMES: usize = 3;
/// The G-buffer planes: (name in the PNG file names, format), attachment 0 first.
const PLANES: [(&str, F); 3] = [
    ("albedo", F::Rgba8Unorm),
    ("normal", F::Rgba16Float),
    ("position", F::Rgba16Float),
];
/// The ambient light's strength: the final image is `albedo × AMBIENT` outside the light's
/// volume (albedos are multiples of 4 in 8 bits, so this is exact).
const AMBIENT: f64 = 0.25;

/// A square of the scene: flat in x and y, tilted in depth (its depth at `(x, y)` is `depth +
/// slope · ((x, y) − center)`), so its normal is `normalize(slope.x, slope.y, −1)`.
struct Object {
    /// Name (the draw's label).
    name: &'static str,
    center: Vec2,
    half_size: f32,
    /// Depth at the center (0 nearest, 1 farthest).
    depth: f32,
    /// Depth change per world unit along x and y.
    slope: Vec2,
    /// 8-bit RGBA albedo (exactly representable, so the albedo plane holds exactly this).
    albedo: [u8; 4],
}

/// The scene: a wall behind everything and three tilted squares in front of it.
const OBJECTS: [Object; 4] = [
    Object {
        name: "wall",
        center: Vec2::new(0.0, 0.0),
        half_size: 1.0,
        depth: 0.9,
        slope: Vec2::new(0.0, 0.0),
        albedo: [160, 160, 160, 255],
    },
    Object {
        name: "red",
        center: Vec2::new(-0.4, 0.0),
        half_size: 0.3,
        depth: 0.5,
        slope: Vec2::new(0.2, 0.0),
        albedo: [200, 40, 40, 255],
    },
    Object {
        name: "green",
        center: Vec2::new(0.4, 0.0),
        half_size: 0.3,
        depth: 0.5,
        slope: Vec2::new(-0.2, 0.0),
        albedo: [40, 200, 40, 255],
    },
    Object {
        name: "blue",
        center: Vec2::new(0.0, -0.55),
        half_size: 0.25,
        depth: 0.4,
        slope: Vec2::new(0.0, 0.3),
        albedo: [40, 80, 200, 255],
    },
];

/// The point light.
struct Light {
    position: Vec3,
    /// Radius of its volume: only surfaces inside the disc of this radius around it (on
    /// screen) and in front of `position.z + radius` are lit.
    radius: f32,
    color: Vec3,
    /// Distance at which its intensity has halved: `1 / (1 + (d / falloff)²)`.
    falloff: f32,
}

/// The light: in front of the red square, its volume reaching over the green one's left edge
/// and over the wall (which lies behind the volume, so stays unlit).
const LIGHT: Light = Light {
    position: Vec3::new(-0.2, 0.1, 0.3),
    radius: 0.5,
    color: Vec3::new(1.0, 0.9, 0.8),
    falloff: 0.3,
};

/// Triangles of the light's disc (a fan around its center).
const DISC_SEGMENTS: u32 = 32;

/// Writes the three planes: albedo, normal (xyz, w 1) and world position (xyz, w 1: 0 where
/// nothing was drawn).
const GEOMETRY: &str = r#"
struct Object { center: vec2f, half_size: f32, depth: f32, slope: vec2f, albedo: vec4f }
@group(0) @binding(0) var<uniform> object: Object;

struct Varyings {
    @builtin(position) clip: vec4f,
    @location(0) position: vec3f,
}

@vertex
fn vs_main(@builtin(vertex_index) i: u32) -> Varyings {
    var corners = array<vec2f, 6>(
        vec2f(-1.0, -1.0), vec2f(1.0, -1.0), vec2f(1.0, 1.0),
        vec2f(-1.0, -1.0), vec2f(1.0, 1.0), vec2f(-1.0, 1.0),
    );
    let xy = object.center + object.half_size * corners[i];
    let z = object.depth + dot(object.slope, xy - object.center);
    return Varyings(vec4f(xy, z, 1.0), vec3f(xy, z));
}

struct GBuffer {
    @location(0) albedo: vec4f,
    @location(1) normal: vec4f,
    @location(2) position: vec4f,
}

@fragment
fn fs_main(in: Varyings) -> GBuffer {
    let normal = normalize(vec3f(object.slope, -1.0));
    return GBuffer(object.albedo, vec4f(normal, 1.0), vec4f(in.position, 1.0));
}
"#;

/// `albedo × ambient`, opaque.
const AMBIENT_EFFECT: &str = r#"
override ambient: f32 = 0.1;
@group(0) @binding(0) var albedo_plane: texture_2d<f32>;

@fragment
fn fs_main(@builtin(position) pixel: vec4f) -> @location(0) vec4f {
    let albedo = textureLoad(albedo_plane, vec2i(pixel.xy), 0);
    return vec4f(albedo.rgb * ambient, 1.0);
}
"#;

/// The light block, shared by the volume and the lighting draws.
const LIGHT_STRUCT: &str = r#"
struct Light { position: vec3f, radius: f32, color: vec3f, falloff: f32 }
@group(0) @binding(0) var<uniform> light: Light;
"#;

/// The light's disc at the depth of its sphere's back; writes no color (its write mask is
/// empty), only stencil.
const VOLUME: &str = r#"
override segments: u32 = 32u;

@vertex
fn vs_main(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
    let depth = light.position.z + light.radius;
    let corner = i % 3u;
    if corner == 0u {
        return vec4f(light.position.xy, depth, 1.0);
    }
    let angle = f32(i / 3u + corner - 1u) * 6.2831853 / f32(segments);
    let xy = light.position.xy + light.radius * vec2f(cos(angle), sin(angle));
    return vec4f(xy, depth, 1.0);
}

@fragment
fn fs_main() -> @location(0) vec4f {
    return vec4f(0.0);
}
"#;

/// The point light's diffuse contribution, from the three planes (alpha 0: the additive blend
/// keeps the image's alpha).
const LIGHTING: &str = r#"
@group(1) @binding(0) var albedo_plane: texture_2d<f32>;
@group(1) @binding(1) var normal_plane: texture_2d<f32>;
@group(1) @binding(2) var position_plane: texture_2d<f32>;

@fragment
fn fs_main(@builtin(position) pixel: vec4f) -> @location(0) vec4f {
    let at = vec2i(pixel.xy);
    let albedo = textureLoad(albedo_plane, at, 0).rgb;
    let normal = textureLoad(normal_plane, at, 0).xyz;
    let position = textureLoad(position_plane, at, 0).xyz;
    let to_light = light.position - position;
    let d = length(to_light);
    let n_dot_l = max(dot(normal, to_light / d), 0.0);
    let x = d / light.falloff;
    return vec4f(albedo * light.color * n_dot_l / (1.0 + x * x), 0.0);
}
"#;

/// A stencil state of `compare` and `pass_op` on both faces, reading and writing every bit.
fn stencil(compare: wgpu::CompareFunction, pass_op: wgpu::StencilOperation) -> wgpu::StencilState {
    let face = wgpu::StencilFaceState {
        compare,
        fail_op: wgpu::StencilOperation::Keep,
        depth_fail_op: wgpu::StencilOperation::Keep,
        pass_op,
    };
    wgpu::StencilState {
        front: face,
        back: face,
        read_mask: 0xff,
        write_mask: 0xff,
    }
}

/// Depth tested with `compare`, never written.
fn depth_test(compare: wgpu::CompareFunction) -> DepthState {
    DepthState {
        compare,
        write: false,
        ..DepthState::default()
    }
}

/// `dst + src` on color, `dst` kept on alpha.
const ADD: wgpu::BlendState = wgpu::BlendState {
    color: wgpu::BlendComponent {
        src_factor: wgpu::BlendFactor::One,
        dst_factor: wgpu::BlendFactor::One,
        operation: wgpu::BlendOperation::Add,
    },
    alpha: wgpu::BlendComponent {
        src_factor: wgpu::BlendFactor::Zero,
        dst_factor: wgpu::BlendFactor::One,
        operation: wgpu::BlendOperation::Add,
    },
};

/// The draws of a frame, pass by pass.
struct Draws {
    objects: Vec<vgpu::Draw>,
    ambient: vgpu::Effect,
    volume: vgpu::Draw,
    lighting: vgpu::Draw,
}

/// Makes every draw and sets every value they read (once: frames upload nothing after).
fn draws(gpu: &Gpu, gbuffer: &Target) -> vgpu::Result<Draws> {
    let geometry = gpu.shader("deferred geometry.wgsl", GEOMETRY)?;
    let mut objects = Vec::new();
    for o in &OBJECTS {
        let draw = gpu.draw(
            &geometry,
            DrawDesc {
                label: o.name.into(),
                vertex_count: Some(6),
                ..Default::default()
            },
        )?;
        draw.set(
            "object",
            value! {
                center: o.center,
                half_size: o.half_size,
                depth: o.depth,
                slope: o.slope,
                albedo: o.albedo.map(|c| f32::from(c) / 255.0),
            },
        )?;
        objects.push(draw);
    }

    let ambient = gpu.effect_with(
        "ambient",
        AMBIENT_EFFECT,
        EffectOptions {
            constants: vec![("ambient".into(), AMBIENT)],
            ..Default::default()
        },
    )?;
    ambient.set("albedo_plane", BindingArg::TargetColorAt(gbuffer, 0))?;

    // One light block, read by the volume and the lighting draws.
    let light = gpu.uniforms_labeled(
        "light",
        value! {
            position: LIGHT.position,
            radius: LIGHT.radius,
            color: LIGHT.color,
            falloff: LIGHT.falloff,
        },
    )?;
    let volume_shader = gpu.shader("light volume.wgsl", &format!("{LIGHT_STRUCT}{VOLUME}"))?;
    let volume = gpu.draw(
        &volume_shader,
        DrawDesc {
            label: "light volume".into(),
            vertex_count: Some(3 * DISC_SEGMENTS),
            constants: vec![("segments".into(), f64::from(DISC_SEGMENTS))],
            write_mask: wgpu::ColorWrites::empty(),
            // Passes where the sphere's back lies behind the surface drawn there.
            depth: depth_test(wgpu::CompareFunction::Greater),
            stencil: stencil(
                wgpu::CompareFunction::Always,
                wgpu::StencilOperation::Replace,
            ),
            ..Default::default()
        },
    )?;
    volume.set("light", &light)?;

    // A fullscreen draw (the effects' vertex stage) with a stencil test: `EffectOptions` has no
    // depth or stencil state, so this one is a plain draw.
    let lighting_shader = gpu.shader(
        "lighting.wgsl",
        &format!("{LIGHT_STRUCT}{LIGHTING}{FULLSCREEN_VERTEX}"),
    )?;
    let lighting = gpu.draw(
        &lighting_shader,
        DrawDesc {
            label: "lighting".into(),
            vertex_entry: Some("vgpu_fullscreen_vs".into()),
            vertex_count: Some(3),
            blend: Some(ADD),
            depth: depth_test(wgpu::CompareFunction::Always),
            stencil: stencil(wgpu::CompareFunction::Equal, wgpu::StencilOperation::Keep),
            ..Default::default()
        },
    )?;
    lighting.set("light", &light)?;
    for (i, (name, _)) in PLANES.iter().enumerate() {
        lighting.set(
            &format!("{name}_plane"),
            BindingArg::TargetColorAt(gbuffer, i as u32),
        )?;
    }
    Ok(Draws {
        objects,
        ambient,
        volume,
        lighting,
    })
}

/// Records the four passes of one frame.
fn frame(
    gpu: &Gpu,
    d: &Draws,
    gbuffer: &Target,
    image: &Target,
    lit: &Target,
) -> vgpu::Result<vgpu::FrameReport> {
    gpu.frame(|f| {
        // Clears every plane to 0 (position w 0: nothing drawn), depth to 1, stencil to 0.
        f.pass(PassDesc::new(gbuffer).label("geometry"), |p| {
            for o in &d.objects {
                p.draw(o)?;
            }
            Ok(())
        })?;
        f.pass(PassDesc::new(image).clear(CLEAR).label("ambient"), |p| {
            p.draw(&d.ambient)
        })?;
        let volume = PassDesc::new(lit)
            .load()
            .depth_read_only()
            .stencil_reference(1)
            .label("light volume");
        f.pass(volume, |p| p.draw(&d.volume))?;
        let lighting = PassDesc::new(lit)
            .load()
            .depth_read_only()
            .stencil_read_only()
            .stencil_reference(1)
            .label("lighting");
        f.pass(lighting, |p| p.draw(&d.lighting))
    })
}

/// A plane as an 8-bit image: channel `c` is `value × scale[c] + bias[c]`, clamped to 0..=1.
fn plane_image(
    target: &Target,
    index: usize,
    scale: [f32; 4],
    bias: [f32; 4],
) -> vgpu::Result<RgbaImage> {
    let floats = target.read_f32_at(index)?;
    let to8 = |c: usize, v: f32| ((v * scale[c] + bias[c]).clamp(0.0, 1.0) * 255.0).round() as u8;
    let (width, height) = target.size();
    Ok(RgbaImage {
        width,
        height,
        data: floats
            .iter()
            .flat_map(|p| [0, 1, 2, 3].map(|c| to8(c, p[c])))
            .collect(),
    })
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

    let gbuffer = gpu.target_with(
        &TargetDesc::new(SIZE, SIZE)
            .colors(&PLANES.map(|(_, format)| format))
            .depth(F::Depth24PlusStencil8)
            .label("gbuffer"),
    )?;
    let image = gpu.target_with(&TargetDesc::new(SIZE, SIZE).label("deferred"))?;
    // The final image's color with the G-buffer's depth and stencil.
    let lit = gpu.target_for_view(
        "lit",
        &image
            .color_view()
            .ok_or("the final image has a color view")?,
        gbuffer.depth_view().as_ref(),
    )?;
    let draws = draws(&gpu, &gbuffer)?;

    for n in 1..=FRAMES {
        let report = frame(&gpu, &draws, &gbuffer, &image, &lit)?;
        let what = format!("frame {n}");
        println!("{}", vgpu_examples::counter_line(&what, &report.stats));
    }

    vgpu_examples::fail_on_uncaptured_errors(&gpu)?;
    if gpu.is_noop() {
        println!("nothing was rendered (the noop device executes no GPU work): no PNG was written");
        return Ok(());
    }
    image.save_png("deferred.png")?;
    println!("wrote deferred.png");
    // Albedo as stored; normals (−1..1) and positions' x and y (−1..1) as `v / 2 + 1/2`,
    // positions' z (depth, 0..1) and every w as they are.
    gbuffer.read_rgba8_at(0)?.save_png("deferred_albedo.png")?;
    println!("wrote deferred_albedo.png");
    let normal = plane_image(&gbuffer, 1, [0.5, 0.5, 0.5, 1.0], [0.5, 0.5, 0.5, 0.0])?;
    normal.save_png("deferred_normal.png")?;
    println!("wrote deferred_normal.png");
    let position = plane_image(&gbuffer, 2, [0.5, 0.5, 1.0, 1.0], [0.5, 0.5, 0.0, 0.0])?;
    position.save_png("deferred_position.png")?;
    println!("wrote deferred_position.png");
    Ok(())
}
