//! Prefetching the operation records that the next draws of a pass will most likely read.
//!
//! A steady draw reads its record's fast part and two group memos: three cache lines of a
//! 320-byte table slot. At 100 000 draws the table (32 MB of records) outgrows the CPU's last
//! cache level, and each draw waits on memory for those lines: on this project's AMD EPYC
//! development machine (32 MiB L3) a frame of 100 000 draws × 2 passes encoded in 1.16× to
//! 1.19× raw wgpu's time with 1.04× its instructions (`uniform-capture --mode typed --scenario
//! static --draws 100000 --backend noop`; 1.22× with a camera set per pass), and cachegrind
//! (32 MiB last level) counted 1.08 million last-level misses per static frame against raw's 4.
//! Draws are recorded mostly in the order their records were made, which is the table's order,
//! so every draw that reaches its record asks for the lines of the record [`DISTANCE`] slots
//! further on (`State::record_fast`). A wrong guess costs the three prefetch instructions and
//! nothing else: a prefetch never faults, and the address is only computed, never read through.
//! Prefetching two of the three lines gained nothing.

// Without a prefetch instruction (below) the distance and stride go unused.
#![cfg_attr(
    not(any(
        target_arch = "x86_64",
        all(target_arch = "x86", target_feature = "sse"),
        target_arch = "aarch64"
    )),
    allow(dead_code)
)]

use super::operation::Operation;

/// How many table slots ahead a draw prefetches: far enough for the memory to answer before that
/// draw comes (2 and 4 were slower), near enough for the lines to stay cached (16 was slower).
const DISTANCE: usize = 8;

/// The byte distance between neighbouring records in the state's `SlotMap<OpKey, Operation>`:
/// slotmap's slot is the value (or a free-list link) followed by a `u32` version. Pinned by
/// `slot_stride_matches_slotmap` below.
const STRIDE: usize = slot_stride(size_of::<Operation>(), align_of::<Operation>());

/// The stride of a slotmap slot holding a value of `size` bytes aligned to `align`.
const fn slot_stride(size: usize, align: usize) -> usize {
    let align = if align > 4 { align } else { 4 };
    (size + 4).next_multiple_of(align)
}

/// Asks the CPU for the fast part and group memos of the record [`DISTANCE`] slots after `op`
/// (its first three cache lines). A hint: no effect on what any draw records.
#[inline(always)]
#[cfg_attr(
    any(
        target_arch = "x86_64",
        all(target_arch = "x86", target_feature = "sse"),
        target_arch = "aarch64"
    ),
    expect(
        unsafe_code,
        reason = "a prefetch hint: an intrinsic or one instruction of assembly"
    )
)]
pub(crate) fn records_ahead(op: &Operation) {
    #[cfg(any(
        target_arch = "x86_64",
        all(target_arch = "x86", target_feature = "sse")
    ))]
    {
        #[cfg(target_arch = "x86")]
        use std::arch::x86::{_MM_HINT_T0, _mm_prefetch};
        #[cfg(target_arch = "x86_64")]
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        let ahead = std::ptr::from_ref(op)
            .cast::<i8>()
            .wrapping_add(STRIDE * DISTANCE);
        // SAFETY: `_mm_prefetch` needs SSE, which every x86_64 CPU has and an x86 build has
        // when this compiles (`target_feature = "sse"`); it reads no memory and never faults,
        // whatever the address (which `wrapping_add` computes without creating a reference).
        unsafe {
            _mm_prefetch::<_MM_HINT_T0>(ahead);
            _mm_prefetch::<_MM_HINT_T0>(ahead.wrapping_add(64));
            _mm_prefetch::<_MM_HINT_T0>(ahead.wrapping_add(128));
        }
    }
    #[cfg(target_arch = "aarch64")]
    {
        let ahead = std::ptr::from_ref(op)
            .cast::<u8>()
            .wrapping_add(STRIDE * DISTANCE);
        // SAFETY: `prfm` (prefetch for load into L1, keep) is a hint: it reads no memory into
        // a register, writes none, and never faults, whatever the address (computed by
        // `wrapping_add` without creating a reference). Its intrinsic is unstable, hence the
        // assembly. Compiled here, not measured (no aarch64 machine at hand).
        unsafe {
            std::arch::asm!(
                "prfm pldl1keep, [{a}]",
                "prfm pldl1keep, [{a}, #64]",
                "prfm pldl1keep, [{a}, #128]",
                a = in(reg) ahead,
                options(nostack, preserves_flags, readonly),
            );
        }
    }
    // Elsewhere (wasm has no prefetch) a no-op.
    #[cfg(not(any(
        target_arch = "x86_64",
        all(target_arch = "x86", target_feature = "sse"),
        target_arch = "aarch64"
    )))]
    let _ = op;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A value with `Operation`'s size and alignment.
    #[repr(C)]
    struct LikeOperation {
        _words: [u64; size_of::<Operation>() / 8],
    }

    #[test]
    fn slot_stride_matches_slotmap() {
        assert_eq!(size_of::<LikeOperation>(), size_of::<Operation>());
        assert_eq!(align_of::<LikeOperation>(), align_of::<Operation>());
        let mut map = slotmap::SlotMap::<slotmap::DefaultKey, LikeOperation>::with_capacity(4);
        let keys: Vec<_> = (0..3)
            .map(|_| {
                map.insert(LikeOperation {
                    _words: [0; size_of::<Operation>() / 8],
                })
            })
            .collect();
        let addr = |k| std::ptr::from_ref(&map[k]) as usize;
        assert_eq!(addr(keys[1]) - addr(keys[0]), STRIDE);
        assert_eq!(addr(keys[2]) - addr(keys[1]), STRIDE);
    }
}
