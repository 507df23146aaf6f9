//! Shared benchmark helpers: a counting global allocator, timing statistics, and the
//! `uniform-capture` contract benchmark (`benches/README.md`).
//!
//! Linking this crate installs [`CountingAllocator`] as the process's global allocator, so a
//! bench program that uses it must not declare its own `#[global_allocator]`.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

pub mod capture;
pub mod capture_raw;
pub mod capture_vgpu;
pub mod malloc_regime;

/// The system allocator, counting every `alloc`, `alloc_zeroed` and `realloc` call (not frees)
/// in one relaxed atomic and in a counter of the calling thread, and the bytes live on the heap
/// in another atomic. Read them with [`allocations`], [`thread_allocations`] and
/// [`live_heap_bytes`].
#[derive(Debug)]
pub struct CountingAllocator;

static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);
static LIVE_BYTES: AtomicU64 = AtomicU64::new(0);

thread_local! {
    /// Allocation calls of this thread (a `const` thread-local without destructor: reading it
    /// allocates nothing, so the allocator may use it).
    static THREAD_ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

/// Counts one allocation call, process-wide and for the calling thread.
#[inline]
fn count_allocation() {
    ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
    // `try_with`: the allocator may run while the thread's locals are being torn down.
    let _ = THREAD_ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
}

#[global_allocator]
static GLOBAL: CountingAllocator = CountingAllocator;

#[expect(
    unsafe_code,
    reason = "a counting global allocator: `GlobalAlloc` is an unsafe trait; every method forwards to `System`"
)]
// SAFETY: every method forwards to `System` with the caller's arguments unchanged; the counter
// has no effect on the memory returned.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count_allocation();
        LIVE_BYTES.fetch_add(layout.size() as u64, Ordering::Relaxed);
        // SAFETY: forwarded contract of `GlobalAlloc::alloc`.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count_allocation();
        LIVE_BYTES.fetch_add(layout.size() as u64, Ordering::Relaxed);
        // SAFETY: forwarded contract of `GlobalAlloc::alloc_zeroed`.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE_BYTES.fetch_sub(layout.size() as u64, Ordering::Relaxed);
        // SAFETY: forwarded contract of `GlobalAlloc::dealloc`.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count_allocation();
        // Wrapping arithmetic: the pair of updates nets to `new_size - old size`.
        LIVE_BYTES.fetch_add(new_size as u64, Ordering::Relaxed);
        LIVE_BYTES.fetch_sub(layout.size() as u64, Ordering::Relaxed);
        // SAFETY: forwarded contract of `GlobalAlloc::realloc`.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

/// Heap allocation calls (`alloc` + `alloc_zeroed` + `realloc`) made by this process so far,
/// on every thread. Monotonic; subtract two readings for the allocations in between.
#[inline]
pub fn allocations() -> u64 {
    ALLOCATIONS.load(Ordering::Relaxed)
}

/// Heap allocation calls (`alloc` + `alloc_zeroed` + `realloc`) made by the calling thread so
/// far: other threads (other tests of the binary, a driver's threads) are not counted.
/// Monotonic; subtract two readings for the allocations in between.
#[inline]
pub fn thread_allocations() -> u64 {
    THREAD_ALLOCATIONS.try_with(Cell::get).unwrap_or(0)
}

/// Bytes allocated on the heap and not yet freed, on every thread (requested sizes, not the
/// allocator's own overhead).
#[inline]
pub fn live_heap_bytes() -> u64 {
    LIVE_BYTES.load(Ordering::Relaxed)
}

/// The median of `samples` in microseconds (mean of the two middle values for an even count),
/// or 0 for an empty slice. Sorts `samples` in place.
pub fn median_us(samples: &mut [Duration]) -> f64 {
    samples.sort_unstable();
    let n = samples.len();
    match n {
        0 => 0.0,
        _ if n % 2 == 1 => us(samples[n / 2]),
        _ => (us(samples[n / 2 - 1]) + us(samples[n / 2])) / 2.0,
    }
}

/// The nearest-rank `p`-th percentile (`0 < p <= 100`) of `samples` in microseconds: the
/// smallest sample with at least `p`% of the samples at or below it; 0 for an empty slice.
/// Sorts `samples` in place.
pub fn percentile_us(samples: &mut [Duration], p: f64) -> f64 {
    samples.sort_unstable();
    let n = samples.len();
    if n == 0 {
        return 0.0;
    }
    let rank = ((p / 100.0) * n as f64).ceil().clamp(1.0, n as f64) as usize;
    us(samples[rank - 1])
}

/// `d` in microseconds.
#[inline]
pub fn us(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

#[cfg(test)]
mod tests {
    use super::*;

    fn micros(v: &[u64]) -> Vec<Duration> {
        v.iter().map(|&m| Duration::from_micros(m)).collect()
    }

    #[test]
    fn median_of_odd_and_even_counts() {
        assert_eq!(median_us(&mut micros(&[5, 1, 3])), 3.0);
        assert_eq!(median_us(&mut micros(&[4, 1, 3, 2])), 2.5);
        assert_eq!(median_us(&mut []), 0.0);
    }

    #[test]
    fn p95_is_nearest_rank() {
        let mut v = micros(&(1..=20).collect::<Vec<_>>());
        assert_eq!(percentile_us(&mut v, 95.0), 19.0);
        assert_eq!(percentile_us(&mut v, 100.0), 20.0);
        assert_eq!(percentile_us(&mut micros(&[7]), 95.0), 7.0);
    }

    #[test]
    fn allocator_counts_allocations_and_reallocations() {
        let before = allocations();
        let mut v: Vec<u64> = std::hint::black_box(Vec::with_capacity(1));
        for i in 0..2 {
            v.push(i); // the second push grows the vector: one realloc
        }
        std::hint::black_box(&v);
        // Other test threads may allocate too, so this is a lower bound.
        assert!(allocations() - before >= 2);
    }
}
