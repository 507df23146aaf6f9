//! 10 000 instances read from a storage buffer by `instance_index`, in one draw call; writes
//! `instancing_storage.png` and prints the counters of a steady frame.
//!
//! ```text
//! cargo run --release --example instancing_storage
//! ```

use vgpu_examples::instancing_storage;

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
    let out = instancing_storage::render(&gpu, 2)?;
    println!("path: {:?}", out.path);
    if let Some(steady) = out.reports.last() {
        let s = &steady.stats;
        println!(
            "steady frame: {} draw call(s) for {} instances, {} set_bind_group call(s), \
             {} bind groups created, {} bytes uploaded",
            s.operations_recorded,
            instancing_storage::INSTANCES,
            s.set_bind_group_calls,
            s.bind_groups_created,
            s.bytes_uploaded
        );
    }
    out.target.save_png("instancing_storage.png")?;
    println!("wrote instancing_storage.png");
    Ok(())
}
