//! Tier 0: the processes the tests start (child tests, examples) get a private
//! `XDG_RUNTIME_DIR` when the test process has none, so Mesa's Vulkan loader does not print
//! `error: XDG_RUNTIME_DIR is invalid or not set` in their output; one that is set is inherited.

use std::ffi::OsStr;

use vgpu_tests::runtime_dir_for_child;

#[test]
fn a_child_gets_a_private_runtime_dir_only_when_the_parent_has_none() {
    assert_eq!(
        runtime_dir_for_child(Some(OsStr::new("/run/user/1000"))),
        None,
        "a set one is inherited"
    );
    let dir = runtime_dir_for_child(None).expect("a private one when unset");
    assert!(dir.is_dir(), "{}", dir.display());
    assert_eq!(
        runtime_dir_for_child(Some(OsStr::new(""))),
        Some(dir.clone()),
        "empty counts as unset; one directory per test process"
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&dir).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o700, "{}", dir.display());
    }
    // End to end: a child test whose XDG_RUNTIME_DIR is empty starts a process that sees one.
    #[cfg(unix)]
    vgpu_tests::run_child_test(
        module_path!(),
        "runtime_dir_reaches_grandchildren_child",
        &[("XDG_RUNTIME_DIR", "")],
    );
}

#[test]
#[ignore = "run by a_child_gets_a_private_runtime_dir_only_when_the_parent_has_none, in a child process"]
fn runtime_dir_reaches_grandchildren_child() {
    if !vgpu_tests::in_child_test("runtime_dir_reaches_grandchildren_child") {
        return;
    }
    assert_eq!(
        std::env::var_os("XDG_RUNTIME_DIR").as_deref(),
        Some(OsStr::new(""))
    );
    let output = vgpu_tests::child_command("sh")
        .args(["-c", "printf %s \"$XDG_RUNTIME_DIR\""])
        .output()
        .expect("run sh");
    assert!(output.status.success());
    let seen = String::from_utf8(output.stdout).expect("UTF-8");
    assert!(!seen.is_empty(), "the grandchild has no XDG_RUNTIME_DIR");
    assert!(std::path::Path::new(&seen).is_dir(), "{seen}");
}
