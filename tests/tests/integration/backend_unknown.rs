//! Tier 0: an unknown `VGPU_BACKEND` value is an error naming the accepted values. The parts that
//! read `VGPU_BACKEND` from the environment run in child processes of this test binary
//! ([`vgpu_tests::run_child_test`]), each given its own value, so no test changes the
//! environment of the process the other tests run in.

use vgpu::{BackendChoice, ErrorCode, GpuOptions};

#[test]
fn unknown_backend_names_accepted_values() {
    let e = BackendChoice::parse("glide", "VGPU_BACKEND").expect_err("unknown");
    assert_eq!(e.code(), "VGPU-DEVICE-BACKEND-UNKNOWN");
    for name in BackendChoice::NAMES.into_iter().chain(["\"glide\""]) {
        assert!(e.to_string().contains(name), "{e}");
    }
    for (text, want) in [
        ("auto", BackendChoice::Auto),
        ("Vulkan", BackendChoice::Vulkan),
        (" gl ", BackendChoice::Gl),
        ("WebGL2", BackendChoice::Gl),
        ("metal", BackendChoice::Metal),
        ("dx12", BackendChoice::Dx12),
        ("d3d12", BackendChoice::Dx12),
        ("webgpu", BackendChoice::WebGpu),
        ("noop", BackendChoice::Noop),
    ] {
        assert_eq!(BackendChoice::parse(text, "test").expect("known"), want);
    }

    vgpu_tests::run_child_test(
        module_path!(),
        "unknown_env_backend_child",
        &[("VGPU_BACKEND", "dx13")],
    );
    vgpu_tests::run_child_test(
        module_path!(),
        "noop_env_backend_child",
        &[("VGPU_BACKEND", "noop")],
    );
}

#[test]
#[ignore = "run in a child process (VGPU_BACKEND=dx13) by unknown_backend_names_accepted_values"]
fn unknown_env_backend_child() {
    if !vgpu_tests::in_child_test("unknown_env_backend_child") {
        return;
    }
    let e = GpuOptions::from_env().expect_err("unknown env value");
    assert_eq!(e.code(), "VGPU-DEVICE-BACKEND-UNKNOWN");
    assert!(
        e.to_string().contains("dx13") && e.to_string().contains("VGPU_BACKEND"),
        "{e}"
    );
    let e = vgpu::Gpu::from_env().expect_err("unknown env value");
    assert_eq!(e.code(), "VGPU-DEVICE-BACKEND-UNKNOWN");
}

#[test]
#[ignore = "run in a child process (VGPU_BACKEND=noop) by unknown_backend_names_accepted_values"]
fn noop_env_backend_child() {
    if !vgpu_tests::in_child_test("noop_env_backend_child") {
        return;
    }
    assert!(vgpu::Gpu::from_env().expect("noop").is_noop());
}

/// `VGPU_AUTO_BUNDLES` and `VGPU_PARALLEL_FINISH` switch those options in
/// `GpuOptions::from_env`; a value that is neither on nor off is `VGPU-DEVICE-ENV-SWITCH`, naming
/// the variable and the value.
#[test]
fn env_switches_are_read_and_a_bad_one_is_refused() {
    vgpu_tests::run_child_test(
        module_path!(),
        "env_switches_off_child",
        &[("VGPU_AUTO_BUNDLES", "off"), ("VGPU_PARALLEL_FINISH", "0")],
    );
    vgpu_tests::run_child_test(
        module_path!(),
        "env_switch_bad_child",
        &[("VGPU_PARALLEL_FINISH", "sometimes")],
    );
}

#[test]
#[ignore = "run in a child process by env_switches_are_read_and_a_bad_one_is_refused"]
fn env_switches_off_child() {
    if !vgpu_tests::in_child_test("env_switches_off_child") {
        return;
    }
    let options = GpuOptions::from_env().expect("valid switches");
    assert!(!options.auto_bundles && !options.parallel_finish);
    let defaults = GpuOptions::default();
    assert!(defaults.auto_bundles && defaults.parallel_finish);
}

#[test]
#[ignore = "run in a child process by env_switches_are_read_and_a_bad_one_is_refused"]
fn env_switch_bad_child() {
    if !vgpu_tests::in_child_test("env_switch_bad_child") {
        return;
    }
    let e = GpuOptions::from_env().expect_err("not a switch");
    assert_eq!(e.code(), "VGPU-DEVICE-ENV-SWITCH");
    let text = e.to_string();
    assert!(
        text.contains("VGPU_PARALLEL_FINISH") && text.contains("\"sometimes\""),
        "{e}"
    );
}
