//! Tier 0: an unknown `VGPU_BACKEND` value is an error naming the accepted values. Its own test
//! binary, because it sets a process environment variable.

use vgpu::{BackendChoice, ErrorCode, GpuOptions};

#[test]
fn unknown_backend_names_accepted_values() {
    let e = BackendChoice::parse("metal", "VGPU_BACKEND").expect_err("unknown");
    assert_eq!(e.code(), "VGPU-DEVICE-BACKEND-UNKNOWN");
    for name in ["auto", "vulkan", "gl", "noop", "\"metal\""] {
        assert!(e.to_string().contains(name), "{e}");
    }
    for (text, want) in [
        ("auto", BackendChoice::Auto),
        ("Vulkan", BackendChoice::Vulkan),
        (" gl ", BackendChoice::Gl),
        ("noop", BackendChoice::Noop),
    ] {
        assert_eq!(BackendChoice::parse(text, "test").expect("known"), want);
    }

    // SAFETY: this test binary has a single test, so no other thread reads the environment.
    unsafe { std::env::set_var("VGPU_BACKEND", "dx13") };
    let e = GpuOptions::from_env().expect_err("unknown env value");
    assert_eq!(e.code(), "VGPU-DEVICE-BACKEND-UNKNOWN");
    assert!(
        e.to_string().contains("dx13") && e.to_string().contains("VGPU_BACKEND"),
        "{e}"
    );
    let e = vgpu::Gpu::from_env().expect_err("unknown env value");
    assert_eq!(e.code(), "VGPU-DEVICE-BACKEND-UNKNOWN");

    unsafe { std::env::set_var("VGPU_BACKEND", "noop") };
    assert!(vgpu::Gpu::from_env().expect("noop").is_noop());
}
