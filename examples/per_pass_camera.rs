//! Three passes in one frame, one shared camera block set to a different value before each pass;
//! writes `per_pass_camera_<camera>.png` (one per camera) and prints the counters of a steady
//! frame.
//!
//! ```text
//! cargo run --release --example per_pass_camera
//! ```

use vgpu_examples::per_pass_camera;

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
    let out = per_pass_camera::render(&gpu, 3)?;
    let first = &out.reports[0].stats;
    println!(
        "first frame:  {} draws, {} bind groups created, {} write_buffer calls, {} bytes uploaded",
        first.operations_recorded,
        first.bind_groups_created,
        first.write_calls,
        first.bytes_uploaded
    );
    if let Some(steady) = out.reports.last() {
        let s = &steady.stats;
        println!(
            "steady frame: {} draws in 3 passes, {} bind groups created, {} write_buffer calls, \
             {} bytes uploaded, {} slots captured, {} set_bind_group calls ({} skipped)",
            s.operations_recorded,
            s.bind_groups_created,
            s.write_calls,
            s.bytes_uploaded,
            s.slots_captured,
            s.set_bind_group_calls,
            s.set_bind_group_skipped
        );
    }
    for path in per_pass_camera::save_pngs(&out, std::path::Path::new("."))? {
        println!("wrote {}", path.display());
    }
    Ok(())
}
