//! by-example §12, scheduling and resize (upstream: `examples/by-example-s12-scheduling-resize`).
//!
//! A 4×4 target `baked` is drawn by `post`, whose uniform carries the target's `texel_size()`
//! and a time given explicitly (no implicit globals); then `baked.resize(8, 8)` and a second
//! frame with the new texel size (1/8) and time 0.5. A `show` effect that copies `baked` into an
//! 8×8 `output` was given `baked` once, before the resize: it follows the new texture without a
//! new `set`. Prints the size before and after, each frame's counters, and writes
//! `by_example_s12_scheduling_resize.png` (`baked`) and `by_example_s12_output.png`.
//!
//! ```text
//! cargo run --example by_example_s12_scheduling_resize
//! ```

use vgpu::{Gpu, PassDesc, TargetDesc, value};

/// Writes the explicit texel size and time.
const POST: &str = r#"
struct Params { time: f32, texel: vec2f }
@group(0) @binding(0) var<uniform> params: Params;
@fragment fn main(@location(0) uv: vec2f) -> @location(0) vec4f {
    return vec4f(params.texel, params.time, 1.0);
}
"#;

/// Copies `src` through its uv and its own size (`textureDimensions`).
const SHOW: &str = r#"
@group(0) @binding(0) var src: texture_2d<f32>;
@fragment fn main(@location(0) uv: vec2f) -> @location(0) vec4f {
    return textureLoad(src, vec2u(uv * vec2f(textureDimensions(src))), 0);
}
"#;

/// (time, size) of the two frames.
const FRAMES: [(f32, u32); 2] = [(0.25, 4), (0.5, 8)];

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

    let baked = gpu.target_with(&TargetDesc::new(4, 4).label("baked"))?;
    let output = gpu.target_with(&TargetDesc::new(8, 8).label("output"))?;
    let post = gpu.effect("post", POST)?;
    let show = gpu.effect("show", SHOW)?;
    // Set once: follows the resize.
    show.set("src", &baked)?;

    for (i, (time, size)) in FRAMES.into_iter().enumerate() {
        if baked.size() != (size, size) {
            baked.resize(size, size)?;
        }
        println!("frame {} size: {:?}", i + 1, baked.size());
        post.set("params", value! { time: time, texel: baked.texel_size() })?;
        let report = gpu.frame(|f| {
            f.pass(PassDesc::new(&baked).label("post"), |p| p.draw(&post))?;
            f.pass(PassDesc::new(&output).label("show"), |p| p.draw(&show))
        })?;
        let what = format!("frame {}", i + 1);
        println!("{}", vgpu_examples::counter_line(&what, &report.stats));
    }

    vgpu_examples::fail_on_uncaptured_errors(&gpu)?;
    if gpu.is_noop() {
        println!("nothing was rendered (the noop device executes no GPU work): no PNG was written");
        return Ok(());
    }
    baked.save_png("by_example_s12_scheduling_resize.png")?;
    println!("wrote by_example_s12_scheduling_resize.png");
    output.save_png("by_example_s12_output.png")?;
    println!("wrote by_example_s12_output.png");
    Ok(())
}
