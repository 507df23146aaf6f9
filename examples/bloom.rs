//! Bloom: an HDR scene whose brightest parts glow into their surroundings; writes `bloom.png`
//! (the composite), `bloom_off.png` (the same scene tone-mapped without bloom) and
//! `bloom_only.png` (the bloom chain's mip 0 read back, `Texture::read_mip`), and prints every
//! frame's counters and the number of non-finite values in the scene and the bloom.
//!
//! Each frame has five stages, a pass per stage and per level (12 passes):
//!
//! 1. **scene**: an effect draws a few emissive shapes (values up to 18, far above 1.0) and a
//!    dim panel on a dark background into an `Rgba16Float` target.
//! 2. **bright pass**: what exceeds the threshold (1.0), scaled by how far it exceeds it,
//!    written into mip 0 of the bloom chain: an `Rgba16Float` texture of `MIPS` mip levels,
//!    the size of the scene at mip 0. Each mip level is drawn into through a target made of a
//!    one-level view of it (`Texture::mip_view`, `TextureView::target`, sized to its level), and read through the
//!    same view, bound like a texture.
//! 3. **down**: each mip level from the one above it, with the 13-tap filter of Jimenez's
//!    "Next generation post processing in Call of Duty: Advanced Warfare" (a 4×4 box and four
//!    overlapping 2×2 boxes, weighted): the blur widens as the levels get smaller.
//! 4. **up**: back up the chain, each level's 3×3 tent-filtered image added (additive blend)
//!    onto the level above it, so mip 0 ends up holding the sum of every width of blur. The
//!    blur is ping-ponged between the levels of one texture: a pass reads one level and draws
//!    into another.
//! 5. **composite**: scene + `STRENGTH` × bloom, tone-mapped (the ACES fit of Narkowicz) into
//!    an `Rgba8Unorm` target; the same composite with strength 0 gives `bloom_off.png`.
//!
//! Every binding is set once, before the first frame: the second frame creates no bind group
//! and uploads nothing.
//!
//! ```text
//! cargo run --release --example bloom
//! ```

use vgpu::wgpu::TextureFormat as F;
use vgpu::{
    BindingArg, Effect, EffectOptions, Gpu, PassDesc, SamplerDesc, Target, TargetDesc, Texture,
    TextureDesc, TextureView, wgpu,
};

/// Width and height of the images in pixels.
const SIZE: u32 = 256;
/// Mip levels of the bloom chain: 256×256 down to 16×16.
const MIPS: u32 = 5;
/// Frames rendered: the first creates the bind groups, the second is steady.
const FRAMES: usize = 2;
/// How much of the bloom the composite adds to the scene.
const STRENGTH: f64 = 0.1;
/// The threshold above which the bright pass keeps a color (by its brightest channel).
const THRESHOLD: f64 = 1.0;

/// The HDR scene. Shapes in uv units (0,0 top-left): two emissive discs, an emissive bar, and a
/// dim panel below the threshold (it does not bloom).
const SCENE: &str = r#"
fn disc(uv: vec2f, center: vec2f, radius: f32) -> bool {
    return distance(uv, center) < radius;
}

fn rect(uv: vec2f, lo: vec2f, hi: vec2f) -> bool {
    return all(uv >= lo) && all(uv <= hi);
}

@fragment
fn fs_main(@location(0) uv: vec2f) -> @location(0) vec4f {
    var c = vec3f(0.02, 0.02, 0.03);
    if rect(uv, vec2f(0.70, 0.70), vec2f(0.95, 0.95)) {
        c = vec3f(0.40, 0.35, 0.30);
    }
    if disc(uv, vec2f(0.30, 0.30), 0.05) {
        c = vec3f(16.0, 10.0, 8.0);
    }
    if disc(uv, vec2f(0.70, 0.30), 0.04) {
        c = vec3f(8.0, 10.0, 18.0);
    }
    if rect(uv, vec2f(0.15, 0.69), vec2f(0.55, 0.72)) {
        c = vec3f(8.0, 16.0, 8.0);
    }
    return vec4f(c, 1.0);
}
"#;

/// The bright pass: the part of each color above the threshold (by its brightest channel).
const BRIGHT: &str = r#"
override threshold: f32 = 1.0;
@group(0) @binding(0) var scene: texture_2d<f32>;
@group(0) @binding(1) var s: sampler;

@fragment
fn fs_main(@location(0) uv: vec2f) -> @location(0) vec4f {
    let c = textureSampleLevel(scene, s, uv, 0.0).rgb;
    let brightness = max(c.r, max(c.g, c.b));
    let kept = max(brightness - threshold, 0.0) / max(brightness, 1e-4);
    return vec4f(c * kept, 1.0);
}
"#;

/// One step down the chain: the 13-tap filter over the level above.
const DOWN: &str = r#"
@group(0) @binding(0) var src: texture_2d<f32>;
@group(0) @binding(1) var s: sampler;

fn at(uv: vec2f, texel: vec2f, x: f32, y: f32) -> vec3f {
    return textureSampleLevel(src, s, uv + texel * vec2f(x, y), 0.0).rgb;
}

@fragment
fn fs_main(@location(0) uv: vec2f) -> @location(0) vec4f {
    let t = 1.0 / vec2f(textureDimensions(src));
    let corners = at(uv, t, -2.0, -2.0) + at(uv, t, 2.0, -2.0)
        + at(uv, t, -2.0, 2.0) + at(uv, t, 2.0, 2.0);
    let edges = at(uv, t, 0.0, -2.0) + at(uv, t, -2.0, 0.0)
        + at(uv, t, 2.0, 0.0) + at(uv, t, 0.0, 2.0);
    let inner = at(uv, t, -1.0, -1.0) + at(uv, t, 1.0, -1.0)
        + at(uv, t, -1.0, 1.0) + at(uv, t, 1.0, 1.0);
    let c = at(uv, t, 0.0, 0.0) * 0.125 + corners * 0.03125 + edges * 0.0625 + inner * 0.125;
    return vec4f(c, 1.0);
}
"#;

/// One step up the chain: the 3×3 tent filter over the level below, added onto this level by
/// the draw's blend.
const UP: &str = r#"
@group(0) @binding(0) var src: texture_2d<f32>;
@group(0) @binding(1) var s: sampler;

fn at(uv: vec2f, texel: vec2f, x: f32, y: f32) -> vec3f {
    return textureSampleLevel(src, s, uv + texel * vec2f(x, y), 0.0).rgb;
}

@fragment
fn fs_main(@location(0) uv: vec2f) -> @location(0) vec4f {
    let t = 1.0 / vec2f(textureDimensions(src));
    let corners = at(uv, t, -1.0, -1.0) + at(uv, t, 1.0, -1.0)
        + at(uv, t, -1.0, 1.0) + at(uv, t, 1.0, 1.0);
    let edges = at(uv, t, 0.0, -1.0) + at(uv, t, -1.0, 0.0)
        + at(uv, t, 1.0, 0.0) + at(uv, t, 0.0, 1.0);
    let c = (at(uv, t, 0.0, 0.0) * 4.0 + edges * 2.0 + corners) / 16.0;
    return vec4f(c, 0.0);
}
"#;

/// Scene plus `strength` × bloom, tone-mapped into 0..1.
const COMPOSITE: &str = r#"
override strength: f32 = 0.5;
@group(0) @binding(0) var scene: texture_2d<f32>;
@group(0) @binding(1) var bloom: texture_2d<f32>;
@group(0) @binding(2) var s: sampler;

// Narkowicz's fit of the ACES filmic curve (1.0 from about 7.3 up).
fn aces(x: vec3f) -> vec3f {
    return clamp((x * (2.51 * x + 0.03)) / (x * (2.43 * x + 0.59) + 0.14), vec3f(0.0), vec3f(1.0));
}

@fragment
fn fs_main(@location(0) uv: vec2f) -> @location(0) vec4f {
    let hdr = textureSampleLevel(scene, s, uv, 0.0).rgb
        + strength * textureSampleLevel(bloom, s, uv, 0.0).rgb;
    return vec4f(aces(hdr), 1.0);
}
"#;

/// `dst + src` on every channel.
const ADD: wgpu::BlendState = wgpu::BlendState {
    color: wgpu::BlendComponent {
        src_factor: wgpu::BlendFactor::One,
        dst_factor: wgpu::BlendFactor::One,
        operation: wgpu::BlendOperation::Add,
    },
    alpha: wgpu::BlendComponent {
        src_factor: wgpu::BlendFactor::One,
        dst_factor: wgpu::BlendFactor::One,
        operation: wgpu::BlendOperation::Add,
    },
};

/// The targets of a frame.
struct Targets {
    scene: Target,
    /// The bloom chain.
    chain: Texture,
    /// One-level views of the chain, mip 0 first.
    views: Vec<TextureView>,
    /// A target per mip level, drawing into its view.
    mips: Vec<Target>,
    composite: Target,
    composite_off: Target,
}

/// The draws of a frame, stage by stage.
struct Effects {
    scene: Effect,
    bright: Effect,
    /// `down[i]` draws mip `i + 1` from mip `i`.
    down: Vec<Effect>,
    /// `up[i]` adds mip `i + 1` onto mip `i`.
    up: Vec<Effect>,
    composite: Effect,
    composite_off: Effect,
}

/// Makes the scene, the bloom chain (with a target per level) and the outputs.
fn targets(gpu: &Gpu) -> vgpu::Result<Targets> {
    let chain = gpu.texture(&TextureDesc {
        label: "bloom chain".into(),
        width: SIZE,
        height: SIZE,
        format: F::Rgba16Float,
        usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
        mip_level_count: MIPS,
        ..Default::default()
    })?;
    let views = (0..MIPS)
        .map(|level| chain.mip_view(level))
        .collect::<vgpu::Result<Vec<_>>>()?;
    let mips = views
        .iter()
        .map(|view| view.target(gpu))
        .collect::<vgpu::Result<Vec<_>>>()?;
    let composite = gpu.target_with(&TargetDesc::new(SIZE, SIZE).label("composite"))?;
    let composite_off = gpu.target_with(&TargetDesc::new(SIZE, SIZE).label("composite off"))?;
    let scene = TargetDesc::new(SIZE, SIZE)
        .format(F::Rgba16Float)
        .label("scene");
    Ok(Targets {
        scene: gpu.target_with(&scene)?,
        chain,
        views,
        mips,
        composite,
        composite_off,
    })
}

/// An effect reading `src` through `sampler` (bindings `src` and `s`).
fn filter<'a>(
    gpu: &Gpu,
    label: &str,
    wgsl: &str,
    options: EffectOptions,
    src: impl Into<BindingArg<'a>>,
    sampler: &vgpu::Sampler,
) -> vgpu::Result<Effect> {
    let effect = gpu.effect_with(label, wgsl, options)?;
    effect.set("src", src)?;
    effect.set("s", sampler)?;
    Ok(effect)
}

/// A composite of strength `strength`.
fn composite(
    gpu: &Gpu,
    label: &str,
    strength: f64,
    t: &Targets,
    sampler: &vgpu::Sampler,
) -> vgpu::Result<Effect> {
    let options = EffectOptions {
        constants: vec![("strength".into(), strength)],
        ..Default::default()
    };
    let effect = gpu.effect_with(label, COMPOSITE, options)?;
    effect.set("scene", &t.scene)?;
    effect.set("bloom", &t.views[0])?;
    effect.set("s", sampler)?;
    Ok(effect)
}

/// Makes every effect and sets every binding (once: frames create nothing after the first).
fn effects(gpu: &Gpu, t: &Targets) -> vgpu::Result<Effects> {
    let sampler = gpu.sampler(&SamplerDesc::default())?;
    let bright = gpu.effect_with(
        "bright pass",
        BRIGHT,
        EffectOptions {
            constants: vec![("threshold".into(), THRESHOLD)],
            ..Default::default()
        },
    )?;
    bright.set("scene", &t.scene)?;
    bright.set("s", &sampler)?;
    let mut down = Vec::new();
    let mut up = Vec::new();
    for level in 1..MIPS as usize {
        let from = &t.views[level - 1];
        let label = format!("down {level}");
        down.push(filter(
            gpu,
            &label,
            DOWN,
            EffectOptions::default(),
            from,
            &sampler,
        )?);
        let additive = EffectOptions {
            blend: Some(ADD),
            ..Default::default()
        };
        let label = format!("up {level}");
        up.push(filter(
            gpu,
            &label,
            UP,
            additive,
            &t.views[level],
            &sampler,
        )?);
    }
    Ok(Effects {
        scene: gpu.effect("scene", SCENE)?,
        bright,
        down,
        up,
        composite: composite(gpu, "composite", STRENGTH, t, &sampler)?,
        composite_off: composite(gpu, "composite off", 0.0, t, &sampler)?,
    })
}

/// Records the passes of one frame.
fn frame(gpu: &Gpu, t: &Targets, e: &Effects) -> vgpu::Result<vgpu::FrameReport> {
    const CLEAR: [f64; 4] = [0.0, 0.0, 0.0, 1.0];
    gpu.frame(|f| {
        let scene = PassDesc::new(&t.scene).clear(CLEAR).label("scene");
        f.pass(scene, |p| p.draw(&e.scene))?;
        let bright = PassDesc::new(&t.mips[0]).clear(CLEAR).label("bright pass");
        f.pass(bright, |p| p.draw(&e.bright))?;
        for (i, down) in e.down.iter().enumerate() {
            let pass = PassDesc::new(&t.mips[i + 1]).clear(CLEAR).label("down");
            f.pass(pass, |p| p.draw(down))?;
        }
        for (i, up) in e.up.iter().enumerate().rev() {
            f.pass(PassDesc::new(&t.mips[i]).load().label("up"), |p| p.draw(up))?;
        }
        let composite = PassDesc::new(&t.composite).clear(CLEAR).label("composite");
        f.pass(composite, |p| p.draw(&e.composite))?;
        let off = PassDesc::new(&t.composite_off)
            .clear(CLEAR)
            .label("composite off");
        f.pass(off, |p| p.draw(&e.composite_off))
    })
}

/// How many of `values` are NaN or infinite.
fn non_finite(values: &[f32]) -> usize {
    values.iter().filter(|c| !c.is_finite()).count()
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
    let t = targets(&gpu)?;
    let e = effects(&gpu, &t)?;
    for n in 1..=FRAMES {
        let report = frame(&gpu, &t, &e)?;
        println!(
            "{}",
            vgpu_examples::counter_line(&format!("frame {n}"), &report.stats)
        );
    }
    vgpu_examples::fail_on_uncaptured_errors(&gpu)?;
    if gpu.is_noop() {
        println!("nothing was rendered (the noop device executes no GPU work): no PNG was written");
        return Ok(());
    }
    let scene: Vec<f32> = t.scene.read_f32()?.into_iter().flatten().collect();
    let bloom = t.chain.read_mip(&gpu, 0)?;
    println!(
        "non-finite values: scene {}, bloom {}",
        non_finite(&scene),
        non_finite(&bloom.f32s()?)
    );
    for (target, file) in [
        (&t.composite, "bloom.png"),
        (&t.composite_off, "bloom_off.png"),
    ] {
        target.save_png(file)?;
        println!("wrote {file}");
    }
    // The bloom alone, clamped to 0..1.
    bloom.to_rgba8()?.save_png("bloom_only.png")?;
    println!("wrote bloom_only.png");
    Ok(())
}
