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

#[path = "lib/plot.rs"]
pub mod plot;

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

/// Whether frames are CPU- or GPU-bound: the CPU recording time of a frame against
/// the GPU time of its passes. Used by the `scene` example's summary and the `window` example's
/// title.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Verdict {
    /// `"CPU-bound"` or `"GPU-bound"`.
    pub bound: &'static str,
    /// The larger time over the smaller one.
    pub ratio: f64,
    /// What would pay.
    pub advice: &'static str,
}

/// The [`Verdict`] for a CPU recording time `cpu` and a GPU pass time `gpu` (same unit).
pub fn verdict(cpu: f64, gpu: f64) -> Verdict {
    if cpu > gpu {
        Verdict {
            bound: "CPU-bound",
            ratio: cpu / gpu,
            advice: "cutting per-draw CPU work (draw calls, set_bind_group) is what pays",
        }
    } else {
        Verdict {
            bound: "GPU-bound",
            ratio: gpu / cpu,
            advice: "fewer draw calls will not help; the work is in shaders, fill rate or bandwidth",
        }
    }
}

/// The `q` quantile (nearest rank) of `values`; NaN when empty.
pub fn quantile(values: &[f64], q: f64) -> f64 {
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    match v.len() {
        0 => f64::NAN,
        n => v[((q * n as f64).ceil() as usize).clamp(1, n) - 1],
    }
}
