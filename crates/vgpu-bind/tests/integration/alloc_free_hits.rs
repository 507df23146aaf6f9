//! Tier 1 (wgpu noop device): a cache hit performs no heap allocation.
//!
//! A counting global allocator counts alloc/realloc calls in an `AtomicU64`, per thread, while
//! the thread switched counting on (other test threads and wgpu's threads are not counted).
#![allow(clippy::unwrap_used, reason = "an unwrap in a test is an assertion")]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::num::NonZeroU64;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::common::*;
use vgpu_bind::BindEntry;

struct CountingAlloc;

thread_local! {
    static COUNTING: Cell<bool> = const { Cell::new(false) };
    static ALLOCATIONS: AtomicU64 = const { AtomicU64::new(0) };
}

fn note() {
    // `try_with`: the allocator may run while thread-locals are being torn down.
    if COUNTING.try_with(Cell::get).unwrap_or(false) {
        let _ = ALLOCATIONS.try_with(|a| a.fetch_add(1, Ordering::Relaxed));
    }
}

#[expect(
    unsafe_code,
    reason = "a counting global allocator: `GlobalAlloc` is an unsafe trait; every method forwards to `System`"
)]
// SAFETY: forwards every call to the system allocator unchanged.
unsafe impl GlobalAlloc for CountingAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note();
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note();
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note();
        // SAFETY: same contract as the caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: CountingAlloc = CountingAlloc;

/// Counts allocations of the current thread while `f` runs.
fn allocations_in(f: impl FnOnce()) -> u64 {
    let before = ALLOCATIONS.with(|a| a.load(Ordering::Relaxed));
    COUNTING.with(|c| c.set(true));
    f();
    COUNTING.with(|c| c.set(false));
    ALLOCATIONS.with(|a| a.load(Ordering::Relaxed)) - before
}

#[test]
fn ten_thousand_hits_allocate_nothing() {
    let (ctx, mut store, layout) = two_uniform_store();
    let (page, objects) = fill_grid(&ctx, &mut store, layout, 10, 10);
    let s0 = ctx.stats().snapshot();
    // Which ids the hits returned (ids are small: the grid created 100 groups).
    let mut seen = [false; 256];
    let allocations = allocations_in(|| {
        for i in 0..10_000u64 {
            let object = objects[(i % 10) as usize];
            let offset = (i / 10 % 10) * 256;
            // Alternate sorted and unsorted entry order (the unsorted one is sorted on the stack).
            let entries = if i % 2 == 0 {
                [slot(0, page, offset), BindEntry::new(1, object)]
            } else {
                [BindEntry::new(1, object), slot(0, page, offset)]
            };
            let (id, _group) = store.get_or_create(layout, &entries).unwrap();
            if let Some(s) = seen.get_mut(id.get() as usize) {
                *s = true;
            }
        }
    });
    let d = ctx.stats().snapshot() - s0;
    assert_eq!(d.cache_hits, 10_000);
    assert_eq!((d.cache_misses, d.bind_groups_created), (0, 0));
    assert_eq!(
        seen.iter().filter(|&&s| s).count(),
        100,
        "the hits found the grid's 100 groups"
    );
    assert_eq!(allocations, 0, "cache hits must not allocate");
}

#[test]
fn the_counter_sees_allocations_on_the_miss_path() {
    // Proves the allocator counts: a miss (new group, new key) allocates.
    let (ctx, mut store, layout) = two_uniform_store();
    let a = uniform_buffer(&ctx, 256, "a");
    let b = uniform_buffer(&ctx, 256, "b");
    let ka = store.register_buffer(&a, "a");
    let kb = store.register_buffer(&b, "b");
    let allocations = allocations_in(|| {
        store
            .get_or_create(
                layout,
                &[
                    BindEntry::buffer(0, ka, 0, NonZeroU64::new(256)),
                    BindEntry::new(1, kb),
                ],
            )
            .unwrap();
    });
    assert!(allocations > 0);
}

/// The counter counts what it says: one `Box` made inside [`allocations_in`] is one allocation, a
/// `Vec` grown once more one more (a `realloc`); another thread's allocations while it runs are
/// not counted.
#[test]
fn the_counter_counts_one_box_as_one_and_not_other_threads() {
    let mut kept = Vec::new();
    assert_eq!(
        allocations_in(
            || kept.push(std::hint::black_box(Box::new(7_u64)) as Box<dyn std::any::Any>)
        ),
        2,
        "one Box and the Vec holding it"
    );
    let mut grown = Vec::<u64>::with_capacity(1);
    assert_eq!(allocations_in(|| grown.reserve_exact(64)), 1, "a realloc");
    assert_eq!(
        allocations_in(|| drop(std::hint::black_box(Box::new(1_u8)))),
        1,
        "one Box"
    );
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
        let n = allocations_in(|| {
            barrier.wait();
            barrier.wait();
        });
        assert_eq!(n, 0, "another thread's 101 allocations");
    });
}
