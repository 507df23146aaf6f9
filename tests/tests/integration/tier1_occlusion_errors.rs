//! Occlusion queries' errors (tier 1, noop): each `VGPU-QUERY-…` code through the public API,
//! caught before wgpu sees the call. A refused call changes nothing: the pass records on, and
//! the frame then submits without a wgpu error (the noop backend validates everything).

use vgpu::{Gpu, OcclusionQueries, PassDesc, Target};

#[track_caller]
fn assert_code<T: std::fmt::Debug>(result: vgpu::Result<T>, code: &str, label: &str) {
    let e = result.expect_err("the call must be refused");
    assert_eq!(e.code(), code, "{e}");
    let msg = e.to_string();
    assert!(msg.starts_with(code) && msg.contains(label), "{msg}");
    assert!(
        e.as_query().is_some() || code == "VGPU-FOREIGN-GPU",
        "{e:?}"
    );
}

fn setup(count: u32) -> (Gpu, Target, OcclusionQueries) {
    let gpu = Gpu::noop();
    let target = gpu.target(4, 4).unwrap();
    let queries = gpu.occlusion_queries("boxes", count).unwrap();
    (gpu, target, queries)
}

/// No wgpu error was raised: the refused calls left nothing invalid behind.
#[track_caller]
fn assert_clean(gpu: &Gpu) {
    let errors = gpu.take_uncaptured_errors();
    assert!(errors.is_empty(), "uncaptured wgpu errors: {errors:?}");
}

#[test]
fn a_set_of_zero_or_too_many_queries_is_refused() {
    let gpu = Gpu::noop();
    assert_code(gpu.occlusion_queries("none", 0), "VGPU-QUERY-COUNT", "none");
    assert_code(
        gpu.occlusion_queries("huge", OcclusionQueries::MAX_COUNT + 1),
        "VGPU-QUERY-COUNT",
        "huge",
    );
    let max = gpu
        .occlusion_queries("max", OcclusionQueries::MAX_COUNT)
        .unwrap();
    assert_eq!((max.count(), max.label()), (4096, "max"));
}

#[test]
fn queries_in_a_pass_given_no_set_are_refused() {
    let (gpu, target, _) = setup(2);
    gpu.frame(|f| {
        f.pass(&target, |p| {
            assert_code(p.begin_occlusion_query(0), "VGPU-QUERY-NO-SET", "");
            assert_code(p.end_occlusion_query(), "VGPU-QUERY-NO-SET", "");
            Ok(())
        })
    })
    .unwrap();
    assert_clean(&gpu);
}

#[test]
fn an_index_out_of_range_is_refused_naming_the_set() {
    let (gpu, target, queries) = setup(3);
    gpu.frame(|f| {
        f.pass(PassDesc::new(&target).occlusion(&queries), |p| {
            let e = p.begin_occlusion_query(3).unwrap_err();
            assert_eq!(e.code(), "VGPU-QUERY-INDEX", "{e}");
            assert!(e.to_string().contains("\"boxes\"") && e.to_string().contains("0..3"));
            // Nothing began: the last index still works.
            p.occlusion_query(2, |_| Ok(()))
        })
    })
    .unwrap();
    assert_clean(&gpu);
}

#[test]
fn a_query_begun_while_one_is_open_is_refused() {
    let (gpu, target, queries) = setup(2);
    gpu.frame(|f| {
        f.pass(PassDesc::new(&target).occlusion(&queries), |p| {
            p.begin_occlusion_query(0)?;
            assert_code(p.begin_occlusion_query(1), "VGPU-QUERY-OPEN", "boxes");
            p.end_occlusion_query()?;
            // The refused index was not marked used.
            p.occlusion_query(1, |_| Ok(()))
        })
    })
    .unwrap();
    assert_clean(&gpu);
}

#[test]
fn ending_with_no_query_open_is_refused() {
    let (gpu, target, queries) = setup(2);
    gpu.frame(|f| {
        f.pass(PassDesc::new(&target).occlusion(&queries), |p| {
            assert_code(p.end_occlusion_query(), "VGPU-QUERY-NOT-OPEN", "boxes");
            p.occlusion_query(0, |_| Ok(()))?;
            assert_code(p.end_occlusion_query(), "VGPU-QUERY-NOT-OPEN", "boxes");
            Ok(())
        })
    })
    .unwrap();
    assert_clean(&gpu);
}

#[test]
fn an_index_used_twice_in_one_pass_is_refused() {
    let (gpu, target, queries) = setup(2);
    gpu.frame(|f| {
        f.pass(PassDesc::new(&target).occlusion(&queries), |p| {
            p.occlusion_query(0, |_| Ok(()))?;
            assert_code(p.begin_occlusion_query(0), "VGPU-QUERY-TWICE", "boxes");
            p.occlusion_query(1, |_| Ok(()))
        })
    })
    .unwrap();
    // The next frame may use index 0 again.
    gpu.frame(|f| {
        f.pass(PassDesc::new(&target).occlusion(&queries), |p| {
            p.occlusion_query(0, |_| Ok(()))
        })
    })
    .unwrap();
    assert_clean(&gpu);
}

#[test]
fn a_pass_ending_with_a_query_open_fails_and_the_query_is_ended() {
    let (gpu, target, queries) = setup(2);
    gpu.frame(|f| {
        let result = f.pass(PassDesc::new(&target).occlusion(&queries), |p| {
            p.begin_occlusion_query(1)
        });
        assert_code(result, "VGPU-QUERY-UNCLOSED", "boxes");
        // vgpu ended the query: the frame still submits cleanly.
        Ok(())
    })
    .unwrap();
    assert_clean(&gpu);
}

#[test]
fn a_failing_closure_inside_a_query_still_ends_it() {
    let (gpu, target, queries) = setup(2);
    gpu.frame(|f| {
        f.pass(PassDesc::new(&target).occlusion(&queries), |p| {
            let inner =
                p.occlusion_query(0, |p| p.end_occlusion_query().and(p.end_occlusion_query()));
            assert_code(inner, "VGPU-QUERY-NOT-OPEN", "boxes");
            let failed = p.occlusion_query(1, |p| p.begin_occlusion_query(7));
            assert_code(failed, "VGPU-QUERY-INDEX", "boxes");
            // Query 1 was ended: no query is open now.
            assert_code(p.end_occlusion_query(), "VGPU-QUERY-NOT-OPEN", "boxes");
            Ok(())
        })
    })
    .unwrap();
    assert_clean(&gpu);
}

#[test]
fn a_set_used_by_two_passes_of_one_frame_is_refused() {
    let (gpu, target, queries) = setup(2);
    let other = gpu.occlusion_queries("other", 1).unwrap();
    gpu.frame(|f| {
        f.pass(PassDesc::new(&target).occlusion(&queries), |p| {
            p.occlusion_query(0, |_| Ok(()))
        })?;
        let mut called = false;
        let second = f.pass(PassDesc::new(&target).occlusion(&queries), |_| {
            called = true;
            Ok(())
        });
        assert_code(second, "VGPU-QUERY-REUSED", "boxes");
        assert!(!called, "a refused pass records nothing");
        // Another set in another pass of the frame is fine.
        f.pass(PassDesc::new(&target).load().occlusion(&other), |p| {
            p.occlusion_query(0, |_| Ok(()))
        })
    })
    .unwrap();
    // The next frame may use it again.
    gpu.frame(|f| f.pass(PassDesc::new(&target).occlusion(&queries), |_| Ok(())))
        .unwrap();
    assert_clean(&gpu);
}

#[test]
fn queries_in_a_frame_of_the_apps_encoder_are_refused() {
    let (gpu, target, queries) = setup(1);
    let mut encoder = gpu.device().create_command_encoder(&Default::default());
    let result = gpu.frame_in(&mut encoder, |f| {
        f.pass(PassDesc::new(&target).occlusion(&queries), |_| Ok(()))
    });
    assert_code(result, "VGPU-QUERY-APP-ENCODER", "boxes");
    gpu.queue().submit([encoder.finish()]);
    assert_clean(&gpu);
}

#[test]
fn reading_before_any_frame_was_submitted_is_refused() {
    let (gpu, target, queries) = setup(1);
    assert_code(
        pollster::block_on(queries.read_async()),
        "VGPU-QUERY-NOT-SUBMITTED",
        "boxes",
    );
    assert_eq!(queries.latest(), None);
    // A cancelled frame submits nothing either.
    let _ = gpu.frame(|f| {
        f.pass(PassDesc::new(&target).occlusion(&queries), |p| {
            p.occlusion_query(0, |_| Ok(()))
        })?;
        Err(vgpu::QueryError::NotSubmitted {
            label: "cancel".into(),
        }
        .into())
    });
    assert_code(
        pollster::block_on(queries.read_async()),
        "VGPU-QUERY-NOT-SUBMITTED",
        "boxes",
    );
}

#[test]
fn a_set_of_another_gpu_is_refused() {
    let (gpu, target, _) = setup(1);
    let theirs = Gpu::noop().occlusion_queries("theirs", 1).unwrap();
    let result = gpu.frame(|f| f.pass(PassDesc::new(&target).occlusion(&theirs), |_| Ok(())));
    assert_code(result, "VGPU-FOREIGN-GPU", "theirs");
    assert_clean(&gpu);
}

#[test]
fn results_of_noop_frames_read_back_as_zeros() {
    let (gpu, target, queries) = setup(3);
    let report = gpu
        .frame(|f| {
            f.pass(PassDesc::new(&target).occlusion(&queries), |p| {
                p.occlusion_query(1, |_| Ok(()))
            })
        })
        .unwrap();
    let results = pollster::block_on(queries.read_async()).unwrap();
    assert_eq!(results.frame_index, report.index);
    assert_eq!(results.samples, vec![0, 0, 0]);
    assert_eq!(queries.latest(), Some(results));
    assert_clean(&gpu);
}

#[test]
fn cancelled_frames_give_their_read_back_buffers_back() {
    let (gpu, target, queries) = setup(1);
    // More cancelled frames than read-back buffers: each gives its buffer back.
    for _ in 0..5 {
        let mut frame = gpu.begin_frame().unwrap();
        frame
            .pass(PassDesc::new(&target).occlusion(&queries), |p| {
                p.occlusion_query(0, |_| Ok(()))
            })
            .unwrap();
        frame.cancel();
    }
    let report = gpu
        .frame(|f| {
            f.pass(PassDesc::new(&target).occlusion(&queries), |p| {
                p.occlusion_query(0, |_| Ok(()))
            })
        })
        .unwrap();
    let results = pollster::block_on(queries.read_async()).unwrap();
    assert_eq!(results.frame_index, report.index);
    assert_clean(&gpu);
}
