//! A counting global allocator for this test binary: counts the allocations of the calling
//! thread inside [`counted`] only (other tests run on other threads and are not counted).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

struct Counting;

thread_local! {
    static COUNTING: Cell<bool> = const { Cell::new(false) };
    static COUNT: Cell<u64> = const { Cell::new(0) };
}

#[expect(
    unsafe_code,
    reason = "a counting global allocator: `GlobalAlloc` is an unsafe trait; every method forwards to `System`"
)]
// SAFETY: forwards to the system allocator; the counter is a thread-local `Cell` (no allocation).
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        bump();
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        bump();
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        bump();
        // SAFETY: same contract as the caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

fn bump() {
    let _ = COUNTING.try_with(|on| {
        if on.get() {
            let _ = COUNT.try_with(|c| c.set(c.get() + 1));
        }
    });
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Runs `f` and returns its result and the number of heap allocations it made on this thread.
pub(crate) fn counted<R>(f: impl FnOnce() -> R) -> (R, u64) {
    COUNT.with(|c| c.set(0));
    COUNTING.with(|on| on.set(true));
    let r = f();
    COUNTING.with(|on| on.set(false));
    (r, COUNT.with(Cell::get))
}

/// The counter counts what it says: one `Box` made inside [`counted`] is one allocation, a `Vec`
/// grown once more one more (a `realloc`); allocations outside it, or of another thread while it
/// runs, are not counted.
#[test]
fn the_counter_counts_this_threads_allocations_inside_counted_only() {
    let (boxed, n) = counted(|| std::hint::black_box(Box::new(7_u64)));
    assert_eq!(n, 1, "one Box");
    let (grown, n) = counted(|| {
        let mut v = std::hint::black_box(Vec::<u64>::with_capacity(1));
        v.reserve_exact(64);
        v
    });
    assert_eq!(n, 2, "alloc + realloc");
    let ((), n) = counted(|| ());
    assert_eq!(n, 0, "the Box and Vec made before");
    drop((boxed, grown));
    let barrier = std::sync::Barrier::new(2);
    std::thread::scope(|s| {
        s.spawn(|| {
            barrier.wait();
            let boxes: Vec<Box<u64>> = (0..100)
                .map(|i| std::hint::black_box(Box::new(i)))
                .collect();
            assert_eq!(boxes.len(), 100);
            barrier.wait();
        });
        let ((), n) = counted(|| {
            barrier.wait();
            barrier.wait();
        });
        assert_eq!(n, 0, "another thread's 101 allocations");
    });
}
