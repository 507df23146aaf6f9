//! glibc's mmap threshold, fixed for a benchmark process.
//!
//! glibc serves an allocation of at least its *mmap threshold* (128 KiB at start) with its own
//! mapping, and raises the threshold (up to 32 MiB on 64-bit) the first time the process frees
//! such a mapping. wgpu-core's per-pass command vectors grow past 128 KiB from about 2 000 draws
//! per pass, and wgpu's GL backend's command buffers do at 1 000. Which regime a process is in
//! therefore depends on whether something before the frames happened to free a large mapping:
//! a process still at 128 KiB maps, faults in and unmaps those vectors every frame; one whose
//! threshold was raised grows them in its heap. The same binary measured 2.0x the encode time
//! of the other regime at 100 000 draws, and the modes of the benchmark land in different
//! regimes by accident of their set-up. Fixing the threshold at glibc's ceiling (which also
//! stops its adjustment) puts every mode in the regime of a process that has freed a large
//! mapping, as most applications have once they loaded their assets.

/// The threshold the benchmark fixes: glibc's ceiling for its dynamic threshold on 64-bit
/// (`DEFAULT_MMAP_THRESHOLD_MAX`).
pub const MMAP_THRESHOLD: usize = 32 << 20;

/// Set (to anything) to keep glibc's default, dynamic threshold.
pub const KEEP_DEFAULT_ENV: &str = "UNIFORM_CAPTURE_DEFAULT_MALLOC";

/// Fixes glibc's mmap threshold at [`MMAP_THRESHOLD`] unless [`KEEP_DEFAULT_ENV`] is set or the
/// process runs under valgrind; call it first in `main`. Returns whether it did (`false` also on
/// other C libraries and platforms).
///
/// Under valgrind the default is kept: valgrind gives the client a small `brk` segment, and with
/// the threshold raised glibc's heap outgrows it and allocations fail (100 000 draws under
/// callgrind). The regime still moves the `realloc` copies callgrind counts (where the heap lets
/// wgpu's vectors grow), not the counts with `realloc` left out.
pub fn fix_mmap_threshold() -> bool {
    if std::env::var_os(KEEP_DEFAULT_ENV).is_some() || under_valgrind() {
        return false;
    }
    set_threshold(MMAP_THRESHOLD)
}

/// Whether valgrind runs the process: it preloads its `vgpreload_*` libraries into the client.
fn under_valgrind() -> bool {
    std::env::var("LD_PRELOAD").is_ok_and(|p| p.contains("vgpreload"))
}

#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn set_threshold(bytes: usize) -> bool {
    use std::ffi::c_int;
    unsafe extern "C" {
        fn mallopt(param: c_int, value: c_int) -> c_int;
    }
    /// `M_MMAP_THRESHOLD` of glibc's `malloc.h`.
    const M_MMAP_THRESHOLD: c_int = -3;
    let Ok(value) = c_int::try_from(bytes) else {
        return false;
    };
    // SAFETY: `mallopt` takes two integers, has no other precondition and is thread-safe.
    unsafe { mallopt(M_MMAP_THRESHOLD, value) == 1 }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn set_threshold(_bytes: usize) -> bool {
    false
}

#[cfg(test)]
mod tests {
    /// On glibc the threshold is fixed; with the variable set, nothing is changed.
    #[test]
    fn fixes_the_threshold_on_glibc() {
        let fixed = super::set_threshold(super::MMAP_THRESHOLD);
        assert_eq!(fixed, cfg!(all(target_os = "linux", target_env = "gnu")));
    }
}
