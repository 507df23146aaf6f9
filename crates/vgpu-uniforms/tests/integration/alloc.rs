//! Heap allocations per steady frame do not grow with the number of owners bound (docs/design.md
//! §3.7),
//! measured with a counting global allocator (counts only on the test's own thread).
#![allow(
    missing_docs,
    clippy::unwrap_used,
    reason = "an unwrap in a test is an assertion; test items need no docs"
)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use crate::common::{mat, noop_engine};
use vgpu_uniforms::{AddressSpace, EngineConfig, OwnerKey, UniformEngine};

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

fn counted<R>(f: impl FnOnce() -> R) -> (R, u64) {
    COUNT.with(|c| c.set(0));
    COUNTING.with(|on| on.set(true));
    let r = f();
    COUNTING.with(|on| on.set(false));
    (r, COUNT.with(Cell::get))
}

struct Scene {
    engine: UniformEngine,
    camera: OwnerKey,
    objects: Vec<OwnerKey>,
    cams: [[u8; 64]; 2],
}

impl Scene {
    fn new(n: usize) -> Self {
        let (_ctx, mut engine) = noop_engine(EngineConfig::default());
        let camera = engine.create_owner("camera", AddressSpace::Uniform);
        let objects = (0..n)
            .map(|i| {
                let k = engine.create_owner("object", AddressSpace::Uniform);
                engine.set_bytes(k, &mat(i as f32)).unwrap();
                k
            })
            .collect();
        Scene {
            engine,
            camera,
            objects,
            cams: [mat(-1.0), mat(-2.0)],
        }
    }

    /// Two passes, the camera set to a different value before each (steady: resident in
    /// retained slots), every object bound in each pass; optionally one object changes.
    fn frame(&mut self, changed: Option<(usize, f32)>) {
        let e = &mut self.engine;
        e.begin_submission().unwrap();
        if let Some((i, v)) = changed {
            e.set_bytes(self.objects[i], &mat(v)).unwrap();
        }
        for cam in &self.cams {
            e.set_bytes(self.camera, cam).unwrap();
            e.resolve(self.camera).unwrap();
            for &o in &self.objects {
                e.resolve(o).unwrap();
            }
        }
        e.finish_submission().unwrap();
    }
}

#[test]
fn steady_frames_allocate_nothing_whatever_the_owner_count() {
    let mut per_frame = Vec::new();
    for n in [1_000usize, 10_000] {
        let mut scene = Scene::new(n);
        for _ in 0..3 {
            scene.frame(None);
        }
        let ((), static_allocs) = counted(|| {
            for _ in 0..10 {
                scene.frame(None);
            }
        });
        // One object changes per frame: the engine side still allocates nothing; wgpu's
        // `write_buffer` does a constant amount of work per call.
        for i in 0..3 {
            scene.frame(Some((7, 1000.0 + i as f32)));
        }
        let ((), changing_allocs) = counted(|| {
            for i in 0..10 {
                scene.frame(Some((7, 2000.0 + i as f32)));
            }
        });
        per_frame.push((n, static_allocs, changing_allocs));
    }
    eprintln!("(owners, allocations in 10 static frames, in 10 one-change frames): {per_frame:?}");
    for &(_, static_allocs, _) in &per_frame {
        assert_eq!(static_allocs, 0);
    }
    let (_, _, small) = per_frame[0];
    let (_, _, large) = per_frame[1];
    assert!(
        large <= small + 10,
        "one-change frames allocate more with more owners: {small} vs {large}"
    );
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
