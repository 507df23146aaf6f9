//! 100 000 draws, each binding its own user buffer (the seed's `buffer` mode): the bind-group
//! cache holds 32 768 entries per layout, fewer than the working set, yet a static frame creates
//! no bind group: each draw keeps the group it was given (the cache shares groups; it is not
//! their only owner), so the cyclic working set larger than the cache costs evictions once, at
//! creation, and nothing per steady frame.

use vgpu::{BufferDesc, DrawDesc, Gpu};

const WGSL: &str = "
    struct Object { world: mat4x4f }
    @group(0) @binding(0) var<uniform> object: Object;
    @vertex fn vs_main() -> @builtin(position) vec4f { return object.world[0]; }
    @fragment fn fs_main() -> @location(0) vec4f { return vec4f(1.0); }
";

#[test]
fn buffer_mode_at_100_000_draws_creates_no_bind_group_per_static_frame() {
    const DRAWS: usize = 100_000;
    let gpu = Gpu::noop();
    let shader = gpu.shader("object", WGSL).unwrap();
    let target = gpu.target(8, 8).unwrap();
    let mut draws = Vec::with_capacity(DRAWS);
    let mut buffers = Vec::with_capacity(DRAWS);
    for _ in 0..DRAWS {
        let buffer = gpu
            .buffer(&BufferDesc {
                label: "object".into(),
                size: 64,
                usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            })
            .unwrap();
        let draw = gpu.draw(&shader, DrawDesc::default()).unwrap();
        draw.set("object", &buffer).unwrap();
        buffers.push(buffer);
        draws.push(draw);
    }
    let frame = || {
        let report = gpu
            .frame(|f| {
                f.pass(&target, |p| {
                    for d in &draws {
                        p.draw(d)?;
                    }
                    Ok(())
                })
            })
            .unwrap();
        report.stats
    };
    let first = frame();
    assert_eq!(first.bind_groups_created, DRAWS as u64);
    assert!(
        first.cache_evictions >= (DRAWS - 32_768) as u64,
        "the working set is larger than the cache: {first:?}"
    );
    assert!(gpu.cached_bind_groups() <= 32_768);
    for _ in 0..2 {
        let steady = frame();
        assert_eq!(steady.operations_recorded, DRAWS as u64);
        assert_eq!(
            (
                steady.bind_groups_created,
                steady.cache_misses,
                steady.cache_evictions
            ),
            (0, 0, 0),
            "{steady:?}"
        );
        assert_eq!(steady.bytes_uploaded, 0);
    }
}
