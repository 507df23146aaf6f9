//! Tier 0: a forced backend that is unavailable fails with an error listing what was tried. Its
//! own test binary: it hides the Vulkan drivers and the EGL vendors through the environment
//! before any instance exists in this process.

use vgpu::{BackendChoice, Gpu, GpuOptions};

#[test]
fn forced_backend_unavailable_lists_every_attempt() {
    // SAFETY: single test in this binary; no other thread reads the environment.
    unsafe {
        std::env::set_var("VK_ICD_FILENAMES", "/nonexistent/vgpu-test-icd.json");
        std::env::set_var("VK_DRIVER_FILES", "/nonexistent/vgpu-test-icd.json");
        std::env::set_var(
            "__EGL_VENDOR_LIBRARY_FILENAMES",
            "/nonexistent/vgpu-test-egl.json",
        );
        std::env::set_var("__EGL_VENDOR_LIBRARY_DIRS", "/nonexistent");
    }
    let e = Gpu::new(&GpuOptions {
        backend: BackendChoice::Vulkan,
        ..Default::default()
    })
    .expect_err("no Vulkan driver");
    assert_eq!(e.code(), "VGPU-DEVICE-NO-ADAPTER");
    let text = e.to_string();
    assert!(
        text.contains("vulkan hardware") && text.contains("vulkan software"),
        "{text}"
    );
    assert!(
        text.contains("mesa-vulkan-drivers"),
        "the error says how to get lavapipe: {text}"
    );

    let e = Gpu::new(&GpuOptions {
        backend: BackendChoice::Gl,
        ..Default::default()
    })
    .expect_err("no EGL vendor");
    assert_eq!(e.code(), "VGPU-DEVICE-NO-ADAPTER");
    assert!(
        e.to_string().contains("gl hardware") && e.to_string().contains("gl software"),
        "{e}"
    );

    let e = Gpu::new(&GpuOptions::default()).expect_err("auto finds nothing either");
    let Some(vgpu::DeviceError::NoAdapter {
        attempts,
        requested,
    }) = e.as_device()
    else {
        panic!("{e:?}")
    };
    assert_eq!(requested, "auto");
    let tried: Vec<&str> = attempts.iter().map(|a| a.backend.as_str()).collect();
    assert_eq!(
        tried,
        [
            "vulkan hardware",
            "gl hardware",
            "vulkan software",
            "gl software"
        ]
    );

    // noop needs no driver.
    assert!(
        Gpu::new(&GpuOptions {
            backend: BackendChoice::Noop,
            ..Default::default()
        })
        .expect("noop")
        .is_noop()
    );
}
