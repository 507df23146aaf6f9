//! (c) a shared block set to A, pass 1, set to B, pass 2: each target shows its own value.

use glam::{Mat4, Vec3};
use vgpu::{Draw, DrawDesc, FrameReport, Gpu, SharedUniforms, value};

use super::{CLEAR, LEFT, RIGHT, TRIANGLE_SHADER, WHITE, assert_pixel};

#[test]
fn c_shared_block_changed_between_passes_each_pass_sees_its_value() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    let shader = gpu.shader("triangle", TRIANGLE_SHADER).expect("shader");
    let camera = gpu
        .uniforms(value! { view_projection: Mat4::IDENTITY })
        .expect("camera");
    // Several draws, so each pass binds the block many times at its own value.
    let draws: Vec<Draw> = (0..16)
        .map(|i| {
            let d = gpu
                .draw(
                    &shader,
                    DrawDesc {
                        label: format!("triangle {i}"),
                        ..Default::default()
                    },
                )
                .expect("draw");
            d.set("frame", &camera).expect("frame");
            d.set("object", value! { world: Mat4::IDENTITY })
                .expect("object");
            d
        })
        .collect();
    let targets = [
        gpu.target(32, 32).expect("t1"),
        gpu.target(32, 32).expect("t2"),
    ];
    let a = Mat4::from_translation(Vec3::new(-0.5, 0.0, 0.0));
    let b = Mat4::from_translation(Vec3::new(0.5, 0.0, 0.0));
    let render = |first: &Mat4, second: &Mat4| -> FrameReport {
        let r = gpu
            .frame(|f| {
                for (target, vp) in targets.iter().zip([first, second]) {
                    camera.set(value! { view_projection: *vp })?;
                    f.pass(target, |p| {
                        for d in &draws {
                            p.draw(d)?;
                        }
                        Ok(())
                    })?;
                }
                Ok(())
            })
            .expect("frame");
        gpu.wait_idle().expect("wait");
        r
    };
    let check = |first: (u32, u32), second: (u32, u32), what: &str| {
        assert_pixel(&targets[0], first, WHITE, &format!("{what}: pass 1"));
        assert_pixel(&targets[0], second, CLEAR, &format!("{what}: pass 1"));
        assert_pixel(&targets[1], second, WHITE, &format!("{what}: pass 2"));
        assert_pixel(&targets[1], first, CLEAR, &format!("{what}: pass 2"));
    };
    render(&a, &b);
    check(LEFT, RIGHT, "first frame");
    // Steady state: both values resident in retained slots, nothing uploaded, still correct.
    for _ in 0..3 {
        let r = render(&a, &b);
        assert_eq!(r.stats.bytes_uploaded, 0, "{:?}", r.stats);
        assert_eq!(r.stats.bind_groups_created, 0);
    }
    check(LEFT, RIGHT, "steady frame");
    // Swapped order: the first value bound in a frame takes the block's home slot (docs/design.md
    // §3.3), so the swap costs at most one upload per value; each pass still sees its own value,
    // and the swapped order settles to no upload again.
    let r = render(&b, &a);
    assert!(r.stats.bytes_uploaded <= 2 * 256, "{:?}", r.stats);
    check(RIGHT, LEFT, "swapped order");
    for _ in 0..2 {
        let r = render(&b, &a);
        assert_eq!(r.stats.bytes_uploaded, 0, "{:?}", r.stats);
    }
    check(RIGHT, LEFT, "swapped order, steady");
    // The block keeps the last value set after the frame.
    let r = render(&a, &a);
    for t in &targets {
        assert_pixel(t, LEFT, WHITE, "same value in both passes");
        assert_pixel(t, RIGHT, CLEAR, "same value in both passes");
    }
    assert_eq!(r.stats.bind_groups_created, 0);
    assert!(gpu.take_uncaptured_errors().is_empty());
}

/// A triangle draw bound to an identity camera block (kept alive by the caller).
fn triangle_draw(gpu: &Gpu) -> (Draw, SharedUniforms) {
    let shader = gpu.shader("triangle", TRIANGLE_SHADER).expect("shader");
    let camera = gpu
        .uniforms(value! { view_projection: Mat4::IDENTITY })
        .expect("camera");
    let d = gpu.draw(&shader, DrawDesc::default()).expect("draw");
    d.set("frame", &camera).expect("frame");
    (d, camera)
}

#[test]
fn c_value_set_between_two_draws_of_one_pass_is_seen_per_draw() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    let (d, _camera) = triangle_draw(&gpu);
    let target = gpu.target(32, 32).expect("target");
    for _ in 0..2 {
        gpu.frame(|f| {
            f.pass(&target, |p| {
                d.set(
                    "object",
                    value! { world: Mat4::from_translation(Vec3::new(-0.5, 0.0, 0.0)) },
                )?;
                p.draw(&d)?;
                d.set(
                    "object",
                    value! { world: Mat4::from_translation(Vec3::new(0.5, 0.0, 0.0)) },
                )?;
                p.draw(&d)
            })
        })
        .expect("frame");
    }
    assert_pixel(&target, LEFT, WHITE, "first draw");
    assert_pixel(&target, RIGHT, WHITE, "second draw");
    assert_pixel(&target, (16, 2), CLEAR, "background");
}

/// A draw recorded from its memo (its value unchanged since the last frame: not resolved
/// again), then its value set in the same pass and the draw recorded again: the first draw
/// keeps the old value (the set must not overwrite the slot the memo bound), the second sees
/// the new one. Frames alternate: a static frame (one draw), then such a frame; the value is
/// set back between frames (straight to its home slot).
#[test]
fn c_value_set_after_a_memoized_draw_of_one_pass_is_seen_per_draw() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    let (d, _camera) = triangle_draw(&gpu);
    let left = value! { world: Mat4::from_translation(Vec3::new(-0.5, 0.0, 0.0)) };
    let right = value! { world: Mat4::from_translation(Vec3::new(0.5, 0.0, 0.0)) };
    d.set("object", &left).expect("object");
    let target = gpu.target(32, 32).expect("target");
    for frame in 0..6 {
        let change = frame % 2 == 1;
        gpu.frame(|f| {
            f.pass(&target, |p| {
                p.draw(&d)?;
                if change {
                    d.set("object", &right)?;
                    p.draw(&d)?;
                }
                Ok(())
            })
        })
        .expect("frame");
        let what = format!("frame {frame}");
        assert_pixel(&target, LEFT, WHITE, &format!("{what}: first draw"));
        let right_pixel = if change { WHITE } else { CLEAR };
        assert_pixel(&target, RIGHT, right_pixel, &format!("{what}: second draw"));
        assert_pixel(&target, (16, 2), CLEAR, &format!("{what}: background"));
        d.set("object", &left).expect("object");
    }
}
