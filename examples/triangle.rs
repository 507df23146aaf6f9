//! Renders one triangle headless and writes `triangle.png`.
//!
//! ```text
//! cargo run --release --example triangle
//! ```

fn main() -> std::process::ExitCode {
    vgpu_examples::report(run())
}

fn run() -> Result<(), Box<dyn std::error::Error>> {
    let gpu = vgpu::Gpu::from_env()?;
    println!(
        "adapter: {} ({:?})",
        gpu.adapter_info().name,
        gpu.adapter_info().backend
    );
    let target = vgpu_examples::triangle::render(&gpu, 64)?;
    target.save_png("triangle.png")?;
    println!("wrote triangle.png");
    Ok(())
}
