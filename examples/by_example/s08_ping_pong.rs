//! by-example §8, ping-pong (upstream: `examples/by-example-s08-ping-pong`).
//!
//! A pair of 8×8 targets (`gpu.ping_pong`): the first frame fills the `write` side with the uv
//! gradient (`fill`), `swap()` makes it the `read` side, and the second frame copies it texel
//! by texel (`copy`: `textureLoad` at `uv / texel`) into the other side. `copy`'s `src` is set
//! once, to `pp.reading()`, before the first frame: the swap re-points it at the new read side
//! without a new `set`. Prints which side is read and written around the swap, each frame's
//! counters, and writes `by_example_s08_ping_pong.png` (the side written last).
//!
//! ```text
//! cargo run --example by_example_s08_ping_pong
//! ```

use vgpu::{Gpu, PassDesc, TargetDesc, value};

/// Width and height of both sides in pixels.
const SIZE: u32 = 8;

/// The uv gradient: red across, green down, blue 0.5.
const FILL: &str = r#"
@fragment fn main(@location(0) uv: vec2f) -> @location(0) vec4f { return vec4f(uv, 0.5, 1.0); }
"#;

/// Copies `src` texel for texel.
const COPY: &str = r#"
struct Params { texel: vec2f }
@group(0) @binding(0) var src: texture_2d<f32>;
@group(0) @binding(1) var<uniform> params: Params;
@fragment fn main(@location(0) uv: vec2f) -> @location(0) vec4f {
    return textureLoad(src, vec2u(vec2f(uv) / params.texel), 0);
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

    let mut buf = gpu.ping_pong(&TargetDesc::new(SIZE, SIZE).label("buf"))?;
    let fill = gpu.effect("fill", FILL)?;
    let copy = gpu.effect("copy", COPY)?;
    // Set once: follows every swap.
    copy.set("src", buf.reading())?;
    copy.set("params", value! { texel: buf.read().texel_size() })?;

    let sides = |buf: &vgpu::PingPong<vgpu::Target>| {
        format!("read {}, write {}", buf.read().label(), buf.write().label())
    };
    println!("before swap: {}", sides(&buf));
    let report =
        gpu.frame(|f| f.pass(PassDesc::new(buf.write()).label("fill"), |p| p.draw(&fill)))?;
    println!("{}", vgpu_examples::counter_line("frame 1", &report.stats));
    buf.swap()?;
    println!("after swap: {}", sides(&buf));
    let report =
        gpu.frame(|f| f.pass(PassDesc::new(buf.write()).label("copy"), |p| p.draw(&copy)))?;
    println!("{}", vgpu_examples::counter_line("frame 2", &report.stats));

    vgpu_examples::fail_on_uncaptured_errors(&gpu)?;
    if gpu.is_noop() {
        println!("nothing was rendered (the noop device executes no GPU work): no PNG was written");
        return Ok(());
    }
    buf.write().save_png("by_example_s08_ping_pong.png")?;
    println!("wrote by_example_s08_ping_pong.png");
    Ok(())
}
