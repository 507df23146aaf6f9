//! by-example §7, an HDR target and a post pass (upstream: `examples/by-example-s07-hdr-post`).
//!
//! The scene renders into an `Rgba16Float` target (with depth), where colors may exceed 1.0; a
//! post effect reads it texel by texel (`textureLoad` at `uv / texel`, the scene's
//! `texel_size()` given as a uniform) and tone-maps it (Reinhard: `c / (1 + c)`) into the
//! `Rgba8Unorm` output. A target binds as a texture by `set("src", &scene)`; vgpu orders the two
//! passes of the frame. Writes `by_example_s07_hdr_post.png` (the output) and prints the frame's
//! counters and, on a real device, the scene's brightest texel (`scene pixel`), read back as
//! floats: above 1.0, which an 8-bit target could not hold.
//!
//! ```text
//! cargo run --example by_example_s07_hdr_post
//! ```

use vgpu::{Gpu, PassDesc, TargetDesc, value};
use wgpu::TextureFormat;

/// Width and height of both targets in pixels.
const SIZE: u32 = 8;

/// The HDR scene: red ramps from 0.5 to 7.5 across the target (one step per texel), green 1.5,
/// blue 3.0 (every value exact in 16-bit float).
const SOLID: &str = r#"
@fragment fn main(@location(0) uv: vec2f) -> @location(0) vec4f {
    return vec4f(uv.x * 8.0, 1.5, 3.0, 1.0);
}
"#;

/// Reads the scene texel under this pixel and tone-maps it into 0..1.
const POST: &str = r#"
struct PostParams { texel: vec2f }
@group(0) @binding(0) var src: texture_2d<f32>;
@group(0) @binding(1) var<uniform> params: PostParams;
@fragment fn main(@location(0) uv: vec2f) -> @location(0) vec4f {
    let c = textureLoad(src, vec2u(uv / params.texel), 0);
    return vec4f(c.rgb / (vec3f(1.0) + c.rgb), 1.0);
}
"#;

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

    let scene = gpu.target_with(
        &TargetDesc::new(SIZE, SIZE)
            .format(TextureFormat::Rgba16Float)
            .depth(TextureFormat::Depth32Float)
            .label("scene"),
    )?;
    let output = gpu.target_with(&TargetDesc::new(SIZE, SIZE).label("output"))?;
    let solid = gpu.effect("solid", SOLID)?;
    let post = gpu.effect("post", POST)?;
    // The scene's color texture, and the size of one of its texels in uv units.
    post.set("src", &scene)?;
    post.set("params", value! { texel: scene.texel_size() })?;

    let report = gpu.frame(|f| {
        f.pass(
            PassDesc::new(&scene)
                .clear([0.0, 0.0, 0.0, 1.0])
                .label("scene"),
            |p| p.draw(&solid),
        )?;
        f.pass(PassDesc::new(&output).label("post"), |p| p.draw(&post))
    })?;
    println!("{}", vgpu_examples::counter_line("frame 1", &report.stats));

    vgpu_examples::fail_on_uncaptured_errors(&gpu)?;
    if gpu.is_noop() {
        println!("nothing was rendered (the noop device executes no GPU work): no PNG was written");
        return Ok(());
    }
    // The rightmost texel of the top row: red 7.5, kept as it is by the float target.
    let texels = scene.read_f32()?;
    println!("scene pixel (7,0): {:?}", texels[(SIZE - 1) as usize]);
    output.save_png("by_example_s07_hdr_post.png")?;
    println!("wrote by_example_s07_hdr_post.png");
    Ok(())
}
