//! Tier 0: a forced backend that is unavailable fails with an error listing what was tried. The
//! test body runs in a child process of this test binary ([`vgpu_tests::run_child_test`]) whose
//! environment hides the Vulkan drivers and the EGL vendors before any instance exists in it; the
//! process the other tests run in keeps its drivers.

use vgpu::{BackendChoice, Gpu, GpuOptions};

#[test]
fn forced_backend_unavailable_lists_every_attempt() {
    vgpu_tests::run_child_test(
        module_path!(),
        "forced_backend_unavailable_lists_every_attempt_child",
        &[
            ("VK_ICD_FILENAMES", "/nonexistent/vgpu-test-icd.json"),
            ("VK_DRIVER_FILES", "/nonexistent/vgpu-test-icd.json"),
            (
                "__EGL_VENDOR_LIBRARY_FILENAMES",
                "/nonexistent/vgpu-test-egl.json",
            ),
            ("__EGL_VENDOR_LIBRARY_DIRS", "/nonexistent"),
        ],
    );
}

#[test]
#[ignore = "run in a child process without drivers by forced_backend_unavailable_lists_every_attempt"]
fn forced_backend_unavailable_lists_every_attempt_child() {
    if !vgpu_tests::in_child_test("forced_backend_unavailable_lists_every_attempt_child") {
        return;
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
