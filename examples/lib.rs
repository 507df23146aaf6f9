//! Helpers shared by the vgpu examples that are not what the examples teach (exit codes, the
//! counter lines they print, quantiles, the `--plot` chart), and the `scene` example's
//! rendering (also called by the `window` example and the tests), and the `shapes` example's
//! scene (`shapes.rs`). The small examples
//! (`triangle`, `per_pass_camera`, `instancing_storage`, `bundle_static_scene`, `existing_app`)
//! hold all their rendering code in their own file; the tests run their binaries.

// Matrices and vectors come from glam (vgpu's `glam` feature), in the examples, the scene and
// the tests alike: `glam::Mat4` is column-major, as WGSL's `mat4x4f` reads it.

#[path = "lib/scene.rs"]
pub mod scene;

#[path = "lib/plot.rs"]
pub mod plot;

#[path = "lib/shapes.rs"]
pub mod shapes;

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

/// Returns an error listing the wgpu errors raised outside any vgpu call (validation errors of
/// work that vgpu did not check itself), if there were any: an example must not exit 0 over a
/// device that reported one.
pub fn fail_on_uncaptured_errors(gpu: &vgpu::Gpu) -> Result<(), Box<dyn std::error::Error>> {
    let errors = gpu.take_uncaptured_errors();
    if errors.is_empty() {
        return Ok(());
    }
    let list: Vec<String> = errors
        .iter()
        .map(|e| format!("{}: {}", e.kind, e.description))
        .collect();
    Err(format!(
        "{} uncaptured wgpu error(s): {}",
        errors.len(),
        list.join("; ")
    )
    .into())
}

/// The counters of one frame as one line, `"<what>: 3 draws, 0 bind groups created, …"`: every
/// counter the examples' tests check, each as `<number> <name>` separated by `", "` (the
/// tests parse it back with `vgpu_tests::parse_counters`).
pub fn counter_line(what: &str, s: &vgpu::StatsSnapshot) -> String {
    format!(
        "{what}: {} draws, {} bind groups created, {} buffers created, {} pipelines created, \
         {} write_buffer calls, {} bytes uploaded, {} slots captured, {} set_bind_group calls, \
         {} set_pipeline calls, {} submissions",
        s.operations_recorded,
        s.bind_groups_created,
        s.buffers_created,
        s.pipelines_created,
        s.write_calls,
        s.bytes_uploaded,
        s.slots_captured,
        s.set_bind_group_calls,
        s.set_pipeline_calls,
        s.submissions
    )
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
