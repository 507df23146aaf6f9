//! `shader`: arbitrary bytes (UTF-8, lossily) as WGSL through `Gpu::shader`; a shader that is
//! accepted is also made into a draw and a compute (when it has the entry points), and one
//! without bindings is recorded in a frame.
//!
//! Invariants: no panic (a naga panic that vgpu contains as `VGPU-SHADER-INTERNAL` is logged and
//! its input saved under `$VGPU_FUZZ_CONTAINED_DIR`, not a crash); every `Err` carries a `VGPU-`
//! code; no uncaptured wgpu error.

#![no_main]

use libfuzzer_sys::fuzz_target;
use vgpu::{ComputeDesc, DrawDesc};
use vgpu_core::Stage;
use vgpu_fuzz::{check_err, gpu, ok_or_coded, save_contained};

fuzz_target!(|data: &[u8]| {
    let source = String::from_utf8_lossy(data);
    let gpu = gpu();
    let shader = match gpu.shader("fuzz.wgsl", &source) {
        Ok(shader) => shader,
        Err(e) => {
            check_err("Gpu::shader", &e);
            if e.code() == "VGPU-SHADER-INTERNAL" {
                save_contained(data);
            }
            return;
        }
    };
    let reflection = shader.reflection();
    let has = |stage| reflection.entry_points().iter().any(|e| e.stage == stage);
    if has(Stage::Vertex) {
        let draw = gpu.draw(&shader, DrawDesc::default());
        if let Ok(draw) = &draw {
            if reflection.bindings().is_empty() {
                let target = target();
                let r = gpu.frame(|f| f.pass(target, |p| p.draw(draw)));
                ok_or_coded("frame with the shader's draw", &r);
            }
        }
        ok_or_coded("Gpu::draw", &draw);
    }
    if has(Stage::Compute) {
        let compute = gpu.compute(&shader, ComputeDesc::default());
        ok_or_coded("Gpu::compute", &compute);
    }
    let errors = gpu.take_uncaptured_errors();
    assert!(
        errors.is_empty(),
        "uncaptured wgpu errors: {errors:?}\nWGSL:\n{source}"
    );
});

fn target() -> &'static vgpu::Target {
    static TARGET: std::sync::OnceLock<vgpu::Target> = std::sync::OnceLock::new();
    TARGET.get_or_init(|| gpu().target(4, 4).expect("a 4x4 target"))
}
