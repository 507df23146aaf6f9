//! vgpu inside an existing wgpu program: the program owns its device, error handler, view and
//! encoder, clears its view, lets vgpu draw a per-pass-camera scene into the same view and
//! encoder (and into a render pass it began itself), submits, and reads its view back. Prints
//! what it saw; `VGPU_BACKEND=vulkan|gl|noop` picks the program's backend.
//!
//! ```text
//! cargo run --release --example existing_app
//! ```

use std::process::ExitCode;

use vgpu_examples::existing_app::{self, CLEAR_RGBA, OFFSETS};

fn main() -> ExitCode {
    vgpu_examples::report(run())
}

fn run() -> Result<(), Box<dyn std::error::Error>> {
    let app = existing_app::run(3)?;
    println!("adapter: {}", app.adapter);
    for (i, r) in app.reports.iter().enumerate() {
        println!(
            "frame {}: {} draws, {} bind groups, {} bytes uploaded",
            i + 1,
            r.stats.operations_recorded,
            r.stats.bind_groups_created,
            r.stats.bytes_uploaded
        );
    }
    if let Some(last) = app.pixels.last().filter(|_| !app.noop) {
        for (i, offset) in OFFSETS.iter().enumerate() {
            let (x, y) = existing_app::center_of(*offset);
            println!(
                "square {i} at ({x}, {y}): {:?}",
                existing_app::pixel(last, x, y)
            );
        }
        println!(
            "corner (0, 0): {:?} (the program's clear: {CLEAR_RGBA:?})",
            existing_app::pixel(last, 0, 0)
        );
    }
    println!(
        "the program's error handler received {} error(s); vgpu logged {} (forwarded)",
        app.app_errors.len(),
        app.vgpu_errors.len()
    );
    Ok(())
}
