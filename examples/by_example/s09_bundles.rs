//! by-example §9, render bundles (upstream: `examples/by-example-s09-bundles`).
//!
//! A draw recorded once into a bundle for the target's formats, then replayed in two frames. The
//! values a bundled draw binds are live: a `set` between the frames (the floor's fog density,
//! 0.2 then 0.7) is what the next replay draws, with no re-recording, no new bind group and no
//! new pipeline. Writes `by_example_s09_bundles_before.png` and `by_example_s09_bundles_after.png`
//! (red is the fog density) and prints the counters of the recording and of both frames.
//!
//! ```text
//! cargo run --example by_example_s09_bundles
//! ```

use vgpu::{Gpu, PassDesc, TargetDesc, value};

/// Width and height of the target in pixels.
const SIZE: u32 = 8;

/// Red is the fog density; green and blue the uv.
const FLOOR: &str = r#"
struct Params { fogDensity: f32 }
@group(0) @binding(0) var<uniform> params: Params;
@fragment fn main(@location(0) uv: vec2f) -> @location(0) vec4f {
    return vec4f(params.fogDensity, uv.x, uv.y, 1.0);
}
"#;

/// The fog density of each frame, and the PNG it writes.
const FRAMES: [(f32, &str); 2] = [
    (0.2, "by_example_s09_bundles_before.png"),
    (0.7, "by_example_s09_bundles_after.png"),
];

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

    let scene = gpu.target_with(&TargetDesc::new(SIZE, SIZE).label("scene"))?;
    let floor = gpu.effect("floor", FLOOR)?;
    floor.set("params", value! { fogDensity: FRAMES[0].0 })?;

    // Recorded once, for targets with the scene's formats (its signature).
    let before = gpu.stats();
    let static_scene = gpu.bundle("static scene", scene.signature(), |b| b.draw(&floor))?;
    println!(
        "{}",
        vgpu_examples::counter_line("recorded once", &(gpu.stats() - before))
    );

    for (i, (fog, png)) in FRAMES.iter().enumerate() {
        // A new value for a bundled draw: written through, seen by the next replay.
        floor.set("fogDensity", fog)?;
        let report = gpu.frame(|f| {
            f.pass(PassDesc::new(&scene).clear([0.0, 0.0, 0.0, 1.0]), |p| {
                p.execute(&static_scene)
            })
        })?;
        let what = format!("frame {} (fog {fog})", i + 1);
        println!("{}", vgpu_examples::counter_line(&what, &report.stats));
        if !gpu.is_noop() {
            scene.save_png(png)?;
            println!("wrote {png}");
        }
    }

    vgpu_examples::fail_on_uncaptured_errors(&gpu)?;
    if gpu.is_noop() {
        println!("nothing was rendered (the noop device executes no GPU work): no PNG was written");
    }
    Ok(())
}
