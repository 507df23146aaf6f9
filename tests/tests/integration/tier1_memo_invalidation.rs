//! Memos are invalidated only as widely as needed (tier 1, noop device, counters):
//! - a draw rendered alternately into targets of two signatures (a shadow map and the screen)
//!   keeps a pipeline for each: steady frames look up no pipeline;
//! - a user resource used again after going idle is not evicted early by its stale place in the
//!   idle queue: rebinding an idle resource finds its bind group still cached.
//!
//! (A capacity eviction in the bind-group cache no longer invalidates every draw's memo: see
//! `vgpu-bind`'s `invalidation_epoch` tests.)

use vgpu::{Gpu, TargetDesc, value};
use vgpu_tests::fullscreen;

#[test]
fn a_draw_alternating_between_two_target_signatures_looks_up_no_pipeline_in_steady_frames() {
    let gpu = Gpu::noop();
    let draw = fullscreen(
        &gpu,
        "two targets",
        "struct O { color: vec4f }
         @group(0) @binding(0) var<uniform> object: O;
         @fragment fn fs_main() -> @location(0) vec4f { return object.color; }",
    );
    draw.set("object", value! { color: [1.0, 0.0, 0.0, 1.0] })
        .unwrap();
    let rgba = gpu.target(4, 4).unwrap();
    let float = gpu
        .target_with(&TargetDesc::new(4, 4).format(wgpu::TextureFormat::Rgba16Float))
        .unwrap();
    assert_ne!(rgba.signature(), float.signature());
    let frame = || {
        gpu.frame(|f| {
            f.pass(&rgba, |p| p.draw(&draw))?;
            f.pass(&float, |p| p.draw(&draw))
        })
        .unwrap()
    };
    let first = frame();
    assert_eq!(first.stats.pipelines_created, 2);
    assert_eq!(first.stats.pipeline_cache_lookups, 2);
    for i in 0..3 {
        let r = frame();
        assert_eq!(r.stats.pipeline_cache_lookups, 0, "steady frame {i}");
        assert_eq!(r.stats.pipelines_created, 0, "steady frame {i}");
        assert_eq!(r.stats.operations_recorded, 2);
    }
    // A third signature evicts the least recent one from the draw's memo only.
    let depth = gpu
        .target_with(&TargetDesc::new(4, 4).depth(wgpu::TextureFormat::Depth32Float))
        .unwrap();
    let r = gpu
        .frame(|f| {
            f.pass(&depth, |p| p.draw(&draw))?;
            f.pass(&float, |p| p.draw(&draw))
        })
        .unwrap();
    assert_eq!(r.stats.pipeline_cache_lookups, 1, "only the new signature");
}

/// Binds `kept`, lets it go idle while 400 other bindings are released (`distinct`: 400 buffers,
/// each released once; else two buffers taking turns), then binds `kept` again: that frame's
/// stats.
fn rebind_after_400_releases(distinct: bool) -> vgpu::StatsSnapshot {
    let gpu = Gpu::noop();
    let draw = fullscreen(
        &gpu,
        "tinted",
        "struct T { value: vec4f }
         @group(0) @binding(0) var<uniform> tint: T;
         @fragment fn fs_main() -> @location(0) vec4f { return tint.value; }",
    );
    let target = gpu.target(2, 2).unwrap();
    let buffer = |label: &str| {
        gpu.buffer_init(label, &[0u8; 16], wgpu::BufferUsages::UNIFORM)
            .unwrap()
    };
    let render = || {
        gpu.frame(|f| f.pass(&target, |p| p.draw(&draw)))
            .unwrap()
            .stats
    };
    let kept = buffer("kept idle");
    draw.set("tint", &kept).unwrap();
    render();
    let (x, y) = (buffer("x"), buffer("y"));
    let mut others = Vec::new();
    for i in 0..400 {
        if distinct {
            others.push(buffer(&format!("other {i}")));
            draw.set("tint", &others[i]).unwrap();
        } else {
            draw.set("tint", if i % 2 == 0 { &x } else { &y }).unwrap();
        }
    }
    render();
    draw.set("tint", &kept).unwrap();
    render()
}

#[test]
fn an_idle_resource_used_again_is_not_evicted_early_by_its_stale_queue_entry() {
    // 400 releases overflow the idle queue (it holds 256 resources): with 400 distinct idle
    // resources, `kept`, the oldest, is unregistered and binding it again creates its group.
    let s = rebind_after_400_releases(true);
    assert_eq!(
        (s.bind_groups_created, s.cache_misses, s.cache_hits),
        (1, 1, 0),
        "400 releases of distinct resources overflow the idle queue: kept is evicted"
    );
    // `kept` goes idle; two other buffers take turns 400 times (each goes idle and is used
    // again, over and over: as many releases, 400 entries in the queue). Only three resources
    // were ever idle: `kept` is still registered, its group still cached.
    let s = rebind_after_400_releases(false);
    assert_eq!(
        s.bind_groups_created, 0,
        "kept's bind group was evicted early"
    );
    assert_eq!(s.cache_misses, 0);
    assert_eq!(s.cache_hits, 1);
}
