//! glibc's mmap and trim thresholds, fixed for a benchmark process.
//!
//! glibc serves an allocation of at least its *mmap threshold* (128 KiB at start) with its own
//! mapping, and raises the threshold (up to 32 MiB on 64-bit) the first time a process frees
//! such a mapping, together with its *trim threshold* (the free space at the top of the heap
//! above which `free` gives memory back to the system), which it sets to twice the new mmap
//! threshold. wgpu-core's per-pass command vectors grow past 128 KiB from about 2 000 draws per
//! pass, and wgpu's GL backend's command buffers do at 1 000. Which regime a process is in
//! therefore depends on whether something before the frames happened to free a large mapping:
//! a process still at 128 KiB maps, faults in and unmaps those vectors every frame; one whose
//! threshold was raised grows them in its heap. The same binary measured 2.0x the encode time
//! of the other regime at 100 000 draws, and the modes of the benchmark land in different
//! regimes by accident of their set-up. Fixing both thresholds where glibc's adjustment takes
//! them (which also stops the adjustment) puts every mode in the regime of a process that has
//! freed a large mapping, as most applications have once they loaded their assets.
//!
//! Both matter: with only the mmap threshold fixed (`88f521c` to `6ce0dd2`) the trim threshold
//! stayed at glibc's initial 128 KiB, so a process whose heap happened to end in the frame's
//! vectors gave those pages back after each frame and faulted them in again in the next (at
//! `6ce0dd2`, noop, per-pass camera, 1000x2: struct 233-238 us against raw's 182-184; with the
//! trim threshold at 64 MiB, 187-189).

/// The threshold the benchmark fixes: glibc's ceiling for its dynamic threshold on 64-bit
/// (`DEFAULT_MMAP_THRESHOLD_MAX`).
pub const MMAP_THRESHOLD: usize = 32 << 20;

/// The trim threshold glibc's adjustment sets with [`MMAP_THRESHOLD`]: twice it.
pub const TRIM_THRESHOLD: usize = 2 * MMAP_THRESHOLD;

/// Set (to anything) to keep glibc's default, dynamic threshold.
pub const KEEP_DEFAULT_ENV: &str = "UNIFORM_CAPTURE_DEFAULT_MALLOC";

/// Fixes glibc's mmap threshold at [`MMAP_THRESHOLD`] and its trim threshold at
/// [`TRIM_THRESHOLD`] unless [`KEEP_DEFAULT_ENV`] is set or the
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
    set_thresholds(MMAP_THRESHOLD, TRIM_THRESHOLD)
}

/// Whether valgrind runs the process: it preloads its `vgpreload_*` libraries into the client.
fn under_valgrind() -> bool {
    std::env::var("LD_PRELOAD").is_ok_and(|p| p.contains("vgpreload"))
}

#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[expect(unsafe_code, reason = "glibc's `mallopt`, through FFI")]
fn set_thresholds(mmap: usize, trim: usize) -> bool {
    use std::ffi::c_int;
    unsafe extern "C" {
        fn mallopt(param: c_int, value: c_int) -> c_int;
    }
    /// `M_TRIM_THRESHOLD` and `M_MMAP_THRESHOLD` of glibc's `malloc.h`.
    const M_TRIM_THRESHOLD: c_int = -1;
    const M_MMAP_THRESHOLD: c_int = -3;
    let (Ok(mmap), Ok(trim)) = (c_int::try_from(mmap), c_int::try_from(trim)) else {
        return false;
    };
    // SAFETY: `mallopt` takes two integers, has no other precondition and is thread-safe.
    unsafe { mallopt(M_MMAP_THRESHOLD, mmap) == 1 && mallopt(M_TRIM_THRESHOLD, trim) == 1 }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn set_thresholds(_mmap: usize, _trim: usize) -> bool {
    false
}

#[cfg(test)]
mod tests {
    /// On glibc both thresholds are fixed.
    #[test]
    fn fixes_the_thresholds_on_glibc() {
        let fixed = super::set_thresholds(super::MMAP_THRESHOLD, super::TRIM_THRESHOLD);
        assert_eq!(fixed, cfg!(all(target_os = "linux", target_env = "gnu")));
    }
}
