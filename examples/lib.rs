//! Helpers shared by the vgpu examples, so each example's rendering is also callable from tests.

#[path = "lib/triangle.rs"]
pub mod triangle;

#[path = "lib/mat4.rs"]
pub mod mat4;

#[path = "lib/scene.rs"]
pub mod scene;

#[path = "lib/per_pass_camera.rs"]
pub mod per_pass_camera;

#[path = "lib/instancing_storage.rs"]
pub mod instancing_storage;

#[path = "lib/bundle_static_scene.rs"]
pub mod bundle_static_scene;

#[path = "lib/existing_app.rs"]
pub mod existing_app;

/// Turns an example's result into an exit code, printing the error with its `VGPU-…` code and
/// message (`Display`, not `Debug`).
pub fn report(result: Result<(), Box<dyn std::error::Error>>) -> std::process::ExitCode {
    match result {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}
