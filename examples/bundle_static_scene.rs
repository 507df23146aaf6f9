//! A static scene of 1 024 draws recorded once into a render bundle and replayed every frame
//! while the camera moves; writes `bundle_static_scene.png` and prints the counters of the
//! recording and of a steady frame.
//!
//! ```text
//! cargo run --release --example bundle_static_scene
//! ```

use vgpu_examples::bundle_static_scene;

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
    let out = bundle_static_scene::render(&gpu, 8)?;
    let r = &out.record;
    println!(
        "recorded once: {} draws, {} bind groups created, {} set_bind_group calls",
        out.bundle_draws, r.bind_groups_created, r.set_bind_group_calls
    );
    if let Some(steady) = out.reports.last() {
        let s = &steady.stats;
        println!(
            "steady frame: {} draws replayed, {} bind groups created, {} set_bind_group calls, \
             {} write_buffer call(s), {} bytes uploaded (the camera is {} bytes)",
            s.operations_recorded,
            s.bind_groups_created,
            s.set_bind_group_calls,
            s.write_calls,
            s.bytes_uploaded,
            bundle_static_scene::CAMERA_BYTES
        );
        println!(
            "steady frame CPU: encode {:?}, submit {:?}",
            steady.encode, steady.submit
        );
    }
    out.target.save_png("bundle_static_scene.png")?;
    println!("wrote bundle_static_scene.png");
    Ok(())
}
